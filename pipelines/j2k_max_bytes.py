#!/usr/bin/env python3
"""cudaj2kenc's max-bytes over a clip: every frame's codestream within the
budget (the element's "cudaj2kenc" messages give each size), and the
quality beside `bitrate` set to the same mean size. The frames are decoded
by GStreamer's openjpegdec and compared with the source (PSNR over Y, U and
V samples together).

    pipelines/j2k_max_bytes.py CLIP.avi FRAMES MAX_BYTES [backend]   (GST_PLUGIN_PATH: the plugin)

Prints a markdown table.
"""
import math
import sys

import gi
import numpy as np

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
from gi.repository import Gst, GstApp  # noqa: E402,F401 (GstApp: appsink.try_pull_sample)


def run(clip, frames, coding):
    """Per frame: the codestream's bytes, those the element's messages give (under max-bytes), the
    PSNR in dB; the counts of source and decoded frames, and the frame size."""
    desc = (f"filesrc location={clip} ! decodebin ! videoconvert ! video/x-raw,format=I420 ! "
            f"identity eos-after={frames} ! tee name=t  t. ! queue ! appsink name=a sync=false "
            f"t. ! queue ! cudaj2kenc {coding} ! image/x-jpc ! tee name=u  u. ! queue ! appsink name=c sync=false "
            f"u. ! queue ! openjpegdec ! videoconvert ! video/x-raw,format=I420 ! appsink name=b sync=false")
    p = Gst.parse_launch(desc)
    sinks = [p.get_by_name("a"), p.get_by_name("b"), p.get_by_name("c")]
    got = [[], [], []]  # source and decoded frames as arrays; the codestreams' lengths
    size = None
    reported = []

    def drain():
        nonlocal size
        for i, s in enumerate(sinks):
            while (sample := s.try_pull_sample(0)) is not None:
                buf = sample.get_buffer()
                if i == 2:
                    got[i].append(buf.get_size())
                    continue
                ok, m = buf.map(Gst.MapFlags.READ)
                got[i].append(np.frombuffer(m.data, np.uint8).copy())
                buf.unmap(m)
                if size is None:
                    caps = sample.get_caps().get_structure(0)
                    size = (caps.get_value("width"), caps.get_value("height"))

    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    while True:
        drain()
        msg = bus.timed_pop(10 * Gst.MSECOND)
        if msg is None:
            continue
        if msg.type == Gst.MessageType.ELEMENT and msg.get_structure().get_name() == "cudaj2kenc":
            reported.append(msg.get_structure().get_value("bytes"))
        elif msg.type == Gst.MessageType.ERROR:
            p.set_state(Gst.State.NULL)
            raise SystemExit(f"{desc}: {msg.parse_error()}")
        elif msg.type == Gst.MessageType.EOS:
            break
    drain()  # what arrived with EOS
    p.set_state(Gst.State.NULL)
    psnr = []
    for a, b in zip(got[0], got[1]):
        mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
        psnr.append(99.0 if mse == 0 else 10 * math.log10(255.0**2 / mse))
    return got[2], reported, psnr, len(got[0]), len(got[1]), size


def main():
    Gst.init(None)
    clip, frames, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    backend = sys.argv[4] if len(sys.argv) > 4 else "auto"
    capped, reported, capped_psnr, n_src, n_dec, (w, h) = run(clip, frames,
                                                             f"backend={backend} reversible=false max-bytes={budget}")
    mean = sum(capped) / len(capped)
    bpp = mean * 8 / (w * h)
    rated, _, rated_psnr, _, _, _ = run(clip, frames, f"backend={backend} reversible=false bitrate={bpp:.4f}")
    rated_mean = sum(rated) / len(rated)
    print(f"{n_src} frames of {w}x{h} I420 ({clip.split('/')[-1]}), decoded by openjpegdec: {n_dec}; backend {backend}")
    print()
    print("| coding | frames | largest bytes | mean bytes | over max-bytes | mean PSNR dB | lowest PSNR dB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| max-bytes={budget} | {len(capped)} | {max(capped)} | {mean:.0f} | {sum(1 for b in capped if b > budget)} | "
          f"{np.mean(capped_psnr):.2f} | {min(capped_psnr):.2f} |")
    print(f"| bitrate={bpp:.4f} (the same mean size) | {len(rated)} | {max(rated)} | {rated_mean:.0f} | "
          f"{sum(1 for b in rated if b > budget)} | {np.mean(rated_psnr):.2f} | {min(rated_psnr):.2f} |")
    print()
    print(f"The element's messages under max-bytes: {len(reported)}, "
          f"{'each the size of its codestream' if reported == capped else 'NOT the codestreams sizes'}.")
    return 0 if max(capped) <= budget and len(capped) == frames and n_dec == n_src == frames and reported == capped else 1


if __name__ == "__main__":
    sys.exit(main())
