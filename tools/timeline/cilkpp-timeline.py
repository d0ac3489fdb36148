#!/usr/bin/env python3
"""Draws a CILKPP_TRACE event log as a PNG timeline, one lane per worker.

usage: cilkpp-timeline.py TRACE -o OUT.png [--width PIXELS] [--title TEXT]

The trace (written by the runtime at exit) has a 'workers N' line, optional
'speed WORKER VALUE' lines and records 'TIME_NS WORKER EVENT [VICTIM]'. A
worker stays in an activity (work, steal-loop, idle, none) until its next
one; steal, mug and mugged are points in time. Standard library only, so that
the tool runs wherever the runtime does: the PNG and the font are built here.
Bad input: one-line error and exit status 1; bad options or files: status 2.
"""
import argparse
import math
import struct
import sys
import zlib
from array import array

ACTIVITIES = ("work", "steal-loop", "idle", "none")
POINTS = ("steal", "mug", "mugged")
MAX_WORKERS = 1024  # the runtime's own limit (CILKPP_NWORKERS)

COLOURS = {
    "page": (255, 255, 255), "lane": (236, 236, 236), "text": (30, 30, 30),
    "axis": (90, 90, 90), "work": (30, 120, 50), "steal-loop": (222, 216, 150),
    "steal": (30, 80, 220), "mug": (215, 30, 30), "mugged": (245, 140, 0),
}

# 5x8 bitmap font: 8 rows (the last for descenders), one base-32 digit per
# row, whose 5 bits are the pixels from left to right. Characters without a
# glyph are drawn as BOX.
FONT = {g[0]: g[1:] for g in """
    0ehjlphe0 14c4444e0 2eh1248v0 3v2421he0 426aiv220 5vgu11he0 668guhhe0
    7v1248880 8ehhehhe0 9ehhf12c0 Aehhvhhh0 Buhhuhhu0 Cehggghe0 Dsihhhis0
    Evgguggv0 Fvgguggg0 Gehgnhhf0 Hhhhvhhh0 Ie44444e0 J72222ic0 Khikokih0
    Lggggggv0 Mhrllhhh0 Nhhpljhh0 Oehhhhhe0 Puhhuggg0 Qehhhlid0 Ruhhukih0
    Sfgge11u0 Tv4444440 Uhhhhhhe0 Vhhhhha40 Whhhllla0 Xhha4ahh0 Yhha44440
    Zv1248gv0 a00e1fhf0 bggmphhu0 c00egghe0 d11djhhf0 e00ehvge0 f698s8880
    g00fhhf1e hggmphhh0 i40c444e0 j206222ic kggikoki0 lc44444e0 m00qllhh0
    n00mphhh0 o00ehhhe0 p00uhhugg q00fhhf11 r00mpggg0 s00fge1u0 t88s88960
    u00hhhjd0 v00hhha40 w00hhlla0 x00ha4ah0 y00hhhf1e z00v248v0 .00000cc0
    ,00000c48 :0cc0cc00 (24888420 )84222480 -000e0000 _0000000v /11248gg0
    %op248j30 =00v0v000""".split()}
FONT[" "] = "00000000"
BOX = "vhhhhhv0"
SCALE = 2                   # font pixels are SCALE x SCALE image pixels
ADVANCE = 6 * SCALE         # glyph width plus one column of spacing
TEXT_H = 8 * SCALE

MARGIN, MARK_H, BAR_H, LANE_GAP, TICK_GAP = 12, 8, 24, 6, 40
LANE_H = MARK_H + BAR_H + MARK_H + LANE_GAP


