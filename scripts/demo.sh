#!/usr/bin/env bash
# The demo command (README): installs what is missing on Debian 12, builds,
# sends a real photo through the elements, writes viewable PNGs to demo-out/,
# checks that the round trip is exact, and prints frames per second per backend.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
cf_install_deps
cf_build build-demo
export GST_PLUGIN_PATH=$PWD/build-demo/gst
photo=/usr/share/doc/opencv-doc/examples/data/fruits.jpg
out=demo-out
mkdir -p "$out"
decode="filesrc location=$photo ! jpegdec ! videoconvert"

gst-launch-1.0 -q $decode ! pngenc ! filesink location=$out/original.png
gst-launch-1.0 -q $decode ! video/x-raw,format=RGB ! filesink location=$out/original.rgb
for element in cudahaar cudacdf53; do
  # The decomposition, each subband scaled so it can be seen.
  gst-launch-1.0 -q $decode ! video/x-raw,format=GRAY8 ! $element levels=3 \
    ! cudaview ! pngenc ! filesink location=$out/$element-levels3.png
  # Forward and inverse: the reconstruction must equal the input byte for byte.
  gst-launch-1.0 -q $decode ! video/x-raw,format=RGB ! $element levels=3 ! cudainverse \
    ! filesink location=$out/$element-roundtrip.rgb
  if cmp -s $out/original.rgb $out/$element-roundtrip.rgb; then
    echo "$element levels=3 round trip: exact ($(stat -c %s $out/original.rgb) bytes)"
  else
    echo "$element levels=3 round trip: DIFFERS" >&2
    exit 1
  fi
done
rm -f $out/*.rgb
echo "PNG outputs in $out/: $(cd $out && ls *.png | tr '\n' ' ')"

echo "Frames per second (1920x1080 RGBA, levels=3; cuda rows say why when no GPU is usable):"
build-demo/pipelines/cf-bench --image "$photo" --formats RGBA --sizes 1920x1080 --levels 3 \
  --seconds 0.5
