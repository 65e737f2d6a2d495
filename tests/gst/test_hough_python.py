#!/usr/bin/env python3
# cudahough's cudahough-lines message read from Python (PyGObject): the
# lines field is a list of Gst.Structure, each line's fields readable with
# get_value. The frame is drawn here: GRAY8 160x120, black, a white column
# at x = 40 and a white row at y = 90. By the definitions at the top of
# core/include/cudafilters/hough.hpp, Sobel edges flank each line one pixel
# away, so the two strongest lines are theta = 0 (vertical), rho = 39 or 41,
# with one vote per row (120), and theta = pi/2, rho = 89 or 91, one vote
# per column (160); rho bins are offset by ceil(|(159, 119)|) + 2 = 201.
# Exits 77 (skip) when PyGObject or GStreamer's typelib is missing.
import math
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
except (ImportError, ValueError) as e:
    print(f"skip: {e}")
    sys.exit(77)

W, H = 160, 120  # width a multiple of 4: GRAY8 rows need no padding
LINE_X, LINE_Y = 40, 90
PTS = 42 * Gst.MSECOND

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def frame():
    data = bytearray(W * H)
    for y in range(H):
        data[y * W + LINE_X] = 255
    for x in range(W):
        data[LINE_Y * W + x] = 255
    return bytes(data)


def run():
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=GRAY8,width={W},height={H},framerate=1/1 "
        "! cudahough backend=cpu max-lines=2 threshold=50 ! fakesink")
    src = pipeline.get_by_name("src")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    buf = Gst.Buffer.new_wrapped(frame())
    buf.pts = PTS
    src.emit("push-buffer", buf)
    src.emit("end-of-stream")
    messages = []
    while True:
        m = bus.timed_pop_filtered(30 * Gst.SECOND,
                                   Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if m is None:
            check(False, "no EOS within 30 s")
            break
        if m.type == Gst.MessageType.ERROR:
            err, debug = m.parse_error()
            check(False, f"pipeline error: {err.message} ({debug})")
            break
        if m.type == Gst.MessageType.EOS:
            break
        s = m.get_structure()
        if s.get_name() == "cudahough-lines":
            messages.append(s.copy())
    pipeline.set_state(Gst.State.NULL)
    return messages


def check_message(s):
    check(s.get_value("timestamp") == PTS, f"timestamp {s.get_value('timestamp')}, want {PTS}")
    check(s.get_value("width") == W and s.get_value("height") == H, "width/height")
    check(s.get_value("theta-bins") == 180 and s.get_value("rho-step") == 1, "theta-bins/rho-step")
    rho_offset = math.ceil(math.hypot(W - 1, H - 1)) + 2
    check(s.get_value("rho-bins") == 2 * rho_offset + 1, f"rho-bins {s.get_value('rho-bins')}")
    lines = s.get_value("lines")  # a GstValueArray here would raise "unknown type GstValueArray"
    check(isinstance(lines, list), f"lines is a {type(lines).__name__}, not a list")
    check(s.get_value("count") == len(lines) == 2, f"count {s.get_value('count')}, {len(lines)} lines, want 2")
    found = set()
    for line in lines:
        check(isinstance(line, Gst.Structure) and line.get_name() == "line", f"line is {line!r}")
        rho, theta = line.get_value("rho"), line.get_value("theta")
        votes, visible = line.get_value("votes"), line.get_value("visible")
        rho_bin, theta_bin = line.get_value("rho-bin"), line.get_value("theta-bin")
        x1, y1, x2, y2 = (line.get_value(k) for k in ("x1", "y1", "x2", "y2"))
        print(f"line rho={rho} theta={theta:.6f} votes={votes} bins=({theta_bin}, {rho_bin}) "
              f"visible={visible} ({x1}, {y1})-({x2}, {y2})")
        check(visible is True, "visible is not True")
        check(abs(theta - theta_bin * math.pi / 180) < 1e-9, f"theta {theta} is not bin {theta_bin}")
        check(rho_bin - rho_offset == rho, f"rho {rho} is not bin {rho_bin}")
        if theta_bin == 0:  # the column: x = rho from the top row to the bottom one
            found.add("vertical")
            check(rho in (LINE_X - 1, LINE_X + 1), f"vertical line at rho {rho}")
            check(votes == H, f"vertical line: {votes} votes, want {H}")
            check(x1 == x2 == rho and sorted((y1, y2)) == [0, H - 1], "vertical line end points")
        elif theta_bin == 90:  # the row: y = rho from the left column to the right one
            found.add("horizontal")
            check(rho in (LINE_Y - 1, LINE_Y + 1), f"horizontal line at rho {rho}")
            check(votes == W, f"horizontal line: {votes} votes, want {W}")
            check(y1 == y2 == rho and sorted((x1, x2)) == [0, W - 1], "horizontal line end points")
        else:
            check(False, f"unexpected line at theta bin {theta_bin}")
    check(found == {"vertical", "horizontal"}, f"found {sorted(found)}")


def main():
    messages = run()
    check(len(messages) == 1, f"{len(messages)} cudahough-lines messages, want 1")
    if messages:
        check_message(messages[0])
    print("FAILED" if failures else "OK")
    return 1 if failures else 0


sys.exit(main())
