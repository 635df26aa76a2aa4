"""Refusals: one sentence naming the rule and the place; what the notation refuses."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from tests.engine.seven_cities.conftest import T, g, refused, table


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


def test_a_token_refused_for_lying_on_another_names_the_one_in_the_way():
    """Two railways never share a tile (RULINGS §4.2): the refusal names the railway
    in the way, not the wall; and the wall where it is the wall."""
    laid = table(
        hands=[("railway", "wall"), ()],
        railways=((T("f1a"), T("f1b"), T("f1c")),),
        walls=((T("p2a"), T("p2b"), T("p2c")),),
    )
    assert refused(laid, 0, "play railway f1a f1b f1c") == (
        "Build Railway cannot cover f1a: the other railway lies there."
    )
    assert refused(laid, 0, "play railway p2a p2b p2c") == (
        "Build Railway cannot cover p2a: the wall lies there."
    )
    assert refused(laid, 0, "play wall f1a f1b f1c") == (
        "Build Wall cannot cover f1a: a railway lies there."
    )
    assert refused(laid, 0, "play wall p2a p2b p2c") == (
        "The wall that moves already lies on p2a, p2b, p2c: choose other tiles."
    )
    assert "covers 3 connected tiles of one era" in refused(laid, 0, "play railway f1a f1b p1c")
