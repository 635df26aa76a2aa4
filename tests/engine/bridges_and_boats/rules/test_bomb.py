"""The bombing run (defender, step 4): hits, deadly strikes, the 2d6 section table, the
ace and the ghost."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.bridges_and_boats.board import SECTION_OF_SUM
from tests.engine.bridges_and_boats.conftest import (
    D,
    airfield,
    bridge,
    events_of,
    g,
    legal,
    play,
    public,
    refusal,
    rolling,
    spaces,
)


def test_a_bombing_run_needs_a_plane_that_bombs_and_flies_once_a_turn():
    state = airfield("3-5", "0-0")
    assert "Declare the planes first" in refusal(state, D, "bomb")
    assert "ghost pilot never bombs" in refusal(play(state, "fly 0-0"), D, "bomb")
    flown = play(replace(state, rng=rolling(1, 1)), "fly 3-5", "bomb")
    assert "has flown" in refusal(flown, D, "fly 0-0")
    assert "has flown" in refusal(flown, D, "bomb")
    assert legal(flown) == ["end"]


def test_a_hit_needs_the_pip_total_and_destroys_the_section_the_dice_name():
    # 3-5 needs 8: 2 and 6 hit (not deadly); then 3 and 4 = 7 names section 4
    state = airfield("3-5", spaces=spaces(6, 7, 8, 9), rng=rolling(2, 6, 3, 4))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.bridge[3] is None and state.bombed == {3}
    assert state.spaces == spaces(6, 9), "both soldiers on section 4 die, the neighbours live"
    assert g.view(state, None).sections[3] == "destroyed"
    assert len(state.discard) == 1
    text = public(events)
    assert "Plane 3-5 rolls 2 and 6 = 8 and hits" in text
    assert "section 4 is destroyed and 2 soldiers on it killed" in text
    assert [(r.purpose, r.dice, r.outcome) for r in state.dice] == [
        ("to hit", (2, 6), "hit"),
        ("aim", (3, 4), "sect. 4 destroyed, 2 killed"),
    ]


def test_a_deadly_strike_also_kills_the_soldiers_on_both_neighbouring_sections():
    # 3-5 rolled as 5 and 3: deadly; 4 and 3 = 7: section 4
    state = airfield("3-5", spaces=spaces(1, 5, 6, 7, 8, 9, 10, 11), rng=rolling(5, 3, 4, 3))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.spaces == spaces(1, 11), "sections 3, 4 and 5 are cleared"
    assert state.bridge[2] is not None and state.bridge[4] is not None, "only 4 is destroyed"
    assert state.bridge[3] is None
    assert "makes a deadly strike" in public(events)
    assert "kills 4 soldiers on the sections beside it" in public(events)


def test_a_miss_does_nothing_and_rolls_no_location():
    state = airfield("3-5", "2-6", rng=rolling(1, 1, 4, 4, 1, 1))
    state = play(state, "fly 3-5", "fly 2-6", "bomb")
    # 3-5 missed with 1,1; 2-6 hit with 4,4 (8) and aimed 1,1 = 2: section 1
    assert [r.dice for r in state.dice] == [(1, 1), (4, 4), (1, 1)]
    assert state.bridge[0] is None


def test_a_blank_ended_plane_is_never_deadly():
    state = airfield("0-4", spaces=spaces(1, 2, 3, 4, 5, 6), rng=rolling(2, 2, 2, 1))
    state = play(state, "fly 0-4", "bomb")
    assert state.dice[0].outcome == "hit"
    assert state.spaces == spaces(1, 2, 5, 6), "section 2 only: 2 and 1 = 3"


def test_a_hit_where_nothing_stands_does_nothing():
    state = airfield("3-5", bridge=bridge("111000"), spaces=spaces(5, 6), rng=rolling(5, 3, 6, 6))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.spaces == spaces(5, 6), "a deadly strike on nothing kills nobody"
    assert state.bridge == bridge("111000") and state.discard == ()
    assert "where nothing stands" in public(events)


def test_the_ace_always_hits_but_is_never_deadly():
    # the ace rolls no hit dice: its first two dice are its aim, 3 and 3 = 6: section 3
    state = airfield("0-1", spaces=spaces(4, 5, 6, 7), rng=rolling(3, 3))
    state, events = events_of(play(state, "fly 0-1"), "bomb")
    assert state.bridge[2] is None
    assert state.spaces == spaces(4, 7)
    assert "always hits" in public(events)
    assert [r.purpose for r in state.dice] == ["aim"]


@pytest.mark.parametrize(
    ("dice", "section"),
    [((1, 1), 1), ((1, 2), 2), ((2, 2), 2), ((2, 3), 3), ((3, 3), 3), ((3, 4), 4),
     ((4, 4), 4), ((4, 5), 5), ((5, 5), 5), ((5, 6), 6), ((6, 6), 6)],
)  # fmt: skip
def test_the_2d6_section_table(dice, section):
    state = play(airfield("0-1", rng=rolling(*dice)), "fly 0-1", "bomb")
    assert [i + 1 for i, d in enumerate(state.bridge) if d is None] == [section]
    assert SECTION_OF_SUM[sum(dice)] == section - 1


def test_the_ghost_is_free_and_never_bombs():
    state = airfield("0-0", "3-5", coins=(0, 1), rng=rolling(1, 1))
    state = play(state, "fly 0-0", "fly 3-5", "bomb")
    assert state.coins[D] == 0
    assert [r.who for r in state.dice] == ["3-5"], "only 3-5 rolled; the ghost never does"
