"""What every game's board renderer shares: fonts, fitting text, and PNG output.

Boards are read on phones inside Discord, usually scaled down to about 400 px wide,
so renderers draw big shapes and big text; these helpers keep fonts and file size the
same across games (colours are in :mod:`renders.palette`, the pen in :mod:`renders.pen`).
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache
from importlib import resources
from io import BytesIO

from isal import isal_zlib
from PIL import Image, ImageFont


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    """The bundled DejaVu file, so rendering never depends on the host's fonts."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return (resources.files(__package__) / "fonts" / name).read_bytes()


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` px, opened once per size: a board draws ~100 labels, and
    opening the face for each would double the time spent on text."""
    return ImageFont.truetype(BytesIO(_font_bytes(bold)), size)


def fit_text(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px: player names can be any length."""
    if _length(face, text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def text_width(text: str, size: int, bold: bool = True) -> float:
    """How wide ``text`` is, in px, in :func:`font` (``size``, ``bold``)."""
    return _length(font(size, bold), text)


@lru_cache(maxsize=4096)
def _length(face: ImageFont.FreeTypeFont, text: str) -> float:
    """Boards measure the same names, numbers and words every time they are drawn, and
    asking FreeType costs more than the lookup: each is measured once per process (faces
    come from :func:`font`, one object per size, so they are stable keys)."""
    return face.getlength(text)


def to_png(image: Image.Image, palette: Image.Image) -> bytes:
    """Encode ``image`` as a small PNG for upload, quickly, mapped onto ``palette``.

    Boards are flat colours plus anti-aliased edges, which a 256-colour palette keeps to
    the eye. Measured on a 900x1131 Skybridge board: RGB with optimize=True is 42 KB in
    86 ms; octree-paletted it is 21 KB in 19 ms, of which the octree is about half.
    Every renderer passes its own fixed ``palette`` (a "P" image, see
    :func:`renders.palette.fixed_palette`) instead of working one out per picture:
    mapping onto it takes a quarter of the time. Boards are drawn on a
    :class:`renders.ground.Ground`, which maps only what a board drew; this maps a whole
    picture (a league's table).
    """
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    width, height = image.size
    rows = Image.new("P", (width + 1, height))  # each row led by its filter byte, 0
    rows.paste(mapped, (1, 0))
    colours = mapped.getpalette("RGB")
    assert colours is not None, "a quantized picture has a palette"
    return png(width, height, bytes(colours), rows.tobytes())


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(width: int, height: int, colours: bytes, rows: bytes | bytearray | memoryview) -> bytes:
    """A paletted picture as the plainest PNG: one IDAT, no row filters, deflated by
    ISA-L. ``rows`` are the picture's rows of palette indices, each led by its filter
    byte (0: none), and ``colours`` the palette, three bytes a colour.

    A move's reply waits for this, and with zlib it was a third of a board's CPU.
    Pillow's own writer takes 2.3-2.4 ms for a 900x1131 Skybridge board; zlib at level
    1 (``memLevel`` 6), all rows at once, 1.5 ms and 30.5 KiB; ISA-L's deflate at its
    level 1, a standard zlib stream any viewer reads, 0.35 ms and 26.5 KiB (its level
    0 is no faster and larger, its level 3 four times slower; docs/bench.md). Filters
    do not help paletted pictures, so every row starts with filter 0.
    """
    pixels = isal_zlib.compress(rows, 1)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit paletted
    chunks = ((b"IHDR", header), (b"PLTE", colours), (b"IDAT", pixels))
    out = [PNG_SIGNATURE]
    for kind, body in (*chunks, (b"IEND", b"")):
        crc = zlib.crc32(body, zlib.crc32(kind))
        out += (struct.pack(">I", len(body)), kind, body, struct.pack(">I", crc))
    return b"".join(out)
