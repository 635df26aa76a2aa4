"""Who is awaited for what: the seat to play in its stage, or a window's seats out of turn;
and ``is_legal`` agreeing with ``legal`` for every seat, position and candidate move."""

from __future__ import annotations

import random

import pytest

from engine.seven_cities.actions import Found, Move, Place, Play, Recall, Start
from engine.seven_cities.cards import CARDS
from tests.engine.seven_cities.conftest import burn_table, g, play, refused, table


def test_the_seat_to_play_is_awaited_in_its_stage_with_a_prompt():
    state = table(hands=[("burn", "wall", "army", "points2"), ()])
    ((seat, stage),) = g.awaited(state).items()
    assert (seat, stage.name, stage.out_of_turn) == (0, "turn", False)
    state, _ = play(state, 0, "end")
    ((seat, stage),) = g.awaited(state).items()
    assert (seat, stage.name) == (0, "discard")
    assert (
        refused(state, 0, "end")
        == stage.prompt
        == ("Discard down to 2 cards first (`discard <card>`).")
    )


def test_a_window_awaits_its_seats_out_of_turn_and_the_step_says_so():
    state = burn_table(hands=[("burn",), (), ()])
    step = g.play(state, 0, "play burn")
    assert list(step.awaited) == [1, 2]
    assert {s.name for s in step.awaited.values()} == {"defend"}
    assert step.reaction_open and all(s.out_of_turn for s in step.awaited.values())
    assert refused(step.state, 1, "end") == (
        "A reaction window is open: answer with Defend City or `pass`."
    )
    assert refused(step.state, 0, "end") == "It is not your turn: waiting for {seat1}, {seat2}."


def test_a_seat_that_resigned_plays_no_more():
    state, _ = play(table(players=3), 1, "resign")
    assert refused(state, 1, "resign") == "You have already resigned."
    assert refused(state, 1, "end") == "You have already resigned."
    assert g.legal(state, 1) == []


def test_moves_built_in_code_are_refused_in_a_sentence():
    state = table(hands=[("points2", "burn", "takeover", "railway"), ()], ap=2)
    assert g.refusal(state, 0, Play("points2")) == (
        "Just Action Points (2) has no special action: play it with `ap points2`."
    )
    assert g.refusal(state, 0, Play("dragon")) == "'dragon' is not a card."
    assert "is played as `play burn`" in g.refusal(state, 0, Play("burn", ("f1a",)))
    assert g.refusal(state, 0, Play("takeover", ("f9a",))) == "There is no tile f9a on the board."
    unsorted = Play("railway", ("f1c", "f1a", "f1b"))
    assert "in order" in g.refusal(state, 0, unsorted)
    assert g.refusal(state, 0, Place(0, 0, 9)) == "You can't place 0,0 r9 now."


def candidates(state, seat) -> set:
    """Moves worth asking about beyond the listed ones: every tile for the tile moves and
    each card's special action on every tile (a refusal must hold for each)."""
    geo = state.geo
    names = [geo.name(t) for t in geo.tiles(0) + geo.tiles(1)]
    rnd = random.Random(len(names) + seat)
    picked = rnd.sample(names, min(6, len(names)))
    pos = state.positions[seat]
    moves: set = {Found(None)}
    for name in picked:
        moves |= {Start(name), Move(name), Recall(name), Found(name)}
        for card in ("takeover", "remote", "army", "metropolis"):
            moves.add(Play(card, (name,)))
        for other in range(state.players):
            moves.add(Play("enemy", (name,), (other,)))
            moves.add(Play("embassy", (name,), (other,)))
    if pos is not None:
        moves |= {Place(pos[1] + dq, pos[2] + dr, rot) for dq, dr, rot in ((1, 0, 0), (-2, 1, 3))}
    moves |= {Play(c.slug) for c in CARDS if c.slug in ("expedition", "burn", "atlantis")}
    return moves


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_is_legal_agrees_with_legal_everywhere(players):
    """Whole random games: at every position, every seat, for the moves any seat may make
    now or could a move ago, and for made-up ones, a refusal is given exactly when the
    move is not listed, and it is a sentence."""
    rnd = random.Random(players)
    state = g.new(players, None, players)
    before: set = set()
    checked = 0
    while not g.is_over(state):
        listed = {s: g.legal(state, s) for s in range(players)}
        pool = {a for moves in listed.values() for a in moves} | before
        for seat in range(players):
            for action in pool | candidates(state, seat):
                reason = g.refusal(state, seat, action)
                assert (reason is None) == (action in listed[seat]), (seat, action, reason)
                assert reason is None or reason.endswith((".", "`", ")")), reason
                checked += 1
        seat = rnd.choice(g.to_play(state))
        before = set(listed[seat])
        state = g.apply(state, seat, rnd.choice(listed[seat])).state
    assert checked > 10_000
