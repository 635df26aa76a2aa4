"""Starting a game (state.py): the rod height option and the player count."""

from __future__ import annotations

import pytest

from engine.core import BadOptions
from tests.engine.bridge_wars.conftest import g


def test_rod_height_is_an_option():
    assert g.new(2, None, 1).height == 12
    assert g.new(2, {"height": 8}, 1).height == 8
    assert g.new(2, {"height": "10"}, 1).height == 10
    for bad in (3, 17, "tall", True, 9.5):
        with pytest.raises(BadOptions, match="height"):
            g.new(2, {"height": bad}, 1)
    with pytest.raises(BadOptions, match="no option colour"):
        g.new(2, {"colour": "red"}, 1)
    for players in (1, 5):
        with pytest.raises(BadOptions, match="2 to 4 players"):
            g.new(players, None, 1)
