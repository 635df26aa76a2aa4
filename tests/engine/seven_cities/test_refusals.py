"""Refusals: one sentence naming the rule and the place; what the notation refuses."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from tests.engine.seven_cities.conftest import g, refused, table


def test_refusals_name_the_rule_and_the_place():
    state = table(at="f1a", ap=1)
    assert "not next to f1a" in refused(state, 0, "move f3d")
    assert "no tile f9a" in refused(state, 0, "move f9a")
    assert "hold no Burn City" in refused(state, 0, "play burn")
    assert "It is not your turn" in refused(state, 1, "end")
    assert "nothing to react to" in refused(state, 0, "pass")
    with pytest.raises(IllegalMove, match="not a card"):
        g.parse("ap dragons")
    with pytest.raises(IllegalMove, match="played as"):
        g.parse("play takeover")


def test_a_bare_move_with_extra_words_says_so():
    with pytest.raises(IllegalMove, match="where your token stands"):
        g.parse("build f7b")
    with pytest.raises(IllegalMove, match="`end` takes nothing"):
        g.parse("end now")
