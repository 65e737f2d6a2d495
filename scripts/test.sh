#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing on Debian 12,
# builds, and runs every test. CUDA tests skip (exit 77) without a GPU.
#
# Then the CPU suite again in a clang build with AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks reported; tests/lsan.supp lists the
# third-party libraries' one-time allocations, never ours), which also runs
# the fuzz targets for a few seconds each (docs/reliability.md). The CUDA
# emulator tests are left to the first build: ASan cannot follow their stack
# switching. CF_SKIP_SANITIZERS=1 skips this second pass.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
cf_install_deps
cf_build build-test
meson test -C build-test --print-errorlogs --num-processes "$(nproc)"

[ "${CF_SKIP_SANITIZERS:-0}" = 1 ] && exit 0
# Without --as-needed every test program loads libcudafilters (and the
# OpenMP runtime it links) at start, also one that calls nothing of it
# directly: loaded later with the plugin, their thread-local storage would be
# dynamic, and clang 14's LeakSanitizer crashes scanning that (glibc 2.36).
CC=clang CXX=clang++ cf_build build-asan -Dcuda=disabled -Db_sanitize=address,undefined -Db_lundef=false \
  -Db_asneeded=false -Dbuildtype=debugoptimized
# The plugin scanner is not instrumented and cannot load an instrumented
# plugin: the tests scan in their own process (GST_REGISTRY_FORK=no).
# Suppressions match frames inside GLib, which has no frame pointers: stacks
# of allocations are unwound the slow way, 10 frames deep (enough for them).
ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=10:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
GST_REGISTRY_FORK=no \
  meson test -C build-asan --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier 3
