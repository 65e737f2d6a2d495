#!/usr/bin/python3
"""Lossless compression of cudaj2kenc against opj_compress, FFV1, PNG and JPEG-LS, in bits per pixel.

For each picture (opencv-doc photos, and frames of its vtest.avi), as 8-bit RGB and as 8-bit grey (Pillow's
ITU-R 601 luma), it codes the same pixels losslessly with:
  - ours: gst-launch-1.0 ... ! cudaj2kenc backend=openmp (the plugin from --plugin), reversible, 5 levels,
    64 x 64 code-blocks, 1 layer, LRCP (the RCT on RGB);
  - opj_compress at the same settings (-n 6 -b 64,64 -p LRCP, -mct 1 on RGB);
  - FFV1 (ffmpeg -c:v ffv1 -level 3 -coder 1 -context 1; RGB as gbrp, which FFV1 codes through its own RCT);
  - PNG (Pillow, optimize=True: zlib level 9, adaptive filters);
  - JPEG-LS (CharLS, libcharls2, through ctypes: near = 0, RGB sample-interleaved, no colour transform).
Every file is decoded again and compared with the input (opj_decompress for both JPEG 2000 codestreams, ffmpeg for
FFV1, Pillow for PNG, CharLS for JPEG-LS), and opj_dump must report the same image and coding parameters (SIZ,
COD) for ours and opj_compress's, or the tool stops; how their QCD differs (guard bits, exponents) is a column of
the table. A file's size is its bytes: the whole codestream for JPEG 2000
and JPEG-LS, the PNG file, the FFV1 frame packet plus its global header (no container). bits per pixel =
bytes * 8 / (width * height).

Beside each JPEG 2000 pair the tool splits the bytes into headers (main header and tile-part headers up to SOD, EOC)
and packet data, and lists the marker segments, so a difference can be traced to one or the other.

Usage:
  pipelines/j2k_compression.py --plugin build/gst --out pipelines/results/j2k-compression.md

Needs (Debian): gstreamer1.0-plugins-bad (rawvideoparse), libopenjp2-tools, ffmpeg, python3-pil, libcharls2.
"""
import argparse
import ctypes
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

from PIL import Image

OPENCV_DATA = "/usr/share/doc/opencv-doc/examples/data"
PHOTOS = ["baboon.jpg", "board.jpg", "building.jpg", "fruits.jpg", "sudoku.png", "starry_night.jpg",
          "smarties.png", "aloeL.jpg"]
FRAMES = [100, 400, 700]
TOOLS = ["gst-launch-1.0", "opj_compress", "opj_decompress", "opj_dump", "ffmpeg", "ffprobe"]

MARKERS = {0xFF4F: "SOC", 0xFF50: "CAP", 0xFF51: "SIZ", 0xFF52: "COD", 0xFF53: "COC", 0xFF55: "TLM", 0xFF57: "PLM",
           0xFF58: "PLT", 0xFF5C: "QCD", 0xFF5D: "QCC", 0xFF5E: "RGN", 0xFF5F: "POC", 0xFF60: "PPM", 0xFF61: "PPT",
           0xFF63: "CRG", 0xFF64: "COM", 0xFF90: "SOT", 0xFF93: "SOD", 0xFFD9: "EOC"}


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, **kw)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n{result.stderr.decode(errors='replace')}")
    return result.stdout


# ---- the inputs -----------------------------------------------------------------------------------------------

def load_pictures(data, photos, frames, tmp):
    """(name, RGB Pillow image) for each photo and each frame of vtest.avi (decoded by ffmpeg)."""
    pictures = []
    for name in photos:
        pictures.append((name, Image.open(os.path.join(data, name)).convert("RGB")))
    for n in frames:
        png = os.path.join(tmp, f"vtest-{n}.png")
        run(["ffmpeg", "-y", "-loglevel", "error", "-i", os.path.join(data, "vtest.avi"), "-vf",
             f"select=eq(n\\,{n})", "-frames:v", "1", "-pix_fmt", "rgb24", png])
        pictures.append((f"vtest.avi frame {n}", Image.open(png).convert("RGB")))
    return pictures


