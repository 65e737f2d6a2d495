#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with the build folder and
# the GStreamer bundle carried over (see README, "Measuring on a GPU machine"):
#   carry: .gstbundle build .testimages     command: pipelines/gpu-evidence.sh
# Writes the test log, compute-sanitizer output and benchmark tables to $OUT.
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
source .gstbundle/env.sh
export GST_PLUGIN_PATH=$PWD/build/gst CF_TEST_IMAGES=$PWD/.testimages
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  grep -m1 'model name' /proc/cpuinfo; nproc
} 2>&1 | tee "$out/machine.txt"

meson test -C build --no-rebuild --print-errorlogs ${CF_TEST_ARGS:-} 2>&1 | tee "$out/gpu-tests.log"
cp build/meson-logs/testlog.txt "$out/gpu-testlog-full.txt" 2>/dev/null

if [ -n "${CF_SANITIZE:-}" ] && command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/cuda/test_wavelet_cuda_parity \
      >"$out/sanitizer-$tool.log" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$out/sanitizer-summary.txt"
  done
fi

if [ -n "${CF_BENCH:-}" ]; then
  build/pipelines/cf-bench --image .testimages/fruits.jpg ${CF_BENCH_ARGS:-} \
    --markdown "$out/bench.md" 2>&1 | tee "$out/bench.log"
fi
