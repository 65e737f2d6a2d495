"""Section of docs/seeds.md for seed document 001: a course project on
parallel error-diffusion halftoning (six kernels and a stochastic variant,
serial, OpenMP and CUDA; its Tables 7 to 14).

Our numbers come from pipelines/halftone_seeds (timing per size class,
method and backend; serial halftones of the photos as PGM) and from
pipelines/wsnr.py. The float reference below is the report's algorithm
(float error, float weights) written plainly, to show how far our integer
rule's pixels are from it and that the quality is the same."""
import os
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # pipelines/: wsnr
import wsnr  # noqa: E402
from seeds_table import fmt, ratio, table  # noqa: E402

METHODS = ["floyd-steinberg", "stevenson-arce", "burkes", "sierra", "stucki", "jarvis-judice-ninke"]
DOC_NAMES = dict(zip(METHODS, ["FloydSteinberg", "StevensonArce", "Burkes", "Sierra", "Stucki", "JarvisJudiceNinke"]))

# The document's test machine: an 8-core, 16-thread laptop CPU and a laptop GPU.
DOC_MACHINE = "Intel Core i7-11800H (8 cores, 16 threads), NVIDIA GeForce RTX 3060 Laptop (80 W)"
DOC_THREADS = 16  # its efficiencies are its speedups divided by 16

# The document's published numbers (means over 5 runs of each image; the
# method tables mix every image size, small to xlarge).
# Table 7, per method: serial, OpenMP, CUDA ms (mean, sd); speedups OpenMP, CUDA (mean, sd).
DOC_T7 = {
    "floyd-steinberg": ((126.52, 301.72), (25.08, 47.89), (146.27, 317.29), (5.04, 15.41), (0.86, 2.79)),
    "stevenson-arce": ((311.94, 748.04), (57.94, 122.09), (146.80, 317.41), (5.38, 12.91), (2.12, 6.86)),
    "burkes": ((191.00, 455.59), (38.36, 82.35), (146.64, 318.72), (4.98, 15.98), (1.30, 4.20)),
    "sierra": ((262.05, 619.44), (48.04, 102.86), (145.37, 318.33), (5.45, 17.40), (1.80, 5.81)),
    "stucki": ((309.84, 739.82), (53.09, 112.06), (145.15, 317.87), (5.84, 21.18), (2.13, 6.92)),
    "jarvis-judice-ninke": ((305.95, 720.93), (56.04, 124.03), (147.02, 317.46), (5.46, 33.53), (2.08, 6.65)),
}
# Table 8, Floyd-Steinberg per size class, same columns.
DOC_T8 = {
    "small": ((4.57, 0.78), (3.81, 2.81), (7.76, 0.95), (1.20, 0.91), (0.59, 0.12)),
    "medium": ((21.20, 0.78), (7.71, 3.25), (30.65, 2.33), (2.75, 1.16), (0.69, 0.08)),
    "large": ((37.90, 19.62), (10.66, 4.04), (58.64, 26.64), (3.56, 2.06), (0.65, 0.45)),
    "xlarge": ((345.02, 486.16), (61.30, 75.79), (380.57, 507.17), (5.63, 8.30), (0.91, 1.76)),
}
# Table 9: OpenMP efficiency, CUDA occupancy (%), per method.
DOC_T9 = {"floyd-steinberg": (0.32, 2.08), "stevenson-arce": (0.34, 2.08), "burkes": (0.31, 2.08),
          "sierra": (0.34, 2.08), "stucki": (0.37, 2.08), "jarvis-judice-ninke": (0.34, 2.08)}