class TraceError(Exception):
    """Bad trace contents, reported with the line number (exit status 1)."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line, self.message = line, message


class UsageError(Exception):
    """Bad options (exit status 2, like unreadable or unwritable files)."""


class Trace:
    """Per worker: activity changes (times, codes into ACTIVITIES) and point
    events, in arrays since a trace may hold a million records per worker."""

    def __init__(self, workers):
        self.workers = workers
        self.speeds = {}
        self.times = [array("q") for _ in range(workers)]
        self.codes = [bytearray() for _ in range(workers)]
        self.points = {kind: [array("q") for _ in range(workers)] for kind in POINTS}
        self.last = [0] * workers  # each worker's latest time, to catch disorder
        self.end_ns = 0
        self.records = 0

    def label(self, worker):
        """Lane label: the worker and, when measured, its speed."""
        speed = self.speeds.get(worker)
        return f"worker {worker}" + ("" if speed is None else f" speed {speed:.3g}")

    def worker(self, text, what="worker"):
        """A worker index, which the 'workers' line bounds."""
        value = number(text, what)
        if value >= self.workers:
            raise ValueError(f"{what} {value} out of range: the trace has {self.workers} workers")
        return value

    def add_speed(self, fields):
        """Takes 'speed WORKER VALUE'."""
        if len(fields) != 3:
            raise ValueError("expected 'speed WORKER VALUE'")
        worker = self.worker(fields[1])
        try:
            speed = float(fields[2])
        except ValueError:
            speed = math.nan
        if not 0 <= speed < math.inf:
            raise ValueError(f"bad speed '{fields[2]}': expected a number of at least 0")
        self.speeds[worker] = speed

    def add_record(self, fields):
        """Takes 'TIME_NS WORKER EVENT [VICTIM]'."""
        if len(fields) < 3:
            raise ValueError("expected 'TIME_NS WORKER EVENT [VICTIM]'")
        time, worker, event, args = number(fields[0], "time"), self.worker(fields[1]), fields[2], fields[3:]
        names = ACTIVITIES + POINTS
        if event not in names:
            raise ValueError(f"unknown event '{event}' (expected {', '.join(names[:-1])} or {names[-1]})")
        wants_victim = event in ("steal", "mug")
        if len(args) != (1 if wants_victim else 0):
            raise ValueError(f"'{event}' needs a victim worker" if wants_victim else f"'{event}' takes no argument")
        if wants_victim:
            self.worker(args[0], "victim")
        if time < self.last[worker]:
            raise ValueError(f"time goes backwards for worker {worker}: {time} after {self.last[worker]}")
        self.last[worker] = time
        self.end_ns = max(self.end_ns, time)
        self.records += 1
        if event in POINTS:
            self.points[event][worker].append(time)
        else:
            self.times[worker].append(time)
            self.codes[worker].append(ACTIVITIES.index(event))


def number(text, what):
    """A whole number: int() alone would accept '+1', '1_0' and ' 1'. At most
    18 digits (31 years in nanoseconds) fit the 64-bit arrays."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"bad {what} '{text}': expected a whole number")
    if len(text) > 18:
        raise ValueError(f"bad {what} '{text}': too large")
    return int(text)


def parse_trace(path):
    """Reads and checks the whole trace, line by line so that a big one needs
    no copy in memory; raises TraceError at the first problem."""
    trace, lineno = None, 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            try:
                if fields[0] == "workers":
                    if trace is not None or len(fields) != 2:
                        raise ValueError("expected one 'workers COUNT' line")
                    count = number(fields[1], "worker count")
                    if not 1 <= count <= MAX_WORKERS:
                        raise ValueError(f"worker count {count}: expected 1 to {MAX_WORKERS}")
                    trace = Trace(count)
                elif trace is None:
                    raise ValueError("missing 'workers' line (it comes before speeds and records)")
                elif fields[0] == "speed":
                    trace.add_speed(fields)
                else:
                    trace.add_record(fields)
            except ValueError as e:
                raise TraceError(lineno, str(e)) from None
    if trace is None or trace.records == 0:
        raise TraceError(max(1, lineno), "empty trace: no event records"
                         + ("" if trace else " and no 'workers' line"))
    trace.end_ns = max(trace.end_ns, 1)  # all at time 0 still gets an axis
    return trace


