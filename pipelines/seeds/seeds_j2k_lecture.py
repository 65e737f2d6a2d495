"""Section of docs/seeds.md for the JPEG 2000 lecture (seed 002): the DWT
and the encoder's block stage (tier-1) at 720p, 1080p and 4K, beside the
lecture's own figures (its last pages: the DWT against JasPer, context
modelling at 1080p, the MQ coder on a GeForce GTX 580)."""
from seeds_table import fmt, table

BACKENDS = [("cpu", "serial"), ("openmp", "OpenMP"), ("cuda_device", "CUDA (device)")]


def rows_for(run, key):
    """[size, format] + one value per backend, key(row) giving it."""
    out = {}
    for r in run["rows"]:
        out.setdefault((r["width"], r["height"], r["format"]), {})[r["backend"]] = key(r)
    return [[f"{w}x{h}", f] + [fmt(v.get(b), 3) for b, _ in BACKENDS] for (w, h, f), v in out.items()]


# The lecture's figures, ms per frame at 720p, 1080p and 4K (None: not given).
LECTURE_TIER1 = [
    ("lecture, MQ coder, a thread per code-block (GeForce GTX 580)", (38.0, 45.0, 92.9)),
    ("lecture, MQ coder in registers, renormalisation by leading zeros, chunked loads", (7.3, 8.1, 17.6)),
    ("lecture, context modelling, colour", (None, 6.0, None)),
    ("lecture, Kakadu 6.4 (4 threads), MQ coder", (41.0, 84.0, 284.0)),
]
SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


def tier1_beside(run, blocks_minus_dwt):
    """The lecture's tier-1 rows, then ours: CUDA, RGB, context modelling and MQ coding together."""
    ours = {(r["width"], r["height"]): blocks_minus_dwt(r) for r in run["rows"]
            if r["backend"] == "cuda_device" and r["format"] == "RGB"}
    rows = [[name] + [fmt(v, 1) if v is not None else "-" for v in values] for name, values in LECTURE_TIER1]
    rows.append(["ours, H200: tier-1 of the lossless encoder, RGB (context modelling and MQ coding)"] +
                [fmt(ours.get(size), 1) for size in SIZES])
    return table(["", "720p", "1080p", "4K"], rows)


def dwt_1080p(run, key, fmt_name):
    """Ours at 1920x1080 on CUDA: GRAY8 / RGB."""
    v = {r["format"]: r[key] for r in run["rows"]
         if r["backend"] == "cuda_device" and (r["width"], r["height"]) == (1920, 1080)}
    return f"{fmt_name} {fmt(v.get('GRAY8'), 3)} / {fmt(v.get('RGB'), 3)} ms"


def section(ctx):
    photo = ctx.photos[0][1]
    run = ctx.run_json("j2k_lecture_seeds", photo)
    names = [n for _, n in BACKENDS]
    head = ["size", "format"] + names
    blocks_minus_dwt = lambda r: None if r["lossless"]["blocks_ms"] is None else r["lossless"]["blocks_ms"] - r["dwt53_ms"]
    return "\n".join([
        "## JPEG 2000 on GPUs: DWT and tier-1 (seed 002)",
        "",
        "The lecture's last pages time its GPU stages: a DWT of 0.12 ms at 512x512 and 0.81 ms at 1920x1080 "
        "against JasPer's 6 and 55 ms (67.9x; wavelet, levels and GPU not given), context modelling of a "
        "colour 1080p frame in 6 ms against 642 ms for OpenJPEG, 599 for JasPer, 98 for Kakadu and 94 for "
        "CUJ2K (single-threaded CPUs), and the MQ coder on a GeForce GTX 580. Our 5-level DWT at 1920x1080 "
        "on the H200, GRAY8 / RGB: " + dwt_1080p(run, "dwt53_ms", "5/3") + ", " +
        dwt_1080p(run, "dwt97_ms", "9/7") + ". Tier-1, ms per frame:",
        "",
        tier1_beside(run, blocks_minus_dwt),
        "",
        "Ours, on " + ctx.photos[0][0] + " resampled to each size, "
        "ms per frame (best of 3 rounds); CUDA (device): the frame already in GPU memory. "
        "The encoder's codestreams were identical on every backend.",
        "",
        "### 5-level DWT alone: reversible 5/3, ms",
        "",
        table(head, rows_for(run, lambda r: r["dwt53_ms"])),
        "",
        "### 5-level DWT alone: 9/7 in float, ms",
        "",
        table(head, rows_for(run, lambda r: r["dwt97_ms"])),
        "",
        "### Lossless encoder: block stage of the last frame, ms (level shift, colour transform, DWT, tier-1; on CUDA the copies too)",
        "",
        table(head, rows_for(run, lambda r: r["lossless"]["blocks_ms"])),
        "",
        "### Lossless encoder: block stage less the DWT alone, ms (tier-1: context modelling and MQ coding, mostly)",
        "",
        table(head, rows_for(run, blocks_minus_dwt)),
        "",
        "### Whole encoder, lossless, ms",
        "",
        table(head, rows_for(run, lambda r: r["lossless"]["total_ms"])),
        "",
        "### Whole encoder at 1 bit per pixel (9/7, rate allocation), ms",
        "",
        table(head, rows_for(run, lambda r: r["bpp1"]["total_ms"])),
        "",
        "Tier-1 dominates the encoder on every backend, as the lecture's topic has it: the MQ coder codes one "
        "decision at a time, so a GPU can only run code-blocks side by side. The [HTJ2K](htj2k.md) block coder "
        "is the answer to that limit.",
        "",
    ])
