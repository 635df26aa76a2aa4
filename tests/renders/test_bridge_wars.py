"""The Bridge Wars picture, checked the way a player looks at it.

Games start with real setup moves; a position a check needs is then built with the
engine's own ``put`` (as in the rules tests) or played. The PNG is decoded and probed
where :mod:`renders.bridge_wars` says a hole, a block face or a card is drawn. In the 3D
view a probe sits half a hole to the right of a hole's centre: rods, the letters on
blocks and the edges between holes never fall there.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

import engine
import renders
from engine.bridge_wars.actions import Place
from engine.bridge_wars.board import BRASS, parse_hole
from engine.bridge_wars.state import State, put
from renders.bridge_wars import (
    BOARD_TOP,
    BRASS_ROD,
    EMPTY_ROD,
    HOLE,
    ISO_A,
    ISO_C,
    NO_ROD,
    Box,
    caption,
    cell_box,
    layout,
    render,
    status,
    stock_line,
    top_face_centre,
)
from renders.palette import BACKGROUND, CARD, CARD_LINE, HIGHLIGHT, PLAYER_COLOURS, RGB, TURN

g = engine.get("bridge-wars")
NAMES = ("Ada", "Bob", "Cy", "Dee")
RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


def h(text: str) -> int:
    index = parse_hole(text)
    assert index is not None
    return index


def play(state: State, text: str) -> State:
    new_state = g.apply(state, g.to_play(state)[0], g.parse(text)).state
    return new_state


def started(*picks: str, players: int = 2, height: int | None = None) -> State:
    state = g.new(players, None if height is None else {"height": height}, 0)
    for text in picks:
        state = play(state, text)
    return state


def drop_in(state: State, colour: int, *moves: str) -> State:
    """Put blocks in for ``colour`` without checking legality, to build a position."""
    for text in moves:
        action = g.parse(text)
        assert isinstance(action, Place)
        state, _ = put(state, state.colours.index(colour), action)
    return state


def to_move(state: State, colour: int) -> State:
    return replace(state, turn=state.colours.index(colour))


def picture(state: State) -> tuple[Image.Image, bytes]:
    view = g.view(state, None)
    png = render(view, NAMES[: view.players])
    return Image.open(io.BytesIO(png)).convert("RGB"), png


def near(pixel: RGB, colour: RGB, tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def probe(image: Image.Image, state: State, where: str, level: float) -> RGB:
    """The 3D view half a hole right of ``where``'s centre, ``level`` layers up."""
    x, y = top_face_centre(layout(g.view(state, None)), h(where), level)
    return image.getpixel((round(x + ISO_A / 2), round(y)))


def count(image: Image.Image, box: Box, colour: RGB, tolerance: int = 16) -> int:
    region = image.crop(tuple(round(v) for v in box))
    return sum(near(p, colour, tolerance) for p in region.get_flattened_data())


def fill(colour: int) -> RGB:
    return PLAYER_COLOURS[colour].fill


def red_colours(pixel: RGB) -> bool:
    """The red fill or one of the shades of its sides."""
    red = fill(RED)
    return any(near(pixel, tuple(round(c * f) for c in red)) for f in (1.0, 0.78, 0.6))


def bridge_position() -> State:
    """Red (south-west) built b2..b4 up to level 3, then played I4 h b3: c3, d3 and e3
    are bridged, with a gap of three levels under them."""
    state = to_move(started("red sw", "blue ne"), RED)
    state = drop_in(state, RED, "I2 v b2", "I2 v b3")
    return play(to_move(state, RED), "I4 h b3")


def finished(players: int, seed: int) -> State:
    rnd = random.Random(seed)
    state = g.new(players, None, seed)
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
    return state


# -- size ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_picture_is_phone_shaped_and_small(players: int):
    image, png = picture(finished(players, seed=players))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert image.width == 800  # shown ~400 px wide on a phone: 800 is twice that
    assert image.height <= 1.4 * image.width  # Discord shrinks very tall pictures
    assert len(png) < 150 * 1024


def test_taller_rods_make_a_taller_3d_view():
    low, _ = picture(started("red sw", "blue ne", height=8))
    high, _ = picture(started("red sw", "blue ne", height=12))
    assert high.height - low.height == 4 * ISO_C


# -- the 3D view -----------------------------------------------------------------------