# Table 10: OpenMP efficiency per size class (Floyd-Steinberg).
DOC_T10 = {"small": 0.08, "medium": 0.17, "large": 0.22, "xlarge": 0.35}
# Tables 11-13, stochastic variant: serial, OpenMP, CUDA ms; speedups OpenMP, CUDA
# (against Table 7's deterministic serial); OpenMP efficiency, CUDA occupancy (%).
DOC_T11 = {"floyd-steinberg": (795.46, 110.73, 0.42), "stevenson-arce": (2220.53, 298.43, 0.54),
           "burkes": (1310.33, 125.78, 0.45), "sierra": (1852.19, 246.34, 0.49),
           "stucki": (2204.74, 284.48, 0.52), "jarvis-judice-ninke": (2213.28, 284.34, 0.52)}
DOC_T12 = {"floyd-steinberg": (1.14, 301.24), "stevenson-arce": (1.04, 577.67), "burkes": (1.03, 424.44),
           "sierra": (1.06, 534.80), "stucki": (1.09, 595.85), "jarvis-judice-ninke": (1.07, 588.37)}
DOC_T13 = {"floyd-steinberg": (0.07, 61.65), "stevenson-arce": (0.07, 60.90), "burkes": (0.06, 59.68),
           "sierra": (0.07, 59.54), "stucki": (0.07, 59.90), "jarvis-judice-ninke": (0.07, 61.01)}
# Table 14: WSNR (dB) per image, CUDA, OpenMP, serial; and the published means.
DOC_T14 = {
    "small": [(0.6595, -0.1043, -0.1279), (1.1523, 0.6237, 0.5631)],
    "medium": [(1.2968, 0.8956, 0.9051), (1.2322, 0.9434, 0.8777), (0.6089, 0.2502, 0.2566),
               (0.7146, 0.3194, 0.2924), (1.7778, 0.7717, 0.7879), (1.3159, 0.8904, 0.8921),
               (1.2963, 0.7031, 0.6980), (-0.2986, -0.8768, -0.8693)],
    "large": [(0.0847, -0.0862, -0.0905), (1.6083, 0.8550, 0.8642), (1.6087, 0.8773, 0.8754),
              (0.7675, 0.7062, 0.6588), (-0.3377, -0.8666, -0.8857)],
    "xlarge": [(1.6322, 0.8531, 0.8586), (1.6904, 0.9132, 0.9014), (1.6817, 0.8648, 0.8632),
               (1.6876, 0.9090, 0.9010), (0.7856, 0.4889, 0.4997), (2.3256, 1.3715, 1.3500),
               (0.8412, 0.1943, 0.2099)],
}
DOC_T14_MEANS = (1.0969, 0.5226, 0.5128)  # CUDA, OpenMP, serial

# The six kernels as the document's Tables 1-6 give them: (dx, dy, weight),
# divisor; typed here again, apart from the library's tables.
KERNELS = {
    "floyd-steinberg": (16, [(1, 0, 7), (-1, 1, 3), (0, 1, 5), (1, 1, 1)]),
    "stevenson-arce": (200, [(2, 0, 32), (-3, 1, 12), (-1, 1, 26), (1, 1, 30), (3, 1, 16), (-2, 2, 12), (0, 2, 26),
                             (2, 2, 12), (-3, 3, 5), (-1, 3, 12), (1, 3, 12), (3, 3, 5)]),
    "burkes": (32, [(1, 0, 8), (2, 0, 4), (-2, 1, 2), (-1, 1, 4), (0, 1, 8), (1, 1, 4), (2, 1, 2)]),
    "sierra": (32, [(1, 0, 5), (2, 0, 3), (-2, 1, 2), (-1, 1, 4), (0, 1, 5), (1, 1, 4), (2, 1, 2), (-1, 2, 2),
                    (0, 2, 3), (1, 2, 2)]),
    "stucki": (42, [(1, 0, 8), (2, 0, 4), (-2, 1, 2), (-1, 1, 4), (0, 1, 8), (1, 1, 4), (2, 1, 2), (-2, 2, 1),
                    (-1, 2, 2), (0, 2, 4), (1, 2, 2), (2, 2, 1)]),
    "jarvis-judice-ninke": (48, [(1, 0, 7), (2, 0, 5), (-2, 1, 3), (-1, 1, 5), (0, 1, 7), (1, 1, 5), (2, 1, 3),
                                 (-2, 2, 1), (-1, 2, 3), (0, 2, 5), (1, 2, 3), (2, 2, 1)]),
}


