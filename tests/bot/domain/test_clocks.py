"""The play-by-post rules every store applies to a game's seats (bot/domain/clocks.py), tested
without a database: who a move starts waiting and how, a vacation's part of a deadline,
reaction windows, reminders restarting, a heads-up at most once a turn."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.domain.clocks import (
    Clocks,
    Seat,
    awaited,
    extension_fits,
    iso,
    tell_next,
    vacation_shift,
)

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
CLOCKS = Clocks(move_hours=24.0, reaction_hours=2.0)


def seat(number: int, **changes: object) -> Seat:
    """A seat of a game nobody waits for yet, its player at home."""
    fresh = Seat(
        seat=number, user_id=100 + number, name=f"P{number}", awaiting=False, place=None,
        score=None, turn_since=None, deadline=None, reminders=0, snoozed=False, warned=False,
        reacting=False, paused_hours=0.0, extended_hours=0.0, told_next=False,
        vacation_until=None, ai=None, own_remind_hours=None, digest=False,
    )  # fmt: skip
    return replace(fresh, **changes)


def at(**delta: float) -> str:
    return iso(NOW + timedelta(**delta))


def test_a_seat_that_starts_waiting_gets_a_fresh_wait_and_the_time_per_move():
    before = seat(1, reminders=2, snoozed=True, warned=True, extended_hours=5.0, told_next=True)
    (after,) = awaited([before], CLOCKS, NOW, [1])
    assert after.awaiting and after.turn_since == at()
    assert after.deadline == at(hours=24)
    assert (after.reminders, after.snoozed, after.warned) == (0, False, False)
    assert (after.paused_hours, after.extended_hours) == (0.0, 0.0)
    assert not after.told_next  # its own turn: it may be told it is next once more


def test_a_player_on_vacation_gets_their_whole_time_after_it_and_the_seat_remembers_it():
    away = seat(1, vacation_until=at(hours=10))
    (after,) = awaited([away], CLOCKS, NOW, [1])
    assert after.turn_since == at()  # the wait begins now; its clock counts from the return
    assert after.deadline == at(hours=34)
    assert after.paused_hours == 10.0
    back = seat(1, vacation_until=at(hours=-1))  # a vacation over counts for nothing
    (after,) = awaited([back], CLOCKS, NOW, [1])
    assert (after.deadline, after.paused_hours) == (at(hours=24), 0.0)


def test_a_reaction_window_runs_on_the_reaction_clock_and_keeps_the_heads_up_told():
    (after,) = awaited([seat(1, told_next=True)], CLOCKS, NOW, [1], reacting=True)
    assert after.reacting and after.deadline == at(hours=2)
    assert after.told_next  # an answer out of turn is not the player's own turn


def test_a_game_without_time_per_move_has_no_deadline():
    (after,) = awaited([seat(1)], Clocks(move_hours=None), NOW, [1])
    assert after.awaiting and after.deadline is None and after.paused_hours == 0.0


def test_a_seat_that_keeps_waiting_keeps_its_deadline_and_the_mover_restarts_reminders():
    waiting = seat(
        1, awaiting=True, turn_since=at(hours=-5), deadline=at(hours=19), reminders=1,
        warned=True, extended_hours=3.0,
    )  # fmt: skip
    (kept,) = awaited([waiting], CLOCKS, NOW, [1])
    assert kept == waiting  # someone else moved: nothing of this wait changes
    (moved,) = awaited([waiting], CLOCKS, NOW, [1], mover=1)
    assert (moved.turn_since, moved.reminders) == (at(), 0)  # acting restarts reminders
    assert (moved.deadline, moved.warned, moved.extended_hours) == (at(hours=19), True, 3.0)


def test_a_seat_no_longer_awaited_loses_its_wait_and_keeps_the_rest():
    waiting = seat(
        0, awaiting=True, turn_since=at(hours=-1), deadline=at(hours=23), reacting=True,
        paused_hours=4.0, extended_hours=2.0, reminders=1, told_next=True, place=2, score=7,
    )  # fmt: skip
    (after,) = awaited([waiting], CLOCKS, NOW, [])
    assert not after.awaiting
    assert (after.turn_since, after.deadline, after.reacting) == (None, None, False)
    assert (after.paused_hours, after.extended_hours) == (0.0, 0.0)
    assert (after.reminders, after.told_next, after.place, after.score) == (1, True, 2, 7)


def test_a_heads_up_goes_once_a_turn_to_a_player_not_awaited():
    seats = [seat(0, awaiting=True), seat(1), seat(2, told_next=True)]
    asked = [(100, "dm", "you're next", at()), (101, "dm", "next", at()), (102, "dm", "x", at())]
    after, queued = tell_next(seats, asked)
    assert queued == [(101, "dm", "next", at())]  # not the awaited, not the one told already
    assert [s.told_next for s in after] == [False, True, True]
    again, queued = tell_next(after, asked)  # the same turn: told already
    assert queued == [] and again == after
    (turn,) = awaited([after[1]], CLOCKS, NOW, [1])  # their own turn comes, then ends
    (over,) = awaited([turn], CLOCKS, NOW, [])
    assert tell_next([over], asked)[1] == [(101, "dm", "next", at())]


def test_coming_back_early_takes_back_only_the_vacation_in_a_deadline():
    assert vacation_shift(48.0, 0.0) == 48.0
    assert vacation_shift(-48.0, 10.0) == -10.0  # only what the seat holds as vacation
    assert vacation_shift(-5.0, 10.0) == -5.0
    assert vacation_shift(-5.0, 0.0) == 0.0  # a turn that began after the return


def test_extensions_of_one_turn_stay_within_the_cap():
    assert extension_fits(0.0, 24.0, 48.0)
    assert extension_fits(24.0, 24.0, 48.0)
    assert not extension_fits(24.0, 25.0, 48.0)
