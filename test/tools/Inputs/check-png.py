#!/usr/bin/env python3
"""Checks an image from cilkpp-timeline.py and reports what a lane shows.

usage: check-png.py TOOL PNG TRACE WIDTH [WORKER:MS ...]
Checks the PNG structure (signature, IHDR, one zlib stream of filter-0 RGB
rows, IEND) and that IHDR's width is WIDTH; exits 1 with the reason if not.
Then prints, for each WORKER:MS, which COLOURS entry of TOOL is in the middle
of that worker's bar at MS milliseconds: TOOL's own Layout places the lanes,
so the test does not hard-code pixel positions.
"""
import importlib.util
import struct
import sys
import zlib


def load_tool(path):
    spec = importlib.util.spec_from_file_location("timeline", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def read_png(data):
    """(width, height, pixel rows without their filter bytes), or exits."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG: bad signature")
    chunks, pos = [], 8
    while pos < len(data):
        if pos + 12 > len(data):
            sys.exit("truncated PNG")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if pos + 12 + length > len(data):
            sys.exit(f"truncated {kind!r} chunk")
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if crc != zlib.crc32(kind + body):
            sys.exit(f"bad CRC in {kind!r}")
        chunks.append((kind, body))
        pos += 12 + length
    kinds = [k for k, _ in chunks]
    if kinds[0] != b"IHDR" or kinds[-1] != b"IEND" or set(kinds[1:-1]) != {b"IDAT"}:
        sys.exit(f"unexpected chunks {kinds}")
    width, height, depth, colour, _, _, _ = struct.unpack(">IIBBBBB", chunks[0][1])
    if (depth, colour) != (8, 2):
        sys.exit(f"bit depth {depth}, colour type {colour}: expected 8-bit RGB")
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + 3 * width
    if len(raw) != height * stride:
        sys.exit(f"{len(raw)} bytes of pixels: expected {height} x {stride}")
    if any(raw[y * stride] != 0 for y in range(height)):
        sys.exit("a row with a filter other than 0")
    return width, height, [raw[y * stride + 1:(y + 1) * stride] for y in range(height)]


def main():
    tool = load_tool(sys.argv[1])
    with open(sys.argv[2], "rb") as f:
        width, height, rows = read_png(f.read())
    if width != int(sys.argv[4]):
        sys.exit(f"width {width}: expected {sys.argv[4]}")
    print(f"png {width}x{height} ok")
    trace = tool.parse_trace(sys.argv[3])
    layout = tool.Layout(trace, width, None)
    names = {colour: name for name, colour in tool.COLOURS.items()}
    for spot in sys.argv[5:]:
        worker, ms = spot.split(":")
        x = layout.x_of(round(float(ms) * 1e6), trace.end_ns)
        y = layout.bar_top(int(worker)) + tool.BAR_H // 2
        pixel = tuple(rows[y][3 * x:3 * x + 3])
        print(f"worker {worker} at {ms} ms: {names.get(pixel, pixel)}")


main()
