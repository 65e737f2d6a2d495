#!/usr/bin/env python3
"""Plots a cf-bench Markdown table: fps per resolution, one line per backend
and memory type, one panel per element and format.

    python3 pipelines/plot-bench.py results/bench.md results/bench.png
"""
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SIZES = ["1280x720", "1920x1080", "3840x2160"]


def rows(path):
    header = None
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "element":
            header = cells
            continue
        if header and len(cells) == len(header) and cells[0].startswith("cuda"):
            row = dict(zip(header, cells))
            try:
                row["fps"] = float(row["fps"])
            except ValueError:
                continue
            yield row


def main(src, dst):
    panels = defaultdict(lambda: defaultdict(dict))
    for r in rows(src):
        params = r.get("params") or "levels=" + r.get("levels", "?")  # older tables: a levels column
        key = (r["element"], r["format"], params)
        panels[key][f'{r["backend"]} / {r["memory"]}'][r["size"]] = r["fps"]
    keys = sorted(panels)
    cols = 3
    nrows = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        for label, by_size in sorted(panels[key].items()):
            xs = [s for s in SIZES if s in by_size]
            ax.plot(xs, [by_size[s] for s in xs], marker="o", label=label)
        ax.set_yscale("log")
        ax.set_title(f"{key[0]} {key[2]}, {key[1]}")
        ax.set_ylabel("frames per second")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in axes.flat[len(keys):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
