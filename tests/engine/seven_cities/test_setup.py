"""Setting up: the deck, the tile groups, the clock cards, starting tiles, the help."""

from __future__ import annotations

import pytest

from engine.core import BadOptions
from engine.seven_cities.cards import deck_for
from tests.engine.seven_cities.conftest import g, play


@pytest.mark.parametrize(("players", "size"), [(2, 45), (3, 52), (4, 57), (5, 62), (6, 67)])
def test_the_deck_keeps_only_cards_marked_for_the_player_count(players, size):
    assert len(deck_for(players)) == size
    state = g.new(players, None, 1)
    assert len(state.deck) == size
    assert ("enemy" in state.deck) == (players >= 3), "Enemy of my Enemy needs a third player"


def test_three_groups_start_mirrored_and_eight_wait_in_the_past_deck():
    state = g.new(3, None, 5)
    view = g.view(state, None)
    past = [t.name[1:] for t in view.tiles if t.tile[0] == 0]
    future = [t.name[1:] for t in view.tiles if t.tile[0] == 1]
    assert len(past) == 12 and past == future, "tile for tile, the same places in both eras"
    assert view.past_deck == 8
    assert sorted({p[0] for p in state.placements} | set(state.past_deck)) == list(range(1, 12))


def test_the_clock_cards_pick_the_nearest_time_not_after_the_start():
    state = g.new(4, {"clock": "17:10"}, 3)  # 5:10 on the dial
    before = [(state.clock - c) % 720 for c in state.clocks]
    assert state.first == before.index(min(before))
    assert state.turn == state.first and state.stage == "start"
    assert g.new(4, None, 3).clock == g.new(4, None, 3).clock, "the default comes from the seed"
    with pytest.raises(BadOptions, match="HH:MM"):
        g.new(2, {"clock": "25:99"}, 1)
    with pytest.raises(BadOptions, match=r"no option colour \(its options: clock\)"):
        g.new(2, {"colour": "red"}, 1)


def test_starting_tiles_in_player_order_then_everyone_draws_three():
    state = g.new(3, {"clock": "12:30"}, 9)
    order = [(state.first + i) % 3 for i in range(3)]
    assert all(m.startswith("start f") for m in map(g.format, g.legal(state, order[0])))
    for seat in order:
        assert g.to_play(state) == (seat,)
        first_tile = g.format(g.legal(state, seat)[0])
        state, events = play(state, seat, first_tile)
    assert state.round == 1 and state.turn == order[0]
    assert [len(h) for h in state.hands] == [3, 3, 3]
    assert g.view(state, None).hand is None
    assert g.view(state, 1).hand == state.hands[1]
    drew = [e for e in events if e.kind == "drew"]
    assert {e.seat for e in drew} == {0, 1, 2}, "each seat is told its own cards privately"


def test_a_round_opens_with_the_next_player_when_the_first_has_resigned():
    state = g.new(3, {"clock": "12:30"}, 9)
    first = state.first
    state, _ = play(state, first, "resign")
    while state.stage == "start":
        state, _ = play(state, state.turn, g.format(g.legal(state, state.turn)[0]))
    assert state.round == 1 and state.turn != first
    assert g.legal(state, state.turn), "the seat to play has moves"


def test_the_help_fits_one_discord_message_and_marks_our_rulings():
    text = g.info.help
    assert len(text) <= 2000
    assert "[P]" in text and "option `clock`, HH:MM" in text
    assert "docs/rules/seven-cities.md" in text
