#!/usr/bin/python3
"""Quality of halftones: PSNR between the original and the halftone after
both pass through the same low-pass eye model, a 2-D Gaussian of sigma 1.5
pixels (about the eye's blur for a 150-dpi print viewed at 40 cm: one pixel
subtends 1.45 arcmin there), truncated at 4 sigma, borders reflected.
PSNR = 10 log10(255^2 / MSE) over the whole image. Beside it, WSNR
(pipelines/wsnr.py): the error's spectrum weighted by the Mannos-Sakrison
contrast sensitivity function for a 300-dpi print viewed from 20 inches.
Higher is better for both.

Per photo (converted once to 8-bit grey, ITU-R 601 luma, by Pillow) it
compares cudahalftone's six methods (run through gst-launch-1.0 with the
plugin in GST_PLUGIN_PATH, backend=cpu), Pillow's Image.convert('1'),
netpbm's pgmtopbm -fs and ImageMagick's -dither FloydSteinberg -remap with a
black/white palette. Writes two markdown tables (PSNR, WSNR) and a contact
sheet (256x256 crops at 1:1 of the first photo: original, six methods,
Pillow).

Usage: halftone_quality.py OUT.md SHEET.png photo.jpg [photo.jpg ...]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

from wsnr import DISTANCE_IN, PPI, wsnr

SIGMA = 1.5
METHODS = ["floyd-steinberg", "stevenson-arce", "burkes", "sierra", "stucki", "jarvis-judice-ninke"]


def eye(a):
    """Separable Gaussian low-pass (sigma SIGMA px, reflected borders)."""
    r = int(4 * SIGMA + 0.5)
    x = np.arange(-r, r + 1)
    k = np.exp(-x * x / (2 * SIGMA * SIGMA))
    k /= k.sum()
    a = np.pad(a.astype(np.float64), r, mode="reflect")
    a = np.apply_along_axis(lambda row: np.convolve(row, k, mode="valid"), 1, a)
    return np.apply_along_axis(lambda col: np.convolve(col, k, mode="valid"), 0, a)


def psnr(original, halftone):
    mse = np.mean((eye(original) - eye(halftone)) ** 2)
    return 10 * np.log10(255.0 ** 2 / mse)


def ours(grey_png, method, out_png):
    subprocess.run(["gst-launch-1.0", "-q", "filesrc", f"location={grey_png}", "!", "pngdec", "!", "videoconvert", "!",
                    "video/x-raw,format=GRAY8", "!", "cudahalftone", f"method={method}", "backend=cpu", "!",
                    "videoconvert", "!", "pngenc", "!", "filesink", f"location={out_png}"], check=True)
    return np.asarray(Image.open(out_png).convert("L"))


def pillow(img):
    return np.asarray(img.convert("1").convert("L"))


def netpbm(grey_pgm, out):
    with open(out, "wb") as f:
        subprocess.run(["pgmtopbm", "-fs", grey_pgm], stdout=f, check=True)
    return np.asarray(Image.open(out).convert("L"))


def imagemagick(grey_pgm, palette, out):
    subprocess.run(["convert", grey_pgm, "-dither", "FloydSteinberg", "-remap", palette, out], check=True)
    return np.asarray(Image.open(out).convert("L"))


def main():
    out_md, sheet, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
    tmp = tempfile.mkdtemp()
    palette = os.path.join(tmp, "bw.png")
    Image.fromarray(np.array([[0, 255]], dtype=np.uint8)).save(palette)
    cols = ["photo", "size"] + METHODS + ["Pillow convert('1')", "pgmtopbm -fs", "ImageMagick FS -remap"]
    head = ["| " + " | ".join(cols) + " |", "|" + "---|" * 2 + "---:|" * (len(cols) - 2)]
    lines, wsnr_lines = list(head), list(head)
    tiles = []
    for n, path in enumerate(photos):
        img = Image.open(path).convert("L")
        name = os.path.basename(path)
        grey_png, grey_pgm = os.path.join(tmp, name + ".png"), os.path.join(tmp, name + ".pgm")
        img.save(grey_png)
        img.save(grey_pgm)
        original = np.asarray(img)
        row = [name, f"{img.width}x{img.height}"]
        wsnr_row = list(row)
        results = [ours(grey_png, m, os.path.join(tmp, f"{name}-{m}.png")) for m in METHODS]
        results += [pillow(img), netpbm(grey_pgm, os.path.join(tmp, name + ".pbm")),
                    imagemagick(grey_pgm, palette, os.path.join(tmp, name + "-im.png"))]
        for r in results:
            assert set(np.unique(r)) <= {0, 255}, "not black and white"
            row.append(f"{psnr(original, r):.2f}")
            wsnr_row.append(f"{wsnr(original, r):.2f}")
        lines.append("| " + " | ".join(row) + " |")
        wsnr_lines.append("| " + " | ".join(wsnr_row) + " |")
        if n == 0:
            y0, x0 = (img.height - 256) // 2, (img.width - 256) // 2
            for a in [original] + results[:7]:
                tiles.append(a[y0:y0 + 256, x0:x0 + 256])
    grid = np.vstack([np.hstack(tiles[0:4]), np.hstack(tiles[4:8])])
    Image.fromarray(grid).save(sheet, optimize=True)
    text = ("PSNR (dB) after a Gaussian eye model, sigma %.1f px; binary halftones of the 8-bit grey photo.\n\n" % SIGMA
            + "\n".join(lines) + "\n\n"
            + "WSNR (dB), Mannos-Sakrison CSF, a %.0f-dpi print viewed from %.0f inches (pipelines/wsnr.py).\n\n"
            % (PPI, DISTANCE_IN) + "\n".join(wsnr_lines) + "\n")
    with open(out_md, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