def test_blocks_show_their_colour_in_3d():
    state = started("red sw", "blue ne")
    image, _ = picture(state)
    for where in ("a1", "b1", "a2", "b2"):
        assert near(probe(image, state, where, 1), fill(RED)), where
    for where in ("j10", "k10", "j11", "k11"):
        assert near(probe(image, state, where, 1), fill(BLUE)), where
    assert near(probe(image, state, "f6", 0), BOARD_TOP), "nothing stands on f6"


def test_a_stack_is_drawn_layer_on_layer():
    state = bridge_position()  # b2: the starter at level 1 and a red block at level 2
    image, _ = picture(state)
    assert red_colours(probe(image, state, "b2", 1.5))
    assert red_colours(probe(image, state, "b2", 0.5))


def test_a_bridged_gap_shows_through_with_a_shadow_under_it():
    state = bridge_position()
    image, _ = picture(state)
    for where in ("c3", "d3", "e3"):
        assert near(probe(image, state, where, 4), fill(RED)), f"the bridge is on top of {where}"
        gap = probe(image, state, where, 1.5)
        assert not red_colours(gap), f"{where}: the gap under the bridge is open"
    board = probe(image, state, "d3", 0)
    assert sum(board) < sum(BOARD_TOP) - 60, "the bridge casts a shadow on the board"
    assert near(probe(image, state, "f3", 0), BOARD_TOP), "no shadow where nothing bridges"


def test_unclaimed_corners_show_empty_holes():
    state = started("red sw", "blue ne")
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    for where in ("a11", "k1"):  # the north-west and south-east corners
        x, y = top_face_centre(plan, h(where), 0)
        assert near(image.getpixel((round(x), round(y))), HOLE), where
    x, y = top_face_centre(plan, h("e1"), 0.5)  # a claimed corner's rod rises here
    assert not near(image.getpixel((round(x), round(y))), BOARD_TOP)


def test_the_last_block_has_an_arrow_over_it_in_3d():
    state = bridge_position()
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    tops = [top_face_centre(plan, c, 4) for c in state.placed[-1].cells]
    x = sum(p[0] for p in tops) / len(tops)
    y = min(p[1] for p in tops)
    assert near(image.getpixel((round(x), round(y - 26))), HIGHLIGHT)


# -- the map ---------------------------------------------------------------------------


def cell_fill(image: Image.Image, state: State, where: str) -> RGB:
    """A map cell's colour, at a point clear of its letter, number and outlines."""
    x0, y0, x1, _ = cell_box(layout(g.view(state, None)), h(where))
    return image.getpixel((round(x1 - 12), round(y0 + 12)))


def test_the_map_shows_each_rods_top_colour():
    state = bridge_position()
    image, _ = picture(state)
    for where in ("a1", "b3", "c3", "d3", "e3"):
        assert near(cell_fill(image, state, where), fill(RED)), where
    assert near(cell_fill(image, state, "k11"), fill(BLUE))
    assert near(cell_fill(image, state, "f3"), EMPTY_ROD), "a rod with no block"
    assert near(cell_fill(image, state, "a11"), NO_ROD), "an unclaimed corner has no rods"


def test_a_bridge_takes_the_map_cell_from_the_colour_below():
    state = to_move(started("red sw", "blue ne"), RED)
    state = drop_in(state, RED, "I2 v b2", "I2 v b3")
    state = drop_in(state, BLUE, "I2 h c3")
    image, _ = picture(state)
    assert near(cell_fill(image, state, "c3"), fill(BLUE))
    state = play(to_move(state, RED), "I3 h b3")
    image, _ = picture(state)
    assert near(cell_fill(image, state, "c3"), fill(RED))


def test_map_cells_carry_a_letter_and_a_level_for_colour_blind_players():
    state = bridge_position()
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    x0, y0, x1, y1 = cell_box(plan, h("d3"))
    ink = PLAYER_COLOURS[RED].ink
    assert count(image, (x0 + 3, y0 + 3, x0 + 20, y0 + 22), ink, 40) > 10, "the letter R"
    assert count(image, (x0 + 20, y0 + 22, x1 - 3, y1 - 3), ink, 40) > 20, "the level 4"
    x0, y0, x1, y1 = cell_box(plan, h("f3"))
    assert count(image, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), ink, 40) == 0


def test_the_last_block_is_outlined_on_the_map():
    state = bridge_position()
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    last = {"b3", "c3", "d3", "e3"}
    for where in ("a1", "b2", "b3", "c3", "d3", "e3", "f3", "b4"):
        x0, y0, _, y1 = cell_box(plan, h(where))
        edge = image.getpixel((round(x0 + 4), round((y0 + y1) / 2)))
        assert near(edge, HIGHLIGHT) == (where in last), where


