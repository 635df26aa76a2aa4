"""Games stored before the game kit (issue #18) replay to exactly the state they stored.

``tests/data/recorded-games-2026-11-25.db`` is a bot database written by the code of
commit 3cb8abf: 19 whole games from `python -m bot selfplay` (every game and player
count), then 14 more through that version's service: every game option (Seven Bridges'
advanced rule and start square, Bridge Wars' height, Seven Cities' clock), resignations,
a take-back, a skipped turn, and five games left in the middle. 33 games, 4,902 log
entries. Notation, rules and the state's JSON form are a promise to every database out
there; this is the test that holds any engine change to it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import engine

RECORDED = Path(__file__).resolve().parents[1] / "data" / "recorded-games-2026-11-25.db"


def recorded_games() -> list[tuple]:
    with sqlite3.connect(f"file:{RECORDED}?mode=ro", uri=True) as db:
        games = db.execute(
            "SELECT id, game_key, options, seed, state, status, "
            "(SELECT count(*) FROM seats WHERE seats.game_id = games.id) "
            "FROM games ORDER BY id"
        ).fetchall()
        moves = {
            game_id: db.execute(
                "SELECT seat, kind, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            for game_id, *_ in games
        }
    return [(*game, moves[game[0]]) for game in games]


GAMES = recorded_games()


def standing(log: list[tuple]) -> list[tuple]:
    """The log's entries still standing once its take-backs are applied (as the bot does)."""
    kept: list[tuple] = []
    for seat, kind, action in log:
        if kind == "undo":
            del kept[len(kept) - int(action) :]
        else:
            kept.append((seat, kind, action))
    return kept


def test_the_recording_holds_every_game_and_every_kind_of_entry():
    assert {game[1] for game in GAMES} == set(engine.GAMES)
    assert sum(len(game[-1]) for game in GAMES) == 4902
    kinds = {kind for game in GAMES for _, kind, _ in game[-1]}
    assert kinds == {"move", "undo", "skip"}
    assert {game[5] for game in GAMES} == {"finished", "active"}
    assert any(action == "resign" for game in GAMES for _, _, action in game[-1])


@pytest.mark.parametrize("game", GAMES, ids=[f"{g[1]}-{g[0]}" for g in GAMES])
def test_a_recorded_game_replays_to_its_stored_state(game):
    _id, key, options, seed, stored, status, players, log = game
    rules = engine.get(key)
    state = rules.new(players, json.loads(options) or None, seed)
    for seat, kind, action in standing(log):
        if kind == "skip":
            state = rules.skip(state, seat).state
            continue
        step = rules.play(state, seat, action)
        assert rules.format(step.action) == action, "notation reads back as it was written"
        state = step.state
    assert rules.to_json(state) == stored
    assert rules.is_over(state) == (status == "finished")
    assert rules.to_json(rules.from_json(stored)) == stored, "a stored state still loads"