def gst_stride(width, channels):
    """GStreamer's default stride for RGB and GRAY8: rows rounded up to 4 bytes."""
    return (width * channels + 3) // 4 * 4


# ---- the coders: each returns the coded size in bytes, after checking that its file decodes to the input -------

def code_ours(image, tmp, props=(), lossless=True, name="ours.j2k"):
    """cudaj2kenc at the settings above, then `props` (later properties win); checked when lossless."""
    w, h = image.size
    channels = len(image.getbands())
    stride = gst_stride(w, channels)
    raw = os.path.join(tmp, "in.raw")
    tight = image.tobytes()
    with open(raw, "wb") as f:
        for y in range(h):
            row = tight[y * w * channels:(y + 1) * w * channels]
            f.write(row + bytes(stride - len(row)))
    out = os.path.join(tmp, name)
    fmt = "rgb" if channels == 3 else "gray8"
    run(["gst-launch-1.0", "-q", "filesrc", f"location={raw}", f"blocksize={stride * h}", "!", "rawvideoparse",
         "use-sink-caps=false", f"format={fmt}", f"width={w}", f"height={h}", "framerate=1/1", "!", "cudaj2kenc",
         "backend=openmp", "reversible=true", "levels=5", "codeblock-width=64", "codeblock-height=64", "layers=1",
         "progression=lrcp", *props, "!", "filesink", f"location={out}"])
    if lossless:
        check_j2k_decodes(out, image, tmp)
    return out


def code_opj(image, tmp):
    src = os.path.join(tmp, "in.ppm" if image.mode == "RGB" else "in.pgm")
    image.save(src)
    out = os.path.join(tmp, "opj.j2k")
    mct = ["-mct", "1"] if image.mode == "RGB" else []
    run(["opj_compress", "-i", src, "-o", out, "-n", "6", "-b", "64,64", "-p", "LRCP"] + mct)
    check_j2k_decodes(out, image, tmp)
    return out


def check_j2k_decodes(path, image, tmp):
    back = os.path.join(tmp, "back.ppm" if image.mode == "RGB" else "back.pgm")
    run(["opj_decompress", "-i", path, "-o", back])
    if Image.open(back).convert(image.mode).tobytes() != image.tobytes():
        sys.exit(f"opj_decompress does not give the input back from {os.path.basename(path)}")


def code_ffv1(image, tmp):
    w, h = image.size
    rgb = image.mode == "RGB"
    out = os.path.join(tmp, "ffv1.nut")
    pix_in, pix_coded = ("rgb24", "gbrp") if rgb else ("gray", "gray")
    run(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", pix_in, "-s", f"{w}x{h}", "-i", "-",
         "-c:v", "ffv1", "-level", "3", "-coder", "1", "-context", "1", "-pix_fmt", pix_coded, out],
        input=image.tobytes())
    back = run(["ffmpeg", "-loglevel", "error", "-i", out, "-f", "rawvideo", "-pix_fmt", pix_in, "-"])
    if back != image.tobytes():
        sys.exit("ffmpeg does not give the input back from the FFV1 file")
    probe = run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                 "packet=size:stream=extradata_size", "-of", "default=noprint_wrappers=1", out]).decode()
    values = dict(line.split("=") for line in probe.split())
    return int(values["size"]) + int(values.get("extradata_size", 0))


def code_png(image, tmp):
    out = os.path.join(tmp, "image.png")
    image.save(out, optimize=True)
    if Image.open(out).convert(image.mode).tobytes() != image.tobytes():
        sys.exit("Pillow does not give the input back from the PNG file")
    return os.path.getsize(out)


