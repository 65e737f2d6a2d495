#!/usr/bin/env python3
"""Re-runs the experiments of the seed documents (the thesis, the halftone
report, the JPEG 2000 lecture, the Hough report and the CDF 9/7 report) on
the core library and writes docs/seeds.md: for every table of a document,
its number, ours on the same kind of input, and the machine.

    pipelines/seeds/make_seeds.py --build build [--photos DIR ...] [--out docs/seeds.md] [--quick]

--build: a meson build folder with the tests enabled (its pipelines/ holds
the measuring programs; build with CUDA on a GPU machine for the CUDA
columns). --photos: folders holding the photos below (default: opencv-doc's
and scikit-image's data folders). --quick: a smoke run of a few seconds
(tiny frames, one repetition), for checking the tool, not for numbers.
Needs Python 3 with numpy and Pillow.
"""
import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seeds_cdf97  # noqa: E402
import seeds_context  # noqa: E402
import seeds_halftone  # noqa: E402
import seeds_hough  # noqa: E402
import seeds_j2k_lecture  # noqa: E402
import seeds_thesis  # noqa: E402

SECTIONS = [seeds_thesis, seeds_halftone, seeds_j2k_lecture, seeds_hough, seeds_cdf97]

# Colour photos of natural scenes that Debian packages: opencv-doc's samples
# and scikit-image's data. The first is the one the timings resample.
PHOTOS = ["fruits.jpg", "baboon.jpg", "building.jpg", "apple.jpg", "orange.jpg", "home.jpg", "messi5.jpg",
          "squirrel_cls.jpg", "leuvenA.jpg", "astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg", "motorcycle_left.png"]
DEFAULT_PHOTO_DIRS = ["/usr/share/doc/opencv-doc/examples/data", "/usr/lib/python3/dist-packages/skimage/data"]


def find_photos(dirs, into):
    """The PHOTOS found in dirs, as 8-bit RGB PPM files written into `into`."""
    found = []
    for name in PHOTOS:
        for d in dirs:
            path = os.path.join(d, name)
            if os.path.exists(path):
                ppm = os.path.join(into, os.path.splitext(name)[0] + ".ppm")
                Image.open(path).convert("RGB").save(ppm)
                found.append((os.path.splitext(name)[0], ppm))
                break
    return found


def command_output(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def describe_machine():
    cpu = ""
    for line in command_output(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            cpu = line.split(":", 1)[1].strip()
    gpu = command_output(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    return {"cpu": cpu or platform.processor(), "gpu": gpu.splitlines()[0] if gpu else None,
            "threads": os.cpu_count()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--photos", nargs="*", default=DEFAULT_PHOTO_DIRS)
    ap.add_argument("--out", default="docs/seeds.md")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    machine = describe_machine()
    with tempfile.TemporaryDirectory() as tmp:
        photos = find_photos(args.photos, tmp)
        if not photos:
            sys.exit("no photos found in " + ", ".join(args.photos))
        ctx = seeds_context.Context(args.build, photos, args.quick, machine)
        parts = []
        for s in SECTIONS:
            print("running", s.__name__, file=sys.stderr, flush=True)
            parts.append(s.section(ctx))
    gpu = machine["gpu"] or "none"
    header = [
        "# The seed documents' experiments on cudafilters",
        "",
        "The project grew from five documents (a thesis on lossless decorrelation, reports on "
        "halftoning, Hough lines and the CDF 9/7, and a lecture on JPEG 2000 on GPUs). This page repeats "
        "their experiments on our elements' core library, each table beside theirs, and says where a "
        "document was wrong and where we depart from it on purpose. Made by "
        "`pipelines/seeds/make_seeds.py`" + (" (a quick smoke run: not figures to quote)" if args.quick else "") + ".",
        "",
        f"Machine: {machine['cpu']}, {machine['threads']} threads; GPU: {gpu}; "
        f"{datetime.date.today().isoformat()}.",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(header + parts))
    print("wrote", args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
