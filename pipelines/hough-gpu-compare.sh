#!/usr/bin/env bash
# The Hough comparison on the GPU machine, in one go (run from the repository
# root; B = the build folder, IMAGES = opencv-doc's photos, OUT = results):
#   1. the CUDA Hough parity test (bit-exact against the serial reference);
#   2. grey frames of building.jpg and sudoku.png at 1920x1080 and 3840x2160
#      (pipelines/hough_compare.py prepare, OpenCV);
#   3. hough-bench: ms/frame on cpu, openmp, cuda (host and device frames),
#      Canny and Sobel, voting alone on the Canny map, CUDA voting strategies;
#   4. NVIDIA NPP's nppiFilterHoughLine_8u32f_C1R_Ctx on the same Canny maps
#      (pipelines/hough_npp.cu, built here with nvcc; skipped without NPP);
#   5. our strongest lines against cv2.HoughLines on the same maps, and its time;
#   6. compute-sanitizer memcheck on the parity test (CFT_QUICK).
set -u
B=${B:-build}
IMAGES=${IMAGES:-.testimages}
OUT=${OUT:-hough-gpu-out}
SRC=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/frames"
export CF_TEST_IMAGES=$(cd "$IMAGES" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
# Libraries the test programs need that the GPU machine may lack (libjpeg),
# copied next to the build when carried there (CONTRIBUTING.md, "Tests on a GPU").
[ -d "$B/gpu-libs" ] && export LD_LIBRARY_PATH="$(cd "$B/gpu-libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" 

{
  echo "# cudahough on the GPU machine: parity, timing, NPP and OpenCV peers"
  echo
  echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) cores"
  echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- nvcc: $($NVCC --version | tail -1)"
  echo
} > "$OUT/summary.md"

echo "## 1. CUDA parity test" >> "$OUT/summary.md"
( time timeout 130 "$B/tests/cuda/test_hough_cuda_parity" ) > "$OUT/tests.log" 2>&1
echo "exit $? ; $(grep -E 'comparisons|check\(s\) failed|SKIP' "$OUT/tests.log" | tr '\n' ' ')" >> "$OUT/summary.md"

echo -e "\n## 2-3. hough-bench\n" >> "$OUT/summary.md"
python3 "$SRC/hough_compare.py" prepare "$IMAGES" "$OUT/frames" > /dev/null
# Canny thresholds giving about 5% edge pixels on these scaled photos
# (sudoku 4.5% at 1080p, 3.7% at 4K; building 9.1%, 7.1%).
"$B/pipelines/hough-bench" --out "$OUT/frames" --canny 20,60 "$OUT"/frames/*-1920x1080.pgm >> "$OUT/summary.md" 2>&1
"$B/pipelines/hough-bench" --out "$OUT/frames" --canny 10,30 "$OUT"/frames/*-3840x2160.pgm >> "$OUT/summary.md" 2>&1

echo -e "\n## 4. NPP peer (same Canny maps, 180 angles, rho step 1, our threshold)\n" >> "$OUT/summary.md"
if "$NVCC" -O2 -arch=sm_90 -o "$OUT/hough_npp" "$SRC/hough_npp.cu" -lnppif -lnppc > "$OUT/npp-build.log" 2>&1 ||
   "$NVCC" -O2 -arch=sm_90 -o "$OUT/hough_npp" "$SRC/hough_npp.cu" -lnppist -lnppif -lnppig -lnppial -lnppc >> "$OUT/npp-build.log" 2>&1; then
  for e in "$OUT"/frames/*-edges.pgm; do
    t=$(sed -n 's/.*threshold \([0-9]*\),.*/\1/p' "${e%-edges.pgm}-lines.txt")
    "$OUT/hough_npp" "$e" "$t" >> "$OUT/summary.md" 2>&1
  done
else
  echo "NPP peer not built: $(tail -3 "$OUT/npp-build.log")" >> "$OUT/summary.md"
fi

echo -e "\n## 5. OpenCV cv2.HoughLines on the same maps\n" >> "$OUT/summary.md"
python3 "$SRC/hough_compare.py" compare "$OUT/frames" >> "$OUT/summary.md" 2>&1
python3 -c 'import cv2; print("OpenCV", cv2.__version__, "threads", cv2.getNumThreads())' >> "$OUT/summary.md" 2>&1

echo -e "\n## 6. compute-sanitizer memcheck (CFT_QUICK)\n" >> "$OUT/summary.md"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
CFT_QUICK=1 timeout 45 "$SAN" --tool memcheck "$B/tests/cuda/test_hough_cuda_parity" > "$OUT/sanitizer.log" 2>&1
echo "exit $? ; $(grep -E 'ERROR SUMMARY|comparisons' "$OUT/sanitizer.log" | tr '\n' ' ')" >> "$OUT/summary.md"
cat "$OUT/summary.md"
