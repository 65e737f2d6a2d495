#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing on Debian 12,
# builds, and runs every test. CUDA tests skip (exit 77) without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
cf_install_deps
cf_build build-test
meson test -C build-test --print-errorlogs --num-processes "$(nproc)"
