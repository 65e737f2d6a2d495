"""Section of docs/seeds.md for the JPEG 2000 lecture (seed 002): the DWT
and the encoder's block stage (tier-1) at 720p, 1080p and 4K. The lecture's
text in the seeds folder is empty, so its GTX 285 tables cannot be set
beside ours; this section says so and gives ours."""
from seeds_table import fmt, table

BACKENDS = [("cpu", "serial"), ("openmp", "OpenMP"), ("cuda_device", "CUDA (device)")]


def rows_for(run, key):
    """[size, format] + one value per backend, key(row) giving it."""
    out = {}
    for r in run["rows"]:
        out.setdefault((r["width"], r["height"], r["format"]), {})[r["backend"]] = key(r)
    return [[f"{w}x{h}", f] + [fmt(v.get(b), 3) for b, _ in BACKENDS] for (w, h, f), v in out.items()]


def section(ctx):
    photo = ctx.photos[0][1]
    run = ctx.run_json("j2k_lecture_seeds", photo)
    names = [n for _, n in BACKENDS]
    head = ["size", "format"] + names
    blocks_minus_dwt = lambda r: None if r["lossless"]["blocks_ms"] is None else r["lossless"]["blocks_ms"] - r["dwt53_ms"]
    return "\n".join([
        "## JPEG 2000 on GPUs: DWT and tier-1 (seed 002)",
        "",
        "The lecture's text in the seeds folder is empty (0 bytes), so its DWT and tier-1 figures for the "
        "GTX 285 cannot be quoted beside ours. Ours, on " + ctx.photos[0][0] + " resampled to each size, "
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
