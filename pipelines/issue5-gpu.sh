#!/usr/bin/env bash
# Issue 5 (predictors) evidence on the GPU machine, from the repository root,
# with the build folder, .gstbundle/ and .testimages/ carried:
#   BUILD=build pipelines/issue5-gpu.sh          (logs in $OUT)
# 4K timing of cpu / openmp / cuda (forward, inverse, slice heights 0 and 64,
# each CUDA result checked against the serial one), the CUDA parity test,
# compute-sanitizer on it (quick sizes), and cf-bench rows of the elements
# and their inverse when the plugin was built (BENCH_SECONDS, default 0.5).
set -uo pipefail
out=${OUT:-gpu-out}
build=${BUILD:-build}
mkdir -p "$out"
source .gstbundle/env.sh  # libjpeg.so.62 and GStreamer: the GPU machine has neither
export CF_TEST_IMAGES=$PWD/.testimages
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  grep -m1 'model name' /proc/cpuinfo | cut -d: -f2
  nproc
} >"$out/machine.txt" 2>&1
timeout 120 "$build/tests/cuda/predictor_timing" .testimages/fruits.jpg 2>&1 | tee "$out/issue5-timing.log"
timeout 200 "$build/tests/cuda/test_predictor_cuda_parity" 2>&1 | tee "$out/issue5-parity.log"
for tool in memcheck synccheck racecheck; do
  CFT_QUICK=1 timeout ${CF_SANITIZER_SECONDS:-100} compute-sanitizer --tool $tool --error-exitcode 9 \
    "$build/tests/cuda/test_predictor_cuda_parity" >"$out/issue5-san-$tool.log" 2>&1
  echo "$tool: exit $? ($(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/issue5-san-$tool.log" | tail -1))"
done 2>&1 | tee "$out/issue5-sanitizer-summary.txt"
if [ -x "$build/pipelines/cf-bench" ]; then
  GST_PLUGIN_PATH=$PWD/$build/gst "$build/pipelines/cf-bench" --image .testimages/fruits.jpg \
    --elements cudamed,cudagap,cudaged,cudainverse:cudamed,cudainverse:cudagap,cudainverse:cudaged \
    --formats GRAY8,RGBA,I420 --seconds "${BENCH_SECONDS:-0.5}" --markdown "$out/issue5-bench.md"
fi
