"""League pairings as an organiser would check them: who meets whom, byes, seats, seeds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

from bot.domain.leagues.formats import (
    DOUBLE_ROUND_ROBIN,
    ROTATING,
    ROUND_ROBIN,
    SWISS,
    BadLeague,
    Format,
    next_round,
    schedule,
)
from bot.domain.leagues.results import Result, Scoring, bye, played
from bot.domain.leagues.rounds import Round, meetings, points
from bot.domain.leagues.tables import table_sizes

TWO_PLAYER = (2, 2)


def seated(rnd: Round) -> list[int]:
    """Everyone the round gives something to do: a seat, a bye or a forfeit."""
    return [p for t in rnd.tables + rnd.forfeits for p in t] + list(rnd.byes)


def firsts(rounds: Sequence[Round]) -> Counter[int]:
    return Counter(t[0] for r in rounds for t in r.tables)


def play(rnd: Round, rng: random.Random, scoring: Scoring) -> list[Result]:
    """Random results for a round: any finishing order, draws possible at two players."""
    out = [bye(rnd.number, p, scoring) for p in rnd.byes]
    for table in rnd.tables:
        if len(table) == 2:
            places = rng.choice([(1, 2), (2, 1), (1, 1)])
        else:
            places = tuple(rng.sample(range(1, len(table) + 1), len(table)))
        scores = [rng.randrange(20) for _ in table]
        out.append(played(rnd.number, table, places, scores, scoring))
    return out


def run(
    fmt: Format,
    players: Sequence[int],
    rounds: int,
    seed: int,
    joins: dict[int, int] | None = None,
    drops: dict[int, int] | None = None,
) -> tuple[list[Round], list[Result], list[list[Result]]]:
    """A whole league with simulated results. ``joins``/``drops``: player -> from round.

    Returns the rounds, every result, and the history each round was paired from.
    """
    scoring = Scoring() if fmt.table_size == 2 else Scoring.for_tables(fmt.table_size)
    rng = random.Random(seed)
    entered, made, history, seen = list(players), [], [], []
    for number in range(1, rounds + 1):
        entered += [p for p, at in (joins or {}).items() if at == number]
        gone = {p for p, at in (drops or {}).items() if at <= number}
        seen.append(list(history))
        rnd = next_round(fmt, history, entered, gone, number, seed)
        made.append(rnd)
        history += play(rnd, rng, scoring)
    return made, history, seen


# --- round robin -------------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5, 6])
def test_round_robin_every_pair_meets_once_with_byes_evenly_spread(count):
    players = list(range(101, 101 + count))
    fmt = Format(ROUND_ROBIN, *TWO_PLAYER)
    rounds = schedule(fmt, players, seed=3)
    assert len(rounds) == fmt.round_count(count) == (count if count % 2 else count - 1)
    for rnd in rounds:
        assert sorted(seated(rnd)) == players, "everyone once a round, nobody twice"
        assert len(rnd.byes) == count % 2
    pairs = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(pairs) == {frozenset(p) for p in combinations(players, 2)}
    assert set(pairs.values()) == {1}
    assert Counter(p for r in rounds for p in r.byes) == (
        Counter(players) if count % 2 else Counter()
    ), "each player sits out exactly once when the count is odd"
    first = firsts(rounds)
    games = count - 1
    assert all(games // 2 <= first[p] <= (games + 1) // 2 for p in players), first


@pytest.mark.parametrize("count", [4, 5, 6])
def test_double_round_robin_meets_twice_with_seats_swapped(count):
    players = list(range(1, count + 1))
    fmt = Format(DOUBLE_ROUND_ROBIN, *TWO_PLAYER)
    rounds = schedule(fmt, players, seed=3)
    assert len(rounds) == fmt.round_count(count) == 2 * (count if count % 2 else count - 1)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    for rnd in rounds:
        assert sorted(seated(rnd)) == players
    ordered = Counter(t for r in rounds for t in r.tables)
    assert set(ordered) == {(a, b) for a in players for b in players if a != b}
    assert set(ordered.values()) == {1}, "each pair twice: once in each seat"
    assert Counter(p for r in rounds for p in r.byes) == (
        Counter(players * 2) if count % 2 else Counter()
    )
    first = firsts(rounds)
    assert set(first.values()) == {count - 1}, "as often first as second"


def test_round_robin_turns_a_drop_outs_games_into_forfeits_and_keeps_the_schedule():
    players = [1, 2, 3, 4, 5]
    fmt = Format(ROUND_ROBIN, *TWO_PLAYER)
    planned = schedule(fmt, players, seed=9)
    for number in range(3, 6):
        rnd = next_round(fmt, [], players, {3}, number, seed=9)
        plan = planned[number - 1]
        assert 3 not in [p for t in rnd.tables for p in t] + list(rnd.byes)
        assert set(rnd.tables) | set(rnd.forfeits) == set(plan.tables), "nobody re-paired"
        assert rnd.forfeits == tuple(t for t in plan.tables if 3 in t)
        assert rnd.byes == tuple(p for p in plan.byes if p != 3), "a drop-out's bye lapses"


def test_round_robin_refuses_what_it_cannot_do():
    with pytest.raises(BadLeague, match="two-player game"):
        Format(ROUND_ROBIN, 3, 6)
    with pytest.raises(BadLeague, match="number of players"):
        Format(ROUND_ROBIN, *TWO_PLAYER, rounds=4)
    with pytest.raises(BadLeague, match="in advance"):
        schedule(Format(SWISS, *TWO_PLAYER), [1, 2, 3], seed=1)
    assert not Format(ROUND_ROBIN, *TWO_PLAYER).late_joiners
    assert Format(SWISS, *TWO_PLAYER).late_joiners


# --- Swiss -------------------------------------------------------------------------------


def best_gap(players: Sequence[int], total: Counter, met: Counter) -> float:
    """The smallest total points gap of any rematch-free pairing of ``players``."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    options = [
        abs(total[first] - total[other]) + best_gap([p for p in rest if p != other], total, met)
        for other in rest
        if not met[frozenset((first, other))]
    ]
    return min(options, default=float("inf"))


