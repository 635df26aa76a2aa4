"""What every game's board renderer shares: fonts, player colours and PNG output.

Boards are read on phones inside Discord, usually scaled down to about 400 px wide,
so renderers draw big shapes and big text; these helpers keep fonts, colours and
file size the same across games.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
Point = tuple[float, float]

#: shapes are drawn this many times larger and reduced: Pillow does not anti-alias polygons
SCALE = 2
#: the background every board is drawn on
BACKGROUND: RGB = (250, 248, 244)


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


@dataclass(frozen=True)
class Swatch:
    """A player colour: ``fill`` for pieces, ``ink`` for a letter on it, ``edge`` to outline it.

    The letter is drawn on every piece so that colour-blind players, and anyone on a
    dim screen, never have to tell colours apart by hue alone.
    """

    name: str
    letter: str
    fill: RGB
    ink: RGB
    edge: RGB


def _luminance(rgb: RGB) -> float:
    """WCAG relative luminance, the measure behind contrast ratios."""
    lin = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


_DARK: RGB = (26, 26, 26)
_WHITE: RGB = (255, 255, 255)


def _swatch(name: str, fill: RGB) -> Swatch:
    """A swatch whose letter is dark or white, whichever contrasts more with ``fill``,
    and whose outline is a darker shade, so pale yellow still has a visible edge."""
    lum = _luminance(fill)
    ink = _DARK if (lum + 0.05) / (_luminance(_DARK) + 0.05) > 1.05 / (lum + 0.05) else _WHITE
    edge = (fill[0] * 3 // 5, fill[1] * 3 // 5, fill[2] * 3 // 5)
    return Swatch(name, name[0].upper(), fill, ink, edge)


#: Okabe–Ito colours, distinguishable with the common colour-vision deficiencies;
#: indexed like every engine's colour index: red, blue, yellow, green.
PLAYER_COLOURS: tuple[Swatch, ...] = (
    _swatch("red", (0xD5, 0x5E, 0x00)),
    _swatch("blue", (0x00, 0x72, 0xB2)),
    _swatch("yellow", (0xF0, 0xE4, 0x42)),
    _swatch("green", (0x00, 0x9E, 0x73)),
)


#: the four shared colours, then Okabe–Ito reddish purple and sky blue for the fifth
#: and sixth seats of the games that seat six
SIX_COLOURS: tuple[Swatch, ...] = (
    *PLAYER_COLOURS,
    Swatch("purple", "P", (0xCC, 0x79, 0xA7), (34, 34, 34), (0x7A, 0x48, 0x64)),
    Swatch("sky", "S", (0x56, 0xB4, 0xE9), (34, 34, 34), (0x33, 0x6C, 0x8B)),
)


class Pen:
    """Draws in output pixels: shapes at :data:`SCALE` times the size, text at 1x."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.texts: list[tuple[Point, str, int, RGB, str, bool]] = []

    @classmethod
    def blank(cls, width: int, height: int) -> Pen:
        return cls(Image.new("RGB", (width * SCALE, height * SCALE), BACKGROUND))

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        edge: RGB | None = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            [round(v * SCALE) for v in box],
            radius=round(radius * SCALE),
            fill=fill,
            outline=edge,
            width=round(width * SCALE),
        )

    def bar(self, a: Point, b: Point, width: float, fill: RGB) -> None:
        """A horizontal or vertical stroke whose square ends reach past ``a`` and ``b`` by
        half its width, so strokes meeting at a point join without a notch."""
        half = width / 2
        left, top = min(a[0], b[0]) - half, min(a[1], b[1]) - half
        self.rect((left, top, max(a[0], b[0]) + half, max(a[1], b[1]) + half), fill)

    def dashes(self, a: Point, b: Point, width: float, fill: RGB, dash: float = 6) -> None:
        """A dashed stroke from ``a`` to ``b``, starting and ending with half a gap, so
        the two halves of a footpath read as one dashed line."""
        length = abs(b[0] - a[0]) + abs(b[1] - a[1])
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = dash / 2
        while t < length:
            end = min(t + dash, length)
            start = (a[0] + ux * t, a[1] + uy * t)
            self.bar(start, (a[0] + ux * end, a[1] + uy * end), width, fill)
            t += 2 * dash

    def polygon(
        self, points: Sequence[Point], fill: RGB, edge: RGB | None = None, width: float = 0.5
    ) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.polygon(scaled, fill=fill, outline=edge, width=round(width * SCALE))

    def line(self, a: Point, b: Point, fill: RGB, width: float) -> None:
        """A straight stroke at any angle (``bar`` is for square-ended axis strokes)."""
        self.draw.line(
            [(a[0] * SCALE, a[1] * SCALE), (b[0] * SCALE, b[1] * SCALE)],
            fill=fill,
            width=round(width * SCALE),
        )

    def outline(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        """A closed polygon's edge only, ``width`` thick, joined round at the corners."""
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.line(
            [*scaled, scaled[0], scaled[1]], fill=fill, width=round(width * SCALE), joint="curve"
        )

    def circle(
        self, centre: Point, radius: float, fill: RGB | None, edge: RGB | None, width: float = 1
    ) -> None:
        x, y = centre
        box = [round(v * SCALE) for v in (x - radius, y - radius, x + radius, y + radius)]
        self.draw.ellipse(box, fill=fill, outline=edge, width=round(width * SCALE))

    def arc(self, box: Box, start: float, end: float, fill: RGB, width: float) -> None:
        self.draw.arc(
            [round(v * SCALE) for v in box], start, end, fill=fill, width=round(width * SCALE)
        )

    def text(
        self, xy: Point, text: str, size: int, fill: RGB, anchor: str = "mm", bold: bool = True
    ) -> None:
        self.texts.append((xy, text, size, fill, anchor, bold))

    def finish(self) -> Image.Image:
        image = self.image.reduce(SCALE)
        draw = ImageDraw.Draw(image)
        for xy, text, size, fill, anchor, bold in self.texts:
            draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
        return image


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode ``image`` as a small PNG for upload, quickly.

    Boards are flat colours plus anti-aliased edges, which a 256-colour palette keeps to
    the eye. Measured on a 900x1131 Skybridge board: RGB with optimize=True is 42 KB in
    86 ms; octree-paletted it is 21 KB in 19 ms, of which the octree is about half. A
    renderer that passes its own fixed ``palette`` (a "P" image) skips working one out
    per picture: mapping onto it takes a quarter of the time. See :func:`_png` for the
    encoding itself.
    """
    if palette is None:
        paletted = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    else:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return _png(paletted)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png(image: Image.Image) -> bytes:
    """A paletted image as the plainest PNG: one IDAT, no row filters, zlib level 1.

    A move's reply waits for this, and on a board it is a third of the drawing time.
    zlib level 1 makes files a third larger than level 6 in under half the time.
    Pillow's own writer takes 2.3-2.4 ms for a 900x1131 Skybridge board; this takes
    1.75 ms for the same pixels, in the same size (31 KB). The saving is zlib's
    ``memLevel`` 6 (a smaller hash table, faster on these long runs of one colour,
    which Pillow does not let us set) and handing zlib all the rows at once. Filters
    do not help paletted pictures, so every row starts with filter 0: padding the
    picture with a column of zeros on the left gives exactly those rows.
    """
    width, height = image.size
    rows = Image.new("P", (width + 1, height))
    rows.paste(image, (1, 0))
    deflate = zlib.compressobj(1, zlib.DEFLATED, 15, 6)
    pixels = deflate.compress(rows.tobytes()) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit paletted
    chunks = ((b"IHDR", header), (b"PLTE", bytes(image.getpalette("RGB"))), (b"IDAT", pixels))
    out = [PNG_SIGNATURE]
    for kind, body in (*chunks, (b"IEND", b"")):
        crc = zlib.crc32(body, zlib.crc32(kind))
        out += (struct.pack(">I", len(body)), kind, body, struct.pack(">I", crc))
    return b"".join(out)
