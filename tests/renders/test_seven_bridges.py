"""The Seven Bridges pictures, checked the way a player looks at them.

Positions come from real moves through the engine; the PNG is decoded and probed where
the layouts (``sheet_layout``, ``public_layout`` and the map geometry in ``city``) say
a line, a square, a die or a row is drawn.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

import engine
import renders
from bot.service import Service
from engine.seven_bridges.actions import Pick, Shape
from engine.seven_bridges.board import CITY, parse_square
from engine.seven_bridges.bonuses import USED
from engine.seven_bridges.dice import ROTATIONS
from engine.seven_bridges.legend import LANDMARK_ARMS
from engine.seven_bridges.lines import bits
from engine.seven_bridges.state import State
from engine.seven_bridges.view import View
from renders.common import text_width
from renders.palette import HIGHLIGHT, INK, PLAYER_COLOURS, RGB, WHITE
from renders.pen import Box
from renders.seven_bridges import render
from renders.seven_bridges.city import (
    BUILDING_SPOTS,
    EXITS,
    HOUSE,
    HOUSE_SEEN,
    LETTER_SPOTS,
    STREET,
    TREE_SPOTS,
    arm_ends,
    label_spots,
    letter_centre,
    spot_centre,
    square_box,
)
from renders.seven_bridges.pieces import DELTA, EULER, USED_CELL, caption
from renders.seven_bridges.public import progress, public_layout
from renders.seven_bridges.sheet import bonus_states, sheet_layout
from tests.conftest import ADA, BOB, TABLE

GAME = engine.get("seven-bridges")
NAMES = ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay")
#: seat colours, Okabe–Ito: the four shared ones, then reddish purple and sky blue
FILLS = (*(c.fill for c in PLAYER_COLOURS), (0xCC, 0x79, 0xA7), (0x56, 0xB4, 0xE9))
START = "i-2-4"  # r2c4: landmark A's letter is in it, so everyone starts with a bonus


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def picture(view: View) -> Image.Image:
    return decode(render(view, NAMES[: view.players]))


def near(pixel: RGB, colour: RGB, tolerance: int = 18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def count(image: Image.Image, box: Box, colour: RGB, tolerance: int = 18) -> int:
    """Pixels of ``box`` near ``colour``, counted by Pillow (a whole sheet is 1.2 M)."""
    bands = image.crop(tuple(round(v) for v in box)).split()
    masks = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for band, c in zip(bands, colour, strict=True)
    ]
    return ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2]).histogram()[255]


def at(image: Image.Image, x: float, y: float) -> RGB:
    return image.getpixel((round(x), round(y)))


def play(state: State, *moves: str) -> State:
    """Apply ``moves``, each by the first seat to play."""
    for text in moves:
        state = GAME.apply(state, GAME.to_play(state)[0], GAME.parse(text)).state
    return state


def started(players: int, seed: int = 1) -> State:
    """A game from ``START`` whose setup bonuses are all taken (footpaths reserved), rolled."""
    state = GAME.new(players, {"start": START}, seed)
    while GAME.view(state, None).round == 1 and any(p.pending for p in state.seats):
        state = play(state, "reserve footpaths")
    return play(state, "roll")


def pick_shape(state: State) -> tuple[State, int, Pick]:
    """The seat to play drafts the first die it can draw as a shape in one square."""
    seat = GAME.to_play(state)[0]
    move = next(
        m for m in GAME.legal(state, seat) if isinstance(m, Pick) and isinstance(m.where, Shape)
    )
    state = GAME.apply(state, seat, move).state
    return state, seat, move


def random_state(players: int, seed: int, moves: int) -> State:
    rnd, state = random.Random(seed), GAME.new(players, None, seed)
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = rnd.choice(GAME.to_play(state))
        state = GAME.apply(state, seat, rnd.choice(GAME.legal(state, seat))).state
    return state


def finished(players: int, seed: int) -> State:
    return random_state(players, seed, 10_000)


def alike(a: Image.Image, b: Image.Image, box: Box) -> bool:
    """The same drawing in ``box`` of two pictures (their palettes may differ a little)."""
    pairs = zip(a.crop(box).get_flattened_data(), b.crop(box).get_flattened_data(), strict=True)
    return all(near(p, q, 12) for p, q in pairs)


def arm_middle(grid: Box, arm: int) -> tuple[float, float]:
    (cx, cy), (ex, ey) = arm_ends(grid, arm)
    return (cx + ex) / 2, (cy + ey) / 2


# -- sizes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 6])
def test_pictures_are_phone_sized_and_small(players: int) -> None:
    state = finished(players, 3)
    for seat in (0, None):
        png = render(GAME.view(state, seat), NAMES[:players])
        image = decode(png)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(png) < 150 * 1024
        if seat is None:  # up to four small maps in a row; five or six, two rows of three
            assert image.width == 800 and image.height <= (1.7 if players > 4 else 1) * 800
        else:
            assert image.width == 900 and image.height <= 1.5 * image.width


def test_renders_dispatch_by_game_key() -> None:
    view = GAME.view(started(3), 1)
    assert renders.render("seven-bridges", view, NAMES[:3]) == render(view, NAMES[:3])


# -- the map ---------------------------------------------------------------------------------


def test_every_building_tree_and_letter_has_its_own_place_in_its_square() -> None:
    grid = sheet_layout(False).grid
    spots = [spot_centre(grid, s) for s in BUILDING_SPOTS + TREE_SPOTS]
    assert len(spots) == len(CITY.buildings) + len(CITY.trees) == len(set(spots))
    for spot, centre in zip(BUILDING_SPOTS + TREE_SPOTS, spots, strict=True):
        x0, y0, x1, y1 = square_box(grid, spot.square)
        assert x0 < centre[0] < x1 and y0 < centre[1] < y1
    assert sorted(LETTER_SPOTS) == [lm.letter for lm in CITY.landmarks]
    letter_quarters = set(LETTER_SPOTS.values())
    assert not letter_quarters & {(s.square, s.quarter) for s in BUILDING_SPOTS + TREE_SPOTS}


def test_the_drawn_lines_are_in_the_players_colour_along_their_path() -> None:
    state, seat, _ = pick_shape(started(2))
    view = GAME.view(state, seat)
    image = picture(view)
    grid = sheet_layout(False).grid
    drawn = set(view.seats[seat].drawn)
    assert set(view.last_arms) <= drawn and view.last_arms
    for arm in drawn:
        assert near(at(image, *arm_middle(grid, arm)), FILLS[seat]), arm
    printed = [4 * sq + d for sq in range(144) for d, path in CITY.arms[sq].items() if not path]
    undrawn = [a for a in printed if a not in drawn][:40]
    for arm in undrawn:  # the streets still to walk stay printed grey
        assert near(at(image, *arm_middle(grid, arm)), STREET, 24), arm


def test_each_seat_draws_in_its_own_colour() -> None:
    state, seats = started(6), set()
    while len(seats) < 6:
        seat = GAME.to_play(state)[0]
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0]).state
        view = GAME.view(state, seat)
        if view.last_arms and seat not in seats:
            seats.add(seat)
            image = picture(view)
            middle = arm_middle(sheet_layout(False).grid, view.last_arms[0])
            assert near(at(image, *middle), FILLS[seat]), seat


def test_the_start_square_is_framed() -> None:
    view = GAME.view(started(2), 0)
    image = picture(view)
    grid = sheet_layout(False).grid
    start = parse_square(START)
    assert view.start == start
    for square in (start, start + 2, start + 24):
        x0, y0, _, _ = square_box(grid, square)
        assert near(at(image, x0, y0 + 10), INK, 30) == (square == start)


def test_the_viewers_last_move_is_highlighted_only_on_their_sheet() -> None:
    state, seat, move = pick_shape(started(2))
    grid = sheet_layout(False).grid
    mine, theirs = picture(GAME.view(state, seat)), picture(GAME.view(state, 1 - seat))
    x0, y0, _, _ = square_box(grid, move.where.square)
    assert near(at(mine, x0 + 6, y0 + 2), HIGHLIGHT, 30)
    assert count(mine, grid, HIGHLIGHT, 30) > 500
    assert count(theirs, grid, HIGHLIGHT, 30) == 0


def test_seen_buildings_are_coloured_in() -> None:
    view = GAME.view(finished(2, 5), 0)
    image = picture(view)
    grid = sheet_layout(False).grid
    drawn = sum(1 << a for a in view.seats[0].drawn)
    seen = [s for s in BUILDING_SPOTS if drawn & s.arms]
    unseen = [s for s in BUILDING_SPOTS if not drawn & s.arms]
    assert len(seen) == view.seats[0].card.items[3] and unseen
    for spot, colour in [*((s, HOUSE_SEEN) for s in seen), *((s, HOUSE) for s in unseen)]:
        x, y = spot_centre(grid, spot)
        assert near(at(image, x, y + 2), colour, 24), spot


def test_landmark_letters_fill_in_once_visited() -> None:
    view = GAME.view(started(2), 0)  # the start square passes A's letter
    image = picture(view)
    grid = sheet_layout(False).grid
    for lm, arm_mask in zip(CITY.landmarks, LANDMARK_ARMS, strict=True):
        x, y = letter_centre(grid, lm.letter)
        inside = at(image, x - 8, y + 6)  # in the disc, clear of the letter
        visited = any(1 << a & arm_mask for a in view.seats[0].drawn)
        assert visited == (lm.letter == "A")
        assert near(inside, FILLS[0] if visited else WHITE), lm.letter


def test_edge_values_are_circled_where_streets_leave_the_map() -> None:
    image = picture(GAME.view(started(2), 0))
    for (x, y), square, d, _ in label_spots(sheet_layout(False).grid):
        ring = at(image, x + 11, y)
        assert near(ring, INK, 60) == ((square, d) in EXITS), (square, d)


# -- dice, bonuses, score ------------------------------------------------------------------


def test_each_die_shows_its_face() -> None:
    view = GAME.view(started(2), 0)
    image = picture(view)
    plan = sheet_layout(False)
    assert all(value for _, value in view.dice)  # a fresh roll
    for (_, value), box in zip(view.dice, plan.dice, strict=True):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if value == 6:  # the horse: an arrow across the lower half
            assert near(at(image, cx, cy + 9), INK, 40)
            continue
        for d in range(4):
            dx, dy = DELTA[d]
            pixel = at(image, cx + dx * 15, cy + dy * 15)
            assert near(pixel, INK, 40) == (d in ROTATIONS[value][0]), (value, d)


def test_a_drafted_die_leaves_an_empty_place() -> None:
    state, _, move = pick_shape(started(2))
    view = GAME.view(state, 0)
    image = picture(view)
    gone = [d for d, (_, value) in enumerate(view.dice) if value == 0]
    assert len(gone) == 1
    box = sheet_layout(False).dice[gone[0]]
    assert count(image, box, INK, 40) == 0  # "taken" is grey, no face


def test_bonus_columns_mark_reserved_and_used() -> None:
    state = GAME.new(2, {"start": START}, 1)
    state = play(state, "reserve reroll")
    seat = 1 - GAME.to_play(state)[0]
    other = GAME.to_play(state)[0]
    bonus = next(m for m in GAME.legal(state, other) if GAME.format(m).startswith("bonus"))
    state = GAME.apply(state, other, bonus).state
    plan = sheet_layout(False)
    reserver, user = GAME.view(state, seat), GAME.view(state, other)
    assert bonus_states(reserver.seats[seat].bonuses)[1][0] == "ready"
    image = picture(reserver)
    reroll = plan.reserved[0]
    assert near(at(image, reroll[0] + 6, reroll[3] - 6), FILLS[seat])
    footpaths = plan.reserved[3]
    assert near(at(image, footpaths[0] + 6, footpaths[3] - 6), WHITE)
    image = picture(user)
    cell = plan.immediate[bonus.value - 1]
    assert near(at(image, cell[0] + 8, cell[1] + 8), USED_CELL)
    triangle = at(image, cell[2] - 7, cell[1] + 9)
    assert near(triangle, INK, 30)  # the used-mark is coloured in
    free = plan.immediate[bonus.value % 6]
    assert near(at(image, free[2] - 7, free[1] + 9), WHITE, 30)


def test_a_used_footpaths_bonus_is_greyed() -> None:
    for seed in range(40):
        state = finished(1, seed)
        if state.seats[0].bonuses.footpaths == USED:
            break
    else:
        raise AssertionError("no game used its footpaths bonus")
    image = picture(GAME.view(state, 0))
    cell = sheet_layout(True).reserved[3]
    assert near(at(image, cell[0] + 6, cell[3] - 6), USED_CELL)


def _column_ink(image: Image.Image, plan_rows: tuple[Box, ...], right: float) -> int:
    box = (right - 40, plan_rows[0][1], right, plan_rows[-1][3])
    return count(image, box, EULER.edge, 24)


def test_eulers_column_is_there_only_in_a_solo_game() -> None:
    solo = GAME.view(finished(1, 2), 0)
    duel = GAME.view(finished(2, 2), 0)
    solo_plan, duel_plan = sheet_layout(True), sheet_layout(False)
    assert len(solo_plan.score_columns) == 2 and len(duel_plan.score_columns) == 1
    right = solo_plan.score_columns[1]
    assert _column_ink(picture(solo), solo_plan.score_rows, right) > 100
    assert _column_ink(picture(duel), duel_plan.score_rows, right) == 0
    assert solo.euler_total is not None and duel.euler_total is None


def test_the_items_that_count_are_marked() -> None:
    view = GAME.view(finished(2, 4), 0)
    image = picture(view)
    rows = sheet_layout(False).score_rows
    counted = view.seats[0].card.counted
    assert 0 < len(counted) < 7
    for i, row in enumerate(rows[:-1]):
        tint = at(image, row[0] + 6, (row[1] + row[3]) / 2)
        assert near(tint, (255, 244, 200), 10) == (i in counted), i


def test_caption_names_the_viewer_and_who_is_to_play() -> None:
    state, seat, move = pick_shape(started(3))
    view = GAME.view(state, seat)
    title, line = caption(view, NAMES[:3])
    assert title.startswith(f"{NAMES[seat]}'s map — Round 1/5")
    waiting = NAMES[GAME.to_play(state)[0]]
    assert line.startswith(f"{waiting} to ") and line.endswith(GAME.format(move))
    over = GAME.view(finished(1, 6), None)
    assert caption(over, NAMES[:1])[1].startswith("Game over: ")


# -- the public card -----------------------------------------------------------------------


def test_the_public_card_draws_every_line_but_counts_only_crossings_and_visits() -> None:
    """A line that reaches no bridge or landmark, taken away, leaves the counts and
    scores as they were, and changes the player's small map."""
    view = GAME.view(finished(2, 8), None)
    player = view.seats[0]
    bridges = {b.square for b in CITY.bridges}
    letters = {a for mask in LANDMARK_ARMS for a in bits(mask)}
    spare = next(a for a in player.drawn if a // 4 not in bridges and a not in letters)
    fewer = replace(player, drawn=tuple(a for a in player.drawn if a != spare))
    other = replace(view, seats=(fewer, *view.seats[1:]))
    assert progress(other, 0) == progress(view, 0)
    before, after = decode(render(view, NAMES[:2])), decode(render(other, NAMES[:2]))
    plan = public_layout(view)
    x, y = plan.maps[0]
    changed = ImageChops.difference(before, after).getbbox()
    assert changed is not None, "the line is on the small map"
    side = plan.cell * 12
    assert x - 4 <= changed[0] and changed[2] <= x + side + 4 and y - 4 <= changed[1]


@pytest.mark.parametrize("players", [1, 4])
def test_the_public_card_has_a_row_per_player_with_name_and_score(players: int) -> None:
    view = GAME.view(random_state(players, 9, 60), None)
    plan = public_layout(view)
    assert len(plan.rows) == max(players, 2)
    image = picture(view)
    for position, row in enumerate(plan.rows):
        bridges, letters, total = progress(view, position)
        fill = EULER.fill if view.solo and position == 1 else FILLS[position]
        chip = (row[0] + 12, row[1] + 8, row[0] + 40, row[1] + 36)
        assert count(image, chip, fill) > 300
        pips = (row[0], row[1] + 40, row[2], row[3])
        filled = count(image, pips, fill)
        done = len(bridges) + len(letters)
        assert (filled > 0) == (done > 0) and filled > 300 * done
        if not (view.solo and position == 1):
            assert total == view.seats[position].card.total
    names = list(NAMES[:players])
    names[0] = "Zebedee"
    renamed = decode(render(view, names))
    scored = list(view.seats)
    card = scored[0].card
    scored[0] = replace(scored[0], card=replace(card, total=card.total + 111))
    rescored = picture(replace(view, seats=tuple(scored)))
    row = plan.rows[0]
    name_box = (row[0] + 50, row[1] + 8, row[0] + 200, row[1] + 40)
    score_box = (row[2] - 52, row[1] + 6, row[2] - 10, row[1] + 40)
    assert count(image, name_box, INK, 30) > 100 and count(image, score_box, INK, 30) > 60
    assert not alike(renamed, image, name_box) and alike(renamed, image, score_box)
    assert not alike(rescored, image, score_box) and alike(rescored, image, name_box)
    assert alike(rescored, image, plan.rows[1])


# -- through the service -------------------------------------------------------------------


async def test_the_channel_gets_the_card_and_the_mover_their_own_sheet(store) -> None:
    service = Service(store, seed=lambda: 12345)
    await service.lobby.create(TABLE, ADA, "seven-bridges")
    await service.lobby.join(TABLE, BOB)
    start = await service.lobby.start(TABLE, ADA)
    mover = ADA if start.awaiting == (ADA.user_id,) else BOB
    moved = await service.play.move(TABLE, mover, (await service.play.legal_moves(TABLE, mover))[0])
    assert decode(moved.image).width == 800  # the public progress card, no map
    assert moved.followup.private
    assert decode(moved.followup.image).width == 900  # the mover's own sheet
    hand = await service.play.hand(TABLE, mover)
    assert hand.private and decode(hand.image).width == 900


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_public_card_shows_every_players_map_with_their_lines(players: int) -> None:
    """Spectators follow the networks themselves: each seat's small map carries its lines
    in its colour, and no other seat's."""
    state = finished(players, 3)
    view = GAME.view(state, None)
    image = picture(view)
    plan = public_layout(view)
    side = plan.cell * 12
    assert len(plan.maps) == players and plan.cell >= 14
    for seat, (x, y) in enumerate(plan.maps):
        box = (x, y, x + side, y + side)
        assert view.seats[seat].drawn, "a finished game has lines"
        assert count(image, box, FILLS[seat], 6) > 10 * plan.cell, seat
        others = [FILLS[s] for s in range(players) if s != seat]
        assert all(count(image, box, fill, 6) == 0 for fill in others), seat


def _inked(image: Image.Image, y: int, x0: float, x1: float) -> bool:
    """Whether row ``y`` holds text between ``x0`` and ``x1``: a pixel far from paper."""
    paper = at(image, x0 - 2, y)
    return any(
        sum(abs(a - b) for a, b in zip(at(image, x, y), paper, strict=True)) > 90
        for x in range(round(x0), round(x1))
    )


def test_a_solo_score_headings_words_never_run_into_the_you_column() -> None:
    """Before a bridge is crossed the heading reads "SCORE · cross a bridge to count",
    its longest: the "you" over the player's column is the only word on its lines left
    of Euler's column (the heading ran into it)."""
    view = GAME.view(GAME.new(1, {"start": "ii-2-3"}, 3), 0)
    assert view.seats[0].card.crossed == 0
    image = picture(view)
    plan = sheet_layout(True)
    left, top = plan.score_rows[0][0], round(plan.score_rows[0][1])
    you = plan.score_columns[0]  # "you" is right-aligned here
    lines = [y for y in range(top - 60, top - 2) if _inked(image, y, you - 4, you + 1)]
    assert len(lines) >= 6, "the player's column is named over it"
    clear = you - text_width("you", 15, bold=False) - 8  # a space's width left of "you"
    crowded = [y for y in lines if _inked(image, y, left + 4, clear)]
    assert not crowded, f"other words share the lines of 'you': {crowded}"
