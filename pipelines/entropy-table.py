#!/usr/bin/env python3
"""Zeroth-order entropy of transform chains vs real lossless codecs, on photos.

For each image: decode it once to 8-bit RGB (ImageMagick), then
  - run `<chain> ! cudaentropy backend=cpu` for every chain below and read the
    bits per pixel from the element's message (gst-launch-1.0 -m);
  - compress the same RGB pixels with PNG (ImageMagick, zlib level 9 and
    adaptive filters), lossless JPEG 2000 (opj_compress defaults: 5/3 wavelet,
    RCT, 5 levels) and FFV1 (ffmpeg, level 3, range coder with its default
    context model, RGB through its own RCT), and report file bits per pixel.
Prints a markdown table (and writes it to --out).

  pipelines/entropy-table.py --images .testimages --plugin build/gst --out pipelines/results/entropy-vs-codecs.md

Needs: gst-launch-1.0 with the cudafilters plugin (and rawvideoparse), convert, opj_compress
(Debian: libopenjp2-tools), ffmpeg.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

CHAINS = [
    ("raw RGB", ""),
    ("rct", "cudarct"),
    ("ycocg", "cudaycocg"),
    ("haar L3", "cudahaar levels=3"),
    ("cdf53 L3", "cudacdf53 levels=3"),
    ("cdf53 L5", "cudacdf53 levels=5"),
    ("rct + haar L3", "cudarct ! cudahaar levels=3"),
    ("rct + cdf53 L3", "cudarct ! cudacdf53 levels=3"),
    ("rct + cdf53 L5", "cudarct ! cudacdf53 levels=5"),
    ("ycocg + haar L3", "cudaycocg ! cudahaar levels=3"),
    ("ycocg + cdf53 L3", "cudaycocg ! cudacdf53 levels=3"),
    ("ycocg + cdf53 L5", "cudaycocg ! cudacdf53 levels=5"),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def decode(image, tmp):
    """The image as 8-bit RGB (ImageMagick; gray images as R = G = B): bytes
    of w * h * 3, rows tight, and its size."""
    ppm = os.path.join(tmp, "decoded.ppm")
    run(["convert", image, "-strip", "-depth", "8", "-type", "TrueColor", "ppm:" + ppm])
    data = open(ppm, "rb").read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
    w, h = int(m.group(1)), int(m.group(2))
    return data[m.end():m.end() + w * h * 3], w, h


def entropy(rgb, w, h, chain, tmp):
    raw = os.path.join(tmp, "tight.rgb")
    open(raw, "wb").write(rgb)
    # rawvideoparse gives RGB with GStreamer's default (padded) stride from tight rows.
    pipeline = (f"filesrc location={raw} blocksize={len(rgb)} ! rawvideoparse use-sink-caps=false format=rgb "
                f"width={w} height={h} plane-strides=<{w * 3}> framerate=1/1 ! "
                + (chain + " ! " if chain else "") + "cudaentropy backend=cpu ! fakesink")
    out = run(["gst-launch-1.0", "-m"] + pipeline.split()).stdout
    m = re.search(r"cudaentropy, .*?bits-per-pixel=\(double\)([0-9.e+-]+)", out)
    if not m:
        raise RuntimeError("no cudaentropy message for " + pipeline + "\n" + out[-2000:])
    return float(m.group(1))


def codec_bpp(rgb, w, h, tmp):
    ppm = os.path.join(tmp, "image.ppm")
    with open(ppm, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(rgb)
    sizes = {}
    png = os.path.join(tmp, "image.png")
    run(["convert", ppm, "-define", "png:compression-level=9", "-define", "png:compression-filter=5", png])
    sizes["PNG"] = os.path.getsize(png)
    j2k = os.path.join(tmp, "image.j2k")
    run(["opj_compress", "-i", ppm, "-o", j2k])
    sizes["JPEG 2000 lossless"] = os.path.getsize(j2k)
    ffv1 = os.path.join(tmp, "image.nut")
    run(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-i", "-",
         "-c:v", "ffv1", "-level", "3", "-coder", "1", "-context", "1", "-pix_fmt", "bgr0", ffv1], input=None,
        stdin=open(os.path.join(tmp, "tight.rgb"), "rb"))
    sizes["FFV1"] = os.path.getsize(ffv1)
    return {k: 8.0 * v / (w * h) for k, v in sizes.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", default=".testimages")
    ap.add_argument("--plugin", default="build/gst", help="folder of the built plugin (GST_PLUGIN_PATH)")
    ap.add_argument("--out")
    args = ap.parse_args()
    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin)
    names = sorted(n for n in os.listdir(args.images) if n.endswith((".jpg", ".png")))
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rgb, w, h = decode(os.path.join(args.images, name), tmp)
            open(os.path.join(tmp, "tight.rgb"), "wb").write(rgb)
            row = {label: entropy(rgb, w, h, chain, tmp) for label, chain in CHAINS}
            row.update(codec_bpp(rgb, w, h, tmp))
            results[name] = (w, h, row)
            print(f"{name} {w}x{h} done", file=sys.stderr)
    labels = [c[0] for c in CHAINS] + ["PNG", "JPEG 2000 lossless", "FFV1"]
    lines = ["| bits per pixel (RGB, 24 uncompressed) | " + " | ".join(f"{n} ({r[0]}x{r[1]})" for n, r in results.items()) + " |",
             "|---|" + "---:|" * len(results)]
    for label in labels:
        kind = "file size" if label in ("PNG", "JPEG 2000 lossless", "FFV1") else "entropy"
        lines.append(f"| {label} ({kind}) | " + " | ".join(f"{r[2][label]:.3f}" for r in results.values()) + " |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
