"""PNG tiles as NumPy arrays, without an imaging library: 8-bit grey, RGB, palette and RGBA,
not interlaced (what the server writes), every row filter (PNG spec section 9)."""
import struct
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

from .errors import PlayfieldError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    if not png.startswith(SIGNATURE):
        raise PlayfieldError("not a PNG: the signature is missing")
    offset = len(SIGNATURE)
    while offset + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        yield kind, png[offset + 8:offset + 8 + length]
        offset += 12 + length


def decode_png(png: bytes) -> "NDArray[np.uint8]":
    """The image as a uint8 array: (height, width, 3) for RGB and palette images, (height,
    width, 4) with alpha, (height, width) for grey."""
    import numpy as np

    header: tuple[int, ...] | None = None
    palette: NDArray[np.uint8] | None = None
    data: list[bytes] = []
    for kind, body in _chunks(png):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, dtype=np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            data.append(body)
    if header is None:
        raise PlayfieldError("not a PNG: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace:
        raise PlayfieldError(
            f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = CHANNELS[colour]
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(b"".join(data)), dtype=np.uint8).reshape(height, stride + 1)
    pixels = _unfilter(raw[:, 1:].astype(np.int32), raw[:, 0], channels)
    image = pixels.astype(np.uint8).reshape(height, width, channels)
    if colour == 3:
        if palette is None:
            raise PlayfieldError("a palette PNG without a PLTE chunk")
        return palette[image[:, :, 0]]
    return image[:, :, 0] if channels == 1 else image


def _unfilter(rows: "NDArray[np.int32]", filters: "NDArray[np.uint8]", bpp: int
              ) -> "NDArray[np.int32]":
    """Undoes the per-row filters; `rows` is int32 (height, stride)."""
    import numpy as np

    out = np.zeros_like(rows)
    previous = np.zeros(rows.shape[1], dtype=np.int32)
    for y, kind in enumerate(filters):
        row = rows[y]
        if kind == 0:
            line = row.copy()
        elif kind == 2:
            line = (row + previous) & 0xFF
        elif kind == 1:
            line = (row.reshape(-1, bpp).cumsum(axis=0) & 0xFF).reshape(-1)
        elif kind in (3, 4):
            line = row.copy()
            for x in range(len(line)):
                left = line[x - bpp] if x >= bpp else 0
                up = previous[x]
                if kind == 3:
                    line[x] = (line[x] + (left + up) // 2) & 0xFF
                else:
                    corner = previous[x - bpp] if x >= bpp else 0
                    line[x] = (line[x] + _paeth(left, up, corner)) & 0xFF
        else:
            raise PlayfieldError(f"bad PNG row filter {kind}")
        out[y] = line
        previous = line
    return out


def _paeth(a: Any, b: Any, c: Any) -> Any:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c
