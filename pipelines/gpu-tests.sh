#!/usr/bin/env bash
# On the GPU machine (CONTRIBUTING.md, "Tests on a GPU"), from the
# repository root, with .gstbundle/, .testimages/ and the binaries of a build
# carried (the GPU machine has no GStreamer, no libjpeg, and a meson that
# cannot read a build folder configured elsewhere, so the test programs run
# directly, with the environment tests/gst/meson.build gives them):
#   BUILD=gpurun pipelines/gpu-tests.sh tests        CUDA and GStreamer tests
#                                                    (CF_TEST_JOBS=4: four programs at a time;
#                                                     CF_TEST_RUNS=3: all of them three times in a row)
#   BUILD=gpurun pipelines/gpu-tests.sh sanitizers   compute-sanitizer over the CUDA ones
#     (CF_SANITIZER_TOOLS="memcheck", CF_SANITIZER_PROGRAMS="...", CF_SANITIZER_SECONDS=40,
#      CF_TEST_JOBS runs at a time, CF_SANITIZER_QUICK=tiny: smallest frames, for racecheck)
# The unit tests run on the CPU only and are left to CI. Logs go to $OUT:
# every program's output in gpu-tests.log, a failing program's also in
# FAIL-<program>.log with its first failed checks in the summary; with
# CF_TEST_RUNS, run k in $OUT/run<k>/ and the summaries one after another
# in $OUT/gpu-tests-summary.txt.
set -uo pipefail
mode=${1:-tests}
out=${OUT:-gpu-out}
build=${BUILD:-build}
mkdir -p "$out"
# One GStreamer registry per program, in a scratch folder removed at exit.
registries=$(mktemp -d)
trap 'rm -rf "$registries"' EXIT
source .gstbundle/env.sh
export GST_PLUGIN_PATH=$PWD/$build/gst CF_TEST_IMAGES=$PWD/.testimages G_DEBUG=fatal-criticals

cuda_tests=$(ls "$build"/tests/cuda/test_*_cuda_parity)
gst_tests=$(ls "$build"/tests/gst/test_*)

# The machine, at the top of a run's folder.
machine_info() {
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    grep -m1 'model name' /proc/cpuinfo | cut -d: -f2
    nproc
  } >"$1/machine.txt" 2>&1
}

# Returns once fewer than CF_TEST_JOBS background programs run.
wait_for_slot() {
  while [ "$(jobs -rp | wc -l)" -ge "${CF_TEST_JOBS:-1}" ]; do sleep 0.2; done
}

# One program: its log in $dir, and a summary line in $dir/<name>.line;
# for a failure, its first failed checks (or last lines) after that line.
# A registry of its own for each program and run.
run_one() {
  local dir=$1 t=$2 name start rc verdict
  name=$(basename "$t")
  start=$(date +%s.%N)
  GST_REGISTRY_1_0=$registries/$(basename "$dir")-$name.bin timeout "${CF_TEST_SECONDS:-300}" "$t" \
    >"$dir/$name.log" 2>&1
  rc=$?
  case $rc in 0) verdict=OK ;; 77) verdict=SKIP ;; *) verdict=FAIL ;; esac
  {
    printf '%-32s %-5s exit %3d  %6.1f s  %s\n' "$name" "$verdict" "$rc" \
      "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "$(tail -1 "$dir/$name.log" | cut -c1-100)"
    if [ "$verdict" = FAIL ]; then
      [ "$rc" = 124 ] && echo "    stopped by the time limit (CF_TEST_SECONDS=${CF_TEST_SECONDS:-300})"
      { grep -m3 'CHECK failed' "$dir/$name.log" || tail -3 "$dir/$name.log"; } | cut -c1-400 | sed 's/^/    /'
    fi
  } >"$dir/$name.line"
  [ "$verdict" = FAIL ] && cp "$dir/$name.log" "$dir/FAIL-$name.log"
}

# All programs once into $dir: CF_TEST_JOBS at a time, then those of
# CF_TEST_ALONE one by one (they measure device-wide GPU memory or take
# nearly all of it); the summary, and one log with every program's output.
run_all() {
  local dir=$1 t
  mkdir -p "$dir"
  local alone=" ${CF_TEST_ALONE:-test_faults test_faults_gpu} "
  machine_info "$dir"
  for t in $cuda_tests $gst_tests; do
    case $alone in *" $(basename "$t") "*) continue ;; esac
    run_one "$dir" "$t" &
    wait_for_slot
  done
  wait
  for t in $cuda_tests $gst_tests; do
    case $alone in *" $(basename "$t") "*) run_one "$dir" "$t" ;; esac
  done
  for t in $cuda_tests $gst_tests; do cat "$dir/$(basename "$t").line"; done >"$dir/gpu-tests-summary.txt"
  rm -f "$dir"/*.line
  for t in $cuda_tests $gst_tests; do echo "=== $(basename "$t")"; cat "$dir/$(basename "$t").log"; done \
    >"$dir/gpu-tests.log"
  rm -f "$dir"/test_*.log
}

if [ "$mode" = tests ]; then
  # CF_TEST_JOBS programs at a time (default 1: timings in the logs stay
  # clean); CF_TEST_RUNS times in a row (default 1).
  runs=${CF_TEST_RUNS:-1}
  if [ "$runs" -le 1 ]; then
    run_all "$out"
    cat "$out/gpu-tests-summary.txt"
  else
    for r in $(seq 1 "$runs"); do
      run_all "$out/run$r"
      { echo "run $r of $runs, $(head -1 "$out/run$r/machine.txt")"; cat "$out/run$r/gpu-tests-summary.txt"; }
    done | tee "$out/gpu-tests-summary.txt"
  fi
else
  machine_info "$out"
  # Quick sizes (CFT_QUICK), a time limit per program and tool, CF_TEST_JOBS
  # at a time (the tools run on the CPU mostly; one GPU serves them all).
  # CF_SANITIZER_TOOLS / CF_SANITIZER_PROGRAMS narrow the work.
  san_one() {
    local tool=$1 t=$2 name rc summary
    name=$(basename "$t")
    CFT_QUICK=${CF_SANITIZER_QUICK:-1} GST_REGISTRY_1_0=$registries/san-$tool-$name.bin timeout "${CF_SANITIZER_SECONDS:-40}" \
      compute-sanitizer --tool "$tool" --error-exitcode 9 "$t" >"$out/san-$tool-$name.log" 2>&1
    rc=$?
    summary=$(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/san-$tool-$name.log" | tail -1)
    [ $rc = 124 ] && summary="stopped by the time limit after $(grep -c . "$out/san-$tool-$name.log") lines; ${summary:-no summary}"
    echo "$tool $name: exit $rc (${summary:-no summary})" >"$out/san-$tool-$name.line"
  }
  tools=${CF_SANITIZER_TOOLS:-memcheck synccheck racecheck}
  programs=${CF_SANITIZER_PROGRAMS:-$cuda_tests $build/tests/gst/test_cuda_memory $build/tests/gst/test_faults}
  for tool in $tools; do
    for t in $programs; do
      san_one "$tool" "$t" &
      wait_for_slot
    done
  done
  wait
  for tool in $tools; do
    for t in $programs; do cat "$out/san-$tool-$(basename "$t").line"; done
  done | tee "$out/sanitizer-summary.txt"
  rm -f "$out"/san-*.line
  tar czf "$out/sanitizer-logs.tgz" -C "$out" $(cd "$out" && ls san-*.log) && rm -f "$out"/san-*.log
fi
