#!/usr/bin/python3
"""Pillow's Floyd-Steinberg (Image.convert('1'), the fastest CPU halftone we
compared) per frame at 1280x720, 1920x1080 and 3840x2160, on the same photo
as halftone_timing (fruits.jpg resampled), for the table next to
cudahalftone's. Usage: pillow_timing.py [image] [seconds per row]; the image
defaults to fruits.jpg as Debian's opencv-doc installs it (scripts/deps.sh)."""
import sys
import time

from PIL import Image

path = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/doc/opencv-doc/examples/data/fruits.jpg"
budget = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
photo = Image.open(path).convert("L")
print(f"# Pillow {Image.__version__ if hasattr(Image, '__version__') else ''} Image.convert('1') (Floyd-Steinberg), {path}")
print("| size | ms/frame | Gpixel/s |\n|---|---:|---:|")
for w, h in ((1280, 720), (1920, 1080), (3840, 2160)):
    frame = photo.resize((w, h), Image.NEAREST)
    frame.convert("1")  # warm-up
    n, start = 0, time.perf_counter()
    while True:
        frame.convert("1")
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget and n >= 2:
            break
    print(f"| {w}x{h} | {elapsed / n * 1e3:.3f} | {w * h / (elapsed / n) * 1e-9:.3f} |")