class CharLS:
    """The C API of CharLS 2 (charls.h), through ctypes."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcharls.so.2")
        self.lib.charls_get_version_string.restype = ctypes.c_char_p
        for name in ("charls_jpegls_encoder_create", "charls_jpegls_decoder_create"):
            getattr(self.lib, name).restype = ctypes.c_void_p
        for name in ("charls_jpegls_encoder_destroy", "charls_jpegls_decoder_destroy"):
            getattr(self.lib, name).argtypes = [ctypes.c_void_p]
        self.lib.charls_jpegls_encoder_set_frame_info.argtypes = [ctypes.c_void_p, ctypes.POINTER(FrameInfo)]
        self.lib.charls_jpegls_encoder_set_interleave_mode.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.charls_jpegls_encoder_set_destination_buffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                                           ctypes.c_size_t]
        self.lib.charls_jpegls_encoder_encode_from_buffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                                      ctypes.c_size_t, ctypes.c_uint32]
        self.lib.charls_jpegls_encoder_get_bytes_written.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
        self.lib.charls_jpegls_decoder_set_source_buffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        self.lib.charls_jpegls_decoder_read_header.argtypes = [ctypes.c_void_p]
        self.lib.charls_jpegls_decoder_get_destination_size.argtypes = [ctypes.c_void_p, ctypes.c_uint32,
                                                                        ctypes.POINTER(ctypes.c_size_t)]
        self.lib.charls_jpegls_decoder_decode_to_buffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                                                    ctypes.c_uint32]

    def version(self):
        return self.lib.charls_get_version_string().decode()

    def check(self, errc, what):
        if errc != 0:
            sys.exit(f"CharLS {what} failed: error {errc}")

    def encode(self, pixels, w, h, components):
        encoder = self.lib.charls_jpegls_encoder_create()
        try:
            info = FrameInfo(w, h, 8, components)
            self.check(self.lib.charls_jpegls_encoder_set_frame_info(encoder, ctypes.byref(info)), "set_frame_info")
            if components > 1:
                sample_interleave = 2
                self.check(self.lib.charls_jpegls_encoder_set_interleave_mode(encoder, sample_interleave), "interleave")
            capacity = len(pixels) * 2 + 4096
            dest = ctypes.create_string_buffer(capacity)
            self.check(self.lib.charls_jpegls_encoder_set_destination_buffer(encoder, dest, capacity), "destination")
            self.check(self.lib.charls_jpegls_encoder_encode_from_buffer(encoder, pixels, len(pixels), 0), "encode")
            written = ctypes.c_size_t()
            self.check(self.lib.charls_jpegls_encoder_get_bytes_written(encoder, ctypes.byref(written)), "bytes")
            return dest.raw[:written.value]
        finally:
            self.lib.charls_jpegls_encoder_destroy(encoder)

    def decode(self, stream):
        decoder = self.lib.charls_jpegls_decoder_create()
        try:
            self.check(self.lib.charls_jpegls_decoder_set_source_buffer(decoder, stream, len(stream)), "source")
            self.check(self.lib.charls_jpegls_decoder_read_header(decoder), "read_header")
            size = ctypes.c_size_t()
            self.check(self.lib.charls_jpegls_decoder_get_destination_size(decoder, 0, ctypes.byref(size)), "size")
            dest = ctypes.create_string_buffer(size.value)
            self.check(self.lib.charls_jpegls_decoder_decode_to_buffer(decoder, dest, size.value, 0), "decode")
            return dest.raw
        finally:
            self.lib.charls_jpegls_decoder_destroy(decoder)


class FrameInfo(ctypes.Structure):
    _fields_ = [("width", ctypes.c_uint32), ("height", ctypes.c_uint32), ("bits_per_sample", ctypes.c_int32),
                ("component_count", ctypes.c_int32)]


def code_jpegls(image, charls):
    w, h = image.size
    pixels = image.tobytes()
    stream = charls.encode(pixels, w, h, len(image.getbands()))
    if charls.decode(stream) != pixels:
        sys.exit("CharLS does not give the input back from its JPEG-LS stream")
    return len(stream)


# ---- the JPEG 2000 pair: settings and where the bytes are -------------------------------------------------------

def coding_parameters(path):
    """opj_dump's image header and main-header coding parameters, split into the QCD lines (quantisation style,
    guard bits, step exponents and mantissas) and all the others (SIZ, COD)."""
    text = run(["opj_dump", "-i", path]).decode()
    start = text.index("Image info {")
    end = text.index("Codestream index") if "Codestream index" in text else len(text)
    qcd_keys = ("qntsty", "numgbits", "stepsizes")
    lines = [line.strip() for line in text[start:end].splitlines()]
    return [l for l in lines if not l.startswith(qcd_keys)], [l for l in lines if l.startswith(qcd_keys)]


def qcd_difference(ours, opj):
    """'same', or how ours differs from opj_compress's QCD: guard bits, and the exponents' offset when it is one
    offset for every subband of every component."""
    if ours == opj:
        return "same"
    notes = []
    pairs = lambda lines, key: [l for l in lines if l.startswith(key)]
    if pairs(ours, "qntsty") != pairs(opj, "qntsty"):
        notes.append("style")
    g_ours, g_opj = pairs(ours, "numgbits"), pairs(opj, "numgbits")
    if g_ours != g_opj:
        notes.append("guard bits " + g_ours[0].split("=")[1] + " (opj " + g_opj[0].split("=")[1] + ")")
    exps = lambda lines: [int(e) for l in pairs(lines, "stepsizes") for e in re.findall(r",(\d+)\)", l)]
    offsets = {a - b for a, b in zip(exps(ours), exps(opj))}
    if len(offsets) == 1 and offsets != {0}:
        notes.append(f"exponents {offsets.pop():+d}")
    elif offsets != {0}:
        notes.append("exponents")
    return ", ".join(notes)


def marker_segments(path):
    """The codestream's marker segments in order, as (name, bytes including the marker), and the packet data of
    its tile-parts, joined."""
    data = open(path, "rb").read()
    out = []
    packets = b""
    pos = 0
    tile_part_end = len(data)
    while pos < len(data):
        marker = int.from_bytes(data[pos:pos + 2], "big")
        name = MARKERS.get(marker, f"0x{marker:04X}")
        if name in ("SOC", "EOC"):
            out.append((name, 2))
            pos += 2
            continue
        if name == "SOD":
            out.append((name, 2))
            packets += data[pos + 2:tile_part_end]
            pos = tile_part_end
            continue
        length = int.from_bytes(data[pos + 2:pos + 4], "big")
        if name == "SOT":
            psot = int.from_bytes(data[pos + 6:pos + 10], "big")
            tile_part_end = pos + psot if psot else len(data) - 2
        out.append((name, length + 2))
        pos += length + 2
    return out, packets


def segment_list(segs):
    return ", ".join(f"{name} {n}" for name, n in segs)


# ---- the report ----------------------------------------------------------------------------------------------

def versions(charls):
    # opj_compress -h exits with 1 after printing its help, which names the library's version.
    opj = subprocess.run(["opj_compress", "-h"], capture_output=True, text=True).stdout
    opj = next(line for line in opj.splitlines() if "openjp2 library" in line).split("library v")[1].strip(" .")
    ffmpeg = run(["ffmpeg", "-version"]).decode().splitlines()[0].split()[2]
    gst = run(["gst-launch-1.0", "--version"]).decode().splitlines()[1].split()[1]
    zlib = Image.core.zlib_version if hasattr(Image.core, "zlib_version") else "?"
    return (f"OpenJPEG {opj} (opj_compress, opj_decompress, opj_dump), ffmpeg {ffmpeg} (FFV1), "
            f"Pillow {Image.__version__} with zlib {zlib} (PNG), CharLS {charls.version()} (JPEG-LS), "
            f"GStreamer {gst}")


def bpp(size, image):
    w, h = image.size
    return 8.0 * size / (w * h)


def measure(pictures, charls, tmp):
    rows = {"RGB": [], "GRAY8": []}
    for name, rgb in pictures:
        for mode, image in (("RGB", rgb), ("GRAY8", rgb.convert("L"))):
            ours = code_ours(image, tmp)
            opj = code_opj(image, tmp)
            (ours_rest, ours_qcd), (opj_rest, opj_qcd) = coding_parameters(ours), coding_parameters(opj)
            if ours_rest != opj_rest:
                diff = [f"ours: {a} | opj_compress: {b}" for a, b in zip(ours_rest, opj_rest) if a != b]
                sys.exit(f"{name} {mode}: opj_dump reports different image or coding parameters:\n" + "\n".join(diff))
            row = {"name": name, "image": image, "ours": os.path.getsize(ours), "opj": os.path.getsize(opj),
                   "ours_stream": marker_segments(ours),
                   "opj_stream": marker_segments(opj), "FFV1": code_ffv1(image, tmp),
                   "PNG": code_png(image, tmp), "JPEG-LS": code_jpegls(image, charls),
                   "qcd": qcd_difference(ours_qcd, opj_qcd)}
            rows[mode].append(row)
            print(f"{name} {mode}: ours {row['ours']} B, opj_compress {row['opj']} B", file=sys.stderr)
    return rows


def table(rows, raw_bpp):
    lines = ["| picture | size | ours | opj_compress | ours vs opj | bytes: ours - opj (headers, packets) "
             "| packet data | QCD against opj | FFV1 | PNG | JPEG-LS |",
             "|---|---|---:|---:|---:|---|---|---|---:|---:|---:|"]
    for r in rows:
        image = r["image"]
        w, h = image.size
        ours_packets, opj_packets = r["ours_stream"][1], r["opj_stream"][1]
        diff = r["ours"] - r["opj"]
        head = diff - (len(ours_packets) - len(opj_packets))
        same = "identical" if ours_packets == opj_packets else "differ"
        lines.append(f"| {r['name']} | {w} x {h} | {bpp(r['ours'], image):.3f} | {bpp(r['opj'], image):.3f} "
                     f"| {100.0 * diff / r['opj']:+.3f} % | {diff:+d} ({head:+d}, {diff - head:+d}) | {same} "
                     f"| {r['qcd']} "
                     f"| {bpp(r['FFV1'], image):.3f} | {bpp(r['PNG'], image):.3f} | {bpp(r['JPEG-LS'], image):.3f} |")
    return "\n".join(lines) + f"\n\nbits per pixel; uncompressed: {raw_bpp}.\n"


def percent(r):
    return 100.0 * (r["ours"] - r["opj"]) / r["opj"]


def header_findings(all_rows):
    """Whether both coders write the same marker segments in the same order, and which lengths differ."""
    names = lambda segs: [name for name, _ in segs]
    if any(names(r["ours_stream"][0]) != names(r["opj_stream"][0]) for r in all_rows):
        return "Headers: the marker segments differ (see the list at the end for the first picture)."
    lengths = sorted({f"{a[0]} {a[1]} against {b[1]} bytes" for r in all_rows
                      for a, b in zip(r["ours_stream"][0], r["opj_stream"][0]) if a != b})
    return ("Headers: both coders write the same marker segments in the same order in every codestream; their "
            "lengths differ in " + ("; ".join(lengths) if lengths else "none") + " (COM names the coder).")


def findings(rows):
    """What the tables show about ours against opj_compress, in sentences computed from them."""
    all_rows = rows["RGB"] + rows["GRAY8"]
    low, high = min(all_rows, key=percent), max(all_rows, key=percent)
    identical = [r for r in all_rows if r["ours_stream"][1] == r["opj_stream"][1]]
    out = [f"Ours against opj_compress: from {percent(low):+.3f} % ({low['name']}) to {percent(high):+.3f} % "
           f"({high['name']}); {sum(abs(percent(r)) <= 1.0 for r in all_rows)} of {len(all_rows)} codestreams "
           f"within 1 %. The packet data (packet headers and code-block bytes) is byte for byte opj_compress's in "
           f"{len(identical)} of {len(all_rows)} codestreams."]
    out.append(header_findings(all_rows))
    shifted = [r for r in all_rows if "exponents" in r["qcd"]]
    if shifted:
        out.append("Packets: where QCD differs (" + ", ".join(sorted({r["qcd"] for r in shifted})) + "), ours "
                   "gives each subband a range one bit wider: it takes the depth R_I of E-3 and E-4 (T.800) as the "
                   "samples' plus one, the RCT's colour differences (G.2) being one bit wider than the samples, "
                   "with one QCD for the three components, where opj_compress takes the samples' depth and counts "
                   "on the guard bits. The code-block passes are the same (coding starts at the first non-zero "
                   "bit-plane either way), but each code-block's count of zero bit-planes (B.10.5), coded in a "
                   "tag tree per subband, is one larger: one more bit at each tag tree's root, a few bytes per "
                   "codestream.")
    return "\n\n".join(textwrap.fill(paragraph, 115) for paragraph in out)


def report(rows, args, charls):
    sample = rows["RGB"][0]
    photos = ", ".join(args.photos)
    frames = ", ".join(str(n) for n in args.frames)
    frame_word = "frame" if len(args.frames) == 1 else "frames"
    sources = ([f"opencv-doc's {photos}"] if photos else []) + (
        [f"{frame_word} {frames} of vtest.avi (decoded by ffmpeg)"] if frames else [])
    pictures = (f"Pictures: {', and '.join(sources)}, "
                f"each as 8-bit RGB and as 8-bit grey (Pillow's ITU-R 601 luma of the same RGB).")
    return f"""# Lossless JPEG 2000: cudaj2kenc against opj_compress, FFV1, PNG and JPEG-LS

