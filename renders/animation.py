"""A whole game as one animated GIF: one frame a position, from the boards as drawn.

Every game's boards are mapped onto that game's one fixed palette (:func:`renders.common.
to_png`), so their frames share it as they are: the GIF carries that palette once and
no frame is quantized again. A frame drawn on another palette (none today) is mapped
onto the first frame's. Boards whose height changes with the position (a longer list of
cards) are set on one canvas of the largest size, on the board's own paper colour.
Pillow's GIF writer stores of each frame only the box that changed since the last.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

from isal import isal_zlib
from PIL import Image

from renders.common import PNG_SIGNATURE

#: how long each position shows, and the last one before the GIF starts again (ms)
STEP_MS = 900
END_MS = 4000


def animate(frames: Sequence[bytes], step_ms: int = STEP_MS, end_ms: int = END_MS) -> bytes:
    """The GIF of ``frames`` (PNG pictures of positions, the start first), played once
    a ``step_ms`` each, the last held ``end_ms``, then again from the start."""
    if not frames:
        raise ValueError("a GIF needs at least one frame")
    images = [_opened(png) for png in frames]
    width = max(image.width for image in images)
    height = max(image.height for image in images)
    shared = _paletted(images[0])
    colours = shared.getpalette()
    laid = [_laid(_onto(image, shared, colours), (width, height)) for image in images]
    out = io.BytesIO()
    unused = _unused(laid)
    laid[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=laid[1:],
        duration=[step_ms] * (len(laid) - 1) + [end_ms],
        loop=0,
        # a colour no frame uses marks what did not change since the frame before
        # (smaller); without one, every changed box is stored whole (no slower)
        optimize=unused is not None,
        **({} if unused is None else {"transparency": unused}),
    )
    return out.getvalue()


def _opened(png: bytes) -> Image.Image:
    """``png`` as a picture. A board is the plainest paletted PNG
    (:func:`renders.common.png`: one IDAT, every row unfiltered), so its rows are
    inflated by ISA-L and taken as they are, a third of the time Pillow's decoder takes
    (which undoes filters row by row); any other PNG is left to Pillow."""
    plain = _plain_rows(png)
    if plain is None:
        return Image.open(io.BytesIO(png))
    (width, height), colours, rows = plain
    # each row is led by its filter byte: skip it, and step over it from row to row
    image = Image.frombytes("P", (width, height), rows[1:], "raw", "P", width + 1, 1)
    image.putpalette(colours)
    return image


def _plain_rows(png: bytes) -> tuple[tuple[int, int], bytes, memoryview] | None:
    """The size, palette and inflated rows of ``png`` if it is an 8-bit paletted PNG of
    one IDAT whose rows are all unfiltered (no transparency, nothing else), else None."""
    if not png.startswith(PNG_SIGNATURE):
        return None
    chunks: dict[bytes, bytes] = {}
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(png):
        length, kind = struct.unpack_from(">I4s", png, at)
        if kind in chunks:
            return None
        chunks[kind] = png[at + 8 : at + 8 + length]
        at += 12 + length
    if set(chunks) != {b"IHDR", b"PLTE", b"IDAT", b"IEND"}:
        return None
    width, height, depth, kind, *methods = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    if (depth, kind, *methods) != (8, 3, 0, 0, 0):
        return None
    rows = isal_zlib.decompress(chunks[b"IDAT"])
    if len(rows) != (width + 1) * height or rows[:: width + 1].strip(b"\0"):
        return None
    return (width, height), chunks[b"PLTE"], memoryview(rows)


def _unused(frames: Sequence[Image.Image]) -> int | None:
    """A palette entry no frame uses, or None: given to the writer as the see-through
    colour, it keeps the one palette as it is rather than adding a colour to each frame
    (which costs it a comparison of every frame in full colour)."""
    used = [0] * 256
    for frame in frames:
        used = [a + b for a, b in zip(used, frame.histogram(), strict=True)]
    return next((i for i, count in enumerate(used) if not count), None)


def _paletted(image: Image.Image) -> Image.Image:
    """``image`` on a palette of its own: as drawn, or its colours reduced to 256."""
    if image.mode == "P" and "transparency" not in image.info:
        return image
    return image.convert("RGB").quantize(256, dither=Image.Dither.NONE)


def _onto(image: Image.Image, shared: Image.Image, colours: list[int] | None) -> Image.Image:
    """``image`` on the shared palette: as it is when drawn on it."""
    if image.mode == "P" and "transparency" not in image.info and image.getpalette() == colours:
        return image
    return image.convert("RGB").quantize(palette=shared, dither=Image.Dither.NONE)


def _laid(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` at the top left of a canvas of ``size`` in its top left pixel's colour."""
    if image.size == size:
        return image
    canvas = Image.new("P", size, image.getpixel((0, 0)))
    canvas.putpalette(image.getpalette() or [])
    canvas.paste(image, (0, 0))
    return canvas
