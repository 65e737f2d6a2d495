#!/bin/bash
# cf-j2k batches beside OpenJPEG's and OpenJPH's programs on one folder of
# frames: lossless Part 1 (opj_compress / opj_decompress) and HT
# (ojph_compress / ojph_expand), wall time of each whole batch, reading and
# writing the files included; cf-j2k one process for the folder, the others
# one process per file (OpenJPEG with -threads as many as the cores). Every
# decoded frame is compared with its source. Prints a markdown table.
#
#   pipelines/cf-j2k-batch.sh CF_J2K PHOTOS_DIR WORK_DIR [FRAMES] [WxH]   (PYTHON: one with Pillow)
#
# Frames: RGB PPM of the size (1920x1080 unless given), opencv-doc's camera
# photos (those of the nvJPEG2000 comparison) at their own resolution tiled
# row after row, each frame starting at the next photo.
set -eu
CF=$1
PHOTOS=$2
WORK=$3
N=${4:-12}
SIZE=${5:-1920x1080}
THREADS=$(nproc)
rm -rf "$WORK"
mkdir -p "$WORK/frames"
"${PYTHON:-python3}" - "$PHOTOS" "$WORK/frames" "$N" "$SIZE" <<'PY'
import os, sys
from PIL import Image
src, out, n, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
w, h = map(int, size.split("x"))
names = ["baboon", "building", "aero1", "aloeL", "leuvenA", "starry_night", "pca_test1", "aero3", "board",
         "stuff", "ela_original", "squirrel_cls", "left", "leuvenB"]
photos = [Image.open(os.path.join(src, p + ".jpg")).convert("RGB") for p in names]
for f in range(n):
    frame, x, y, row, k = Image.new("RGB", (w, h)), 0, 0, 0, f
    while y < h:
        p = photos[k % len(photos)]
        k += 1
        frame.paste(p, (x, y))
        row = max(row, p.height)
        x += p.width
        if x >= w:
            x, y, row = 0, y + row, 0
    frame.save(os.path.join(out, "f%03d.ppm" % f))
PY
seconds() {
  local t0
  t0=$(date +%s.%N)
  "$@" > /dev/null
  awk "BEGIN { printf \"%.2f\", $(date +%s.%N) - $t0 }"
}
loop() {  # loop IN_DIR IN_EXT OUT_DIR OUT_EXT PROGRAM ARGS (-i and -o added)
  local in=$1 ie=$2 out=$3 oe=$4 prog=$5
  shift 5
  mkdir -p "$out"
  for f in "$in"/*."$ie"; do
    "$prog" -i "$f" -o "$out/$(basename "$f" ."$ie").$oe" "$@" > /dev/null 2>&1  # OpenJPEG writes blank lines to stderr
  done
}
bytes() { cat "$1"/*."$2" | wc -c; }
same() {  # every decoded frame's samples equal its source's (headers differ: OpenJPEG adds a comment)
  local bad=0 n=$((${SIZE%x*} * ${SIZE#*x} * 3))
  for f in "$WORK"/frames/*.ppm; do
    cmp -s <(tail -c "$n" "$f") <(tail -c "$n" "$1/$(basename "$f")") || bad=$((bad + 1))
  done
  [ $bad -eq 0 ] && echo "exact" || echo "$bad differ"
}
F=$WORK/frames
e1=$(seconds "$CF" encode -i "$F" -o "$WORK/cf-p1" --ext j2k)
d1=$(seconds "$CF" decode -i "$WORK/cf-p1" -o "$WORK/cf-p1-back" --ext ppm)
e2=$(seconds loop "$F" ppm "$WORK/opj" j2k opj_compress -threads "$THREADS")
d2=$(seconds loop "$WORK/opj" j2k "$WORK/opj-back" ppm opj_decompress -threads "$THREADS")
e3=$(seconds "$CF" encode -i "$F" -o "$WORK/cf-ht" --ext j2c --coder ht)
d3=$(seconds "$CF" decode -i "$WORK/cf-ht" -o "$WORK/cf-ht-back" --ext ppm)
e4=$(seconds loop "$F" ppm "$WORK/ojph" j2c ojph_compress -reversible true)
d4=$(seconds loop "$WORK/ojph" j2c "$WORK/ojph-back" ppm ojph_expand)
echo "$N frames of $SIZE RGB, $THREADS cores"
echo
echo "| step | cf-j2k s | the other | the other s | bytes, cf-j2k / the other | decoded |"
echo "|---|---:|---|---:|---|---|"
echo "| Part 1 encode | $e1 | opj_compress | $e2 | $(bytes "$WORK/cf-p1" j2k) / $(bytes "$WORK/opj" j2k) | |"
echo "| Part 1 decode | $d1 | opj_decompress | $d2 | | $(same "$WORK/cf-p1-back") / $(same "$WORK/opj-back") |"
echo "| HT encode | $e3 | ojph_compress | $e4 | $(bytes "$WORK/cf-ht" j2c) / $(bytes "$WORK/ojph" j2c) | |"
echo "| HT decode | $d3 | ojph_expand | $d4 | | $(same "$WORK/cf-ht-back") / $(same "$WORK/ojph-back") |"