def test_a_five_player_swiss_of_four_rounds_pairs_without_rematches_and_near_scores():
    fmt = Format(SWISS, *TWO_PLAYER, rounds=4)
    players = [11, 12, 13, 14, 15]
    rounds, history, before = run(fmt, players, 4, seed=2024)
    assert fmt.round_count(5) == 4 and Format(SWISS, *TWO_PLAYER).round_count(5) == 3
    pairs = [frozenset(t) for r in rounds for t in r.tables]
    assert len(pairs) == len(set(pairs)) == 8, "no rematch in four rounds"
    assert [len(r.byes) for r in rounds] == [1, 1, 1, 1]
    assert len({r.byes[0] for r in rounds}) == 4, "never the same bye twice"
    for rnd, seen in zip(rounds, before, strict=True):
        assert sorted(seated(rnd)) == players
        total, met = points(seen), meetings(seen)
        gap = sum(abs(total[a] - total[b]) for a, b in rnd.tables)
        rest = sorted((p for p in players if p not in rnd.byes), key=lambda p: -total[p])
        assert gap == best_gap(rest, total, met), f"round {rnd.number} pairs far-apart scores"
        had = Counter(r.players[0] for r in seen if not r.is_game)
        ranked = sorted(players, key=lambda p: -total[p])
        below = ranked[ranked.index(rnd.byes[0]) + 1 :]
        assert had[rnd.byes[0]] == 0
        for skipped in (p for p in below if had[p] == 0):
            others = [p for p in players if p != skipped]
            assert best_gap(others, total, met) == float("inf"), (
                f"round {rnd.number}: the bye should have gone to {skipped}, lower and without one"
            )
    first = firsts(rounds)
    assert all(first[p] in (1, 2) for p in players), "three games each: 1 or 2 first seats"