class Canvas:
    """An RGB image in a bytearray, with just the drawing the timeline needs."""

    def __init__(self, width, height, colour):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(colour) * (width * height))

    def fill(self, x0, y0, x1, y1, colour):
        """Fills [x0, x1) x [y0, y1), clipped to the image."""
        x0, x1 = max(x0, 0), min(x1, self.width)
        if x0 >= x1:
            return
        span = bytes(colour) * (x1 - x0)
        for y in range(max(y0, 0), min(y1, self.height)):
            start = (y * self.width + x0) * 3
            self.pixels[start:start + len(span)] = span

    def put_row(self, x, y, data):
        """Copies ready-made pixels (3 bytes each) into row y from column x."""
        start = (y * self.width + x) * 3
        self.pixels[start:start + len(data)] = data

    def triangle(self, cx, apex_y, colour, down):
        """A 9-pixel-wide marker whose apex is at (cx, apex_y)."""
        for r in range(5):
            y = apex_y - r if down else apex_y + r
            self.fill(cx - r, y, cx + r + 1, y + 1, colour)

    def text(self, x, y, s, colour):
        """Draws s with FONT, top left at (x, y)."""
        for i, ch in enumerate(s):
            for row, digit in enumerate(FONT.get(ch, BOX)):
                bits = int(digit, 32)
                for col in range(5):
                    if bits & (16 >> col):
                        px, py = x + i * ADVANCE + col * SCALE, y + row * SCALE
                        self.fill(px, py, px + SCALE, py + SCALE, colour)

    def png(self):
        """The image as PNG bytes: RGB, 8 bits, every scanline with filter 0."""
        stride = self.width * 3
        raw = b"".join(b"\0" + self.pixels[y * stride:(y + 1) * stride] for y in range(self.height))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def text_width(s):
    """Pixels from the first glyph's left edge to the last one's right edge."""
    return len(s) * ADVANCE - SCALE


