"""The drawing pen and the colours every Seven Bridges picture shares.

Shapes are drawn at :data:`SCALE` times the size and reduced, since Pillow does not
anti-alias polygons and a 2x box reduction gives clean edges cheaply; text is drawn
afterwards at 1x, which FreeType already smooths.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renders.common import PLAYER_COLOURS, RGB, Swatch, font

SCALE = 2

Box = tuple[float, float, float, float]
Point = tuple[float, float]

BACKGROUND: RGB = (250, 248, 244)
INK: RGB = (34, 34, 34)
MUTED: RGB = (110, 104, 96)
WHITE: RGB = (255, 255, 255)
PANEL_LINE: RGB = (214, 206, 194)
USED_CELL: RGB = (226, 222, 214)  # a used bonus, a die handed to someone else
#: the last move and the dice that demand attention: a magenta unlike any player colour
HIGHLIGHT: RGB = (226, 0, 122)
EULER = Swatch("Euler", "E", (200, 200, 222), INK, (78, 78, 132))

#: Okabe–Ito: the four shared player colours, then reddish purple and sky blue for the
#: fifth and sixth seats (Seven Bridges seats six).
SWATCHES: tuple[Swatch, ...] = (
    *PLAYER_COLOURS,
    Swatch("purple", "P", (0xCC, 0x79, 0xA7), INK, (0x7A, 0x48, 0x64)),
    Swatch("sky", "S", (0x56, 0xB4, 0xE9), INK, (0x33, 0x6C, 0x8B)),
)


def swatch(seat: int) -> Swatch:
    return SWATCHES[seat]


def text_width(text: str, size: int, bold: bool = True) -> float:
    return font(size, bold).getlength(text)


def box_centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


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

    def polygon(self, points: Sequence[Point], fill: RGB, edge: RGB | None = None) -> None:
        self.draw.polygon([(x * SCALE, y * SCALE) for x, y in points], fill=fill, outline=edge)

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