@pytest.mark.parametrize("seed", range(12))
def test_swiss_rematches_only_when_no_bye_and_pairing_avoids_them(seed):
    """Over many results, byes never repeat; a rematch means none could be avoided."""
    players = [1, 2, 3, 4, 5]
    rounds, _, before = run(Format(SWISS, *TWO_PLAYER, rounds=4), players, 4, seed)
    byes = [r.byes[0] for r in rounds]
    assert len(set(byes)) == 4
    for rnd, seen in zip(rounds, before, strict=True):
        met = meetings(seen)
        if all(not met[frozenset(t)] for t in rnd.tables):
            continue
        had = {r.players[0] for r in seen if not r.is_game}
        for candidate in set(players) - had:
            rest = [p for p in players if p != candidate]
            assert best_gap(rest, Counter(), met) == float("inf"), (
                f"round {rnd.number} rematched though a bye for {candidate} avoided it"
            )


def test_swiss_bye_goes_to_the_lowest_ranked_player_without_one():
    scoring = Scoring()
    history = [
        played(1, (1, 2), (1, 2), (0, 0), scoring),
        played(1, (3, 4), (1, 2), (0, 0), scoring),
        bye(1, 5, scoring),
    ]
    rnd = next_round(Format(SWISS, *TWO_PLAYER), history, [1, 2, 3, 4, 5], (), 2, seed=1)
    assert rnd.byes == (4,), "5 has had a bye; 4 is the lowest after it (seeding breaks 2-4)"
    assert {frozenset(t) for t in rnd.tables} == {frozenset((1, 3)), frozenset((5, 2))}


