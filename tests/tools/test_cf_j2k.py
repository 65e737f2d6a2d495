"""cf-j2k against the third-party JPEG 2000 tools (opj_compress,
opj_decompress, opj_dump, ojph_compress, ojph_expand) on opencv-doc's
photos: what we encode they decode to the input exactly (lossless), what
they encode we decode as they do, info agrees with opj_dump, and bad input
gets a one-line message, exit status 1 or 2 and no output file.

    test_cf_j2k.py PATH/TO/cf-j2k        (photos: CF_TEST_IMAGES or opencv-doc's)
"""
import os
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
from PIL import Image

CF_J2K = sys.argv[1]
PHOTOS = os.environ.get("CF_TEST_IMAGES", "/usr/share/doc/opencv-doc/examples/data")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def samples(path):
    """A PNM's samples; Pillow reads 16-bit PGMs as 'I' images."""
    return np.array(Image.open(path))


def write_pnm(path, a, maxval):
    """Binary PGM/PPM of a (H x W or H x W x 3), 8 or 16 bits."""
    magic = b"P6" if a.ndim == 3 else b"P5"
    data = a.astype(">u2" if maxval > 255 else "u1").tobytes()
    with open(path, "wb") as f:
        f.write(b"%s\n%d %d\n%d\n" % (magic, a.shape[1], a.shape[0], maxval) + data)


def pgx_samples(path):
    """A PGX file's samples (signed ones as their values) and whether it says they are signed."""
    data = open(path, "rb").read()
    end = data.index(b"\n")
    fields = data[2:end].replace(b"-", b" - ").replace(b"+", b" + ").split()
    signed = b"-" in fields
    depth, w, h = (int(v) for v in fields[-3:])
    kind = (">i" if signed else ">u") + ("1" if depth <= 8 else "2")
    return np.frombuffer(data[end + 1:], kind, w * h).reshape(h, w).astype(np.int32), signed


