#!/bin/sh
# One short libFuzzer run for `meson test`: run_fuzz.sh TARGET SEEDS WORKDIR SECONDS [DICT]
# The seed corpus in the source tree is only read; what the run finds goes to
# WORKDIR (in the build folder). TARGET "none": this build has no libFuzzer
# (it needs clang with -fsanitize=fuzzer), so the test is skipped.
set -eu
target=$1 seeds=$2 work=$3 seconds=$4
if [ "$target" = none ]; then
  echo "no libFuzzer in this build (configure with CXX=clang++ to fuzz): skipped"
  exit 77
fi
mkdir -p "$work"
dict=""
[ $# -ge 5 ] && dict="-dict=$5"
# -timeout: one input taking longer is a finding; -rss_limit_mb: so is a
# process growing past it (leaks within a run).
exec "$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
  $dict "$work" "$seeds"
