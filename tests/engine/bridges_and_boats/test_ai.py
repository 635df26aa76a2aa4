"""The computer players on Bridges and Boats' options: a position where an option
changes the best move, and a secret that must not change it (engine/bridges_and_boats/ai.py,
docs/ai.md)."""

from __future__ import annotations

from dataclasses import replace

from engine import ai
from engine.bridges_and_boats.options import Rules
from tests.engine.bridges_and_boats.conftest import A, D, airfield, dom, g, position, spaces


def _turn(state, seat, level="hard", seed=3):
    """The moves ``seat`` makes at ``level`` until its turn passes, and the state after."""
    moves = []
    while not g.is_over(state) and g.to_play(state)[0] == seat:
        action = ai.choose(g, g.view(state, seat), g.legal(state, seat), level, seed)
        moves.append(g.format(action))
        state = g.apply(state, seat, action).state
    return moves, state


def _consistent(state):
    """``state`` with no domino both in the pool and elsewhere (positions built by hand)."""
    used = set(state.bridge) | set(state.planes) | set(state.cannons)
    return replace(state, pool=tuple(d for d in state.pool if d not in used)[:8])


def test_with_match_bombing_the_defender_sends_its_ace_at_the_section_it_matches():
    """Two soldiers stand on section 6, about to cross; only section 6 (1-5) shares a
    number with the ace (0-1), who always hits the section he names: hard names it,
    bombs, and the two soldiers die (the rulebook's game would leave where to chance)."""
    faces = tuple(dom(t) for t in ("2-4", "2-5", "2-6", "3-4", "3-5", "1-5"))
    state = _consistent(
        airfield("0-1", rules=Rules(match_bombing=True), spaces=spaces(3, 11, 12), bridge=faces)
    )
    moves, after = _turn(state, D)
    assert moves[:2] == ["fly 0-1 s6", "bomb"]
    assert after.spaces == spaces(3)
    assert after.coins[D] == 9 - 2  # the ace's sortie


def test_with_secret_pilots_the_attacker_decides_the_same_whatever_lies_face_down():
    """Two positions that differ only in the defender's face-down pilots show the
    attacker the same view, so every level makes the same move after the same work."""
    rules = Rules(secret_pilots=True)
    base = position(turn=A, coins=(9, 4), rules=rules, bridge=(None,) * 6)
    seen = []
    for pilots in (("2-5", "6-6"), ("0-1", "3-4")):
        state = _consistent(replace(base, planes=tuple(dom(p) for p in pilots)))
        view = g.view(state, A)
        assert view.planes == (None, None)
        legal = g.legal(state, A)
        seen.append((view, [ai.decide(g, view, legal, lv, 5) for lv in ai.LEVELS]))
    (view_1, decisions_1), (view_2, decisions_2) = seen
    assert view_1 == view_2
    assert decisions_1 == decisions_2
