"""The Skybridge picture, checked the way a player looks at it.

Positions are built by playing real moves through the engine; the PNG is decoded and
probed where :func:`renders.skybridge.layout` says a piece, cell or card is drawn.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image

import engine
import renders
from engine.skybridge.actions import Place
from engine.skybridge.board import COLOURS, SQUARES
from engine.skybridge.state import State
from renders.palette import BACKGROUND, CARD_LINE, HIGHLIGHT, MEDALS, PLAYER_COLOURS, RGB, TURN
from renders.skybridge import (
    CELL,
    Box,
    caption,
    layout,
    render,
    status,
)

GAME = engine.get("skybridge")
NAMES = ("Ada", "Bob", "Cy", "Dee")


def play(state: State, *moves: str) -> State:
    """Apply ``moves`` in turn order; a move without a colour uses the mover's first one."""
    for text in moves:
        seat = GAME.to_play(state)[0]
        if text.split()[0] not in COLOURS:
            colour = GAME.view(state, seat).seat_colours[seat][0]
            text = f"{COLOURS[colour]} {text}"
        state = GAME.apply(state, seat, GAME.parse(text)).state
    return state


def play_first(state: State, wanted: Callable[[Place], bool]) -> tuple[State, Place]:
    """Play the first legal move of the seat to play that ``wanted`` accepts."""
    seat = GAME.to_play(state)[0]
    move = next(m for m in GAME.legal(state, seat) if wanted(m))
    state = GAME.apply(state, seat, move).state
    return state, move


def towers(players: int) -> State:
    """A tall on every foundation: every tower 3 high, ready for bridges and roofs."""
    return play(GAME.new(players, None, 1), *(f"tall {sq}" for sq in SQUARES))


def finish(state: State, rank: Callable[[Place], int]) -> State:
    """Play to the end, each seat taking its lowest-ranked legal move."""
    while not GAME.is_over(state):
        seat = GAME.to_play(state)[0]
        state = GAME.apply(state, seat, min(GAME.legal(state, seat), key=rank)).state
    return state


def picture(state: State) -> tuple[Image.Image, bytes]:
    view = GAME.view(state, None)
    png = render(view, NAMES[: view.players])
    return Image.open(io.BytesIO(png)).convert("RGB"), png


