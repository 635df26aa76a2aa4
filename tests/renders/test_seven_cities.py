"""The Battle for Seven Cities picture, checked by decoding the PNG: cities in their
owner's colour where the engine put them, the last move ringed, both eras drawn tile
for tile, the hand only in its owner's picture, and a public picture that is the same
whatever the hands hold."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from engine.seven_cities.state import City
from renders import render
from renders.palette import HIGHLIGHT, INK
from renders.seven_cities import COLUMNS, MIN_RADIUS, TERRAIN, centre, layout, swatch
from tests.engine.seven_cities.conftest import T, cities, g, play, table

NAMES = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"]


def picture(state, seat=None) -> Image.Image:
    png = render("seven-cities", g.view(state, seat), NAMES[: state.players])
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(pixel, colour, tolerance=14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def count(image: Image.Image, state, tile, colour, tolerance=14) -> int:
    """Pixels of ``colour`` within the hex of ``tile``."""
    plan = layout(g.view(state, None))
    cx, cy = centre(plan, tile)
    r = plan.radius
    box = (round(cx - r * 0.8), round(cy - r * 0.8), round(cx + r * 0.8), round(cy + r * 0.8))
    return sum(near(p, colour, tolerance) for p in image.crop(box).get_flattened_data())


def test_cities_are_drawn_in_their_owners_colour_on_their_tile():
    state = table(players=3, at="f3d", cities=cities(("f1a", 1), ("p2b", 2)))
    image = picture(state)
    blue, yellow = swatch(1).fill, swatch(2).fill
    assert count(image, state, T("f1a"), blue) > 150
    assert count(image, state, T("p1a"), blue) == 0, "the past twin is empty"
    assert count(image, state, T("p2b"), yellow) > 150
    assert count(image, state, T("f2b"), yellow) == 0


def test_both_boards_show_every_tile_with_its_terrain():
    state = table()
    image = picture(state)
    for name in ("p1c", "f1c", "p3b", "f3b", "f2c"):
        tile = T(name)
        terrain = g.view(state, None).tiles
        kind = next(t.terrain for t in terrain if t.tile == tile)
        assert count(image, state, tile, TERRAIN[kind][0]) > 400, name


def test_the_last_move_is_ringed():
    state = table(at="f1a", ap=1)
    moved, _ = play(state, 0, "move f1b")
    image = picture(moved)
    assert count(image, moved, T("f1b"), HIGHLIGHT) > 80
    assert count(image, moved, T("f3d"), HIGHLIGHT) == 0


def test_the_hand_is_drawn_only_for_its_owner_and_the_public_picture_ignores_hands():
    state = table(hands=[("burn", "defend"), ("sands",)])
    other = replace(state, hands=(("points2", "wall"), ("metropolis",)))
    public = picture(state)
    assert public.tobytes() == picture(other).tobytes(), "hands change nothing in public"
    own = picture(state, 0)
    assert own.size[1] > public.size[1], "the owner's picture adds the hand"
    assert picture(state, 0).tobytes() != picture(other, 0).tobytes()


def test_a_growing_board_shrinks_its_hexes_but_keeps_them_readable():
    state = table(at="f2d", hands=[("expedition",), ()])
    small = layout(g.view(state, None)).radius
    for text in ("play expedition", "place 4,0 r0", "found none"):
        state, _ = play(state, 0, text)
    for group in (5, 6, 7, 8, 9, 10, 11):
        state = replace(state, placements=state.placements + ((group, 4 + 2 * (group - 4), 0, 0),))
    big = layout(g.view(state, None))
    assert big.radius < small and big.radius >= MIN_RADIUS
    assert picture(state).size[0] == 1000


def test_a_metropolis_shows_a_second_ring_and_a_shielded_tile_its_shield():
    state = table(at="f3d", cities=(City(T("f1a"), 0, 2),), shields=((T("f1a"), 0),))
    image = picture(state)
    single = table(at="f3d", cities=(City(T("f1a"), 0),))
    red = swatch(0).fill
    assert count(image, state, T("f1a"), red) > count(picture(single), single, T("f1a"), red)
    shield = (230, 230, 236)
    assert (
        count(image, state, T("f1a"), shield, 8)
        > count(picture(single), single, T("f1a"), shield, 8) + 40
    )


#: how wide a phone shows the picture, in px: what its words must be read at
PHONE = 390


def _height(image: Image.Image, box: tuple[float, ...], colour, tolerance: int) -> int:
    """How many rows of ``box`` (x0, y0, x1, y1) span pixels of ``colour``: the height of
    the text drawn in it, in the picture's pixels."""
    x0, y0, x1, y1 = (round(v) for v in box)
    rows = [
        y
        for y in range(y0, y1)
        if any(near(image.getpixel((x, y)), colour, tolerance) for x in range(x0, x1))
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


def _name_height(image: Image.Image, x: int, y: int, r: float) -> int:
    """How tall, in the picture's pixels, the white name (``1c``) of the hex centred at
    ``x``, ``y`` stands: the longest run of rows inked white across the middle of the
    hex, clear of its edges (the terrain letter and a city's letter are runs of their
    own, shorter)."""
    pixels = image.load()
    xs = range(round(x - 0.5 * r), round(x + 0.5 * r))
    best = run = 0
    for row in range(round(y - 0.3 * r), round(y + 0.7 * r)):
        inked = any(near(pixels[col, row], (255, 255, 255), 40) for col in xs)
        run = run + 1 if inked else 0
        best = max(best, run)
    return best


def _random_game(players: int, seed: int) -> list:
    """Every position of a seeded game of random legal moves, start to end."""
    chance = random.Random(seed)
    state = g.new(players, None, seed)
    states = [state]
    while not g.is_over(state):
        seat, action = chance.choice(
            [(seat, action) for seat in g.to_play(state) for action in g.legal(state, seat)]
        )
        state = g.apply(state, seat, action).state
        states.append(state)
    return states


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_hexs_name_reads_on_a_phone_all_game_long(players):
    """A hex's name (``1c``) is what a move names: shown 390 px wide, its characters
    stand at least 9 px tall on every hex named in white, at the start, mid-game, the
    end and the board with the smallest hexes of a whole game. As past groups were laid
    the boards, side by side, shrank their hexes: the names stood 5 px tall by move 200."""
    states = _random_game(players, seed=players)
    radii = [layout(g.view(s, None)).radius for s in states]
    smallest = radii.index(min(radii))
    for stage, state in (
        ("start", states[0]),
        ("mid-game", states[len(states) // 2]),
        ("end", states[-1]),
        ("smallest hexes", states[smallest]),
    ):
        view = g.view(state, None)
        image = picture(state)
        assert image.width == 1000, "a phone shows the picture 390 px wide: 0.39 of it"
        plan = layout(view)
        for tile in view.tiles:
            if TERRAIN[tile.terrain][2] != (255, 255, 255):
                continue
            x, y = centre(plan, tile.tile)
            tall = _name_height(image, x, y, plan.radius)
            assert tall * PHONE / image.width >= 9, (stage, tile.name, plan.radius, tall)


def test_the_panels_numbers_read_on_a_phone():
    """Each player's cities, cards, tokens and shields: at least 7 px tall on a phone
    (they stood 5.5), on every seat's row."""
    state = table(players=3)
    image = picture(state)
    plan = layout(g.view(state, None))
    for row in plan.rows:
        numbers = (row[0] + 0.4 * (row[2] - row[0]), row[1], row[2] - 10, row[3])
        tall = _height(image, numbers, INK, 60)
        assert tall * PHONE / image.width >= 7, (row, tall)


def test_a_finished_games_places_stand_clear_of_the_cities_column():
    """Once the game is over each row shows its place (``#2``) beside the player's name:
    it stood on the future cities (``#25/7``), unreadable at any width."""
    state = table(players=3)
    view = replace(g.view(state, None), over=True, places=(2, 1, 3), future_cities=(5, 8, 13))
    names = ["Ada", "AI Telford (normal)", "Cy with a name longer than the row"]
    image = Image.open(io.BytesIO(render("seven-cities", view, names))).convert("RGB")
    plan = layout(view)
    cities = plan.panel[0] + COLUMNS[0]
    for row in plan.rows:
        x0, y0, _, y1 = (round(v) for v in row)

        def xs(colour, left, right, ys=range(y0 + 4, y1 - 4)):
            """The columns of pixels between ``left`` and ``right`` this row inks in ``colour``."""
            return [
                x
                for x in range(left, right)
                if any(near(image.getpixel((x, y)), colour, 30) for y in ys)
            ]

        place = xs(HIGHLIGHT, x0, round(cities) + 60)
        value = xs(INK, round(cities) - 40, round(cities) + 40)
        name = xs(INK, x0 + 40, min(place))
        assert place and value and name, row
        assert max(place) < min(value), (row, max(place), min(value))
        assert max(name) + 4 < min(place), ("the name runs into its place", row)
