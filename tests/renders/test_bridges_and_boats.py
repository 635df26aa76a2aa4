"""The Bridges and Boats picture, checked the way a player looks at it.

Positions come from real moves through the engine, or from a fresh game with a few
fields replaced; the PNG is decoded and probed where :func:`layout` says a section,
space, boat, die or domino is drawn. The last test plays whole games and checks that
the public picture does not change by a single byte when every face-down domino is
swapped for another: nothing hidden can show.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

import engine
import renders
from engine.bridges_and_boats.actions import End
from engine.bridges_and_boats.dominoes import DOUBLE_SIX, Domino
from engine.bridges_and_boats.state import Boat, Run, State
from renders.bridges_and_boats import (
    BACK,
    IVORY,
    RUBBLE,
    SIDES,
    SOLDIER,
    WATER,
    Box,
    caption,
    die_box,
    layout,
    render,
)
from renders.palette import HIGHLIGHT, RGB, WAITING, WOOD
from tests.engine.bridges_and_boats.conftest import dom, rolling

g = engine.get("bridges-and-boats")
NAMES = ("Ada", "Bob")
A, D = 0, 1


def bridge(spec: str) -> tuple[Domino | None, ...]:
    return tuple(DOUBLE_SIX[20 + i] if c == "1" else None for i, c in enumerate(spec))


def position(turn: int = A, **fields) -> State:
    return replace(g.new(2, None, 0), turn=turn, **fields)


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = g.apply(state, g.to_play(state)[0], g.parse(text)).state
    return state


def picture(state: State, seat: int | None = None) -> tuple[Image.Image, bytes]:
    png = render(g.view(state, seat), NAMES)
    return Image.open(io.BytesIO(png)).convert("RGB"), png


def near(pixel: RGB, colour: RGB, tolerance: int = 20) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def at(image: Image.Image, x: float, y: float) -> RGB:
    return image.getpixel((int(x), int(y)))


def inside(box: Box, fx: float, fy: float) -> tuple[float, float]:
    """A point ``fx``, ``fy`` of the way across and down ``box``."""
    return box[0] + fx * (box[2] - box[0]), box[1] + fy * (box[3] - box[1])


def crowded() -> State:
    """A busy table: soldiers, a destroyed section, boats both sides, reserves, a waiting
    re-roll, planes in the run and many dice rows."""
    return position(
        turn=D,
        hands=((dom("2-5"), dom("3-3"), dom("1-6")), (dom("4-4"), dom("0-3"))),
        bridge=bridge("110100"),
        bombed=frozenset({2}),
        spaces=tuple(n in (1, 3, 4, 7) for n in range(1, 13)),
        boats=(
            Boat(1, dom("1-4"), 2),
            Boat(2, dom("2-6")),
            Boat(3, dom("0-5"), 1),
            Boat(4, dom("3-6")),
            Boat(5, dom("4-5"), 2, True),
            Boat(6, dom("5-5"), 1, True),
        ),
        boats_built=6,
        planes=(dom("0-0"), dom("0-1"), dom("3-5"), dom("2-4"), dom("6-6")),
        cannons=(dom("1-3"), dom("4-6")),
        declared=(dom("0-0"), dom("3-5"), dom("0-1")),
        stage=4,
        done=frozenset({"fire", "bomb"}),
        run=Run((dom("0-1"),), True, dom("3-5"), "hit", (2, 4)),
        coins=(5, 9),
        crossed=6,
        last=(D, "bomb"),
    )


def test_registered_for_the_service():
    assert renders.LOOKS["bridges-and-boats"].draw is render


@pytest.mark.parametrize("seat", [None, A, D])
def test_picture_is_phone_sized_and_small(seat):
    for state in (crowded(), g.new(2, None, 1)):
        image, png = picture(state, seat)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert image.width == 900
        assert image.height <= 1.45 * image.width
        assert len(png) < 150 * 1024


def test_sections_show_built_destroyed_and_missing():
    state = position(bridge=bridge("110100"), bombed=frozenset({2}))
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    expected = (WOOD, WOOD, RUBBLE, WOOD, WATER, WATER)
    for box, colour in zip(plan.sections, expected, strict=True):
        assert near(at(image, *inside(box, 0.25, 0.2)), colour)


def test_soldiers_stand_on_their_spaces():
    occupied = (1, 2, 5)
    state = position(bridge=bridge("111000"), spaces=tuple(n in occupied for n in range(1, 13)))
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    for n, (x, y) in enumerate(plan.spaces, start=1):
        pixel = at(image, x - 17, y)  # left of the letter S on the disc
        assert near(pixel, SOLDIER.fill) == (n in occupied), n
    assert near(at(image, plan.spaces[3][0] - 17, plan.spaces[3][1]), WOOD)


def test_a_boat_is_face_down_until_boarded_and_its_owner_alone_sees_its_values():
    state = position(boats=(Boat(1, dom("1-4"), 1), Boat(2, dom("2-6"))), boats_built=2)
    boats = dict(layout(g.view(state, None)).boats)
    public, _ = picture(state)
    defender, _ = picture(state, D)
    attacker, _ = picture(state, A)
    assert near(at(public, *inside(boats[1], 0.1, 0.5)), IVORY)
    assert near(at(public, *inside(boats[2], 0.1, 0.5)), BACK)
    assert near(at(attacker, *inside(boats[2], 0.1, 0.5)), BACK), "still face down"
    hidden = tuple(int(v) for v in boats[2])
    assert public.crop(hidden).tobytes() == defender.crop(hidden).tobytes()
    assert public.crop(hidden).tobytes() != attacker.crop(hidden).tobytes(), "values shown"


def test_boats_waiting_and_landed_are_on_their_own_banks():
    state = crowded()
    plan = layout(g.view(state, None))
    mid = (plan.water[0] + plan.water[2]) / 2
    boats = dict(plan.boats)
    assert all(boats[n][2] < mid for n in (1, 2, 3, 4))
    assert all(boats[n][0] > mid for n in (5, 6))


def test_a_seat_sees_its_own_reserve_face_up_and_only_backs_of_the_other():
    state = position(hands=((dom("2-5"), dom("3-3")), (dom("4-4"),)))
    plan = layout(g.view(state, None))
    for seat, own in ((A, A), (D, D), (None, None)):
        image, _ = picture(state, seat)
        for holder in (A, D):
            want = IVORY if holder == own else BACK
            for box in plan.hands[holder]:
                assert near(at(image, *inside(box, 0.2, 0.12)), want), (seat, holder)


def test_the_last_bombing_runs_dice_are_drawn_with_their_pips():
    # plane 3-5 rolls 1 and 2: a miss
    state = position(
        turn=D, planes=(dom("3-5"),), coins=(0, 3), bridge=bridge("111111"), rng=rolling(1, 2)
    )
    state = play(state, "fly 3-5", "bomb")
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    one, two = die_box(plan, 0, 0), die_box(plan, 0, 1)
    assert near(at(image, *inside(one, 0.5, 0.5)), (34, 34, 34), 60), "a 1 has its middle pip"
    assert near(at(image, *inside(two, 0.5, 0.5)), (255, 255, 255)), "a 2 has none there"
    assert near(at(image, *inside(two, 0.25, 0.25)), (34, 34, 34), 60)
    assert near(at(image, *inside(two, 0.75, 0.25)), (255, 255, 255))


def test_a_roll_waiting_for_the_ghost_is_marked():
    state = crowded()
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    waiting = plan.dice_rows[-1]
    assert near(at(image, waiting[2] - 30, (waiting[1] + waiting[3]) / 2), WAITING)
    assert "ghost re-roll or keep" in caption(g.view(state, None), NAMES)[2]


def test_planes_are_face_up_and_the_ones_flying_today_are_framed():
    state = crowded()
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    flying = {dom("0-0"), dom("3-5"), dom("0-1")}
    for plane, box in zip(state.planes, plan.planes, strict=True):
        assert near(at(image, *inside(box, 0.15, 0.1)), IVORY)
        frame = at(image, box[0] - 3, (box[1] + box[3]) / 2)
        assert near(frame, SIDES[D].fill, 30) == (plane in flying), plane


@pytest.mark.parametrize(
    ("moves", "framed"),
    [(("bridge d1",), "bridge"), (("boat d1",), "boat"), (("buy",), "reserve")],
)
def test_the_last_move_is_framed(moves, framed):
    state = position(hands=((dom("2-5"),), ()), coins=(3, 0))
    state = play(state, *moves)
    image, _ = picture(state)
    plan = layout(g.view(state, None))
    boxes = {
        "bridge": plan.bridge,
        "boat": plan.boats[0][1] if plan.boats else None,
        "reserve": plan.reserve[A],
    }
    for name, box in boxes.items():
        if box is None:
            continue
        edge = at(image, box[0] - 5, (box[1] + box[3]) / 2)
        assert near(edge, HIGHLIGHT, 30) == (name == framed), name
    assert caption(g.view(state, None), NAMES)[0] == f"Last: Ada {moves[-1]}"


def test_the_result_is_in_the_caption():
    state = play(position(pool=(dom("4-4"),), coins=(2, 3), crossed=1), "buy")
    assert caption(g.view(state, None), NAMES)[2] == "Game over (the pool is empty): Bob wins"
    tie = play(position(pool=(dom("4-4"),), coins=(2, 3), crossed=3), "buy")
    assert caption(g.view(tie, None), NAMES)[2].endswith("a tie")


# -- nothing face down shows -----------------------------------------------------------


def swap_hidden(state: State, hidden: set[Domino]) -> State:
    """The same table with every still-hidden domino replaced by the next hidden one."""
    order = sorted(hidden)
    other = dict(zip(order, order[1:] + order[:1], strict=True))

    def f(d):
        return other.get(d, d) if d is not None else None

    return replace(
        state,
        pool=tuple(map(f, state.pool)),
        hands=tuple(tuple(map(f, h)) for h in state.hands),
        bridge=tuple(map(f, state.bridge)),
        boats=tuple(replace(b, domino=f(b.domino)) for b in state.boats),
        cannons=tuple(map(f, state.cannons)),
        discard=tuple(map(f, state.discard)),
    )


def test_the_public_picture_is_the_same_whatever_the_face_down_dominoes_are():
    """Whole random games: at every step the public view is unchanged when every hidden
    domino is swapped for another, and at sampled steps the public PNG is byte for byte
    the same. A seat's own picture does change: its reserve is really drawn."""
    own_differs = 0
    for seed in range(3):
        rnd = random.Random(seed)
        state = g.new(2, None, seed)
        revealed: set[Domino] = set()
        step = 0
        while not g.is_over(state):
            seat = g.to_play(state)[0]
            actions = g.legal(state, seat)
            busy = [a for a in actions if not isinstance(a, End)]
            action = rnd.choice(busy) if busy and rnd.random() < 0.75 else rnd.choice(actions)
            state = g.apply(state, seat, action).state
            revealed |= set(state.planes) | {b.domino for b in state.boats if b.soldiers}
            hidden = set(DOUBLE_SIX) - revealed
            swapped = swap_hidden(state, hidden)
            assert g.view(swapped, None) == g.view(state, None)
            step += 1
            if step % 25 == 0 or g.is_over(state):
                assert render(g.view(swapped, None), NAMES) == render(g.view(state, None), NAMES)
                if state.hands[A]:
                    mine = render(g.view(state, A), NAMES)
                    own_differs += mine != render(g.view(swapped, A), NAMES)
    assert own_differs, "a seat's own picture shows its own dominoes"
