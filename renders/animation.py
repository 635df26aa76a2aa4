"""A whole game as one animated GIF: one frame a position, from the boards as drawn.

Every game's boards are mapped onto that game's one fixed palette (:func:`renders.common.
to_png`), so their frames share it as they are: the GIF carries that palette once and
no frame is quantized again. A frame drawn on another palette (none today) is mapped
onto the first frame's. Boards whose height changes with the position (a longer list of
cards) are set on one canvas of the largest size, on the board's own paper colour.
Each frame stores only the box that changed since the last (:func:`_gif`).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

from isal import isal_zlib
from PIL import GifImagePlugin, Image, ImageChops

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
    return _gif(laid, [step_ms] * (len(laid) - 1) + [end_ms], _unused(laid))


def _gif(frames: Sequence[Image.Image], durations: Sequence[int], clear: int | None) -> bytes:
    """The GIF of ``frames`` (one size, one palette), each shown its duration, looping.

    Each frame after the first stores only the box that changed since the one before,
    and within it the pixels that did not change as ``clear`` (a palette entry no
    frame uses, see-through: smaller), as Pillow's writer does with ``optimize``; but
    Pillow copies, compares and masks every frame whole and this only the box, which
    is about a third of a game's GIF time. A frame the same as the one before
    lengthens that one. The frames' data is encoded by Pillow
    (:func:`PIL.GifImagePlugin.getdata`)."""
    first = frames[0]
    colours = first.getpalette("RGB") or []
    colours = (colours + [0] * 768)[:768]
    width, height = first.size
    out = [
        b"GIF89a",
        struct.pack("<HHBBB", width, height, 0xF7, 0, 0),  # a global table of 256 colours
        bytes(colours),
        b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00",  # loop for ever
    ]
    shown: list[tuple[Image.Image, tuple[int, int], int]] = [(first, (0, 0), durations[0])]
    for before, frame, duration in zip(frames, frames[1:], durations[1:], strict=False):
        delta = ImageChops.subtract_modulo(frame, before)
        box = delta.getbbox(alpha_only=False)
        if box is None:  # the same picture: the one before stays up longer
            picture, at, shown_ms = shown[-1]
            shown[-1] = (picture, at, shown_ms + duration)
            continue
        changed = frame.crop(box)
        if clear is not None:  # what did not change shows through from the frame before
            changed.paste(clear, mask=delta.crop(box).point(_UNCHANGED, "1"))
        shown.append((changed, box[:2], duration))
    params = {} if clear is None else {"transparency": clear}
    for picture, at, duration in shown:
        out += GifImagePlugin.getdata(picture, at, duration=duration, **params)
    out.append(b";")
    return b"".join(out)


#: a delta's zero (no change) as set in a "1" mask, anything else clear
_UNCHANGED = [255] + [0] * 255


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
    """A palette entry no frame uses, or None: the see-through colour of :func:`_gif`,
    which keeps the one palette as it is rather than giving up an entry of it (with
    None, every changed box is stored whole: larger, no slower)."""
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
