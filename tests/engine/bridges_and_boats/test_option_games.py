"""Whole games under every optional rule keep the engine's contract and its secrets.

Each option on its own at every value other than the rulebook's, the combinations that
touch the same rules, and the balanced variant: random games checked at every step by the
contract's own player (notation reads back, ``is_legal`` agrees with ``legal``), then
replayed from their logs, their JSON read back at every step, every third position sampled
back for each seat, and nothing face down ever named where the rules keep it hidden.
"""

from __future__ import annotations

import random

import pytest

from bot.service import Service
from bot.tools.balance import other_values
from engine import ai
from engine.bridges_and_boats.dominoes import Domino
from engine.core import Rng
from renders.text.bridges_and_boats import describe
from tests.conftest import ADA, BOB, TABLE
from tests.engine.bridges_and_boats.conftest import A, D, g
from tests.engine.bridges_and_boats.test_view import _hidden_in
from tests.engine.test_contract import play_random

SINGLES = [{o.name: v} for o in g.info.options for v in other_values(o)]
COMBINED = [
    {"secret_pilots": "on", "interchangeable": "on", "buying": "look"},
    {"match_bombing": "on", "interchangeable": "on", "recycle": "on"},
    {"dominoes": "double-9", "secret_pilots": "on", "buying": "declare", "bridge_speed": "3"},
    {"variant": "balanced", "domino_price": "1", "defender_income": "9"},
]
OPTION_SETS = SINGLES + COMBINED


def _named(options: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items())


class Knowledge:
    """The dominoes each seat has seen so far, and those the rules have shown everyone."""

    def __init__(self) -> None:
        self.shown: set[Domino] = set()
        self.own: dict[int, set[Domino]] = {A: set(), D: set()}

    def learn(self, state) -> None:
        up = state.planes if not state.rules.secret_pilots else state.shown
        self.shown |= set(up) | {b.domino for b in state.boats if b.soldiers}
        if state.rules.match_bombing:
            self.shown |= {d for d in state.bridge if d is not None}
        for seat in (A, D):
            self.own[seat] |= set(state.hands[seat])
        self.own[A] |= {b.domino for b in state.boats} | {d for d in state.bridge if d}
        self.own[D] |= set(state.planes) | set(state.cannons)

    def hidden(self, state, seat: int | None) -> set[Domino]:
        """What ``seat`` (None: everyone) cannot know in ``state``."""
        unknown = set(state.rules.set) - self.shown
        return unknown - (self.own[seat] if seat is not None else set())


@pytest.mark.parametrize("options", OPTION_SETS, ids=_named)
def test_random_games_keep_the_contract_and_their_secrets_under_every_option(options):
    for seed in (1, 2):
        final, log = play_random(g, 2, seed, options=options)
        assert g.to_json(g.replay(2, options, seed, log)) == g.to_json(final)
        state, checked, known = g.new(2, options, seed), 0, Knowledge()
        for number, (seat, text) in enumerate([*log, (None, None)]):
            assert g.from_json(g.to_json(state)) == state
            known.learn(state)
            public = known.hidden(state, None)
            assert not _hidden_in(repr(g.view(state, None)), public)
            assert not _hidden_in(describe(g.view(state, None), ("Ada", "Bob")), public)
            for viewer in (A, D):
                assert not _hidden_in(repr(g.view(state, viewer)), known.hidden(state, viewer))
            if number % 3 == 0:
                for viewer in (A, D, None):
                    seen = g.view(state, viewer)
                    sampled = g.sample(seen, Rng(number))
                    assert g.view(sampled, viewer) == seen, (viewer, number)
                    if viewer is not None:
                        assert g.legal(sampled, viewer) == g.legal(state, viewer)
                    checked += 1
            if text is None:
                break
            assert not _hidden_in(text, public), text
            step = g.play(state, seat, text)
            known.learn(step.state)
            told = "\n".join(e.text for e in step.events if e.seat is None)
            assert not _hidden_in(told, known.hidden(step.state, None)), told
            for event in step.events:
                if event.seat is not None:  # a seat's own news never tells it the other's
                    assert not _hidden_in(event.text, known.hidden(step.state, event.seat))
            state = step.state
        assert checked > 10


def secret_positions(seed: int):
    """Positions of a random game with secret pilots where the attacker is to move and the
    defender has planes whose pilots it has not shown."""
    options = {"secret_pilots": "on", "interchangeable": "on"}
    _, log = play_random(g, 2, seed, options=options)
    state = g.new(2, options, seed)
    for seat, text in log:
        if g.to_play(state) == (A,) and set(state.planes) - state.shown:
            yield state
        state = g.play(state, seat, text).state


def test_the_attackers_ai_decides_the_same_whoever_the_secret_pilots_are():
    """The same view with other dominoes under the face-down planes: the same move after
    the same work, at every level."""
    tried = 0
    for number, state in enumerate(secret_positions(3)):
        legal = g.legal(state, A)
        if len(legal) < 2 or number % 4:
            continue
        other = g.sample(g.view(state, A), Rng(number))
        assert other.planes != state.planes and g.view(other, A) == g.view(state, A)
        for level in ai.LEVELS:
            truth = ai.decide(g, g.view(state, A), legal, level, 5, budget=6)
            assert truth == ai.decide(g, g.view(other, A), g.legal(other, A), level, 5, budget=6)
        tried += 1
    assert tried >= 3


async def test_no_public_reply_or_alt_text_of_a_whole_game_names_a_secret_pilot(store):
    """Through the bot, a whole game with secret pilots and its boards drawn: the channel's
    text and the public board's alt text never name a face-down plane, while the
    defender's own board does."""
    service = Service(store, images=True, seed=lambda: 12345)
    rnd = random.Random(8)
    options = {"secret_pilots": "on", "buying": "look"}
    players = {A: ADA, D: BOB}
    await service.lobby.create(TABLE, ADA, "bridges-and-boats", options, seed=31)
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    state, secret_seen = g.new(2, options, 31), 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        moves = await service.play.legal_moves(TABLE, players[seat])
        busy = [m for m in moves if m != "end"]
        text = rnd.choice(busy) if busy and rnd.random() < 0.7 else rnd.choice(moves)
        reply = await service.play.move(TABLE, players[seat], text)
        state = g.play(state, seat, text).state
        secret = set(state.planes) - state.shown
        assert reply.image is not None and reply.alt
        for public_text in (reply.text, reply.alt or "", text):
            assert not _hidden_in(public_text, secret), (text, public_text)
        if secret and seat == D:
            assert reply.followup is not None and reply.followup.private
            own = reply.followup.alt or ""
            assert all(str(p) in own for p in secret), "the defender's own board shows them"
            secret_seen += 1
    assert secret_seen
