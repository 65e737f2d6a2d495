# Sourced by test.sh and demo.sh: installs the Debian 12 packages that are
# missing (needs root, or sudo). Packages already present are left alone.
# clang (with its sanitizer and libFuzzer runtimes, libomp, llvm-symbolizer)
# builds test.sh's sanitizer and fuzzing build. gstreamer1.0-libav brings
# the CPU video decoders (avdec_h264, ...) of pipelines/examples.md;
# python3-gi and the GStreamer typelib run the tests written in Python;
# libopenjp2-tools (OpenJPEG's opj_decompress, opj_dump) decodes the JPEG 2000
# codestreams of the tests, and openjph-tools (OpenJPH's ojph_expand,
# ojph_compress) the HTJ2K ones; xz-utils unpacks the conformance suite's
# reference decodings; python3-numpy and python3-pil run the WSNR test and
# the seeds tool's smoke test (pipelines/seeds/make_seeds.py --quick).
CF_PACKAGES="meson ninja-build g++ pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-libav
  libjpeg-dev opencv-doc python3-gi gir1.2-gstreamer-1.0 python3-numpy python3-pil
  clang libclang-rt-14-dev libomp-dev llvm
  libopenjp2-tools openjph-tools xz-utils"

cf_install_deps() {
  local missing=""
  for p in $CF_PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "Installing:$missing"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
}

# Configures (once) and builds `$1`. CUDA is built when nvcc is found.
cf_build() {
  local dir=$1; shift
  [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@"
  ninja -C "$dir"
}
