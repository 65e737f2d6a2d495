#!/usr/bin/env bash
# On the GPU machine (README, "Measuring on a GPU machine"), from the
# repository root, with .gstbundle/, .testimages/ and the binaries of a build
# carried (the GPU machine has no GStreamer, no libjpeg, and a meson that
# cannot read a build folder configured elsewhere, so the test programs run
# directly, with the environment tests/gst/meson.build gives them):
#   BUILD=gpurun pipelines/gpu-tests.sh tests        CUDA and GStreamer tests
#   BUILD=gpurun pipelines/gpu-tests.sh sanitizers   compute-sanitizer over the CUDA ones
#     (CF_SANITIZER_TOOLS="memcheck", CF_SANITIZER_PROGRAMS="...", CF_SANITIZER_SECONDS=40)
# The unit tests run on the CPU only and are left to CI. Logs go to $OUT.
set -uo pipefail
mode=${1:-tests}
out=${OUT:-gpu-out}
build=${BUILD:-build}
mkdir -p "$out"
source .gstbundle/env.sh
export GST_PLUGIN_PATH=$PWD/$build/gst CF_TEST_IMAGES=$PWD/.testimages G_DEBUG=fatal-criticals
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  grep -m1 'model name' /proc/cpuinfo | cut -d: -f2
  nproc
} >"$out/machine.txt" 2>&1

cuda_tests=$(ls "$build"/tests/cuda/test_*_cuda_parity)
gst_tests=$(ls "$build"/tests/gst/test_*)

if [ "$mode" = tests ]; then
  for t in $cuda_tests $gst_tests; do
    name=$(basename "$t")
    start=$(date +%s.%N)
    GST_REGISTRY_1_0=/tmp/registry-$name.bin timeout "${CF_TEST_SECONDS:-300}" "$t" >"$out/$name.log" 2>&1
    rc=$?
    case $rc in 0) verdict=OK ;; 77) verdict=SKIP ;; *) verdict=FAIL ;; esac
    printf '%-32s %-5s exit %3d  %6.1f s  %s\n' "$name" "$verdict" "$rc" "$(awk "BEGIN{print $(date +%s.%N) - $start}")" \
      "$(tail -1 "$out/$name.log" | cut -c1-100)"
  done 2>&1 | tee "$out/gpu-tests-summary.txt"
  # One log with every program's output, for the results folder.
  for t in $cuda_tests $gst_tests; do echo "=== $(basename "$t")"; cat "$out/$(basename "$t").log"; done \
    >"$out/gpu-tests.log"
  rm -f "$out"/test_*.log
else
  # Quick sizes (CFT_QUICK) and a time limit per program and tool.
  # CF_SANITIZER_TOOLS / CF_SANITIZER_PROGRAMS split the work into commands
  # that fit a time limit (e.g. one tool per command).
  for tool in ${CF_SANITIZER_TOOLS:-memcheck synccheck racecheck}; do
    for t in ${CF_SANITIZER_PROGRAMS:-$cuda_tests $build/tests/gst/test_cuda_memory $build/tests/gst/test_faults}; do
      name=$(basename "$t")
      CFT_QUICK=1 GST_REGISTRY_1_0=/tmp/registry-san.bin timeout "${CF_SANITIZER_SECONDS:-40}" \
        compute-sanitizer --tool $tool --error-exitcode 9 "$t" >"$out/san-$tool-$name.log" 2>&1
      rc=$?
      summary=$(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/san-$tool-$name.log" | tail -1)
      [ $rc = 124 ] && summary="stopped by the time limit after $(grep -c . "$out/san-$tool-$name.log") lines; ${summary:-no summary}"
      echo "$tool $name: exit $rc (${summary:-no summary})"
    done
  done 2>&1 | tee "$out/sanitizer-summary.txt"
  tar czf "$out/sanitizer-logs.tgz" -C "$out" $(cd "$out" && ls san-*.log) && rm -f "$out"/san-*.log
fi