class Layout:
    """Where everything goes; also used by the test to find a worker's lane."""

    def __init__(self, trace, width, title):
        labels = [trace.label(w) for w in range(trace.workers)] + ["time (ms)"]
        self.plot_x0 = MARGIN + max(map(text_width, labels)) + 16
        self.plot_w = width - self.plot_x0 - 3 * MARGIN
        if self.plot_w < 100:
            raise UsageError(f"--width {width} is too narrow for this trace: "
                             f"it needs at least {width - self.plot_w + 100}")
        self.lanes_y = MARGIN + (TEXT_H + MARGIN if title else 0)
        self.axis_y = self.lanes_y + trace.workers * LANE_H
        self.legend_y = self.axis_y + 6 + TEXT_H + 2 * MARGIN

    def bar_top(self, worker):
        """First pixel row of a worker's bar (a marker band lies above it)."""
        return self.lanes_y + worker * LANE_H + MARK_H

    def x_of(self, time_ns, end_ns):
        """The column of a time; the last time lands in the last column."""
        return self.plot_x0 + min(self.plot_w - 1, time_ns * self.plot_w // end_ns)


def add_span(cover, x0, x1):
    """Adds to each column of cover the part of it that [x0, x1) covers."""
    c0, c1 = int(x0), min(int(x1), len(cover))
    if c0 >= c1:
        if c0 < len(cover):
            cover[c0] += x1 - x0
        return
    cover[c0] += c0 + 1 - x0
    for c in range(c0 + 1, c1):
        cover[c] += 1.0
    if c1 < len(cover):
        cover[c1] += x1 - c1


def lane_pixels(trace, worker, plot_w):
    """One pixel row of a worker's bar. A column spanning several activities
    gets their colours mixed by time share, so that bursts of short work
    stay visible as shades instead of whichever span happened to be drawn last."""
    times, codes = trace.times[worker], trace.codes[worker]
    covers = {"work": [0.0] * plot_w, "steal-loop": [0.0] * plot_w}
    scale = plot_w / trace.end_ns
    for i, code in enumerate(codes):
        if ACTIVITIES[code] in covers:
            end = times[i + 1] if i + 1 < len(times) else trace.end_ns
            add_span(covers[ACTIVITIES[code]], times[i] * scale, end * scale)
    row = bytearray()
    for work, look in zip(covers["work"], covers["steal-loop"]):
        work = min(work, 1.0)
        look = min(look, 1.0 - work)
        rest = 1.0 - work - look
        row += bytes(round(w * work + s * look + b * rest) for w, s, b in
                     zip(COLOURS["work"], COLOURS["steal-loop"], COLOURS["lane"]))
    return row


def time_ticks(end_ns, plot_w):
    """(ms, label) pairs: the finest 1-2-5 x 10^k ms step whose labels fit
    side by side. The first label is a plain '0' so that it cannot reach
    into the label column."""
    end_ms = end_ns / 1e6
    exp = math.floor(math.log10(end_ms)) - 3
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0 ** exp
            count = int(end_ms / step + 1e-9) + 1
            decimals = max(0, -exp)
            if count * (text_width(f"{(count - 1) * step:.{decimals}f}") + TICK_GAP) <= plot_w:
                return [(0.0, "0")] + [(i * step, f"{i * step:.{decimals}f}") for i in range(1, count)]
        exp += 1


def legend_places(y, width):
    """(x, y, colour, word) of each legend entry: in a row, wrapping when the
    image is too narrow. render() needs the last y before it can draw."""
    places, x = [], MARGIN
    for colour, word in [("work", "work"), ("steal-loop", "looking for work"),
                         ("steal", "steal"), ("mug", "mug"), ("mugged", "mugged")]:
        entry_w = 20 + text_width(word) + 24
        if x + entry_w > width and x > MARGIN:
            x, y = MARGIN, y + TEXT_H + 8
        places.append((x, y, colour, word))
        x += entry_w
    return places


def render(trace, width, title):
    """Draws the whole timeline and returns its Canvas."""
    lay = Layout(trace, width, title)
    legend = legend_places(lay.legend_y, width)
    canvas = Canvas(width, legend[-1][1] + TEXT_H + MARGIN, COLOURS["page"])
    if title:
        canvas.text(MARGIN, MARGIN, title, COLOURS["text"])
    for w in range(trace.workers):
        top = lay.bar_top(w)
        canvas.text(MARGIN, top + (BAR_H - TEXT_H) // 2 + 1, trace.label(w), COLOURS["text"])
        row = lane_pixels(trace, w, lay.plot_w)
        for y in range(top, top + BAR_H):
            canvas.put_row(lay.plot_x0, y, row)
        for kind in POINTS:
            apex = top - 1 if kind == "steal" else top + BAR_H + 1
            for t in trace.points[kind][w]:
                canvas.triangle(lay.x_of(t, trace.end_ns), apex, COLOURS[kind], kind == "steal")
    axis_y = lay.axis_y
    canvas.fill(lay.plot_x0, axis_y, lay.plot_x0 + lay.plot_w, axis_y + 1, COLOURS["axis"])
    canvas.text(MARGIN, axis_y + 8, "time (ms)", COLOURS["text"])
    for ms, label in time_ticks(trace.end_ns, lay.plot_w):
        x = lay.x_of(round(ms * 1e6), trace.end_ns)
        canvas.fill(x, axis_y, x + 1, axis_y + 6, COLOURS["axis"])
        left = min(x - text_width(label) // 2, width - MARGIN - text_width(label))
        canvas.text(left, axis_y + 8, label, COLOURS["text"])
    for x, y, colour, word in legend:
        if colour in ACTIVITIES:
            canvas.fill(x, y + 1, x + 14, y + 15, COLOURS[colour])
        else:
            steal = colour == "steal"
            canvas.triangle(x + 7, y + 12 if steal else y + 4, COLOURS[colour], steal)
        canvas.text(x + 20, y, word, COLOURS["text"])
    return canvas


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but with cilkpp-timeline's one-line errors and status 2."""

    def error(self, message):
        """Raises, so that main() prints the one line instead of argparse's usage."""
        raise UsageError(message)


def main(argv=None):
    """Returns the exit status: 0, 1 for a bad trace, 2 for bad usage or I/O."""
    parser = ArgumentParser(prog="cilkpp-timeline", description="Draws a CILKPP_TRACE event log as a PNG.")
    parser.add_argument("trace", metavar="TRACE", help="the file CILKPP_TRACE named")
    parser.add_argument("-o", dest="output", metavar="OUT.png", required=True, help="the image to write")
    parser.add_argument("--width", type=int, default=1200, help="image width in pixels (default 1200)")
    parser.add_argument("--title", help="a line of text above the lanes")
    try:
        args = parser.parse_args(argv)
        if not 1 <= args.width <= 20000:  # wider would only exhaust memory
            parser.error(f"--width {args.width}: expected 1 to 20000 pixels")
        trace = parse_trace(args.trace)
        image = render(trace, args.width, args.title).png()
        with open(args.output, "wb") as f:
            f.write(image)
    except OSError as e:
        print(f"cilkpp-timeline: {f'{e.filename}: ' if e.filename else ''}{e.strerror}", file=sys.stderr)
        return 2
    except TraceError as e:
        print(f"cilkpp-timeline: {args.trace}:{e.line}: {e.message}", file=sys.stderr)
        return 1
    except UsageError as e:
        print(f"cilkpp-timeline: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