def float_halftone(grey, method):
    """The report's serial algorithm: raster scan, white when the value is
    >= 128, error = value - output carried in floating point with the
    weights w / divisor, shares outside the image dropped. Rows are scanned
    in Python (the pixel-to-pixel chain); the rows below get a finished
    row's errors with numpy."""
    divisor, taps = KERNELS[method]
    h, w = grey.shape
    depth = max(dy for _, dy, _ in taps)
    value = np.zeros((h + depth, w))
    value[:h] = grey
    right = [(dx, k / divisor) for dx, dy, k in taps if dy == 0]
    below = [(dx, dy, k / divisor) for dx, dy, k in taps if dy > 0]
    out = np.zeros((h, w), dtype=np.uint8)
    for y in range(h):
        row = value[y].tolist()
        err = [0.0] * w
        for x in range(w):
            u = row[x]
            q = 255 if u >= 128.0 else 0
            err[x] = u - q
            row[x] = q
            for dx, k in right:
                if x + dx < w:
                    row[x + dx] += k * err[x]
        out[y] = row
        e = np.array(err)
        for dx, dy, k in below:
            lo, hi = max(0, -dx), w - max(0, dx)  # sources whose target x + dx is inside
            value[y + dy, lo + dx:hi + dx] += k * e[lo:hi]
    return out


def grey_pgm(path):
    return np.asarray(Image.open(path))


def pm(pair):
    return f"{pair[0]:.2f} ± {pair[1]:.2f}"


def efficiency(serial, parallel, threads):
    if serial is None or parallel is None or not parallel or not threads:
        return None
    return serial / parallel / threads