Made on {datetime.date.today().isoformat()} by `pipelines/j2k_compression.py --plugin build/gst --out
pipelines/results/j2k-compression.md` (the tool's header says how each file is made and checked). The bytes do not
depend on the machine: every backend of cudaj2kenc gives the same codestream.

{textwrap.fill(f"Tools: {versions(charls)}.", 115)}

{textwrap.fill(pictures, 115)}

JPEG 2000, both coders: reversible 5/3 wavelet, 5 levels, 64 x 64 code-blocks, 1 layer, LRCP, one tile, no
precincts, the RCT on RGB. opj_dump reports the same image (SIZ) and coding (COD) parameters for both codestreams
of every picture; QCD as its column says. opj_decompress gives every input back from both. FFV1: level 3, range
coder, large context model, one frame; its size is the frame packet plus the global header. PNG: Pillow's
`optimize=True`. JPEG-LS: CharLS, lossless, RGB sample-interleaved without colour transform (the transforms of
CharLS are HP extensions outside ISO/IEC 14495-1). Every file decodes back to its input.

"ours vs opj" is (ours - opj_compress) / opj_compress in bytes; the next column splits the byte difference into
headers (marker segments, SOT, SOD, EOC) and packets (packet headers and code-block bytes), and "packet data" says
whether the packets are byte for byte the same.

{findings(rows)}

## RGB

{table(rows['RGB'], 24)}
## GRAY8

{table(rows['GRAY8'], 8)}
## Marker segments ({sample['name']}, RGB; bytes including the marker)

- ours: {segment_list(sample['ours_stream'][0])}
- opj_compress: {segment_list(sample['opj_stream'][0])}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plugin", required=True, help="folder of the built plugin (build/gst), put on GST_PLUGIN_PATH")
    ap.add_argument("--out", help="markdown file to write (the table is printed either way)")
    ap.add_argument("--data", default=OPENCV_DATA, help="opencv-doc's data folder (photos and vtest.avi)")
    ap.add_argument("--photos", nargs="*", default=PHOTOS, help="file names in --data")
    ap.add_argument("--frames", nargs="*", type=int, default=FRAMES, help="frame numbers of vtest.avi, from 0")
    args = ap.parse_args()
    if not args.photos and not args.frames:
        sys.exit("--photos and --frames are both empty: nothing to code")
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        sys.exit("missing tools: " + ", ".join(missing) + " (Debian: gstreamer1.0-tools, libopenjp2-tools, ffmpeg)")
    if not os.path.isdir(args.plugin):
        sys.exit(f"--plugin {args.plugin}: not a folder (the build's gst folder, holding the cudafilters plugin)")
    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin)
    charls = CharLS()
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(load_pictures(args.data, args.photos, args.frames, tmp), charls, tmp)
    text = report(rows, args, charls)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
