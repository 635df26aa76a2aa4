"""Out-of-turn windows by post: the players who may react are pinged, and a window whose
time runs out is closed by passing for whoever did not answer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.domain.clocks import Clocks
from bot.service import Service
from engine.core import TURN, Event, Game, GameInfo, IllegalMove, Result, Rule, Stage, seat_ref
from tests.conftest import ADA, BOB, CY, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Raid:
    turn: int
    raids: int
    window: frozenset[int]  # seats still to answer the current raid
    blocked: int
    players: int = 3
    resigned: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Strike:
    """`raid`: open a window for everyone else."""


@dataclass(frozen=True)
class Answer:
    """`block` or `pass`, out of turn."""

    word: str


REACT = Stage("react", "Answer the raid first: `block` or `pass`.", out_of_turn=True)


def _raid(state, seat, action):
    window = frozenset(s for s in range(3) if s != seat)
    return replace(state, raids=state.raids + 1, window=window), []


def _answer(state, seat, action):
    left = state.window - {seat}
    new = replace(state, window=left, blocked=state.blocked + (action.word == "block"))
    if not left:
        new = replace(new, turn=(state.turn + 1) % 3)
    return new, [Event(action.word, f"{seat_ref(seat)}: {action.word}.")]


class Raids(Game):
    """On your turn, `raid`: everyone else may `block` or `pass` before play goes on."""

    info = GameInfo("raids", "Raids", 3, 3, "test game")
    rules = (
        Rule(Strike, lambda state, seat, a: None, _raid, lambda state, seat: [Strike()]),
        Rule(
            Answer,
            lambda state, seat, a: None if a.word in ("block", "pass") else "Block or pass.",
            _answer,
            lambda state, seat: [Answer("block"), Answer("pass")],
            stages=frozenset({REACT.name}),
        ),
    )

    def setup(self, players, options, seed):
        return Raid(0, 0, frozenset(), 0)

    def awaited(self, state):
        if self.is_over(state):
            return {}
        if state.window:
            return dict.fromkeys(sorted(state.window), REACT)
        return {state.turn: TURN}

    def parse_move(self, text):
        word = text.strip()
        if word not in ("raid", "block", "pass"):
            raise IllegalMove("Raid, block or pass.")
        return Strike() if word == "raid" else Answer(word)

    def format_move(self, action):
        return "raid" if isinstance(action, Strike) else action.word

    def view(self, state, seat):
        return state

    def sample(self, view, rng):
        return view  # nothing is hidden, and nothing is left to chance

    def is_over(self, state):
        return state.raids >= 4 and not state.window

    def result(self, state):
        return Result((0, 0, 0), (1, 1, 1))

    def state_to_dict(self, state):
        return {
            "turn": state.turn,
            "raids": state.raids,
            "window": sorted(state.window),
            "blocked": state.blocked,
        }

    def state_from_dict(self, data):
        return Raid(data["turn"], data["raids"], frozenset(data["window"]), data["blocked"])


@pytest.fixture
async def world(open_store, monkeypatch):
    """The raids game on each store in turn, its clock standing still until moved."""
    monkeypatch.setitem(engine.GAMES, "raids", Raids())
    clock = Clock(T0)
    service = Service(await open_store(clock=clock), images=False, seed=lambda: 1)
    return service, service.timers, clock


async def test_a_window_pings_the_reacting_seats_and_times_out_into_passes(world):
    service, scheduler, clock = world
    await service.lobby.create(TABLE, ADA, "raids", clocks=Clocks(move_hours=72, reaction_hours=6))
    await service.lobby.join(TABLE, BOB)
    await service.lobby.join(TABLE, CY)
    await service.lobby.start(TABLE, ADA)
    raid = await service.play.move(TABLE, ADA, "raid")
    assert set(raid.mentions) == {BOB.user_id, CY.user_id}, "both may react, both pinged"
    blocked = await service.play.move(TABLE, BOB, "block")
    assert blocked.mentions == (), "Cy is still thinking: nobody new to ping"
    clock.now = T0 + timedelta(hours=5)
    await scheduler.tick()
    notices = await scheduler.deliveries()
    assert [(n.user_id, n.kind) for n in notices] == [(CY.user_id, "warning")]
    assert "or the bot passes for you" in notices[0].text
    clock.now = T0 + timedelta(hours=6)
    (posted,) = await scheduler.tick()
    assert "Cy did not answer in time: the bot passed for them." in posted.reply.text
    assert posted.reply.mentions == (BOB.user_id,), "the window closed: Bob's turn"
    log = await service.store.moves(1)
    assert [(m.user_id, m.action) for m in log][-1] == (CY.user_id, "pass")
    clock.now = T0 + timedelta(hours=6 + 71)
    assert await scheduler.tick() == [], "an ordinary turn has the time per move again"


async def test_two_answers_timing_out_in_the_same_minute_both_pass_in_that_pass(world):
    """Bob and Cy let the same window run out: the minute's pass passes for both, though
    the first pass moves the game on under the second's wait (which then waited a
    minute more)."""
    service, scheduler, clock = world
    await service.lobby.create(TABLE, ADA, "raids", clocks=Clocks(move_hours=72, reaction_hours=6))
    await service.lobby.join(TABLE, BOB)
    await service.lobby.join(TABLE, CY)
    await service.lobby.start(TABLE, ADA)
    await service.play.move(TABLE, ADA, "raid")
    clock.now = T0 + timedelta(hours=5)
    assert await scheduler.tick() == [], "each is warned"
    clock.now = T0 + timedelta(hours=6)
    posted = await scheduler.tick()
    assert [p.reply.text.split("\n")[0] for p in posted] == [
        "⏰ Bob did not answer in time: the bot passed for them.",
        "⏰ Cy did not answer in time: the bot passed for them.",
    ]
    assert posted[-1].reply.mentions == (BOB.user_id,), "the window closed in this pass"
    log = await service.store.moves(1)
    passes = [(BOB.user_id, "pass"), (CY.user_id, "pass")]
    assert [(m.user_id, m.action) for m in log][-2:] == passes