def main():
    tmp = tempfile.mkdtemp(prefix="cf-j2k-")
    t = lambda name: os.path.join(tmp, name)
    inputs = []
    for name in ("baboon.jpg", "building.jpg"):
        rgb = np.array(Image.open(os.path.join(PHOTOS, name)).convert("RGB"))[:301, :417]  # odd sizes
        stem = name.split(".")[0]
        write_pnm(t(stem + ".ppm"), rgb, 255)
        grey = np.array(Image.fromarray(rgb).convert("L"))
        write_pnm(t(stem + ".pgm"), grey, 255)
        inputs += [t(stem + ".ppm"), t(stem + ".pgm")]
    # 12 bits in a 16-bit PGM, and 16 bits.
    write_pnm(t("deep12.pgm"), samples(t("baboon.pgm")).astype(np.uint32) * 16 + 5, 4095)
    write_pnm(t("deep16.pgm"), samples(t("building.pgm")).astype(np.uint32) * 257, 65535)
    inputs += [t("deep12.pgm"), t("deep16.pgm")]

    # Ours, decoded by OpenJPEG (every kind) and OpenJPH (HT codestreams): exact.
    for src in inputs:
        ext = os.path.splitext(src)[1]
        want = samples(src)
        for out, coder in ((".j2k", "part1"), (".jp2", "part1"), (".j2c", "ht"), (".jph", "ht")):
            enc = t("ours" + out)
            r = run(CF_J2K, "encode", "-i", src, "-o", enc, "--coder", coder)
            check(r.returncode == 0, f"encode {src} to {out}: {r.stderr.strip()}")
            dec = t("opj" + ext)
            r = run("opj_decompress", "-i", enc, "-o", dec)
            check(r.returncode == 0 and np.array_equal(samples(dec), want), f"opj_decompress of our {out} of {src}")
            if out == ".j2c":
                r = run("ojph_expand", "-i", enc, "-o", t("ojph" + ext))
                check(r.returncode == 0 and np.array_equal(samples(t("ojph" + ext)), want),
                      f"ojph_expand of our {out} of {src}")
            r = run(CF_J2K, "decode", "-i", enc, "-o", t("back" + ext))
            check(r.returncode == 0 and np.array_equal(samples(t("back" + ext)), want), f"our decode of {out} of {src}")

    # Theirs, decoded by us as by them.
    for src in (t("baboon.ppm"), t("building.pgm"), t("deep12.pgm")):
        ext = os.path.splitext(src)[1]
        for out, args in ((".j2k", ["-r", "20"]), (".jp2", []), (".j2k", ["-n", "3", "-b", "32,32", "-p", "RPCL"])):
            enc = t("theirs" + out)
            check(run("opj_compress", "-i", src, "-o", enc, *args).returncode == 0, f"opj_compress {src} {args}")
            run("opj_decompress", "-i", enc, "-o", t("ref" + ext))
            r = run(CF_J2K, "decode", "-i", enc, "-o", t("mine" + ext))
            check(r.returncode == 0 and np.array_equal(samples(t("mine" + ext)), samples(t("ref" + ext))),
                  f"our decode of opj_compress {args} of {src}: {r.stderr.strip()}")
        if ext == ".pgm":
            for args in (["-reversible", "true"], ["-qstep", "0.01"]):
                enc = t("ojph.j2c")
                check(run("ojph_compress", "-i", src, "-o", enc, *args).returncode == 0, f"ojph_compress {src}")
                run("ojph_expand", "-i", enc, "-o", t("ref.pgm"))
                r = run(CF_J2K, "decode", "-i", enc, "-o", t("mine.pgm"))
                ours, ref = samples(t("mine.pgm")).astype(int), samples(t("ref.pgm")).astype(int)
                # Irreversible: the two decoders' 9/7 may round a sample differently, by one unit
                # of an 8-bit sample (16 of a 12-bit one), in a few samples.
                depth = int(ref.max()).bit_length()
                limit = 0 if "true" in args else 1 << max(0, depth - 8)
                check(r.returncode == 0 and np.abs(ours - ref).max() <= limit and (ours != ref).mean() < 0.001,
                      f"our decode of ojph_compress {args} of {src}: {np.abs(ours - ref).max()} > {limit}")

    # Raw planar frames: I420 of odd size and 12 bits in GRAY16_LE, round trips byte for byte,
    # the chroma's subsampling in the codestream as opj_dump reads it.
    y = samples(t("baboon.pgm")).astype(np.uint8)
    h, w = y.shape
    u = y[::2, ::2] // 2 + 60
    v = 255 - y[1::2, 1::2] if y[1::2, 1::2].shape == u.shape else 255 - u
    with open(t("frame.yuv"), "wb") as f:
        f.write(y.tobytes() + u.tobytes() + v.tobytes())
    r = run(CF_J2K, "encode", "-i", t("frame.yuv"), "-o", t("yuv.j2k"), "--size", f"{w}x{h}", "--format", "I420")
    check(r.returncode == 0, f"raw I420 encode: {r.stderr.strip()}")
    r = run(CF_J2K, "decode", "-i", t("yuv.j2k"), "-o", t("back.yuv"))
    check(r.returncode == 0 and open(t("back.yuv"), "rb").read() == open(t("frame.yuv"), "rb").read(),
          "raw I420 round trip")
    dump = run("opj_dump", "-i", t("yuv.j2k")).stdout
    check(dump.count("dx=2, dy=2") == 2 and dump.count("dx=1, dy=1") == 1, "I420's subsampling in the codestream")
    deep = (y.astype("<u2") * 16 + 5).tobytes()  # 12 bits (Pillow would scale a 12-bit PGM's samples)
    with open(t("deep.raw"), "wb") as f:
        f.write(deep)
    r = run(CF_J2K, "encode", "-i", t("deep.raw"), "-o", t("deep.jph"), "--size", f"{w}x{h}", "--format", "GRAY16_LE",
            "--depth", "12")
    check(r.returncode == 0 and run(CF_J2K, "decode", "-i", t("deep.jph"), "-o", t("deep-back.raw")).returncode == 0
          and open(t("deep-back.raw"), "rb").read() == deep, "raw GRAY16_LE 12-bit round trip through .jph")
    r = run(CF_J2K, "encode", "-i", t("frame.yuv"), "-o", t("x.j2k"), "--size", f"{w + 2}x{h}", "--format", "I420")
    check(r.returncode == 1 and "bytes; a" in r.stderr and not os.path.exists(t("x.j2k")), "a raw frame of the wrong size")

    # PGX, one file per component: ours decoded to PGX is opj_decompress's PGX byte for byte (RGB
    # with its colour transform, 12 bits), and those files encoded again (stem_0.pgx bringing its
    # siblings) decode to the same files; I420 (which opj_decompress turns into RGB) gives its
    # planes at their own sizes and back; a single PGX is one component.
    run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("pgx-rgb.j2k"))
    run(CF_J2K, "encode", "-i", t("deep12.pgm"), "-o", t("pgx-deep.j2k"))
    for enc, stem in ((t("pgx-rgb.j2k"), "rgb"), (t("pgx-deep.j2k"), "deep")):
        run("opj_decompress", "-i", enc, "-o", t(f"opj-{stem}.pgx"))
        r = run(CF_J2K, "decode", "-i", enc, "-o", t(f"ours-{stem}.pgx"))
        made = sorted(f for f in os.listdir(tmp) if f.startswith(f"ours-{stem}_"))
        want = sorted(f for f in os.listdir(tmp) if f.startswith(f"opj-{stem}_"))
        check(r.returncode == 0 and len(made) == len(want) > 0
              and all(open(t(m), "rb").read() == open(t(o), "rb").read() for m, o in zip(made, want)),
              f"PGX of {stem}: ours {made}, opj_decompress's {want}")
        r = run(CF_J2K, "encode", "-i", t(f"opj-{stem}_0.pgx"), "-o", t(f"again-{stem}.j2k"))
        check(r.returncode == 0 and run(CF_J2K, "decode", "-i", t(f"again-{stem}.j2k"), "-o",
                                         t(f"again-{stem}.pgx")).returncode == 0
              and all(open(t(f"again-{stem}_{c}.pgx"), "rb").read() == open(t(o), "rb").read()
                      for c, o in enumerate(want)), f"PGX of {stem} encoded and decoded again: {r.stderr.strip()}")
    r = run(CF_J2K, "decode", "-i", t("yuv.j2k"), "-o", t("yuv.pgx"))
    planes = [np.fromfile(t(f"yuv_{c}.pgx"), np.uint8)[-p.size:].reshape(p.shape) if r.returncode == 0 else None
              for c, p in enumerate((y, u, v))]
    check(r.returncode == 0 and all(np.array_equal(a, p) for a, p in zip(planes, (y, u, v))), "I420 to PGX planes")
    r = run(CF_J2K, "encode", "-i", t("yuv_0.pgx"), "-o", t("again-yuv.j2k"))
    check(r.returncode == 0 and run(CF_J2K, "decode", "-i", t("again-yuv.j2k"), "-o", t("again-yuv.pgx")).returncode == 0
          and all(open(t(f"again-yuv_{c}.pgx"), "rb").read() == open(t(f"yuv_{c}.pgx"), "rb").read() for c in range(3)),
          f"I420 PGX planes encoded and decoded again: {r.stderr.strip()}")
    dump = run("opj_dump", "-i", t("again-rgb.j2k")).stdout
    check("mct=1" in dump, "three full-size PGX components through the colour transform")
    dump = run("opj_dump", "-i", t("again-yuv.j2k")).stdout
    check(dump.count("dx=2, dy=2") == 2 and "mct=0" in dump, "subsampled PGX components as they are")
    os.rename(t("opj-deep_0.pgx"), t("single.pgx"))
    r = run(CF_J2K, "encode", "-i", t("single.pgx"), "-o", t("single.j2k"))
    check(r.returncode == 0 and "numcomps=1" in run("opj_dump", "-i", t("single.j2k")).stdout
          and run("opj_decompress", "-i", t("single.j2k"), "-o", t("single-opj.pgx")).returncode == 0
          and open(t("single-opj_0.pgx"), "rb").read() == open(t("single.pgx"), "rb").read(),
          "a single PGX: one component, opj_decompress gives it back")
    # Signed components (conformance streams p0_03, 4 bits, and p0_08, 12 bits at reduce 1): "PG ML -",
    # byte for byte as opj_decompress writes them, and the samples of T.803's reference decodings.
    conformance = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "j2k-conformance")
    with tarfile.open(os.path.join(conformance, "reference.tar.xz")) as tar:
        tar.extractall(tmp, members=[m for m in tar.getmembers() if "c1p0_03" in m.name or "c1p0_08" in m.name])
    for stream, reduce, components in (("p0_03", "0", 1), ("p0_08", "1", 3)):
        enc = os.path.join(conformance, "streams", stream + ".j2k")
        run("opj_decompress", "-i", enc, "-o", t(f"opj-{stream}.pgx"), "-r", reduce)
        r = run(CF_J2K, "decode", "-i", enc, "-o", t(f"ours-{stream}.pgx"), "--reduce", reduce)
        check(r.returncode == 0, f"{stream} to PGX: {r.stderr.strip()}")
        for c in range(components):
            ours = t(f"ours-{stream}_{c}.pgx")
            same = os.path.exists(ours) and open(ours, "rb").read() == open(t(f"opj-{stream}_{c}.pgx"), "rb").read()
            ref = pgx_samples(t(f"reference/c1{stream}_{c}.pgx"))
            check(same and ref[1] and np.array_equal(pgx_samples(ours)[0], ref[0]),
                  f"{stream} component {c} as signed PGX: opj_decompress's bytes {same}, the reference's samples")

    pgx = open(t("single.pgx"), "rb").read()
    with open(t("cut.pgx"), "wb") as f:
        f.write(pgx[:len(pgx) // 2])
    with open(t("signed.pgx"), "wb") as f:
        f.write(pgx.replace(b"PG ML +", b"PG ML -", 1))
    with open(t("odd_0.pgx"), "wb") as f:
        f.write(b"PG ML + 8 8 8\n" + bytes(64))
    with open(t("odd_1.pgx"), "wb") as f:
        f.write(b"PG ML + 12 8 8\n" + bytes(128))

    # A rate: within the target, decodable.
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("rate.jp2"), "--bitrate", "1")
    target = 301 * 417 / 8
    check(r.returncode == 0 and os.path.getsize(t("rate.jp2")) <= target + 100, "1 bpp within its target")

    # A byte limit: a lossless frame cut to it, still decodable.
    r = run(CF_J2K, "encode", "-i", t("building.ppm"), "-o", t("cap.j2k"), "--max-bytes", "20000")
    check(r.returncode == 0 and 19600 <= os.path.getsize(t("cap.j2k")) <= 20000, "--max-bytes 20000")
    check(run("opj_decompress", "-i", t("cap.j2k"), "-o", t("cap.ppm")).returncode == 0, "opj_decompress of a capped frame")

    # Batches: a folder to a folder and back, a frame pattern, a bad file among good ones.
    os.makedirs(t("batch"))
    for n in range(3):
        write_pnm(t(f"batch/f{n}.ppm"), samples(t("baboon.ppm")) // (n + 1), 255)
    write_pnm(t("batch/g.pgm"), samples(t("building.pgm")), 255)
    r = run(CF_J2K, "encode", "-i", t("batch"), "-o", t("coded"), "--ext", "jp2")
    check(r.returncode == 0 and "4 frames in" in r.stdout, f"folder encode: {r.returncode} {r.stdout!r} {r.stderr!r}")
    r = run(CF_J2K, "decode", "-i", t("coded"), "-o", t("decoded"))
    for name in ("f0.ppm", "f1.ppm", "f2.ppm", "g.pgm"):
        check(os.path.exists(t("decoded/" + name)) and
              np.array_equal(samples(t("decoded/" + name)), samples(t("batch/" + name))), f"folder round trip {name}")
    r = run(CF_J2K, "encode", "-i", t("batch/f%d.ppm"), "-o", t("p%03d.j2c"), "--coder", "ht")
    check(r.returncode == 0 and "3 frames in" in r.stdout and os.path.exists(t("p002.j2c")), "pattern encode")
    with open(t("batch/bad.ppm"), "wb") as f:
        f.write(b"P6\n10 10\n255\n" + bytes(20))
    r = run(CF_J2K, "encode", "-i", t("batch"), "-o", t("kept"), "--keep-going")
    check(r.returncode == 1 and "bad.ppm: truncated" in r.stderr and "4 frames in" in r.stdout and "1 failed" in r.stdout
          and os.path.exists(t("kept/g.j2k")) and not os.path.exists(t("kept/bad.j2k")), f"--keep-going: {r.stdout!r}")
    r = run(CF_J2K, "encode", "-i", t("batch"), "-o", t("stopped"))
    check(r.returncode == 1 and not os.path.exists(t("stopped/f0.j2k")), "a batch stops at its first bad file")

    # info beside opj_dump: size, components, depth and signedness of each.
    for f in (t("ours.jp2"), t("theirs.j2k")):
        mine = run(CF_J2K, "info", f).stdout
        dump = run("opj_dump", "-i", f).stdout
        x1 = int(dump.split("x1=")[1].split(",")[0])
        y1 = int(dump.split("y1=")[1].split("\n")[0])
        comps = int(dump.split("numcomps=")[1].split("\n")[0])
        precs = [int(p.split("\n")[0]) for p in dump.split("prec=")[1:comps + 1]]
        check(f"image: {x1}x{y1}, {comps} components" in mine, f"info of {f}: {mine!r} against opj_dump {x1}x{y1}x{comps}")
        for c, p in enumerate(precs):
            check(f"component {c}: {p} bits unsigned" in mine, f"info of {f}, component {c}: {p} bits")

    # info's coding style beside opj_dump's default tile and first component.
    opj_args = ["-t", "128,128", "-p", "RPCL", "-b", "32,32", "-c", "[64,64],[128,128]", "-SOP", "-EPH"]
    check(run("opj_compress", "-i", t("building.pgm"), "-o", t("styled.j2k"), *opj_args).returncode == 0,
          "opj_compress with tiles, precincts, RPCL")
    check(run("opj_compress", "-i", t("baboon.ppm"), "-o", t("lossy.j2k"), "-I", "-r", "10").returncode == 0,
          "opj_compress -I")
    run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("ht.j2c"), "--coder", "ht", "--block", "32x64")
    # --precincts: sizes from the highest resolution down, the last repeating below; opj_decompress gives
    # the photo back exactly, and info reads them from COD as opj_dump does (below).
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("prec.j2k"), "--levels", "4", "--precincts",
            "128,128,64,32", "--progression", "pcrl", "--tile", "200x160")
    check(r.returncode == 0, f"encode with --precincts: {r.stderr.strip()}")
    r = run("opj_decompress", "-i", t("prec.j2k"), "-o", t("prec.ppm"))
    check(r.returncode == 0 and np.array_equal(samples(t("prec.ppm")), samples(t("baboon.ppm"))),
          "opj_decompress of --precincts 128,128,64,32")
    check("precincts: 64x32 64x32 64x32 64x32 128x128 (resolution 0 first)" in run(CF_J2K, "info", t("prec.j2k")).stdout,
          "info of --precincts 128,128,64,32")
    # --profile dci-2k: an 8-bit photo is refused with what the profile needs; a 12-bit one is coded with
    # the profile's settings (CPRL, 32x32 blocks, precincts 256 and 128) whatever else the line says.
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("dci.j2k"), "--profile", "dci-2k")
    check(r.returncode == 1 and "profile dci-2k: needs 3 components of 12 bits" in r.stderr, "--profile dci-2k of 8 bits")
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("dci.j2k"), "--profile", "dci-8k")
    check(r.returncode == 2 and "--profile dci-8k: none, dci-2k, dci-4k, imf-2k" in r.stderr, "--profile dci-8k")
    # --profile imf-2k-r with a level: Rsiz 0x0700 | sublevel << 4 | main level, exact through opj_decompress;
    # a sublevel the main level does not allow is status 1, a level that does not parse status 2.
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("imf.j2k"), "--profile", "imf-2k-r", "--profile-level", "5,0")
    rsiz = open(t("imf.j2k"), "rb").read()[6:8] if r.returncode == 0 else b""
    decoded = run("opj_decompress", "-i", t("imf.j2k"), "-o", t("imf.ppm"))
    check(r.returncode == 0 and rsiz == bytes([0x07, 0x05]) and decoded.returncode == 0 and
          np.array_equal(samples(t("imf.ppm")), samples(t("baboon.ppm"))), f"--profile imf-2k-r: {r.stderr.strip()} {rsiz}")
    check("capabilities (Rsiz): 0x0705 (IMF 2K reversible, main level 5, sublevel 0)" in run(CF_J2K, "info", t("imf.j2k")).stdout,
          "info of an imf-2k-r codestream")
    # --profile imf-ht: RPCL and HT blocks whatever the line says, a tile-part per resolution; ojph_expand exact.
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("imfht.j2c"), "--profile", "imf-ht", "--progression", "lrcp",
            "--levels", "4")
    info = run(CF_J2K, "info", t("imfht.j2c")).stdout
    expanded = run("ojph_expand", "-i", t("imfht.j2c"), "-o", t("imfht.ppm"))
    check(r.returncode == 0 and "progression: RPCL" in info and "HT (HTJ2K)" in info and "0x4000 (HTJ2K (Part 15))" in info
          and expanded.returncode == 0 and np.array_equal(samples(t("imfht.ppm")), samples(t("baboon.ppm"))),
          f"--profile imf-ht: {r.stderr.strip()}\n{info}")
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("imf.j2k"), "--profile", "imf-2k", "--profile-level", "4,3")
    check(r.returncode == 1 and "sublevel 3 must be 0..2 at main level 4" in r.stderr, "--profile-level 4,3")
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("imf.j2k"), "--profile", "imf-2k", "--profile-level", "4")
    check(r.returncode == 2 and "--profile-level 4: MAIN,SUB" in r.stderr, "--profile-level 4")
    write_pnm(t("deep.ppm"), samples(t("baboon.ppm")).astype(np.uint16) * 16, 4095)
    r = run(CF_J2K, "encode", "-i", t("deep.ppm"), "-o", t("dci.j2k"), "--profile", "dci-2k", "--progression", "lrcp",
            "--block", "64x64")
    dump = run("opj_dump", "-i", t("dci.j2k")).stdout
    check(r.returncode == 0 and "prg=0x4" in dump and "cblkw=2^5" in dump and "(7,7) (8,8)" in dump,
          f"--profile dci-2k of 12 bits: {r.stderr.strip()}")
    # --style: COD's code-block style as opj_dump reads it, and the photo back exactly; a name it does not
    # know is status 2 with the names it knows.
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("style.j2k"), "--style", "bypass,reset,restart,vertical-causal")
    dump = run("opj_dump", "-i", t("style.j2k")).stdout
    decoded = run("opj_decompress", "-i", t("style.j2k"), "-o", t("style.ppm"))
    check(r.returncode == 0 and "cblksty=0xf" in dump and decoded.returncode == 0 and
          np.array_equal(samples(t("style.ppm")), samples(t("baboon.ppm"))), f"--style: {r.stderr.strip()}")
    r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", t("style.j2k"), "--style", "reset,bogus")
    check(r.returncode == 2 and "--style reset,bogus: a list of bypass, reset, restart" in r.stderr, "--style bogus")
    orders = ["LRCP", "RLCP", "RPCL", "PCRL", "CPRL"]
    for f in (t("styled.j2k"), t("lossy.j2k"), t("ht.j2c"), t("ours.j2k"), t("prec.j2k")):
        mine = run(CF_J2K, "info", f).stdout
        dump = run("opj_dump", "-i", f).stdout
        field = lambda name: dump.split(name + "=")[1].split()[0].rstrip(",")
        tile = f"tiles: {field('tdx')}x{field('tdy')} from ({field('tx0')},{field('ty0')}), {field('tw')} across, {field('th')} down"
        levels = int(field("numresolutions")) - 1
        transform = ("5/3 reversible" if field("qmfbid") == "1" else "9/7 irreversible") + f" wavelet, {levels} levels"
        blocks = f"code-blocks: {2 ** int(field('cblkw').split('^')[1])}x{2 ** int(field('cblkh').split('^')[1])}"
        precincts = dump.split("preccintsize (w,h)=")[1].split("\n")[0].split()
        sizes = " ".join(f"{2 ** int(p.strip('()').split(',')[0])}x{2 ** int(p.strip('()').split(',')[1])}"
                         for p in precincts)
        order = f"progression: {orders[int(field('prg'), 0)]}, {field('numlayers')} layers"
        guard = f"{field('numgbits')} guard bits"
        for want in (tile, transform, blocks, "precincts: " + sizes, order, guard):
            check(want in mine, f"info of {os.path.basename(f)}: {want!r} not in\n{mine}")
        ht = int(field("cblksty"), 0) & 0x40 != 0  # opj_dump's code-block style: bit 6, HT code-blocks
        check(("HT (HTJ2K)" in mine) == ht and (ht or "Part 1 (EBCOT)" in mine), f"info of {f}: block coder")

    # info's per-component coding beside opj_dump's default tile, component by component, on the
    # conformance streams (COC in p0_02, p0_08, p1_01, ...): the main COD unless a COC line says otherwise.
    streams = os.path.join(conformance, "streams")
    for name in sorted(os.listdir(streams)):
        mine = run(CF_J2K, "info", os.path.join(streams, name)).stdout
        dump = run("opj_dump", "-i", os.path.join(streams, name)).stdout
        main = mine.split("transform: ")[1].split("\n")[0], mine.split("code-blocks: ")[1].split("\n")[0]
        for c, block in enumerate(dump.split("default tile")[1].split("comp ")[1:5]):
            field = lambda n: block.split(n + "=")[1].split()[0]
            levels = int(field("numresolutions")) - 1
            wavelet = "5/3" if field("qmfbid") == "1" else "9/7"
            cb = f"{2 ** int(field('cblkw').split('^')[1])}x{2 ** int(field('cblkh').split('^')[1])}"
            style = int(field("cblksty"), 0)
            precincts = " ".join(f"{2 ** int(p.strip('()').split(',')[0])}x{2 ** int(p.strip('()').split(',')[1])}"
                                 for p in block.split("preccintsize (w,h)=")[1].split("\n")[0].split())
            coc = [l for l in mine.splitlines() if l.startswith(f"component {c} (COC):")]
            if coc:
                want = (f"component {c} (COC): {wavelet} wavelet, {levels} levels, code-blocks {cb}, "
                        f"style 0x{style:02x}, precincts {precincts}")
                ok = coc[0] == want
            else:
                want = f"{wavelet} ... {levels} levels, {cb}, style 0x{style:02x}, precincts {precincts}"
                ok = (main[0].startswith(wavelet) and main[0].endswith(f"{levels} levels") and main[1].startswith(cb)
                      and main[1].endswith(f"style 0x{style:02x}") and f"precincts: {precincts} (" in mine)
            check(ok, f"info of {name}, component {c}: want {want!r} in\n{mine}")
    # A tile's own COD (a copy of the main one with 32-sample-wide code-blocks put in the tile-part
    # header of our one-tile stream): a line for the tile. Headers only: info decodes nothing.
    cs = bytearray(open(t("ours.j2k"), "rb").read())
    cod = cs.index(b"\xff\x52")
    segment = bytearray(cs[cod:cod + 2 + (cs[cod + 2] << 8 | cs[cod + 3])])
    segment[10] -= 1  # SPcod's code-block width exponent: after the marker, Lcod, Scod, SGcod's 4 bytes and NL
    sot = cs.index(b"\xff\x90")
    sod = cs.index(b"\xff\x93", sot)
    psot = int.from_bytes(cs[sot + 6:sot + 10], "big") + len(segment)
    cs[sot + 6:sot + 10] = psot.to_bytes(4, "big")
    cs[sod:sod] = segment
    with open(t("tile-cod.j2k"), "wb") as f:
        f.write(cs)
    mine = run(CF_J2K, "info", t("tile-cod.j2k")).stdout
    check("tile 0, component 0 (tile-part header): 5/3 wavelet, 5 levels, code-blocks 32x64" in mine,
          f"info of a tile-part COD:\n{mine}")

    # --markers: TLM in the main header (info lists it, opj_decompress reads a tile by it), PLT in the
    # tile-part headers, here with a tile-part per resolution (RPCL); OpenJPEG and OpenJPH decode the
    # streams exactly.
    want = samples(t("baboon.ppm"))
    for out, coder in ((".j2k", "part1"), (".j2c", "ht")):
        enc = t("marked" + out)
        r = run(CF_J2K, "encode", "-i", t("baboon.ppm"), "-o", enc, "--coder", coder, "--tile", "128x128",
                "--markers", "tlm,plt", "--progression", "rpcl", "--tile-parts", "resolution")
        check(r.returncode == 0, f"encode with --markers tlm,plt ({coder}): {r.stderr.strip()}")
        check("TLM" in run(CF_J2K, "info", enc).stdout, f"info of {out} with --markers: TLM listed")
        r = run("opj_decompress", "-i", enc, "-o", t("marked.ppm"))
        check(r.returncode == 0 and np.array_equal(samples(t("marked.ppm")), want), f"opj_decompress of {out} with TLM, PLT")
        r = run("opj_decompress", "-i", enc, "-o", t("tile5.ppm"), "-t", "5")
        check(r.returncode == 0 and np.array_equal(samples(t("tile5.ppm")), want[128:256, 128:256]),
              f"opj_decompress -t 5 of {out} with TLM")
        if coder == "ht":
            r = run("ojph_expand", "-i", enc, "-o", t("marked-ojph.ppm"))
            check(r.returncode == 0 and np.array_equal(samples(t("marked-ojph.ppm")), want),
                  f"ojph_expand of {out} with TLM, PLT")

    # Bad input: a one-line message, status 1 (input) or 2 (command line), no output.
    with open(t("cut.ppm"), "wb") as f:
        f.write(open(t("baboon.ppm"), "rb").read()[:5000])
    with open(t("junk.j2k"), "wb") as f:
        f.write(os.urandom(3000))
    cases = [
        (["encode", "-i", t("missing.ppm"), "-o", t("x.j2k")], 1, "missing.ppm"),
        (["encode", "-i", t("cut.ppm"), "-o", t("x.j2k")], 1, "truncated"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.png")], 2, ".j2k, .j2c, .jp2 or .jph"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--levels", "40"], 2, "--levels"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--frobnicate", "1"], 2, "unknown option"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--markers", "tlm,sop"], 2, "--markers"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--tile-parts", "precinct"], 2, "--tile-parts"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--precincts", "128,100"], 2,
         '--precincts "128,100": "100" is not a power of two'),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--precincts", "128,128,64"], 2, "width,height pairs"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--precincts", "64,64,1,1"], 1, "at least 2x2"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--tile-parts", "layer", "--layers", "300"], 1, "TNsot"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.jph"), "--coder", "part1"], 2, "HT code-blocks"),
        (["encode", "-i", t("baboon.ppm"), "-o", t("x.j2k"), "--levels", "12"], 1, "levels"),
        (["encode", "-i", t("cut.pgx"), "-o", t("x.j2k")], 1, "truncated"),
        (["encode", "-i", t("signed.pgx"), "-o", t("x.j2k")], 1, "signed"),
        (["encode", "-i", t("odd_0.pgx"), "-o", t("x.j2k")], 1, "one depth for every component"),
        (["decode", "-i", t("junk.j2k"), "-o", t("x.ppm")], 1, "neither a codestream"),
        (["decode", "-i", t("ours.j2k"), "-o", t("x.ppm")], 1, "component"),
        (["frobnicate"], 2, "unknown subcommand"),
    ]
    for args, status, words in cases:
        for leftover in ("x.j2k", "x.ppm", "x.png", "x.jph"):
            if os.path.exists(t(leftover)):
                os.remove(t(leftover))
        r = run(CF_J2K, *args)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        check(r.returncode == status and words in first and first.startswith("cf-j2k: "),
              f"{args}: status {r.returncode} (want {status}), message {first!r} (want {words!r})")
        check(not any(os.path.exists(t(x)) for x in ("x.j2k", "x.ppm", "x.png", "x.jph")), f"{args} left a file")

    print(f"cf-j2k: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
