"""The game's balance, as the rules (RULINGS §5) make it: why no AI can win most games
as the attacker (docs/ai.md, "Bridges and Boats").

Both sides take 3 coins a turn, a soldier costs the attacker a coin, and the game ends
only when the 28 dominoes are bought (2 coins each) or at the turn limit. So soldiers
crossed never outnumber the attacker's income less what it paid for dominoes, and a
defender who keeps every coin holds 3 a turn: it cannot lose.
"""

from __future__ import annotations

from engine import ai
from engine.bridges_and_boats.actions import Bomb, Buy, End, Fire
from engine.bridges_and_boats.dominoes import run_cost
from engine.bridges_and_boats.options import RULEBOOK
from engine.bridges_and_boats.state import ATTACKER, DEFENDER
from engine.core import Rng
from tests.engine.bridges_and_boats.conftest import g


def _keeps_every_coin(legal):
    """The defender's whole strategy: fire when the rules ask, end every turn."""
    return Fire() if Fire() in legal else End()


def test_a_defender_who_keeps_every_coin_never_loses():
    """Against random attackers and the hard one alike; and at every step the attacker
    has crossed no more soldiers than its income less what its dominoes cost."""
    income = RULEBOOK.attacker_income
    streams = Rng.from_seed(5)
    for number in range(10):
        seed, streams = streams.next64()
        level = "hard" if number < 2 else "easy"
        state, bought, started = g.new(2, None, seed), 0, [1, 0]
        while not g.is_over(state):
            seat = next(iter(g.awaited(state)))
            legal = g.legal(state, seat)
            if seat == DEFENDER:
                action = _keeps_every_coin(legal)
            else:
                action = ai.choose(g, g.view(state, seat), legal, level, number, budget=8)
                bought += action == Buy()
            before = state.turns
            state = g.apply(state, seat, action).state
            if state.turns > before and not g.is_over(state):
                started[state.turn] += 1
            assert state.crossed <= income * started[ATTACKER] - RULEBOOK.price * bought
        assert state.coins[DEFENDER] == income * started[DEFENDER]
        result = g.result(state)
        assert result.places == (2, 1), (number, level, result.detail)


def test_a_random_defender_leaves_even_a_perfect_attacker_few_games():
    """An upper bound on any attacker's wins against ``easy``: whatever the attacker
    does, it can win only where the random defender gave away enough. With k dominoes
    bought and F coins paid for sorties by the defender, a game ending in the
    attacker's turn A is won only if 4k + F > 53 (coins: the attacker pays for the
    other 28 - k dominoes out of 3A, the defender holds 3(A - 1) - 2k - F) and F >
    min(3A - 57, 2A - 32) (throughput: a boat carries 2, a bridge crossing takes 13
    turns and its 6 sections are dominoes too); at the turn limit, only if F > 70. The
    random defender's choices barely depend on the attacker's, so it is played here
    against an attacker who only ends its turns, to the turn limit, and every turn is
    checked as a possible end."""
    streams = Rng.from_seed(2026)
    games, chances = 120, 0
    for _ in range(games):
        seed, streams = streams.next64()
        moves, streams = streams.next64()
        picks = Rng.from_seed(moves)
        state, k, sorties, chance = g.new(2, None, seed), 0, 0, False
        while not g.is_over(state):
            seat = next(iter(g.awaited(state)))
            legal = g.legal(state, seat)
            if seat == ATTACKER:
                state = g.apply(state, seat, End()).state
                continue
            move, picks = picks.next64()
            action = ai.choose(g, g.view(state, seat), legal, "easy", move)
            k += action == Buy()
            sorties += run_cost(state.declared) if action == Bomb() else 0
            if action == End():
                a = state.turns // 2 + 2  # the attacker's turn that could end it
                chance |= 4 * k + sorties > 53 and sorties > min(3 * a - 57, 2 * a - 32)
            state = g.apply(state, seat, action).state
        chance |= state.over == "cap" and sorties > 70
        chances += chance
    assert chances <= games // 8, chances  # 11 of these 120