def test_the_brass_rod_is_ringed_in_gold():
    state = started("red sw", "blue ne")
    image, _ = picture(state)
    x0, y0, _, y1 = cell_box(layout(g.view(state, None)), BRASS)
    assert near(image.getpixel((round(x0 + 3), round((y0 + y1) / 2))), BRASS_ROD)


# -- players and captions --------------------------------------------------------------


def test_each_card_shows_its_colour_and_the_turn():
    state = started("red sw", "blue ne", "yellow nw", players=3)
    view = g.view(state, None)
    image, _ = picture(state)
    for seat, card in enumerate(layout(view).cards):
        assert count(image, card, fill(view.colours[seat])) > 300
        border = image.getpixel((round(card[0] + 1), round((card[1] + card[3]) / 2)))
        assert near(border, TURN if seat == view.turn else CARD_LINE, tolerance=30)


def test_the_blocks_left_stay_clear_of_their_card_edge():
    state = started("red sw", "blue ne")  # a full stock: the list takes two lines
    view = g.view(state, None)
    image, _ = picture(state)
    card = layout(view).cards[view.turn]  # the thickest edge: the seat to play
    assert len(stock_line(view, view.turn)) > 30
    edge = round(card[3]) - 4  # the 4 px edge begins here
    for y in (edge - 2, edge - 1):  # two rows of plain card between the text and the edge
        row = image.crop((round(card[0]) + 16, y, round(card[2]) - 16, y + 1))
        assert all(near(p, CARD, tolerance=8) for p in row.get_flattened_data()), y


def test_cards_list_the_blocks_left():
    state = bridge_position()
    view = g.view(state, None)
    red = view.colours.index(RED)
    assert stock_line(view, red) == "I2 I3×3 I4×2 I5×2 L3×2 L4×2 T4×2 S4×2"
    assert status(view, red) == ("SW corner · 16 left", "")


def test_captions_follow_the_game():
    state = g.new(2, None, 0)
    chooser = g.to_play(state)[0]
    assert caption(g.view(state, None), NAMES[:2]) == (
        "New game: choose colours and corners",
        f"{NAMES[chooser]} to choose",
    )
    state = started("red sw", "blue ne")
    red = state.colours.index(RED)
    left, right = caption(g.view(state, None), NAMES[:2])
    assert right == f"{NAMES[state.turn]} to play"
    state = bridge_position()
    assert caption(g.view(state, None), NAMES[:2])[0] == f"{NAMES[red]}: I4 h b3, level 4"


def test_the_last_round_is_announced():
    state = started("red sw", "blue ne", "green nw", players=3, height=4)
    state = to_move(drop_in(state, RED, "I2 h a1", "I3 h a1"), RED)
    state = play(state, "I4 h a1")  # level 4: the top
    view = g.view(state, None)
    assert caption(view, NAMES[:3])[1] == f"Last round: {NAMES[view.turn]} to play"
    assert status(view, view.turn)[1] == "LAST TURN"
    assert status(view, view.colours.index(RED))[1] == ""
    picture(state)


def test_a_finished_game_names_the_winner():
    state = finished(4, seed=9)
    view = g.view(state, None)
    assert view.places is not None
    winners = [NAMES[s] for s, p in enumerate(view.places) if p == 1]
    assert caption(view, NAMES)[1].startswith(f"Game over: {' & '.join(winners)}")
    picture(state)


def test_a_long_name_is_shortened_to_fit():
    state = started("red sw", "blue ne")
    names = ["Ada " * 30, "Bob " * 30]
    image = Image.open(io.BytesIO(render(g.view(state, None), names))).convert("RGB")
    assert count(image, (0, 0, 12, 56), BACKGROUND, 4) == 12 * 56
    assert count(image, (image.width - 12, 0, image.width, 56), BACKGROUND, 4) == 12 * 56


def test_every_position_of_random_games_renders():
    for players in (2, 3, 4):
        rnd = random.Random(players)
        state = g.new(players, None, players)
        step = 0
        while not g.is_over(state):
            seat = g.to_play(state)[0]
            state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
            step += 1
            if step % 12 == 0:
                image, _ = picture(state)
                assert image.size == (800, layout(g.view(state, None)).height)


def test_renders_dispatch_by_game_key():
    view = g.view(started("red sw", "blue ne"), None)
    assert renders.render("bridge-wars", view, NAMES[:2]) == render(view, NAMES[:2])
