"""An independent reference for deep tiles: pixel centres iterated in exact binary fixed point
with Python integers, a small PNG decoder to read the server's tiles, and a reader of their
raw counts (Z/X/Y.counts, docs/tiles.md)."""
import math
import struct
import zlib
from fractions import Fraction

GUARD_BITS = 128


def tile_of(zoom, cx, cy):
    """The (X, Y) of the level-`zoom` tile containing cx + i*cy (Fractions or decimal strings)."""
    cx, cy = Fraction(cx), Fraction(cy)
    x = math.floor((cx + 2) * 2**zoom / 3)
    y = math.floor((Fraction(3, 2) - cy) * 2**zoom / 3)
    return x, y


def escape_count(zoom, x, y, column, row, maximum):
    """The seed's count for pixel (column, row) of tile (zoom, x, y), iterated in fixed point:
    c = -2 + 3(2(256x + i) + 1)/2^(Z+9), 1.5 - 3(2(256y + j) + 1)/2^(Z+9)."""
    bits = zoom + 9 + GUARD_BITS
    one = 1 << bits
    cx = -2 * one + (3 * (2 * (256 * x + column) + 1) << GUARD_BITS)
    cy = 3 * one // 2 - (3 * (2 * (256 * y + row) + 1) << GUARD_BITS)
    four = 4 << (2 * bits)
    zx = zy = 0
    n = 0
    while n < maximum and zx * zx + zy * zy <= four:
        zx, zy = ((zx * zx - zy * zy) >> bits) + cx, ((2 * zx * zy) >> bits) + cy
        n += 1
    return n


def seed_colour(n, maximum):
    """The classic palette (DESIGN.md)."""
    if n >= maximum:
        return (0, 0, 0)
    f = n / maximum
    rgb = (2 * f, 2 * f, 1 - 2 * f) if f <= 0.5 else (1, 2 - 2 * f, 0)
    return tuple(math.floor(v * 255 + 0.5) for v in rgb)


def decode_counts(data):
    """(cap, rows of counts) of a Z/X/Y.counts body: the magic PFEC, width, height and cap as
    little-endian uint32, then width * height little-endian uint32 counts, row by row."""
    assert data[:4] == b"PFEC", data[:16]
    width, height, cap = struct.unpack("<III", data[4:16])
    assert len(data) == 16 + 4 * width * height, (len(data), width, height)
    counts = struct.unpack(f"<{width * height}I", data[16:])
    assert max(counts) <= cap
    return cap, [list(counts[row * width:(row + 1) * width]) for row in range(height)]


def decode_png(data):
    """Rows of (r, g, b) of an 8-bit palette or RGB PNG, not interlaced."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, palette = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and colour_type in (2, 3)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    channels = 3 if colour_type == 2 else 1
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 255
        previous = line
        if channels == 3:
            rows.append([tuple(line[i:i + 3]) for i in range(0, stride, 3)])
        else:
            rows.append([palette[index] for index in line])
    return rows
