#!/usr/bin/env bash
# On the GPU machine (README, "Measuring on a GPU machine"): the full test
# suite, then compute-sanitizer over the CUDA tests. Logs go to $OUT.
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
source .gstbundle/env.sh
export GST_PLUGIN_PATH=$PWD/build/gst CF_TEST_IMAGES=$PWD/.testimages
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  grep -m1 'model name' /proc/cpuinfo | cut -d: -f2
  nproc
} >"$out/machine.txt" 2>&1
meson test -C build --no-rebuild --print-errorlogs 2>&1 | tee "$out/gpu-tests.log"
grep -v '^Inherited environment' build/meson-logs/testlog.txt >"$out/gpu-testlog-full.txt"
for tool in memcheck synccheck racecheck; do
  for t in tests/cuda/test_wavelet_cuda_parity tests/gst/test_cuda_memory; do
    CFT_QUICK=1 GST_REGISTRY_1_0=/tmp/reg-san.bin timeout ${CF_SANITIZER_SECONDS:-100} compute-sanitizer --tool $tool \
      --error-exitcode 9 build/$t >"$out/san-$tool-$(basename $t).log" 2>&1
    echo "$tool $(basename $t): exit $? ($(grep -h 'ERROR SUMMARY' "$out/san-$tool-$(basename $t).log" | tail -1))"
  done
done 2>&1 | tee "$out/sanitizer-summary.txt"
