"""The colours every board shares, by role: ink, paper, cards, the last move, the players.

One value per role, so the five games read as one family on a phone: the same ink for
text and outlines, the same muted grey for secondary text (dark enough for small text
on white: contrast 5.4:1), the same magenta for "this just changed", the same player
colours. Colours only one game draws (terrain, water, rods) stay with that game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

RGB = tuple[int, int, int]

#: the ground every board is drawn on
BACKGROUND: RGB = (250, 248, 244)
#: text, outlines, the turn marker
INK: RGB = (34, 34, 34)
#: secondary text: labels, counts of nothing, players who resigned
MUTED: RGB = (110, 106, 100)
WHITE: RGB = (255, 255, 255)
#: the ground of player cards and panels, and their edge
CARD: RGB = WHITE
CARD_LINE: RGB = (214, 206, 194)
#: the frame of the card (or row) of the player to play
TURN: RGB = INK
#: whose input is awaited, as a tint behind their row
WAITING: RGB = (255, 236, 190)
#: the last move: a magenta unlike any player colour
HIGHLIGHT: RGB = (226, 0, 122)
#: gold, silver, bronze for final places
MEDALS: tuple[RGB, ...] = ((222, 170, 20), (168, 170, 180), (184, 115, 60))
#: wooden pieces and boards (Skybridge's frame, the Bridges and Boats decks)
WOOD: RGB = (178, 134, 90)
WOOD_EDGE: RGB = (120, 86, 54)


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


def _swatch(name: str, fill: RGB) -> Swatch:
    """A swatch whose letter is ink or white, whichever contrasts more with ``fill``,
    and whose outline is a darker shade, so pale yellow still has a visible edge."""
    lum = _luminance(fill)
    ink = INK if (lum + 0.05) / (_luminance(INK) + 0.05) > 1.05 / (lum + 0.05) else WHITE
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
    Swatch("purple", "P", (0xCC, 0x79, 0xA7), INK, (0x7A, 0x48, 0x64)),
    Swatch("sky", "S", (0x56, 0xB4, 0xE9), INK, (0x33, 0x6C, 0x8B)),
)

#: every colour named here, for the renderers' fixed palettes
SHARED: tuple[RGB, ...] = (
    BACKGROUND,
    INK,
    MUTED,
    WHITE,
    CARD_LINE,
    WAITING,
    HIGHLIGHT,
    *MEDALS,
    WOOD,
    WOOD_EDGE,
    *(c for s in SIX_COLOURS for c in (s.fill, s.ink, s.edge)),
)


#: the shares of one colour over another that an edge's pixels are drawn from
_STEPS = (0.25, 0.5, 0.75)
#: text and thin lines sit on these, and FreeType shades every level between: finer steps
_GROUNDS = (BACKGROUND, WHITE, INK, MUTED)
_FINE = (0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875)


@lru_cache(maxsize=16)
def fixed_palette(named: tuple[RGB, ...]) -> Image.Image:
    """A 256-colour palette for every board of a renderer, worked out from the colours it
    names, once per process: each named colour exactly, then shades standing for the
    anti-aliased edges between any two of them (an octree of their blends, finer
    between the grounds text is drawn on and everything else).

    Mapping a board onto a fixed palette costs a fraction of working out one per board
    (the octree: 2.7-8.7 ms a board), and a board's edges are only ever blends of the
    colours it names. Skybridge used to take its palette from six sample boards drawn
    at first use, which was most of its 228 ms first board; this takes 1-2 ms.
    """
    colours = list(dict.fromkeys(named))[:255]
    pairs = [(a, b) for i, a in enumerate(colours) for b in colours[i + 1 :]]
    near_ground = [(a, b) for a, b in pairs if a in _GROUNDS or b in _GROUNDS]
    others = [(a, b) for a, b in pairs if a not in _GROUNDS and b not in _GROUNDS]
    ramps = _blends(near_ground, _FINE) + _blends(others, _STEPS)
    shades: list[RGB] = []
    if ramps:
        sheet = Image.new("RGB", (sum(r.width for r in ramps), 1))
        x = 0
        for ramp in ramps:
            sheet.paste(ramp, (x, 0))
            x += ramp.width
        octree = sheet.quantize(256 - len(colours), method=Image.Quantize.FASTOCTREE)
        flat = octree.getpalette()
        assert flat is not None, "a quantized picture has a palette"
        flat = flat[: 3 * (256 - len(colours))]
        shades = [(flat[k], flat[k + 1], flat[k + 2]) for k in range(0, len(flat), 3)]
    fixed = Image.new("P", (1, 1))
    fixed.putpalette([c for rgb in colours + shades for c in rgb])
    return fixed


def _blends(pairs: list[tuple[RGB, RGB]], steps: tuple[float, ...]) -> list[Image.Image]:
    """Each pair's blends at each step, as one-row images (Pillow blends them in C)."""
    if not pairs:
        return []
    first, second = Image.new("RGB", (len(pairs), 1)), Image.new("RGB", (len(pairs), 1))
    first.putdata([a for a, _ in pairs])
    second.putdata([b for _, b in pairs])
    return [Image.blend(first, second, t) for t in steps]
