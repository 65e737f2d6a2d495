#!/usr/bin/env python3
"""cudahough against OpenCV (needs python3 with numpy and opencv, e.g.
opencv-python-headless, as on the GPU machine).

  hough_compare.py prepare IMAGES_DIR OUT_DIR
      grey frames of building.jpg and sudoku.png scaled to 1920x1080 and
      3840x2160, as binary PGM for hough-bench
  hough_compare.py compare OUT_DIR
      for every OUT_DIR/<name>-edges.pgm (our Canny edge map, written by
      hough-bench) and <name>-lines.txt (our strongest lines): cv2.HoughLines
      on the same edge map, same angles (pi/180) and rho step (1), at our
      threshold; our 10 strongest lines must each be within one rho step and
      one angle bin of a line OpenCV finds; cv2.HoughLines is timed (median
      of 5 runs).
"""
import glob
import math
import os
import sys
import time

import cv2
import numpy as np

SIZES = [(1920, 1080), (3840, 2160)]


def prepare(images, out):
    os.makedirs(out, exist_ok=True)
    for name in ("building.jpg", "sudoku.png"):
        img = cv2.imread(os.path.join(images, name), cv2.IMREAD_GRAYSCALE)
        if img is None:
            sys.exit(f"cannot read {images}/{name}")
        for w, h in SIZES:
            frame = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
            path = os.path.join(out, f"{os.path.splitext(name)[0]}-{w}x{h}.pgm")
            cv2.imwrite(path, frame)
            print(path)


def read_ours(path):
    threshold, lines = None, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                threshold = int(line.split("threshold ")[1].split(",")[0])
                continue
            rho, theta, votes = line.split()
            lines.append((float(rho), float(theta), int(votes)))
    return threshold, lines


def near(a, b, rho_step=1.0, bin_=math.pi / 180):
    """Within one rho step and one angle bin, also across theta = pi (rho negated)."""
    (r1, t1), (r2, t2) = a, b
    eps = 1e-6
    if abs(t1 - t2) <= bin_ + eps and abs(r1 - r2) <= rho_step + eps:
        return True
    if abs(abs(t1 - t2) - math.pi) <= bin_ + eps and abs(r1 + r2) <= rho_step + eps:
        return True
    return False


def compare(out):
    print("| frame | edge pixels | our threshold | cv2 lines | our top 10 found by cv2 | cv2 top 10 near our top 30 | cv2.HoughLines ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    failures = 0
    for edges_path in sorted(glob.glob(os.path.join(out, "*-edges.pgm"))):
        name = os.path.basename(edges_path)[: -len("-edges.pgm")]
        threshold, ours = read_ours(os.path.join(out, name + "-lines.txt"))
        edges = cv2.imread(edges_path, cv2.IMREAD_GRAYSCALE)
        times = []
        for _ in range(5):
            t = time.perf_counter()
            # OpenCV keeps cells with more than `threshold` votes; ours keep >= threshold.
            found = cv2.HoughLines(edges, 1, np.pi / 180, threshold - 1)
            times.append((time.perf_counter() - t) * 1000)
        cv = [] if found is None else [(float(l[0][0]), float(l[0][1])) for l in found]
        top = ours[:10]
        matched = sum(any(near((r, t), c) for c in cv) for r, t, _ in top)
        back = sum(any(near(c, (r, t)) for r, t, _ in ours[:30]) for c in cv[:10])
        failures += matched != len(top)
        print(f"| {name} | {100.0 * np.count_nonzero(edges) / edges.size:.1f}% | {threshold} | {len(cv)} | "
              f"{matched}/{len(top)} | {back}/{min(10, len(cv))} | {sorted(times)[2]:.1f} |")
    return failures


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "compare":
        sys.exit(1 if compare(sys.argv[2]) else 0)
    else:
        sys.exit(__doc__)
