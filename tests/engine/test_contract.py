"""The contract every game in ``engine.GAMES`` keeps (DESIGN.md, "engine/").

Parametrised over the registry, so a game added later is checked the day it lands:
whole games of random legal moves, canonical notation, exact replays, JSON
round-trips, views, results, and the shared seeded RNG.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import RESIGN, BadOptions, IllegalMove, Resign, Rng, too_few_left

KEYS = sorted(engine.GAMES)
SEEDS = range(4)


def player_counts(g) -> list[int]:
    return list(range(g.info.min_players, g.info.max_players + 1))


def play_random(
    g, players: int, seed: int, max_steps: int = 5000, resign: float = 0.0, options=None
):
    """A whole game of random legal moves, checking the contract at every step; before
    each move, a seat still playing resigns with probability ``resign``. ``options``: the
    game's options (default: none).

    Returns the final state and the log of (seat, notation).
    """
    rnd = random.Random(seed * 1000 + players)
    state = g.new(players, options, seed)
    log: list[tuple[int, str]] = []
    tried: list = []  # the last position's legal actions: most are refused in this one
    met = 0
    while not g.is_over(state):
        assert len(log) < max_steps, f"{g.info.key}: no end after {max_steps} moves"
        if rnd.random() < resign:
            seat = rnd.choice([s for s in range(players) if s not in state.resigned])
            state = check_resigning(g, state, seat)
            log.append((seat, RESIGN))
            continue
        seats = g.to_play(state)
        assert seats, "a running game awaits somebody"
        assert all(0 <= s < players for s in seats)
        choices = []
        for seat in seats:
            for action in g.legal(state, seat):
                text = g.format(action)
                assert g.parse(text) == action, f"{text!r} does not read back as {action!r}"
                assert g.format(g.parse(text)) == text
                choices.append((seat, action))
                met += 1
        assert choices, f"{g.info.key}: seats {seats} are awaited but none has a legal move"
        before = g.to_json(state)
        seat, action = rnd.choice(choices)
        check_is_legal(g, state, players, choices, tried)
        step = g.apply(state, seat, action)
        assert g.apply_listed(state, seat, action) == step, "a listed action skips no effect"
        assert g.to_json(state) == before, "apply changed its input state"
        assert step.action == action
        assert step.awaited == g.awaited(step.state), "a step's awaited seats are the state's"
        assert step.over == g.is_over(step.state)
        assert step.result == (g.result(step.state) if step.over else None)
        assert step.reaction_open == g.reaction_open(step.state)
        log.append((seat, g.format(action)))
        tried = [a for _, a in choices]
        state = step.state
    assert g.to_play(state) == ()
    assert met >= sum(text != RESIGN for _, text in log)
    return state, log


def check_resigning(g, state, seat: int):
    """``seat`` resigns, awaited or not: it plays no more and is awaited no more, and the
    game ends once too few are left. Returns the state after it."""
    before = g.to_json(state)
    assert g.parse(" Resign ") == Resign() and g.format(Resign()) == RESIGN
    step = g.play(state, seat, RESIGN)
    assert g.to_json(state) == before, "resigning changed its input state"
    after = step.state
    assert after.resigned == state.resigned | {seat}
    assert any(e.kind == "resign" and e.seat is None for e in step.events)
    assert seat not in step.awaited and step.awaited == g.awaited(after)
    assert step.over == g.is_over(after) and step.result == (g.result(after) if step.over else None)
    if too_few_left(after):
        assert step.over, "too few left to play on: the game is over"
    elif not step.over:
        assert step.awaited, "a game that goes on after a resignation awaits somebody"
        assert g.refusal(after, seat, Resign()) == "You have already resigned."
        assert g.legal(after, seat) == []
    return after


def check_is_legal(g, state, players, choices, tried) -> None:
    """``is_legal`` agrees with ``legal`` — for the listed actions, for the actions of the
    last position (mostly stale now), and for every seat — and each refusal is a sentence."""
    listed = {seat: set(g.legal(state, seat)) for seat in range(players)}
    pool = sorted({a for _, a in choices} | set(tried), key=g.format)
    for seat in range(players):
        for action in random.Random(len(pool)).sample(pool, min(len(pool), 8)):
            legal = action in listed[seat]
            assert g.is_legal(state, seat, action) == legal, (seat, g.format(action), legal)
            reason = g.refusal(state, seat, action)
            assert (reason is None) == legal
            assert legal or (reason and reason.endswith((".", ")", "`", "!"))), reason


@pytest.fixture(params=KEYS)
def g(request):
    return engine.GAMES[request.param]


def test_registry_keys_match_infos(g):
    assert engine.get(g.info.key) is g
    assert 1 <= g.info.min_players <= g.info.max_players
    assert g.info.name and g.info.summary


def test_unknown_game_lists_known_games():
    with pytest.raises(KeyError) as caught:
        engine.get("no-such-game")
    for key in KEYS:
        assert key in str(caught.value)


def test_whole_random_games_replay_exactly(g):
    for players in player_counts(g):
        for seed in SEEDS:
            final, log = play_random(g, players, seed)
            assert log, "a game has at least one move"
            replayed = g.replay(players, None, seed, log)
            assert g.to_json(replayed) == g.to_json(final)
            assert g.is_over(replayed)


def test_same_seed_same_game(g):
    for players in player_counts(g):
        assert g.to_json(g.new(players, None, 42)) == g.to_json(g.new(players, None, 42))
        final_a, log_a = play_random(g, players, 3)
        final_b, log_b = play_random(g, players, 3)
        assert log_a == log_b
        assert g.to_json(final_a) == g.to_json(final_b)


def test_json_round_trip_at_every_step_and_resume(g):
    for players in player_counts(g):
        final, log = play_random(g, players, 11)
        state = g.new(players, None, 11)
        for i, (seat, text) in enumerate(log):
            text_json = g.to_json(state)
            restored = g.from_json(text_json)
            assert g.to_json(restored) == text_json
            if i == len(log) // 2:
                # a game restored from JSON goes on exactly as the original would
                resumed = restored
                for seat2, text2 in log[i:]:
                    resumed = g.play(resumed, seat2, text2).state
                assert g.to_json(resumed) == g.to_json(final)
            state = g.play(state, seat, text).state
        assert g.to_json(g.from_json(g.to_json(final))) == g.to_json(final)


def test_from_json_refuses_another_games_state(g):
    text = g.to_json(g.new(g.info.min_players, None, 1))
    with pytest.raises(ValueError):
        g.from_json(text.replace(f'"game":"{g.info.key}"', '"game":"not-this-one"'))
    with pytest.raises(ValueError):
        g.from_json(text.replace(f'"version":{g.state_version}', '"version":-7'))


def test_views_work_for_spectators_and_every_seat(g):
    for players in player_counts(g):
        final, log = play_random(g, players, 5)
        state = g.new(players, None, 5)
        for seat, text in [*log, (None, None)]:
            assert g.view(state, None) is not None
            for s in range(players):
                assert g.view(state, s) is not None
            if text is not None:
                state = g.play(state, seat, text).state
        assert g.to_json(state) == g.to_json(final)


def test_every_view_samples_back_to_a_state_it_could_have_come_from(g):
    """``sample`` (what the computer players search) gives a state that shows each seat,
    and a spectator, exactly the view it came from, with the same legal actions; it is a
    whole state (its JSON reads back), and the same generator gives the same one."""
    checked = 0
    for players in sorted(
        {2 if g.info.min_players <= 2 else g.info.min_players, g.info.max_players}
    ):
        _, log = play_random(g, players, 1)
        state = g.new(players, None, 1)
        for number, (mover, text) in enumerate([*log, (None, None)]):
            if number % 3 == 0 or text is None:
                for seat in [*range(players), None]:
                    seen = g.view(state, seat)
                    sampled = g.sample(seen, Rng(checked))
                    assert g.view(sampled, seat) == seen, (seat, number)
                    if seat is not None:
                        assert g.legal(sampled, seat) == g.legal(state, seat), (seat, number)
                    assert g.from_json(g.to_json(sampled)) == sampled
                    assert g.sample(seen, Rng(checked)) == sampled
                    checked += 1
            if text is not None:
                state = g.play(state, mover, text).state
    assert checked > 50


def test_result_at_the_end_ranks_every_seat(g):
    for players in player_counts(g):
        for seed in SEEDS:
            final, _ = play_random(g, players, seed)
            result = g.result(final)
            assert len(result.places) == players
            assert len(result.scores) == players
            if players == 1:  # against the game's own opponent: won (or tied) or lost
                assert result.places in ((1,), (2,))
                continue
            assert 1 in result.places
            assert all(1 <= p <= players for p in result.places)
            assert result.winners
            # a place is 1 + the number of seats strictly ahead (ties share a place)
            for p in result.places:
                assert p == 1 + sum(q < p for q in result.places)


def test_every_game_can_be_resigned_at_any_moment_and_the_resigned_finish_last(g):
    """Resigning is the core's, so every game has it, a game added later too: at any
    moment, by any seat still in, awaited or not. The rest play on without them; too few
    left ends the game; every seat that resigned places behind every seat that did not,
    and alone, a resignation is a loss. The log replays, and the state reads back."""
    games = 0
    for players in player_counts(g):
        for seed in SEEDS:
            final, log = play_random(g, players, seed, resign=0.08)
            games += bool(final.resigned)
            result = g.result(final)
            if players == 1 and final.resigned:
                assert result.places == (2,)
            for quitter in final.resigned:
                for stayer in set(range(players)) - final.resigned:
                    assert result.places[quitter] > result.places[stayer], (quitter, stayer)
            replayed = g.replay(players, None, seed, log)
            assert g.to_json(replayed) == g.to_json(final)
            assert g.from_json(g.to_json(final)) == final
    assert games >= len(SEEDS)


def test_player_counts_outside_the_range_are_refused(g):
    for players in (g.info.min_players - 1, g.info.max_players + 1):
        with pytest.raises(BadOptions):
            g.new(players, None, 1)


def test_moves_after_the_end_are_refused(g):
    final, log = play_random(g, g.info.min_players, 2)
    before = g.to_json(final)
    seat, text = log[-1]
    with pytest.raises(IllegalMove):
        g.play(final, seat, text)
    assert g.to_json(final) == before


def test_unreadable_notation_raises_illegal_move(g):
    for text in ("", "   ", "!!", "definitely not a move 12345"):
        with pytest.raises(IllegalMove) as caught:
            g.parse(text)
        assert caught.value.reason


# -- the shared RNG --------------------------------------------------------------------


def draws(rng: Rng, n: int, count: int) -> list[int]:
    out = []
    for _ in range(count):
        value, rng = rng.below(n)
        out.append(value)
    return out


def test_rng_same_seed_same_sequence():
    assert draws(Rng.from_seed(7), 1000, 50) == draws(Rng.from_seed(7), 1000, 50)
    assert draws(Rng.from_seed(7), 1000, 50) != draws(Rng.from_seed(8), 1000, 50)
    a, _ = Rng.from_seed(123).next64()
    b, _ = Rng.from_seed(123).next64()
    assert a == b


def test_rng_is_pure():
    rng = Rng.from_seed(99)
    first = rng.below(10)
    assert rng.below(10) == first, "drawing must not change the generator it is called on"
    assert rng == Rng.from_seed(99)


def test_rng_below_in_range_and_covers_it():
    rng = Rng.from_seed(2024)
    for n in (1, 2, 3, 6, 7, 100, 2**40 + 3):
        values = draws(rng, n, 300)
        assert all(0 <= v < n for v in values)
        if n <= 7:
            assert set(values) == set(range(n))
    with pytest.raises(ValueError):
        rng.below(0)


def test_rng_shuffled_is_a_deterministic_permutation():
    items = list(range(20))
    out, next_rng = Rng.from_seed(5).shuffled(items)
    assert sorted(out) == items
    assert items == list(range(20)), "the input is left alone"
    assert out != tuple(items)
    assert Rng.from_seed(5).shuffled(items) == (out, next_rng)
    assert Rng.from_seed(6).shuffled(items)[0] != out
    assert Rng.from_seed(5).shuffled([])[0] == ()
    assert Rng.from_seed(5).shuffled(["x"])[0] == ("x",)


def test_rng_shuffled_reaches_every_order():
    """Fisher–Yates can give any permutation, the identity included (Sattolo's cannot)."""
    seen = {Rng.from_seed(seed).shuffled("abc")[0] for seed in range(200)}
    assert len(seen) == 6


def test_rng_seed_is_reduced_to_64_bits():
    assert Rng.from_seed(-1).state == (1 << 64) - 1
    assert Rng.from_seed(1 << 64).state == 0