def timing_section(data, threads):
    rows = {(r["width"], r["height"], r["method"], bool(r["stochastic"])): r for r in data["timing"]}
    sizes = [(s["class"], s["width"], s["height"]) for s in data["sizes"]]
    # The document's method tables average every size; the largest size both
    # runs have (1920x1080 in a full run) stands for them.
    _, cw, ch = next((s for s in sizes if (s[1], s[2]) == (1920, 1080)), sizes[-1])
    at = f"{cw}x{ch}"
    cuda = data["cuda"]

    def get(w, h, m, st):
        return rows[(w, h, m, st)]

    out = []
    same = [r[k] for r in data["timing"] for k in ("openmp_same", "cuda_device_same", "cuda_host_same")
            if r[k] is not None]
    out.append(f"Ours: GRAY8, {data['input']}; OpenMP with {threads} threads; {data['repetitions']}. "
               f"Every OpenMP{' and CUDA' if cuda else ''} output was compared with the serial one: "
               f"{sum(same)} of {len(same)} identical. "
               + ("" if cuda else f"CUDA columns n/a: {data['cuda_note']}."))
    out.append("")

    # Table 7.
    t7 = []
    for m in METHODS:
        d, r = DOC_T7[m], get(cw, ch, m, False)
        t7.append([DOC_NAMES[m], fmt(d[0][0]), fmt(r["serial_ms"]), fmt(d[1][0]), fmt(r["openmp_ms"]),
                   fmt(d[2][0]), fmt(r["cuda_device_ms"]), fmt(r["cuda_host_ms"]),
                   fmt(d[3][0]), ratio(r["serial_ms"], r["openmp_ms"]),
                   fmt(d[4][0]), ratio(r["serial_ms"], r["cuda_device_ms"])])
    out += [f"### Table 7: time per method (document: means over all its images; ours: {at})", "",
            table(["method", "doc serial ms", "ours serial ms", "doc OpenMP ms", "ours OpenMP ms", "doc CUDA ms",
                   "ours CUDA device ms", "ours CUDA host ms", "doc OpenMP speedup", "ours",
                   "doc CUDA speedup", "ours (device)"], t7), ""]
    out.append("The document's means mix images of every class, small (sides up to 256) to xlarge (a side above "
               "1024), so its standard deviations "
               f"exceed its means (Floyd-Steinberg serial {pm(DOC_T7['floyd-steinberg'][0])} ms); we compare "
               f"with one size, {at}. Its OpenMP loop runs rows in parallel while each row still takes errors "
               "from the row above, which another thread may not have finished: a data race, so its OpenMP "
               "output is not the serial halftone (its Table 14 gives them different WSNRs). Its deterministic "
               "CUDA (one launch per anti-diagonal, float atomics) is slower than its serial code in every "
               "size class of Table 8, and an anti-diagonal x + y = d also holds the pixel (x + 1, y - 1) "
               "whose error (x, y) needs, so it races too. Ours keeps every dependency (a wavefront with a lag of the kernel's "
               "reach) and gives the serial bits on every backend.")
    out.append("")

    # Table 8.
    t8 = []
    for c, w, h in sizes:
        d, r = DOC_T8[c], get(w, h, "floyd-steinberg", False)
        t8.append([c, f"{w}x{h}", pm(d[0]), fmt(r["serial_ms"]), pm(d[1]), fmt(r["openmp_ms"]), pm(d[2]),
                   fmt(r["cuda_device_ms"]), fmt(r["cuda_host_ms"]), fmt(d[3][0]),
                   ratio(r["serial_ms"], r["openmp_ms"]), fmt(d[4][0]), ratio(r["serial_ms"], r["cuda_device_ms"])])
    out += ["### Table 8: Floyd-Steinberg per size class", "",
            table(["class", "ours size", "doc serial ms", "ours serial ms", "doc OpenMP ms", "ours OpenMP ms",
                   "doc CUDA ms", "ours CUDA device ms", "ours CUDA host ms", "doc OpenMP speedup", "ours",
                   "doc CUDA speedup", "ours (device)"], t8), ""]
    out.append("The document's classes are ranges (small: both sides up to 256, medium up to 512, large up to "
               "1024, xlarge: a side above 1024); ours are the sizes shown, the photo resampled. Its xlarge "
               "row stands beside both of ours.")
    out.append("")

    # Tables 9 and 10.
    t9 = [[DOC_NAMES[m], fmt(DOC_T9[m][0]), fmt(efficiency(get(cw, ch, m, False)["serial_ms"],
                                                           get(cw, ch, m, False)["openmp_ms"], threads)),
           fmt(DOC_T9[m][1])] for m in METHODS]
    out += [f"### Tables 9 and 10: OpenMP efficiency (speedup / threads; ours at {at}, {threads} threads)", "",
            table(["method", "doc efficiency", "ours", "doc CUDA occupancy %"], t9), ""]
    t10 = [[c, f"{w}x{h}", fmt(DOC_T10[c]),
            fmt(efficiency(get(w, h, "floyd-steinberg", False)["serial_ms"],
                           get(w, h, "floyd-steinberg", False)["openmp_ms"], threads))] for c, w, h in sizes]
    out += [table(["class (Floyd-Steinberg)", "ours size", "doc efficiency", "ours"], t10), ""]
    out.append(f"The document divides its speedups by {DOC_THREADS} (the i7-11800H's hardware threads), as we "
               "divide ours by our thread count. Our OpenMP schedule gives a thread at least 64K pixels, so a "
               "256x256 frame runs on one thread and its efficiency is 1/threads by design. CUDA occupancy (the "
               "share of the GPU's warp slots in use, a profiler figure) we do not measure.")
    out.append("")

    # Tables 11 to 13.
    t11, t12 = [], []
    for m in METHODS:
        r, det = get(cw, ch, m, True), get(cw, ch, m, False)
        d = DOC_T11[m]
        t11.append([DOC_NAMES[m], fmt(d[0]), fmt(r["serial_ms"]), fmt(d[1]), fmt(r["openmp_ms"]), fmt(d[2]),
                    fmt(r["cuda_device_ms"]), fmt(r["cuda_host_ms"]), ratio(r["serial_ms"], det["serial_ms"])])
        t12.append([DOC_NAMES[m], fmt(DOC_T12[m][0]), ratio(r["serial_ms"], r["openmp_ms"]), fmt(DOC_T12[m][1]),
                    ratio(r["serial_ms"], r["cuda_device_ms"]), fmt(DOC_T13[m][0]),
                    fmt(efficiency(r["serial_ms"], r["openmp_ms"], threads)), fmt(DOC_T13[m][1])])
    out += [f"### Tables 11 to 13: the stochastic variant (ours: p = {fmt(data['stochastic_amplitude'], 1)}, "
            f"seed {data['stochastic_seed']}, {at})", "",
            table(["method", "doc serial ms", "ours serial ms", "doc OpenMP ms", "ours OpenMP ms", "doc CUDA ms",
                   "ours CUDA device ms", "ours CUDA host ms", "ours serial / deterministic serial"], t11), "",
            table(["method", "doc OpenMP speedup", "ours", "doc CUDA speedup", "ours (device)",
                   "doc OpenMP efficiency", "ours", "doc CUDA occupancy %"], t12), ""]
    out.append("The document does not state its p. Its stochastic serial code is 6 to 7 times slower than its "
               "deterministic one, and its Table 12 divides the deterministic serial time (Table 7) by the "
               "stochastic parallel times: speedups across two different algorithms. Its stochastic CUDA "
               "times (0.42 to 0.54 ms as means over sizes up to xlarge) are 270 to 350 times below its "
               "deterministic CUDA times; scaling each error by (1 + r) removes no dependency between pixels, "
               "so a kernel that fast cannot have been running the same error diffusion. Ours draws r from a "
               "hash of (seed, frame, plane, x, y), so the stochastic variant keeps the deterministic one's "
               "schedule, costs one hash per pixel, and gives the same bits on every backend; our speedups "
               "divide times of the same algorithm.")
    out.append("")
    return out


