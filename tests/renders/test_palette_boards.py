"""A board is sent as a paletted PNG: to a player it must look like the drawing itself.

Each game's boards are drawn in full colour on a :class:`renders.ground.Ground` and
mapped onto the game's fixed palette. Here the full-colour canvas is caught on its way
to the PNG (the real renderer and the real ground, spied on, not replaced) and compared
with what a viewer decodes: every colour a renderer names (the players', the last
move's magenta, ink, the cards) comes back exactly, and the anti-aliased edges between
them within a few levels.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import engine
import renders
from renders import animation, pen
from renders.ground import Ground
from renders.palette import fixed_palette
from tests.renders.test_ground import positions

#: how far an anti-aliased edge may land from its drawn colour (the nearest of the
#: palette's shades); flat colours are exact
EDGE_LEVELS = 48
#: how far a named colour may come back from itself (levels a channel, invisible):
#: Pillow looks a colour up by its cell of 4 levels a channel, and takes the entry
#: nearest the cell's corner, which for a colour inside a cell can be a shade a few
#: levels off (the same entry for every pixel of that colour)
GRAIN = 4
#: the share of pixels allowed more than 16 and more than 24 levels off in a channel
#: (edges between two colours whose blend the palette holds no shade near): measured
#: at most 0.9 % and 0.26 % (late Skybridge and Seven Bridges boards)
FAR_SHARE = 0.015
FARTHER_SHARE = 0.005


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[Image.Image]:
    """The full-colour pictures boards are drawn as, caught as each goes to its PNG."""
    caught: list[Image.Image] = []
    real = Ground.png

    def catching(ground: Ground, canvas: Image.Image, touched, height=None) -> bytes:
        bottom = ground.height if height is None else height
        caught.append(canvas.crop((0, 0, canvas.width, bottom)))
        return real(ground, canvas, touched, height)

    monkeypatch.setattr(Ground, "png", catching)
    return caught


def _where_named(drawing: Image.Image, named: set[tuple[int, int, int]]) -> Image.Image:
    """An "L" mask: 255 where ``drawing`` has one of the ``named`` colours, else 0."""
    mask = Image.new("L", drawing.size, 0)
    for colour in named:
        same = ImageChops.difference(drawing, Image.new("RGB", drawing.size, colour))
        r, g, b = same.split()
        differs = ImageChops.lighter(ImageChops.lighter(r, g), b)
        mask.paste(255, mask=differs.point([255] + [0] * 255))
    return mask


def _named(key: str) -> tuple[tuple[int, int, int], ...]:
    module = {"seven-bridges": renders.seven_bridges}.get(key)
    if module is None:
        module = getattr(renders, key.replace("-", "_"))
    return module.NAMED


@pytest.mark.parametrize("key", list(engine.GAMES))
def test_every_board_decodes_to_its_drawing(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    caught = _drawn(monkeypatch)
    views = positions(key, games=1)
    named = set(_named(key))
    for view, names in (views[0], views[len(views) // 2], views[-1]):
        png = renders.render(key, view, names)
        drawing = caught.pop()
        shown = Image.open(io.BytesIO(png))
        assert shown.mode == "P" and shown.size == drawing.size
        shown = shown.convert("RGB")
        channels = ImageChops.difference(drawing, shown).split()
        assert max(c.getextrema()[1] for c in channels) <= EDGE_LEVELS, key
        far = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
        counts = far.histogram()
        assert sum(counts[17:]) <= FAR_SHARE * sum(counts), key
        assert sum(counts[25:]) <= FARTHER_SHARE * sum(counts), key
        # every named colour comes back as itself, wherever it was drawn
        flat = _where_named(drawing, named)
        assert ImageChops.multiply(far, flat).getextrema()[1] <= GRAIN, key


@pytest.mark.parametrize("key", list(engine.GAMES))
def test_every_game_s_named_colours_keep_their_own_palette_entry(key: str) -> None:
    """The players' colours, ink, paper and the last move's magenta never merge."""
    named = list(dict.fromkeys(_named(key)))
    palette = fixed_palette(_named(key))
    swatch = Image.new("RGB", (len(named), 1))
    swatch.putdata(named)
    mapped = swatch.quantize(palette=palette, dither=Image.Dither.NONE)
    index = dict(zip(named, mapped.tobytes(), strict=True))
    for i, a in enumerate(named):  # none merges with another it differs from visibly
        for b in named[i + 1 :]:
            if max(abs(x - y) for x, y in zip(a, b, strict=True)) > GRAIN:
                assert index[a] != index[b], (key, a, b)
    back = mapped.convert("RGB").tobytes()
    wanted = [c for rgb in named for c in rgb]
    assert max(abs(a - b) for a, b in zip(back, wanted, strict=True)) <= GRAIN, key


def test_a_board_drawn_from_kept_placements_is_the_board_drawn_afresh() -> None:
    """The pen keeps where each shape and word went; emptied, it draws the same pixels."""
    for key in engine.GAMES:
        views = positions(key, games=1)
        middle = views[len(views) // 2]
        for view, names in views[::4]:
            renders.render(key, view, names)
        kept = renders.render(key, *middle)
        pen._PLACED.clear()
        pen._PAINTED.clear()
        afresh = renders.render(key, *middle)
        assert kept == afresh, key


def test_a_gif_frame_is_read_as_pillow_reads_it() -> None:
    views = positions("bridges-and-boats", games=1)
    board = renders.render("bridges-and-boats", *views[len(views) // 2])
    fast, pillow = animation._opened(board), Image.open(io.BytesIO(board))
    assert fast.size == pillow.size and fast.mode == pillow.mode == "P"
    assert fast.tobytes() == pillow.tobytes()
    assert fast.getpalette() == pillow.getpalette()
    # a PNG of another kind (filtered rows, full colour) is left to Pillow
    other = io.BytesIO()
    Image.open(io.BytesIO(board)).convert("RGB").save(other, "PNG")
    assert animation._plain_rows(other.getvalue()) is None
    assert (
        animation._opened(other.getvalue()).convert("RGB").tobytes()
        == pillow.convert("RGB").tobytes()
    )
