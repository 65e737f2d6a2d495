#!/usr/bin/env bash
# The demo command (README): installs what is missing on Debian 12, builds,
# sends a real photo through the elements, writes viewable PNGs to demo-out/,
# checks that the round trip is exact, codes a clip with the JPEG 2000 codec
# (cf-j2k), and prints frames per second per backend.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
cf_install_deps
# Only what the demo runs, the plugin, cf-j2k and cf-bench: no tests to compile.
[ -f build-demo/build.ninja ] || meson setup build-demo -Dtests=false
meson compile -C build-demo gstcudafilters cf-j2k cf-bench
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
done
# Forward chains and cudainverse: each reconstruction must equal the input
# byte for byte.
for chain in "cudahaar levels=3" "cudacdf53 levels=3" "cudaycocg ! cudacdf53 levels=3" "cudarct ! cudamed" \
             "cudagap slice-height=64"; do
  gst-launch-1.0 -q $decode ! video/x-raw,format=RGB ! $chain ! cudainverse \
    ! filesink location=$out/roundtrip.rgb
  if cmp -s $out/original.rgb $out/roundtrip.rgb; then
    echo "$chain ! cudainverse: exact ($(stat -c %s $out/original.rgb) bytes)"
  else
    echo "$chain ! cudainverse: DIFFERS" >&2
    exit 1
  fi
done
rm -f $out/*.rgb
# Halftoning and Hough lines on real photos.
gst-launch-1.0 -q $decode ! video/x-raw,format=GRAY8 ! cudahalftone method=jarvis-judice-ninke \
  ! videoconvert ! pngenc ! filesink location=$out/halftone-jjn.png
building="filesrc location=${photo%/*}/building.jpg ! jpegdec ! videoconvert"
gst-launch-1.0 -q $building ! video/x-raw,format=RGB ! cudahough ! videoconvert ! pngenc \
  ! filesink location=$out/hough-lines.png
# Zeroth-order entropy (bits per pixel) of the photo and of its YCoCg + 5/3 coefficients.
for chain in "" "cudaycocg ! cudacdf53 levels=3 !"; do
  gst-launch-1.0 -m $decode ! video/x-raw,format=RGB ! $chain cudaentropy ! fakesink \
    | grep -o 'bits-per-pixel=(double)[0-9.]*' | sed "s/^/${chain:-raw RGB:} /"
done
echo "PNG outputs in $out/: $(cd $out && ls *.png | tr '\n' ' ')"

# The JPEG 2000 codec on a clip: 10 frames of opencv-doc's vtest.avi, as
# PPM, coded lossless and at 1 bit per pixel by cf-j2k, beside PNG; the
# lossless frames decode back to the same bytes.
clip=$out/clip
rm -rf $clip && mkdir -p $clip/ppm $clip/png
frames="filesrc location=${photo%/*}/vtest.avi ! decodebin ! videoconvert ! video/x-raw,format=RGB ! identity eos-after=10"
gst-launch-1.0 -q $frames ! pnmenc ! multifilesink location=$clip/ppm/f%03d.ppm
gst-launch-1.0 -q $frames ! pngenc ! multifilesink location=$clip/png/f%03d.png
j2k=build-demo/tools/cf-j2k
echo "cf-j2k lossless: $($j2k encode -i $clip/ppm -o $clip/lossless)"
echo "cf-j2k at 1 bpp: $($j2k encode -i $clip/ppm -o $clip/1bpp --bitrate 1)"
echo "cf-j2k decode:   $($j2k decode -i $clip/lossless -o $clip/back)"
for f in $clip/ppm/*.ppm; do
  cmp -s "$f" "$clip/back/$(basename "$f")" || { echo "cf-j2k: $f DIFFERS after a lossless round trip" >&2; exit 1; }
done
bytes() { du -cb "$@" | tail -1 | cut -f1; }
echo "clip of $(ls $clip/ppm | wc -l) frames: raw $(bytes $clip/ppm) bytes, PNG $(bytes $clip/png)," \
  "JPEG 2000 lossless $(bytes $clip/lossless) (decoded back exactly), at 1 bpp $(bytes $clip/1bpp)"

echo "Frames per second (1920x1080 RGBA, levels=3; without a usable GPU one line says why the CUDA rows are left out):"
build-demo/pipelines/cf-bench --image "$photo" --formats RGBA --sizes 1920x1080 --levels 3 \
  --seconds 0.5
