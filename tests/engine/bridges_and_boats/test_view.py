"""Hidden information: face-down dominoes never reach a public event, a move's notation,
another seat's view or the bot's public replies."""

from __future__ import annotations

import random
import re

from engine.bridges_and_boats.dominoes import DOUBLE_SIX, Domino
from tests.conftest import ADA, BOB, TABLE
from tests.engine.bridges_and_boats.conftest import A, D, g, public, random_game


def _names(domino: Domino) -> list[str]:
    """How a domino's values could be written in text."""
    a, b = domino.low, domino.high
    return [f"{a}-{b}", f"{b}-{a}", f"{a}|{b}", f"{b}|{a}", repr(domino)]


def _hidden_in(text: str, hidden: set[Domino]) -> list[str]:
    return [name for d in hidden for name in _names(d) if name in text]


def test_nothing_face_down_leaks_into_public_events_notation_or_views():
    """Whole random games: no public event, no move's notation and no public view ever
    names a domino the rules still keep face down; a seat's own view shows none of the
    other seat's secrets either."""
    private = 0
    for seed in range(8):
        revealed: set[Domino] = set()
        for state, _, action, new, events in random_game(seed):
            # whatever the move, its notation is posted publicly
            hidden = set(DOUBLE_SIX) - revealed
            for candidate in g.legal(state, g.to_play(state)[0]):
                assert not _hidden_in(g.format(candidate), hidden), g.format(candidate)
            revealed |= set(new.planes) | {b.domino for b in new.boats if b.soldiers}
            hidden = set(DOUBLE_SIX) - revealed
            leaks = _hidden_in(public(events), hidden)
            assert not leaks, (g.format(action), public(events))
            told = [e.seat for e in events if e.seat is not None]
            assert told == [g.to_play(state)[0]] * len(told), "a secret told to another seat"
            private += len(told)
            assert not _hidden_in(repr(g.view(new, None)), hidden)
            attacker_secrets = set(new.hands[A]) | {b.domino for b in new.boats if not b.soldiers}
            defender_secrets = set(new.hands[D])
            assert not _hidden_in(repr(g.view(new, D)), attacker_secrets | set(new.pool))
            assert not _hidden_in(repr(g.view(new, A)), defender_secrets | set(new.pool))
            text = repr(g.view(new, None))
            assert not re.search(r"pool=\(", text), "the public view holds the pool itself"
    assert private, "no game bought a domino, so nothing private was checked"


async def test_no_public_reply_of_a_whole_game_through_the_service_names_a_hidden_domino(
    service,
):
    """What the bot posts in the channel after every move of a whole game: the move's
    notation, the public events and the result. None of it may name a face-down domino,
    while the buyer's private follow-up does tell them what they bought."""
    rnd = random.Random(4)
    players = {A: ADA, D: BOB}
    await service.lobby.create(TABLE, ADA, "bridges-and-boats", seed=77)
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    state = g.new(2, None, 77)
    revealed: set[Domino] = set()
    bought = 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        moves = await service.play.legal_moves(TABLE, players[seat])
        busy = [m for m in moves if m != "end"]
        text = rnd.choice(busy) if busy and rnd.random() < 0.75 else rnd.choice(moves)
        reply = await service.play.move(TABLE, players[seat], text)
        state = g.play(state, seat, text).state
        revealed |= set(state.planes) | {b.domino for b in state.boats if b.soldiers}
        hidden = set(DOUBLE_SIX) - revealed
        assert not reply.private
        assert not _hidden_in(reply.text, hidden), (text, reply.text)
        assert not _hidden_in(text, hidden)
        assert reply.followup is not None and reply.followup.private
        if text == "buy":
            assert str(state.hands[seat][-1]) in reply.followup.text
            bought += 1
    assert bought
