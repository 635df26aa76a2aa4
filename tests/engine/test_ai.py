"""The computer players (engine/ai): they decide from a seat's view only, every move
they make is legal, and a view's hidden parts are guessed, never read.

Positions come from whole random games (test_contract's ``play_random``), replayed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine import ai
from engine.ai import reply
from engine.ai.dice import Dice
from engine.ai.search import Search, Work
from engine.ai.worlds import Worlds, margin
from engine.core import Rng
from engine.skybridge import Skybridge
from tests.engine.test_contract import KEYS, play_random

#: (players, seed) of the games each test draws positions from: two seats, and the most
#: a game allows, where more seats hide more
TABLES = ((2, 1), (-1, 2))


def positions(g, every: int = 1):
    """Every ``every``-th position of random games, with its number of seats."""
    for players, seed in TABLES:
        players = g.info.max_players if players < 0 else players
        _, log = play_random(g, players, seed)
        state = g.new(players, None, seed)
        for number, (seat, text) in enumerate(log):
            if number % every == 0:
                yield state, players
            state = g.play(state, seat, text).state


@pytest.fixture(params=KEYS)
def g(request):
    return engine.GAMES[request.param]


#: what a seat cannot see, beyond the dice to come (every game's generator)
SECRETS = {
    "seven-cities": lambda s: (s.deck, s.hands[1], s.rng),
    "bridges-and-boats": lambda s: (s.pool, s.hands[1], s.rng),
}


def test_two_secrets_behind_one_view_give_the_same_move_after_the_same_work(g):
    """Another deck, another rival hand, other dice to come — the same view: the same
    move, after the same worlds sampled and the same actions tried. Nothing, timing
    included, depends on what the seat cannot see."""
    key = g.info.key
    tried = 0
    for state, _ in positions(g, every=5):
        if tried == 4:
            break
        seat = 0
        if g.is_over(state) or seat not in g.awaited(state) or len(g.legal(state, seat)) < 2:
            continue
        seen = g.view(state, seat)
        other = g.sample(seen, Rng(99))
        secret = SECRETS.get(key, lambda s: s.rng)
        assert secret(other) != secret(state), "a different secret"
        assert g.view(other, seat) == seen
        legal = g.legal(state, seat)
        for level in ai.LEVELS:
            truth = ai.decide(g, g.view(state, seat), legal, level, 7, budget=6)
            guess = ai.decide(g, g.view(other, seat), g.legal(other, seat), level, 7, budget=6)
            assert truth == guess
        tried += 1
    assert tried == 4


def test_the_ai_refuses_a_state_a_spectators_view_and_another_games_view(g):
    state = g.new(2 if g.info.min_players <= 2 else g.info.min_players, None, 1)
    seat = next(iter(g.awaited(state)))
    legal = g.legal(state, seat)
    with pytest.raises(TypeError, match="decides from a seat's view"):
        ai.choose(g, state, legal, "hard", 1)
    with pytest.raises(ValueError, match="spectator"):
        ai.choose(g, g.view(state, None), legal, "normal", 1)
    sky = engine.get("skybridge") if g.info.key != "skybridge" else engine.get("bridge-wars")
    foreign = sky.view(sky.new(2, None, 1), 0)
    with pytest.raises(TypeError, match="not from a"):
        ai.choose(g, foreign, legal, "easy", 1)
    with pytest.raises(ValueError, match="No AI level 'expert'"):
        ai.choose(g, g.view(state, seat), legal, "expert", 1)


def test_every_level_plays_only_legal_moves_until_the_end(g):
    """Whole two-player games (Seven Bridges alone, against Euler, too), the three levels
    seated in turn; hard on a tiny budget."""
    for players, seed in ((2, 3), (g.info.min_players, 4)):
        state = g.new(players, None, seed)
        moves = 0
        while not g.is_over(state):
            seat = next(iter(g.awaited(state)))
            legal = g.legal(state, seat)
            level = ai.LEVELS[(seat + moves // 40) % 3]
            action = ai.choose(g, g.view(state, seat), legal, level, moves, budget=3)
            assert action in legal
            state = g.apply(state, seat, action).state
            moves += 1
            assert moves < 5000


def test_one_seed_one_move_and_another_seed_may_differ():
    g = engine.get("bridge-wars")
    state = g.new(2, None, 5)
    for _ in range(6):  # through setup, into play: hundreds of placements
        seat = next(iter(g.awaited(state)))
        state = g.apply(state, seat, g.legal(state, seat)[0]).state
    seat = next(iter(g.awaited(state)))
    seen, legal = g.view(state, seat), g.legal(state, seat)
    for level in ai.LEVELS:
        picks = {g.format(ai.choose(g, seen, legal, level, seed, budget=4)) for seed in range(6)}
        again = {g.format(ai.choose(g, seen, legal, level, seed, budget=4)) for seed in range(6)}
        assert picks == again
        assert len(picks) > 1 or level == "hard", level


def test_normal_takes_the_points_on_offer_and_easy_does_not_look():
    """Skybridge: wherever a roof would score at once, normal takes the best there is;
    easy, at random, often does not."""
    g = engine.get("skybridge")
    offers = 0
    for state, _ in positions(g):
        seat = next(iter(g.awaited(state)), None)
        if seat is None:
            continue
        legal, seen = g.legal(state, seat), g.view(state, seat)
        gain = {a: margin(g, g.apply(state, seat, a).state, seat) for a in legal}
        top = max(gain.values())
        if top <= min(gain.values()):
            continue
        offers += 1
        for seed in range(3):
            assert gain[ai.choose(g, seen, legal, "normal", seed)] == top
    assert offers >= 3
    misses = 0
    for state, _ in positions(g):
        seat = next(iter(g.awaited(state)), None)
        if seat is not None:
            legal, seen = g.legal(state, seat), g.view(state, seat)
            gain = {a: margin(g, g.apply(state, seat, a).state, seat) for a in legal}
            misses += gain[ai.choose(g, seen, legal, "easy", 1)] < max(gain.values())
    assert misses > 0


def test_a_game_without_an_ai_module_plays_at_every_level():
    """The AI needs only the engine contract: a game with no ``ai.py`` (no evaluation, no
    search settings) is searched with its own scores and the default settings."""

    class Bare(Skybridge):
        kit = replace(Skybridge.kit, ai=None)

    g = Bare()
    state = g.new(2, None, 1)
    while not g.is_over(state):
        seat = next(iter(g.awaited(state)))
        legal = g.legal(state, seat)
        for level in ai.LEVELS:
            assert ai.choose(g, g.view(state, seat), legal, level, 1, budget=4) in legal
        state = g.apply(state, seat, ai.choose(g, g.view(state, seat), legal, "normal", 1)).state
    assert ai.search_for(g) == ai.Search()


def test_the_reply_search_plays_the_candidate_whose_worst_answer_is_best():
    """The reply search (Bridge Wars' hard) judges each candidate by the rival's best
    answer to it. Checked against every answer, by brute force: its cut-offs, which
    spare most of that work, never change the choice."""
    g = engine.get("bridge-wars")
    assert ai.search_for(g).reply
    worlds = Worlds(g)
    checked = 0
    for state, _ in positions(g, every=4):
        seat = next(iter(g.awaited(state)), None)
        if seat is None or g.view(state, seat).setup:
            continue
        candidates = g.legal(state, seat)[::29][:8]

        def worst(action, seat=seat, state=state):
            after = g.apply(state, seat, action).state
            if g.is_over(after):
                return margin(g, after, seat)
            rival = next(iter(g.awaited(after)))
            return min(
                margin(g, g.apply(after, rival, answer).state, seat)
                for answer in g.legal(after, rival)
            )

        values = {action: worst(action) for action in candidates}
        work = Work()
        search = Search(worlds=1, width=len(candidates), reply=True)
        chosen = reply.pick(worlds, [state], seat, candidates, Dice(checked), search, work)
        assert values[chosen] == max(values.values())
        every = len(candidates) + sum(
            1 + len(g.legal(g.apply(state, seat, a).state, 1 - seat)) for a in candidates
        )
        assert work.applied < every / 2
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_work_cap_bounds_what_a_decision_tries(monkeypatch):
    """``Search.work`` stops the search once that many actions have been tried (a
    rollout under way is finished): the bound on a move's CPU time."""
    g = engine.get("seven-bridges")
    state = g.new(2, None, 3)
    for _ in range(12):
        seat = next(iter(g.awaited(state)))
        state = g.apply(state, seat, g.legal(state, seat)[-1]).state
    seat = next(iter(g.awaited(state)))
    legal = g.legal(state, seat)
    assert len(legal) > 1
    seen = g.view(state, seat)
    settings = ai.search_for(g)
    monkeypatch.setattr(g.kit.ai, "SEARCH", replace(settings, work=0))
    free = ai.decide(g, seen, legal, "hard", 1, budget=30)
    rollout = 1 + settings.depth * settings.greed
    for cap in (60, 150):
        monkeypatch.setattr(g.kit.ai, "SEARCH", replace(settings, work=cap))
        decision = ai.decide(g, seen, legal, "hard", 1, budget=30)
        assert decision.action in legal
        assert cap <= decision.applied < cap + rollout < free.applied


def test_a_rollout_limited_to_the_turn_plays_the_seats_own_actions_only():
    """``Search.turns``: a rollout ends once the turn has passed, and with ``greed`` 0
    each of its actions is the best of all the mover's legal ones, so the search plays
    its own turn out, never the rival's (Bridges and Boats' attacker plans its turn so)."""
    from engine.ai import hard

    class Counted(Worlds):
        """The real worlds, noting whose actions a rollout plays and how many it tried."""

        movers: list[int] = []

        def follow(self, state, seat, action):
            self.movers.append(seat)
            return super().follow(state, seat, action)

    g = engine.get("bridges-and-boats")
    state = g.new(2, {"variant": "balanced"}, 4)  # the attacker's first turn: buy
    legal = g.legal(state, 0)
    search = Search(iterations=6, worlds=2, width=3, depth=40, greed=0, turns=1)
    worlds = Counted(g)
    action, work = hard.pick(worlds, g.view(state, 0), 0, legal, Dice(1), search)
    assert action in legal
    assert worlds.movers and set(worlds.movers) == {0}
    # each rollout went on past one action: buying, building and so on to the turn's end
    assert len(worlds.movers) > 6 * len(legal)

