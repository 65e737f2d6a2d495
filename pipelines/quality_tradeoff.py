#!/usr/bin/python3
"""Quality against size of the lossy transforms, through the elements.

For each photo and setting it runs
  filesrc ! decodebin ! videoconvert ! RGB ! <forward> ! cudaentropy !
  cudainverse ! filesink (raw RGB)
with gst-launch-1.0 (our plugin from GST_PLUGIN_PATH), reads the entropy of
the coefficients from cudaentropy's message (bits per pixel, -m) and computes
the PSNR of the reconstruction against the decoded photo here. Settings:
cudacdf97 levels=5 quant-step=q, and cudadct quality=Q for comparison.

Writes (to --out): quality-tradeoff.md (the table), quality-tradeoff.png (PSNR against
bits per pixel per photo, and crops of one photo at several steps).

  GST_PLUGIN_PATH=build/gst /usr/bin/python3 pipelines/quality_tradeoff.py \
      --images .testimages --out pipelines/results
"""
import argparse
import os
import re
import subprocess
import tempfile

import numpy as np

CDF97_STEPS = [1, 2, 4, 8, 16, 32, 64]
DCT_QUALITIES = [95, 90, 75, 50, 25, 10]
CROP_STEPS = [4, 16, 64]  # the cdf97 steps shown as crops


def run_pipeline(photo, forward, raw_out, backend):
    """Runs one pipeline; returns the coefficients' bits per pixel (or None)."""
    b = f" backend={backend}"
    entropy = f" ! cudaentropy{b}" if forward else ""
    forward = forward.replace(" ! ", f"{b} ! ")  # every element of a chain on the backend
    stages = f" ! {forward}{b}{entropy} ! cudainverse{b}" if forward else ""
    desc = (f"filesrc location={photo} ! decodebin ! videoconvert ! video/x-raw,format=RGB{stages}"
            f" ! filesink location={raw_out}")
    out = subprocess.run(["gst-launch-1.0", "-m"] + desc.split(), capture_output=True, text=True, check=True)
    m = re.search(r"bits-per-pixel=\(double\)([0-9.eE+-]+)", out.stdout)
    return float(m.group(1)) if m else None


def caps_size(photo):
    from PIL import Image
    with Image.open(photo) as im:
        return im.size


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", default=".testimages")
    ap.add_argument("--out", default="pipelines/results")
    ap.add_argument("--backend", default="openmp")
    ap.add_argument("--crop-photo", default="fruits.jpg")
    args = ap.parse_args()
    photos = [p for p in sorted(os.listdir(args.images)) if p.endswith((".jpg", ".png")) and p != "sudoku.png"]
    rows, curves, crops = [], {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "frame.rgb")
        for name in photos:
            path = os.path.join(args.images, name)
            w, h = caps_size(path)
            run_pipeline(path, "", raw, args.backend)
            original = np.fromfile(raw, np.uint8)[: w * h * 3].reshape(h, w, 3)
            settings = [("cdf97", s, f"cudacdf97 levels=5 quant-step={s}") for s in CDF97_STEPS]
            settings += [("ycocg+cdf97", s, f"cudaycocg ! cudacdf97 levels=5 quant-step={s}") for s in CDF97_STEPS]
            settings += [("dct", q, f"cudadct quality={q}") for q in DCT_QUALITIES]
            for kind, value, forward in settings:
                bpp = run_pipeline(path, forward, raw, args.backend)
                back = np.fromfile(raw, np.uint8)[: w * h * 3].reshape(h, w, 3)
                db = psnr(original, back)
                rows.append((name, w, h, kind, value, bpp, db))
                curves.setdefault((name, kind), []).append((bpp, db))
                if name == args.crop_photo and kind == "cdf97" and value in CROP_STEPS:
                    crops[value] = (back, bpp, db)
            if name == args.crop_photo:
                crops[0] = (original, 24.0, float("inf"))
                print(f"{name}: {w}x{h}")

    with open(os.path.join(args.out, "quality-tradeoff.md"), "w") as f:
        f.write("# Quality against size: cudacdf97 quant-step and cudadct quality on real photos\n\n")
        f.write("Measured here (build machine, backend=%s) with `pipelines/quality_tradeoff.py`: each row is\n"
                "`decodebin ! videoconvert ! RGB ! <forward> ! cudaentropy ! cudainverse`. bits/pixel is\n"
                "cudaentropy's zeroth-order entropy of the coefficients (RGB: three planes; raw is 24);\n"
                "PSNR is of the 8-bit reconstruction over the three planes. cdf97: levels=5. The entropy is\n"
                "of all coefficients of a plane together (not per band or frequency, as a real coder would\n"
                "model them), which favours neither transform.\n\n" % args.backend)
        f.write("| photo | transform | setting | bits/pixel | PSNR (dB) |\n|---|---|---|---:|---:|\n")
        for name, w, h, kind, value, bpp, db in rows:
            setting = f"quality={value}" if kind == "dct" else f"quant-step={value}"
            f.write(f"| {name} {w}x{h} | {kind} | {setting} | {bpp:.3f} | {db:.2f} |\n")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(13, 8.5))
    grid = fig.add_gridspec(2, 4, height_ratios=[1.1, 1])
    ax = fig.add_subplot(grid[0, :])
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, name in enumerate(photos):
        for kind, style in (("cdf97", "-o"), ("ycocg+cdf97", ":^"), ("dct", "--s")):
            pts = sorted(curves[(name, kind)])
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colours[i % len(colours)],
                    label=f"{name} {kind}")
    ax.set_xlabel("entropy of the coefficients (bits per pixel, RGB; raw = 24)")
    ax.set_ylabel("PSNR of the reconstruction (dB)")
    ax.set_title("cudacdf97 levels=5 (quant-step 1..64, on RGB and after cudaycocg) against cudadct (quality 95..10)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    h, w = crops[0][0].shape[:2]
    y0, x0, size = h // 2 - 96, w // 2 - 96, 192
    for k, step in enumerate(sorted(crops)):
        img, bpp, db = crops[step]
        a = fig.add_subplot(grid[1, k])
        a.imshow(img[y0:y0 + size, x0:x0 + size], interpolation="nearest")
        a.set_title("original (24 bpp)" if step == 0 else f"quant-step {step}: {bpp:.2f} bpp, {db:.1f} dB",
                    fontsize=9)
        a.axis("off")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "quality-tradeoff.png"), dpi=90)


if __name__ == "__main__":
    main()