def test_swiss_late_joiner_starts_on_zero_among_the_low_scores_and_drop_outs_vanish():
    fmt = Format(SWISS, *TWO_PLAYER, rounds=5)
    players = [1, 2, 3, 4, 5]
    rounds, _, before = run(fmt, players, 5, seed=5, joins={6: 3}, drops={2: 4})
    assert all(6 not in seated(r) for r in rounds[:2])
    third, total = rounds[2], points(before[2])
    assert total[6] == 0 and sorted(seated(third)) == [1, 2, 3, 4, 5, 6]
    opponent = next(p for t in third.tables if 6 in t for p in t if p != 6)
    median = sorted(total[p] for p in players)[len(players) // 2]
    assert total[opponent] <= median, "the joiner meets someone from the lower half"
    for rnd in rounds[3:]:
        assert sorted(seated(rnd)) == [1, 3, 4, 5, 6], "the drop-out is never paired again"
        assert len(rnd.byes) == 1


# --- rotating tables ---------------------------------------------------------------------


def test_six_players_at_three_seat_tables_for_six_rounds_meet_as_evenly_as_possible():
    """Every pair meets 2 to 4 times, which is the best possible.

    Six rounds of two 3-tables seat 36 pairs among 15, so evenness would mean every
    pair meeting 2 or 3 times, each player meeting two others 3 times (12 meetings
    over 5 opponents). That cannot be: any three players have an odd number of
    pairs seated together each round (all three, or one pair), so over six rounds
    the three counts of any trio sum to an even number; with counts 2 and 3 that
    makes the pairs meeting 3 times exactly the pairs across some split of the
    players in two groups, and no such split gives everyone exactly two of them. So
    max - min is at least 2, as here.
    """
    fmt = Format(ROTATING, 3, 6, table_size=3, rounds=6)
    players = [1, 2, 3, 4, 5, 6]
    rounds, history, _ = run(fmt, players, 6, seed=77)
    for rnd in rounds:
        assert sorted(seated(rnd)) == players and not rnd.byes
        assert [len(t) for t in rnd.tables] == [3, 3]
    met = meetings(history)
    counts = [met[frozenset(p)] for p in combinations(players, 2)]
    assert sum(counts) == 36
    assert min(counts) >= 2 and max(counts) <= 4, counts
    first = firsts(rounds)
    assert sum(first.values()) == 12
    assert all(1 <= first[p] <= 3 for p in players), f"a fair share is 2 each: {first}"


def test_seven_players_at_three_and_four_seat_tables_with_a_late_joiner_and_a_drop_out():
    fmt = Format(ROTATING, 3, 4, table_size=3, rounds=6)
    players = [1, 2, 3, 4, 5, 6, 7]
    rounds, history, _ = run(fmt, players, 6, seed=11, joins={8: 3}, drops={2: 5})
    sizes = [sorted(len(t) for t in r.tables) for r in rounds]
    assert sizes == [[3, 4], [3, 4], [4, 4], [4, 4], [3, 4], [3, 4]]
    assert all(not r.byes for r in rounds)
    assert all(8 not in seated(r) for r in rounds[:2])
    assert all(2 not in seated(r) for r in rounds[4:])
    assert all(sorted(seated(r)) == sorted({1, 3, 4, 5, 6, 7, 8}) for r in rounds[4:])
    met = meetings(history)
    stayed = [1, 3, 4, 5, 6, 7]
    counts = [met[frozenset(p)] for p in combinations(stayed, 2)]
    assert min(counts) >= 2 and max(counts) - min(counts) <= 1, counts
    assert all(met[frozenset((8, p))] >= 1 for p in stayed), "the joiner met everyone who stayed"


def test_sit_outs_go_round_before_anyone_sits_out_twice():
    """Five players of a 3–4 player game at tables of 4: one must sit out each round."""
    fmt = Format(ROTATING, 3, 4, table_size=4, rounds=8)
    players = [1, 2, 3, 4, 5]
    rounds, history, _ = run(fmt, players, 8, seed=4)
    assert [len(r.byes) for r in rounds] == [1] * 8
    sat = Counter()
    for rnd in rounds:
        assert all(sat[p] == min(sat[q] for q in players) for p in rnd.byes)
        sat.update(rnd.byes)
        assert max(sat.values()) - min(sat[p] for p in players) <= 1
    assert sorted(sat.values()) == [1, 1, 2, 2, 2]
    byes = [r for r in history if not r.is_game]
    assert {r.points for r in byes} == {(6,)}, "a sit-out earns the bye points (a win here)"


def test_table_sizes_use_one_smaller_or_larger_table_where_the_game_allows():
    assert table_sizes(7, 3, 3, 4) == ((3, 4), 0)
    assert table_sizes(8, 3, 3, 4) == ((4, 4), 0)
    assert table_sizes(7, 4, 3, 6) == ((4, 3), 0), "a smaller table before a larger one"
    assert table_sizes(9, 4, 3, 6) == ((4, 5), 0), "one odd-sized table, not three"
    assert table_sizes(5, 4, 3, 4) == ((4,), 1), "nothing fits five: one sits out"
    with pytest.raises(BadLeague, match="cannot fill"):
        Format(ROTATING, 3, 6, table_size=4).round_count(2)
    with pytest.raises(BadLeague, match="seats 2–4, not 5"):
        Format(ROTATING, 2, 4, table_size=5)
    assert Format(ROTATING, 3, 6, table_size=3).round_count(6) == 3


# --- determinism -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fmt",
    [
        Format(ROUND_ROBIN, *TWO_PLAYER),
        Format(SWISS, *TWO_PLAYER, rounds=4),
        Format(ROTATING, 3, 4, table_size=3, rounds=4),
    ],
    ids=["round-robin", "swiss", "rotating"],
)
def test_the_same_inputs_and_seed_give_the_same_schedule(fmt):
    players = [5, 3, 8, 1, 9, 2, 7]
    once = run(fmt, players, 4, seed=31)[0]
    assert run(fmt, players, 4, seed=31)[0] == once
    if fmt.name != SWISS:
        assert run(fmt, players, 4, seed=32)[0] != once, "the seed matters"