def near(pixel: RGB, colour: RGB, tolerance: int = 18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def fill_at(image: Image.Image, box: Box) -> RGB:
    """A piece's colour: a point in its left part, clear of the edge and the letter."""
    return image.getpixel((int(box[0] + 9), int((box[1] + box[3]) / 2)))


def count(image: Image.Image, box: Box, colour: RGB) -> int:
    region = image.crop(tuple(int(v) for v in box))
    return sum(near(p, colour) for p in region.get_flattened_data())


def fill(colour: int) -> RGB:
    return PLAYER_COLOURS[colour].fill


@pytest.mark.parametrize("players", [2, 3, 4])
def test_picture_is_phone_sized_and_small(players: int) -> None:
    state = finish(GAME.new(players, None, 5), rank=lambda m: m.kind != "bridge")
    image, png = picture(state)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert 600 <= image.width <= 1100
    assert image.height <= 1.4 * image.width  # Discord shrinks very tall pictures
    assert len(png) < 150 * 1024


def test_a_tower_shows_each_piece_in_its_colour() -> None:
    state = play(GAME.new(4, None, 1), "tall b2", "cube a1")
    view = GAME.view(state, None)
    image, _ = picture(state)
    plan = layout(view)
    tall, cube = view.board[4][0], view.board[0][0]
    assert near(fill_at(image, plan.pieces[4][0]), fill(tall.colour))
    assert near(fill_at(image, plan.pieces[0][0]), fill(cube.colour))
    empty = plan.cells[8]  # c3: nothing drawn where a tower would stand
    assert near(image.getpixel((int((empty[0] + empty[2]) / 2), int(empty[3] - 60))), CELL)


def test_pieces_are_as_tall_as_their_stories() -> None:
    view = GAME.view(play(GAME.new(4, None, 1), "tall b2", "cube a1"), None)
    tall, cube = layout(view).pieces[4][0], layout(view).pieces[0][0]
    assert (tall[3] - tall[1]) / (cube[3] - cube[1]) == pytest.approx(1.5)


def test_last_move_is_outlined_and_named() -> None:
    state = play(GAME.new(4, None, 1), "tall b2")
    view = GAME.view(state, None)
    image, _ = picture(state)
    for sq, cell in enumerate(layout(view).cells):
        edge = image.getpixel((int(cell[0] + 6), int((cell[1] + cell[3]) / 2)))
        assert near(edge, HIGHLIGHT) == (sq == SQUARES.index("b2"))
    assert caption(view, NAMES)[0] == f"Last: {COLOURS[view.last.colour]} tall b2"


def test_a_side_by_side_bridge_is_a_plank_between_the_towers() -> None:
    state, move = play_first(
        towers(4), lambda m: m.kind == "bridge" and m.squares[1] - m.squares[0] == 1
    )
    view = GAME.view(state, None)
    image, _ = picture(state)
    plan = layout(view)
    a, b = move.squares
    end = plan.pieces[a][-1]
    y = int((end[1] + end[3]) / 2)
    assert near(image.getpixel((int(end[2] + 14), y)), fill(move.colour))
    assert near(image.getpixel((int(plan.pieces[b][-1][0] - 14), y)), fill(move.colour))
    for sq in move.squares:  # a bridge's last move outlines both its towers
        cell = plan.cells[sq]
        assert near(image.getpixel((int(cell[0] + 6), int(cell[3] - 20))), HIGHLIGHT)
    other_row = plan.pieces[(a + 3) % 9][-1]
    assert not near(image.getpixel((int(end[2] + 14), int(other_row[1] + 5))), fill(move.colour))


def test_a_front_to_back_bridge_joins_the_two_cells() -> None:
    state, move = play_first(
        towers(4), lambda m: m.kind == "bridge" and m.squares[1] - m.squares[0] == 3
    )
    image, _ = picture(state)
    plan = layout(GAME.view(state, None))
    seam = int(plan.cells[move.squares[0]][1])  # where the two rows meet
    for col in range(3):
        x0, _, x1, _ = plan.cells[col]
        across = count(image, (x0, seam - 1, x1, seam + 1), fill(move.colour))
        assert (across > 0) == (col == move.squares[0] % 3)


def test_a_roof_shows_its_owner() -> None:
    state, move = play_first(towers(4), lambda m: m.kind == "roof")
    view = GAME.view(state, None)
    image, _ = picture(state)
    x0, _, x1, y1 = layout(view).pieces[move.squares[0]][-1]
    assert near(image.getpixel((int(x0 + (x1 - x0) / 4), int(y1 - 5))), fill(move.colour))
    assert view.roof_owner[move.squares[0]] == move.colour


def _skyscraper(move: Place) -> int:
    """Rank moves to roof every foundation but a1 and pile everything else on a1."""
    on_a1 = move.squares == (0,)
    if move.kind == "roof":
        return 9 if on_a1 else 0
    return 1 if on_a1 else 2


def test_a_very_tall_tower_fits_in_its_cell() -> None:
    state = finish(GAME.new(2, None, 1), rank=_skyscraper)
    view = GAME.view(state, None)
    assert view.heights[0] >= 50
    image, _ = picture(state)
    plan = layout(view)
    assert image.size == picture(GAME.new(2, None, 1))[0].size
    for sq, boxes in enumerate(plan.pieces):
        cell = plan.cells[sq]
        assert all(cell[1] <= box[1] and box[3] <= cell[3] for box in boxes), SQUARES[sq]
    top = view.board[0][-1]
    assert near(fill_at(image, plan.pieces[0][-1]), fill(top.colour))


def test_finished_game_gives_every_player_a_place() -> None:
    state = finish(GAME.new(4, None, 3), rank=lambda m: m.kind != "roof")
    view = GAME.view(state, None)
    image, _ = picture(state)
    assert caption(view, NAMES)[1].startswith("Game over: ")
    assert view.places is not None
    assert 1 in view.places
    for seat, card in enumerate(layout(view).cards):
        place = view.places[seat]
        if place <= len(MEDALS):
            assert count(image, card, MEDALS[place - 1]) > 300
        assert (count(image, card, MEDALS[0]) > 0) == (place == 1)


def test_the_seat_to_play_is_marked() -> None:
    state = play(GAME.new(4, None, 1), "tall b2", "tall a1")
    view = GAME.view(state, None)
    image, _ = picture(state)
    for seat, card in enumerate(layout(view).cards):
        border = image.getpixel((int(card[0] + 1), int((card[1] + card[3]) / 2)))
        assert near(border, TURN if seat == view.turn else CARD_LINE, tolerance=30)


def test_three_players_share_neutral_green() -> None:
    state = play(GAME.new(3, None, 1), "green tall b2")
    view = GAME.view(state, None)
    image, _ = picture(state)
    plan = layout(view)
    assert len(plan.cards) == 3
    assert near(fill_at(image, plan.pieces[4][0]), fill(3))
    for seat, card in enumerate(plan.cards):
        assert count(image, card, fill(3)) > 300  # everyone's card shows green
        assert count(image, card, fill(seat)) > 300


def test_two_players_each_show_both_their_colours() -> None:
    image, _ = picture(GAME.new(2, None, 1))
    plan = layout(GAME.view(GAME.new(2, None, 1), None))
    for card, own, other in zip(plan.cards, ((0, 2), (1, 3)), ((1, 3), (0, 2)), strict=True):
        assert all(count(image, card, fill(c)) > 300 for c in own)
        assert all(count(image, card, fill(c)) == 0 for c in other)


def span(image: Image.Image, box: Box, colour: RGB) -> int:
    """How wide a stretch of ``box`` holds ``colour``: a swatch plus its row of pieces."""
    region = image.crop(tuple(int(v) for v in box))
    columns = [
        x
        for x in range(region.width)
        for y in range(region.height)
        if near(region.getpixel((x, y)), colour)
    ]
    return max(columns) - min(columns) if columns else 0


def test_cards_show_the_pieces_left_of_each_colour() -> None:
    view = GAME.view(GAME.new(3, None, 1), None)
    image, _ = picture(GAME.new(3, None, 1))
    for seat, card in enumerate(layout(view).cards):
        stock_line = (card[0], card[1] + 54, card[2], card[3] - 10)
        own, neutral = span(image, stock_line, fill(seat)), span(image, stock_line, fill(3))
        assert own > 200  # swatch, tall, cube, bridge and roof
        assert 80 < neutral < 0.7 * own  # green: swatch, tall and cube only


def test_a_resigned_player_is_marked() -> None:
    state = play(GAME.new(4, None, 1), "tall b2")
    state = GAME.apply(state, 2, GAME.parse("resign")).state
    view = GAME.view(state, None)
    picture(state)
    assert [status(view, seat) for seat in range(4)] == ["", "", "resigned", ""]


def _someone_out() -> State:
    """A 3-player game played at random until a seat is out while the others play on."""
    for seed in range(50):
        rnd, state = random.Random(seed), GAME.new(3, None, seed)
        while not GAME.view(state, None).out:
            seat = GAME.to_play(state)[0]
            state = GAME.apply(state, seat, rnd.choice(GAME.legal(state, seat))).state
        if not GAME.is_over(state):
            return state
    raise AssertionError("no random game had a seat out before the end")


def test_a_player_who_cannot_place_is_marked_out() -> None:
    state = _someone_out()
    view = GAME.view(state, None)
    picture(state)
    assert {seat for seat in range(3) if status(view, seat) == "out"} == set(view.out)


def test_a_long_name_is_shortened_to_fit() -> None:
    state = GAME.new(4, None, 1)
    view = GAME.view(state, None)
    names = list(NAMES)
    names[view.turn] = "Ada " * 30  # uncut, "... to play" would run off the left edge
    image = Image.open(io.BytesIO(render(view, names))).convert("RGB")
    assert count(image, (0, 0, 12, 56), BACKGROUND) == 12 * 56


def test_renders_dispatch_by_game_key() -> None:
    view = GAME.view(play(GAME.new(3, None, 2), "tall c3"), None)
    assert renders.render("skybridge", view, NAMES[:3]) == render(view, NAMES[:3])
    with pytest.raises(KeyError, match="skybridge"):
        renders.render("chess", view, NAMES[:3])
