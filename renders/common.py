"""What every game's board renderer shares: fonts, player colours and PNG output.

Boards are read on phones inside Discord, usually scaled down to about 400 px wide,
so renderers draw big shapes and big text; these helpers keep fonts, colours and
file size the same across games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageFont

RGB = tuple[int, int, int]


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
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


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


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode ``image`` as a small PNG for upload, quickly.

    Boards are flat colours plus anti-aliased edges, which a 256-colour palette keeps to
    the eye. Measured on a 900x1131 Skybridge board: RGB with optimize=True is 42 KB in
    86 ms; octree-paletted it is 21 KB in 19 ms, of which the octree is about half. A
    renderer that passes its own fixed ``palette`` (a "P" image) skips working one out
    per picture: mapping onto it takes a quarter of the time. zlib level 1 makes the
    file about a third larger than the default level 6 (still ~35 KB for a board) and
    encodes in under half the time; a move's reply waits for this.
    """
    if palette is None:
        paletted = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    else:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = BytesIO()
    paletted.save(out, format="PNG", compress_level=1)
    return out.getvalue()
