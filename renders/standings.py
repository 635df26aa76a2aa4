"""A league table as a picture: rank, player, points and each published tie-break.

Discord shows text tables badly on a phone (proportional fonts, wrapped lines), so the
standings go out as an image as well: one row per player, zebra-striped. Discord
shrinks it to about 400 px wide on a phone, so the layout is measured, not guessed:
each figure column is as wide as its widest entry, and the player's name gets the
rest, never less than :data:`NAME_SHARE` of the picture, so names are cut only when
they really are long.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

from renders.common import fit_text, font, to_png
from renders.palette import INK, MUTED, PLAYER_COLOURS, RGB, SHARED, WHITE, fixed_palette
from renders.pen import Pen

WIDTH = 900
MARGIN = 24
ROW = 56
PAD = 24  # room either side of a figure, so neighbouring columns never touch
NAME_SHARE = 0.4  # the player column's least share of the picture's width
TITLE, SUBTITLE, HEADER, CELL = 40, 30, 22, 28  # font sizes, px
TOP = 142  # where the table starts, below the two title lines
STRIPE: RGB = (243, 240, 232)
HEAD: RGB = PLAYER_COLOURS[1].fill  # Okabe-Ito blue


@lru_cache(maxsize=2)
def _missing_glyph(bold: bool) -> bytes:
    """What the font draws for a character it lacks (a box), to compare against."""
    return bytes(font(CELL, bold).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def drawable(char: str, bold: bool = False) -> bool:
    """Whether the bundled font has a glyph for ``char`` (DejaVu has no emoji)."""
    selector = unicodedata.name(char, "").startswith("VARIATION SELECTOR")
    if selector or unicodedata.category(char) in ("Cf", "Cc"):
        return False  # emoji variation selectors, joiners, controls: nothing to draw
    if char.isspace():
        return True
    return bytes(font(CELL, bold).getmask(char)) != _missing_glyph(bold)


def printable(text: str, bold: bool = False) -> str:
    """``text`` without the characters the font would draw as boxes ("🐉 Drake" ->
    "Drake"); a name made only of those becomes "?" rather than vanishing."""
    kept = "".join(c for c in unicodedata.normalize("NFC", text) if drawable(c, bold))
    return " ".join(kept.split()) or "?"


@dataclass(frozen=True)
class Layout:
    """Where everything goes: column widths in px and each cell's text as drawn."""

    title: str
    subtitle: str
    widths: tuple[int, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    cell_size: int
    header_size: int

    @property
    def height(self) -> int:
        return TOP + ROW * (len(self.rows) + 1) + 20


#: (figure font, header font, padding) from roomiest to tightest: many tie-break
#: columns (a Swiss shows up to five) take smaller figures before the names lose room
SIZES = ((CELL, HEADER, PAD), (26, 20, 16), (24, 18, 12), (22, 16, 10))


def _figure_width(texts: Sequence[str], face: ImageFont.FreeTypeFont, pad: int) -> int:
    return int(max(face.getlength(t) for t in texts)) + pad


def layout(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], subtitle: str = ""
) -> Layout:
    """Measure the table. ``columns`` name each column; the second is the player's.

    Figures shrink a size or two before the name column drops below its share; only
    then is a name cut, with an ellipsis.
    """
    available = WIDTH - 2 * MARGIN
    least = int(NAME_SHARE * WIDTH)
    names = [printable(str(r[1])) for r in rows]
    plans = []
    for cell_size, header_size, pad in SIZES:
        face, header_face = font(cell_size), font(header_size, True)
        widths = [
            max(
                _figure_width([columns[i]], header_face, pad),
                _figure_width([r[i] for r in rows], face, pad) if rows else 0,
            )
            for i in range(len(columns))
        ]
        widths[1] = available - sum(widths) + widths[1]
        fits = not names or _figure_width(names, face, pad) <= widths[1]
        plans.append((widths, cell_size, header_size, pad, fits))
    # the largest figures that leave every name whole, else the largest that leave the
    # names their share, else the smallest with the figures squeezed to make room
    widths, cell_size, header_size, pad, _ = next(
        (p for p in plans if p[4] and p[0][1] >= least),
        next((p for p in plans if p[0][1] >= least), plans[-1]),
    )
    if widths[1] < least:
        spare = (available - least) // (len(widths) - 1)
        widths = [spare] * len(widths)
        widths[1] = available - spare * (len(widths) - 1)
    face, header_face = font(cell_size), font(header_size, True)
    cells = tuple(
        tuple(
            fit_text(name if i == 1 else str(cell), face, widths[i] - pad / 2)
            for i, cell in enumerate(row)
        )
        for row, name in zip(rows, names, strict=True)
    )
    title_face = font(TITLE, True)
    return Layout(
        title=fit_text(printable(title, bold=True), title_face, available),
        subtitle=fit_text(subtitle, font(SUBTITLE), available),
        widths=tuple(widths),
        header=tuple(fit_text(c, header_face, w - 4) for c, w in zip(columns, widths, strict=True)),
        rows=cells,
        cell_size=cell_size,
        header_size=header_size,
    )


def render_table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], subtitle: str = ""
) -> bytes:
    """The standings as a PNG: ``title`` in bold, ``subtitle`` (how far the season is)
    on a line of its own so a long league name never pushes it off the picture."""
    plan = layout(title, columns, rows, subtitle)
    pen = Pen.blank(WIDTH, plan.height)
    pen.text((MARGIN, 20), plan.title, TITLE, INK, "la")
    pen.text((MARGIN, 76), plan.subtitle, SUBTITLE, MUTED, "la", bold=False)
    y = TOP
    pen.rect((16, y, WIDTH - 16, y + ROW), HEAD)
    _row(pen, y, plan.header, plan.widths, plan.header_size, True, WHITE)
    for i, row in enumerate(plan.rows):
        y += ROW
        if i % 2:
            pen.rect((16, y, WIDTH - 16, y + ROW), STRIPE)
        _row(pen, y, row, plan.widths, plan.cell_size, False, INK)
    return to_png(pen.finish(), fixed_palette((*SHARED, STRIPE)))


def _row(
    pen: Pen,
    y: int,
    cells: Sequence[str],
    widths: Sequence[int],
    size: int,
    bold: bool,
    fill: RGB,
) -> None:
    x = MARGIN
    for column, (text, width) in enumerate(zip(cells, widths, strict=True)):
        anchor, at = ("lm", x + 6) if column == 1 else ("mm", x + width / 2)
        pen.text((at, y + ROW / 2), text, size, fill, anchor, bold)
        x += width