def wsnr_section(data, quick):
    photos = data["halftones"][:1] if quick else data["halftones"]
    if not photos:
        return ["### Table 14: WSNR", "", "No photos were given: no WSNR.", ""]
    per_photo, per_method = [], {m: [] for m in METHODS}
    for p in photos:
        grey = grey_pgm(p["grey"])
        for m in METHODS:
            ours = grey_pgm(p["methods"][m]["deterministic"])
            stochastic = grey_pgm(p["methods"][m]["stochastic"])
            ref = float_halftone(grey, m)
            entry = {"int": wsnr.wsnr(grey, ours), "float": wsnr.wsnr(grey, ref),
                     "differ": float(np.mean(ours != ref)), "stochastic": wsnr.wsnr(grey, stochastic),
                     "bandpass": wsnr.wsnr(grey, ours, lowpass=False)}
            per_method[m].append(entry)
            if m == "floyd-steinberg":
                per_photo.append([p["photo"], f"{p['width']}x{p['height']}", fmt(entry["int"]), fmt(entry["float"]),
                                  f"{100 * entry['differ']:.1f}%", fmt(entry["stochastic"]), fmt(entry["bandpass"])])

    def mean(m, key):
        return float(np.mean([e[key] for e in per_method[m]]))

    doc = [[c, str(len(v))] + [fmt(float(np.mean([x[i] for x in v])), 4) for i in (2, 1, 0)]
           for c, v in DOC_T14.items()]
    doc.append(["all (published means)", str(sum(len(v) for v in DOC_T14.values())),
                fmt(DOC_T14_MEANS[2], 4), fmt(DOC_T14_MEANS[1], 4), fmt(DOC_T14_MEANS[0], 4)])
    ppd = wsnr.pixels_per_degree()
    out = ["### Table 14: WSNR", "",
           "The document's values (dB, its images, grouped by its size classes):", "",
           table(["class", "images", "doc serial", "doc OpenMP", "doc CUDA"], doc), "",
           f"Ours (`pipelines/wsnr.py`): the Mannos-Sakrison CSF held at its peak below 7.9 cycles/degree, a "
           f"{wsnr.PPI:.0f}-dpi print viewed from {wsnr.DISTANCE_IN:.0f} inches ({ppd:.1f} pixels per degree), "
           "each photo in grey at its own size. Serial, OpenMP and CUDA give the same bits, so one column "
           "stands for the three. \"Float reference\" is the report's algorithm (float error and weights, "
           "threshold 128) run here in Python; \"pixels differing\" counts where it and ours disagree. "
           "\"Band-pass\" is ours with the CSF as written (its mean weighted 0.05)."
           + (" Quick run: first photo only." if quick else ""), "",
           table(["photo (Floyd-Steinberg)", "size", "ours (integer)", "float reference", "pixels differing",
                  "ours stochastic", "band-pass"], per_photo), "",
           table(["method (mean over photos)", "ours (integer)", "float reference", "pixels differing",
                  "ours stochastic", "band-pass"],
                 [[m, fmt(mean(m, "int")), fmt(mean(m, "float")), f"{100 * mean(m, 'differ'):.1f}%",
                   fmt(mean(m, "stochastic")), fmt(mean(m, "bandpass"))] for m in METHODS]), ""]
    differ = [100 * e["differ"] for m in METHODS for e in per_method[m]]
    gap = max(abs(e["int"] - e["float"]) for m in METHODS for e in per_method[m])
    fs = mean("floyd-steinberg", "int")
    cost = [mean(m, "int") - mean(m, "stochastic") for m in METHODS]
    out.append(f"Our integer rule rounds the mean of the incoming errors at every pixel, so its pixels differ "
               f"from the float algorithm's in {min(differ):.0f}% to {max(differ):.0f}% of the places (error "
               f"diffusion is chaotic: one different decision changes the ones after it), while the two WSNRs "
               f"differ by {gap:.2f} dB at most: the same quality. The stochastic variant (p = "
               f"{data['stochastic_amplitude']:.1f}) scores {min(cost):.1f} to {max(cost):.1f} dB lower than the "
               "deterministic one on average. The document's serial mean, "
               f"{DOC_T14_MEANS[2]:.2f} dB, is {fs - DOC_T14_MEANS[2]:.0f} dB below our Floyd-Steinberg mean at "
               "our viewing condition; its script, CSF and viewing condition are not given, and a band-pass CSF "
               "viewed from nearer can fall that low, so its figures cannot be checked. Its CUDA scoring higher "
               "than its serial code does not mean better halftoning: its racing CUDA code produces another "
               "image than the serial one.")
    out.append("")
    return out


def section(ctx):
    with tempfile.TemporaryDirectory() as tmp:
        data = ctx.run_json("halftone_seeds", "--halftones", tmp, *[path for _, path in ctx.photos])
        threads = data["openmp_threads"]
        out = ["## Halftoning: error diffusion on serial, OpenMP and CUDA (seed 001)", "",
               "A course project that halftones grey images with six error-diffusion kernels (Floyd-Steinberg, "
               "Stevenson-Arce, Burkes, Sierra, Stucki, Jarvis-Judice-Ninke) and a stochastic variant that "
               "scales each error by (1 + r), r uniform in (-p, p), in serial C++, OpenMP and CUDA. "
               f"Its machine: {DOC_MACHINE}. Ours: {ctx.machine['cpu']}, {ctx.machine['threads']} threads; "
               f"GPU: {ctx.machine['gpu'] or 'none'}. The element is `cudahalftone` "
               "([halftone.md](halftone.md)); the measurements are `pipelines/halftone_seeds` and "
               "`pipelines/wsnr.py`.", ""]
        out += timing_section(data, threads)
        out += wsnr_section(data, ctx.quick)
    return "\n".join(out) + "\n"
