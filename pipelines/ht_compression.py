#!/usr/bin/python3
"""HTJ2K (block-coder=ht) against Part 1 and OpenJPH, in bits per pixel and PSNR.

For the pictures of j2k_compression.py (opencv-doc photos and vtest.avi frames, RGB and grey), each coded by
cudaj2kenc (backend openmp, 5 levels, 64 x 64 code-blocks, one layer, LRCP):
  - lossless with Part 1 code-blocks and with HT ones, and by ojph_compress at the same settings
    (-reversible true -num_decomps 5 -block_size {64,64} -prog_order LRCP, its colour transform on RGB); each
    file decoded again (opj_decompress for ours, ojph_expand for OpenJPH's) and compared with the input;
  - at 1 bit per pixel (9/7), Part 1 and HT, PSNR of opj_decompress's decoding against the input.
Columns: sizes in bits per pixel (bytes * 8 / pixels), HT against OpenJPH's HT and against Part 1 in percent.

Usage:
  pipelines/ht_compression.py --plugin build/gst --out pipelines/results/ht-compression.md
"""
import argparse
import datetime
import math
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

from j2k_compression import FRAMES, OPENCV_DATA, PHOTOS, code_ours, load_pictures, run

TOOLS = ["gst-launch-1.0", "opj_decompress", "ojph_compress", "ojph_expand", "ffmpeg"]


def code_ojph(image, tmp):
    src = os.path.join(tmp, "in.ppm" if image.mode == "RGB" else "in.pgm")
    image.save(src)
    out = os.path.join(tmp, "ojph.j2c")
    run(["ojph_compress", "-i", src, "-o", out, "-reversible", "true", "-num_decomps", "5", "-block_size", "{64,64}",
         "-prog_order", "LRCP"])
    back = os.path.join(tmp, "ojph-back.ppm" if image.mode == "RGB" else "ojph-back.pgm")
    run(["ojph_expand", "-i", out, "-o", back])
    if Image.open(back).convert(image.mode).tobytes() != image.tobytes():
        sys.exit("ojph_expand does not give the input back")
    return out


def psnr(path, image, tmp):
    back = os.path.join(tmp, "lossy-back.ppm" if image.mode == "RGB" else "lossy-back.pgm")
    run(["opj_decompress", "-i", path, "-o", back])
    a, b = image.tobytes(), Image.open(back).convert(image.mode).tobytes()
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    return math.inf if se == 0 else 10 * math.log10(255 * 255 * len(a) / se)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True, help="folder of libgstcudafilters.so")
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default=OPENCV_DATA)
    args = ap.parse_args()
    for tool in TOOLS:
        if not shutil.which(tool):
            sys.exit(f"{tool} not found")
    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, rgb in load_pictures(args.data, PHOTOS, FRAMES, tmp):
            for image in (rgb, rgb.convert("L")):
                pixels = image.size[0] * image.size[1]
                bpp = lambda path: 8 * os.path.getsize(path) / pixels
                part1 = bpp(code_ours(image, tmp, name="part1.j2k"))
                ht = bpp(code_ours(image, tmp, ["block-coder=ht"], name="ht.j2k"))
                ojph = bpp(code_ojph(image, tmp))
                lossy = ["reversible=false", "bitrate=1"]
                p1 = psnr(code_ours(image, tmp, lossy, lossless=False, name="part1-1bpp.j2k"), image, tmp)
                p_ht = psnr(code_ours(image, tmp, lossy + ["block-coder=ht"], lossless=False, name="ht-1bpp.j2k"),
                            image, tmp)
                rows.append((name, "RGB" if image.mode == "RGB" else "grey", f"{image.size[0]}x{image.size[1]}",
                             part1, ht, ojph, p1, p_ht))
                print(rows[-1], flush=True)
    version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "openjph-tools"], capture_output=True,
                             text=True).stdout.strip()
    with open(args.out, "w") as f:
        f.write("# HTJ2K compression: cudaj2kenc block-coder=ht against Part 1 and OpenJPH\n\n")
        f.write(f"{datetime.date.today()}; `pipelines/ht_compression.py`; OpenJPH "
                f"{version or '(version unknown)'} (Debian's openjph-tools). Lossless: reversible, 5 levels, 64 x 64 "
                "code-blocks, one layer, LRCP, every file decoded back to the input. 1 bpp: 9/7 at a target of 1 bit "
                "per pixel, PSNR of opj_decompress's decoding.\n\n")
        f.write("| picture | colour | size | Part 1 bpp | HT bpp | ojph_compress bpp | HT / ojph | HT / Part 1 "
                "| Part 1 at 1 bpp dB | HT at 1 bpp dB |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
        for name, colour, size, part1, ht, ojph, p1, p_ht in rows:
            f.write(f"| {name} | {colour} | {size} | {part1:.3f} | {ht:.3f} | {ojph:.3f} | "
                    f"{100 * (ht / ojph - 1):+.2f}% | {100 * (ht / part1 - 1):+.1f}% | {p1:.2f} | {p_ht:.2f} |\n")
        for colour in ("RGB", "grey"):
            sel = [r for r in rows if r[1] == colour]
            mean = lambda i: sum(r[i] for r in sel) / len(sel)
            f.write(f"| mean | {colour} | | {mean(3):.3f} | {mean(4):.3f} | {mean(5):.3f} | "
                    f"{100 * (mean(4) / mean(5) - 1):+.2f}% | {100 * (mean(4) / mean(3) - 1):+.1f}% | {mean(6):.2f} | "
                    f"{mean(7):.2f} |\n")


if __name__ == "__main__":
    main()
