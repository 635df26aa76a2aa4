"""Balanced games stored before the variant was retuned replay to the state they reached.

``tests/data/balanced-games-2026-11-28.json`` holds two whole games of ``variant balanced``
played by `normal` against itself under commit 3ad1d0a (before the retune), their options
exactly as that version stored them in ``games.options`` (the word alone, and the word
with ``domino_price 3``), their seeds, every move and the final state's JSON. A retune of
the variant must leave them as they were played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.bridges_and_boats.conftest import g

RECORDED = Path(__file__).resolve().parents[2] / "data" / "balanced-games-2026-11-28.json"
GAMES = json.loads(RECORDED.read_text())


@pytest.mark.parametrize("game", GAMES, ids=[game["options"] for game in GAMES])
def test_a_stored_balanced_game_replays_to_its_final_state(game):
    state = g.new(game["players"], json.loads(game["options"]), game["seed"])
    for seat, text in game["moves"]:
        state = g.play(state, seat, text).state
    assert g.is_over(state)
    assert g.to_json(state) == game["state"]
