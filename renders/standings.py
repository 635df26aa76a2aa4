"""A league table as a picture: rank, player, points and each published tie-break.

Discord shows text tables badly on a phone (proportional fonts, wrapped lines), so the
standings go out as an image as well: one row per player, zebra-striped, the columns
the league's format uses, readable at 400 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renders.common import fit_text, font, to_png

WIDTH = 900
ROW = 56
INK = (34, 34, 34)
MUTED = (110, 110, 110)
STRIPE = (243, 240, 232)
HEAD = (0, 114, 178)  # Okabe-Ito blue


def render_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """``columns`` name each column (the second, the player, gets the spare width)."""
    height = 110 + ROW * (len(rows) + 1) + 20
    image = Image.new("RGB", (WIDTH, height), (252, 251, 248))
    draw = ImageDraw.Draw(image)
    draw.text((24, 24), fit_text(title, font(40, True), WIDTH - 48), font=font(40, True), fill=INK)
    narrow = 120 if len(columns) <= 5 else 86
    widths = [64] + [0] + [narrow] * (len(columns) - 2)
    widths[1] = WIDTH - 48 - sum(widths)
    y = 100
    draw.rectangle((16, y, WIDTH - 16, y + ROW), fill=HEAD)
    _row(draw, y, columns, widths, font(22, True), (255, 255, 255))
    for i, row in enumerate(rows):
        y += ROW
        if i % 2:
            draw.rectangle((16, y, WIDTH - 16, y + ROW), fill=STRIPE)
        _row(draw, y, row, widths, font(28, False), INK)
    return to_png(image)


def _row(draw, y: int, cells: Sequence[str], widths: Sequence[int], face, fill) -> None:
    x = 24
    for column, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        text = fit_text(str(cell), face, width - 12)
        anchor, at = ("lm", x) if column == 1 else ("mm", x + width / 2)
        draw.text((at, y + ROW / 2), text, font=face, fill=fill, anchor=anchor)
        x += width
