"""Boards drawn on a shared ground: only what a board drew is mapped again, and the
canvas goes back to the ground for the next board, so no board shows another's pieces."""

from __future__ import annotations

import io
import random

from PIL import Image

import engine
import renders
from renders.ground import TILE, Ground, _regions, blank
from renders.palette import BACKGROUND, HIGHLIGHT, INK, PLAYER_COLOURS, SHARED, fixed_palette
from renders.pen import Pen

NAMES = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"]


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def positions(key: str, games: int = 2) -> list[object]:
    """Views of every position of a few random games."""
    rules, rng = engine.get(key), random.Random(5)
    views = []
    for g in range(games):
        players = rng.randint(rules.info.min_players, rules.info.max_players)
        state = rules.new(players, None, g)
        while not rules.is_over(state):
            views.append((rules.view(state, None), NAMES[:players]))
            seat = rng.choice(rules.to_play(state))
            state = rules.apply(state, seat, rng.choice(rules.legal(state, seat))).state
        views.append((rules.view(state, None), NAMES[:players]))
    return views


def test_the_png_maps_every_drawn_pixel_as_the_whole_picture_would() -> None:
    ground = blank(300, 200, SHARED)
    pen = Pen.on(ground)
    pen.rect((10.5, 20.25, 140, 90), PLAYER_COLOURS[1].fill, INK, 2, radius=9)
    pen.circle((220, 140), 33.3, HIGHLIGHT, None)
    pen.text((150, 170), "Ada 12", 22, INK)
    pen.finish()
    drawn = pen.image.copy()
    shown = decoded(pen.png(180))
    expected = drawn.crop((0, 0, 300, 180)).quantize(
        palette=fixed_palette(SHARED), dither=Image.Dither.NONE
    )
    assert shown.size == (300, 180)
    assert shown.tobytes() == expected.tobytes()
    assert shown.convert("RGB").getpixel((220, 140)) == HIGHLIGHT


def test_a_canvas_comes_back_as_the_ground() -> None:
    ground = Ground(Image.new("RGB", (64, 48), INK), fixed_palette(SHARED))
    pen = Pen.on(ground)
    pen.rect((3, 3, 40, 30), HIGHLIGHT)
    pen.text((50, 40), "x", 14, BACKGROUND)
    canvas = pen.image
    pen.png()
    assert canvas.tobytes() == ground.picture.tobytes()
    assert ground.canvas() is canvas  # kept, and handed out for the next board


def test_regions_cover_every_touched_pixel_in_few_boxes() -> None:
    touched = [(-5, -5, 3, 3), (17, 0, 18, 60), (90, 90, 200, 95), (0, 33, 1, 34)]
    boxes = _regions(touched, 100, 100)
    covered = Image.new("1", (100, 100))
    for box in boxes:
        covered.paste(1, box)
    for x0, y0, x1, y1 in touched:
        for x in range(max(x0, 0), min(x1, 100)):
            for y in range(max(y0, 0), min(y1, 100)):
                assert covered.getpixel((x, y)), (x, y)
    assert sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) <= 12 * TILE * TILE
    assert _regions([], 100, 100) == []


def test_every_game_draws_a_board_the_same_whatever_it_drew_before() -> None:
    for key in engine.GAMES:
        views = positions(key, games=1)
        middle, last = views[len(views) // 2], views[-1]
        first = renders.render(key, *middle)
        for view, names in views[::3]:
            renders.render(key, view, names)
        renders.render(key, *last)
        again = renders.render(key, *middle)
        assert decoded(again).tobytes() == decoded(first).tobytes(), key
