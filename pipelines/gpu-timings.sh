#!/usr/bin/env bash
# On the GPU machine, from the repository root, with .gstbundle/, .testimages/
# and a build's binaries carried: the per-element timing tools that compare
# backends and outside peers (CONTRIBUTING.md, "Benchmarks"):
#   predictor_timing   MED/GAP/GED forward and inverse, slice heights 0 and 64
#   halftone_timing    the six methods on cpu, openmp, cuda; Gpixel/s
#   pillow_timing.py   Pillow's Image.convert('1') on the same photo
#   hough-gpu-compare.sh   hough-bench, NVIDIA NPP and OpenCV's HoughLines
#   BUILD=gpurun pipelines/gpu-timings.sh
# Everything lands in $OUT/timings.tgz plus one summary file per tool.
set -uo pipefail
out=${OUT:-gpu-out}
build=${BUILD:-build}
mkdir -p "$out/t"
source .gstbundle/env.sh  # libjpeg.so.62, which the GPU machine lacks
export CF_TEST_IMAGES=$PWD/.testimages
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  grep -m1 'model name' /proc/cpuinfo | cut -d: -f2
  nproc
} >"$out/machine.txt" 2>&1
timeout 150 "$build/pipelines/predictor_timing" .testimages/fruits.jpg >"$out/predictor-timing.log" 2>&1
timeout 200 "$build/pipelines/halftone_timing" --seconds 0.3 >"$out/halftone-timing.log" 2>&1
python3 pipelines/pillow_timing.py .testimages/fruits.jpg 0.5 >>"$out/halftone-timing.log" 2>&1
B=$build IMAGES=.testimages OUT=$out/t timeout 240 bash pipelines/hough-gpu-compare.sh >/dev/null 2>&1
cp "$out/t/summary.md" "$out/hough-summary.md" 2>/dev/null
rm -f "$out"/t/frames/*.pgm "$out/t/hough_npp"
tar czf "$out/timings.tgz" -C "$out" t && rm -rf "$out/t"
