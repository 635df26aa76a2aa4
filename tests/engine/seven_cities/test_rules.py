"""Battle for Seven Cities rules (prototype 13.2 plus RULINGS §4), each by name, through
the engine.

Positions are built as ``State`` values (``dataclasses.replace`` on a fresh game) on a
fixed layout of groups 1, 2 and 3, so a rule can be looked at on its own; then real
moves are played with ``g.play`` and what a player would notice is checked: where the
cities are, whose turn it is, what the cards did, what the refusal says.

The fixed layout (axial q,r; past / future terrain):

    group 1 at 0,0:  1a soil/soil  1b soil/soil  1c forest/forest  1d light/light
    group 2 at 2,0:  2a soil/soil  2b mountain/mountain  2c mountain/volcano  2d forest/soil
    group 3 at 1,2:  3a light/light  3b deep/deep  3c light/soil  3d soil/soil
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.core import BadOptions, IllegalMove
from engine.seven_cities.board import board
from engine.seven_cities.cards import deck_for, sort_hand
from engine.seven_cities.rules import metropolis_chances
from engine.seven_cities.state import DISCARD, PLACE, ROUND_CAP, TURN, City, State

g = engine.get("seven-cities")
LAYOUT = ((1, 0, 0, 0), (2, 2, 0, 0), (3, 1, 2, 0))
GEO = board(LAYOUT)


def T(name: str):
    tile = GEO.tile_named(name)
    assert tile is not None, name
    return tile


def cities(*specs: tuple[str, int] | tuple[str, int, int]) -> tuple[City, ...]:
    """('f1a', 1) -> seat 1's city on f1a; a third number is the size (2: Metropolis)."""
    made = [City(T(s[0]), s[1], s[2] if len(s) > 2 else 1) for s in specs]
    return tuple(sorted(made, key=lambda c: c.tile))


def table(players: int = 2, at: str = "f1a", hands=None, **changes) -> State:
    """Round 1, seat 0 to play with no AP, everyone on ``at``, on the fixed layout."""
    fresh = g.new(players, {"clock": "12:30"}, 7)
    state = replace(
        fresh,
        placements=LAYOUT,
        past_deck=(4, 5, 6, 7, 8, 9, 10, 11),
        stage=TURN,
        round=1,
        first=0,
        turn=0,
        positions=(T(at),) * players,
        hands=tuple(sort_hand(h) for h in (hands or [()] * players)),
    )
    state = replace(state, **changes)
    # chances that exist before the test's first move were "already offered"
    return replace(state, offered=metropolis_chances(state))


def play(state: State, seat: int, *texts: str) -> tuple[State, list]:
    events: list = []
    for text in texts:
        step = g.play(state, seat, text)
        state, _, more = step.state, step.action, step.events
        events += more
    return state, events


def owner(state: State, name: str) -> int | None:
    return next((c.owner for c in state.cities if c.tile == T(name)), None)


def public(events) -> str:
    return "\n".join(e.text for e in events if e.seat is None)


def refused(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.play(state, seat, text)
    assert g.to_json(state) == before, "a refusal changes nothing"
    return caught.value.reason


# -- setting up ------------------------------------------------------------------------


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
    with pytest.raises(BadOptions, match="one option"):
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


# -- terrain costs, travel, time travel ------------------------------------------------


def test_travel_pays_the_entered_tiles_cost_and_time_travel_costs_one():
    state = table(hands=[("points4",), ()], at="f1a")
    state, _ = play(state, 0, "ap points4")
    assert state.ap == 4 and state.blue == ("points4",)
    state, _ = play(state, 0, "move f1b", "move f2a")  # future soil: 1 each
    assert state.positions[0] == T("f2a") and state.ap == 2
    assert "Entering f2b costs 3 AP and you have 2" in refused(state, 0, "move f2b")


def test_terrain_costs_for_building_in_both_eras():
    cases = [
        ("f1a", 4), ("f1c", 6), ("f2b", 2), ("f1d", 6), ("f3b", 8), ("f2c", 4),
        ("p1a", 5), ("p1c", 7), ("p2b", 3),
    ]  # fmt: skip
    for name, cost in cases:
        state = table(at=name, ap=cost)
        assert "build" in map(g.format, g.legal(state, 0)), name
        built, _ = play(state, 0, "build")
        assert owner(built, name) == 0 and built.ap == 0
        short = table(at=name, ap=cost - 1)
        assert "costs" in refused(short, 0, "build")
    for sea in ("p1d", "p3b"):
        assert "Nobody builds on past" in refused(table(at=sea, ap=9), 0, "build")


def test_moving_costs_travel_values_railways_are_free_and_walls_stop_entry():
    state = table(at="f2a", ap=3)
    state, _ = play(state, 0, "move f2b")  # future mountain: 3
    assert state.ap == 0
    state = table(at="p1a", ap=2)
    state, _ = play(state, 0, "move p1c")  # past forest: 2
    assert state.ap == 0
    rail = table(at="f2a", ap=0, railways=((T("f2b"), T("f2c"), T("f2d")),))
    rail, _ = play(rail, 0, "move f2b", "move f2c")
    assert rail.positions[0] == T("f2c") and rail.ap == 0
    wall = table(at="f2a", ap=9, walls=((T("f2b"), T("f2c"), T("f2d")),))
    assert "wall" in refused(wall, 0, "move f2b")
    walled_in = table(at="p2b", ap=1, walls=((T("f2b"), T("f2c"), T("f2d")),))
    walled_in, _ = play(walled_in, 0, "time")
    assert walled_in.positions[0] == T("f2b"), "time travel still reaches a walled tile"
    out, _ = play(replace(walled_in, ap=1), 0, "move f2a")
    assert out.positions[0] == T("f2a"), "leaving a walled tile is allowed"


def test_time_travel_lands_on_the_matching_tile():
    state = table(at="f3c", ap=1)
    state, events = play(state, 0, "time")
    assert state.positions[0] == T("p3c") and state.ap == 0
    assert "to the past" in public(events)
    assert "none" in refused(state, 0, "time")


# -- end of turn: the land card, discarding, drawing ---------------------------------


def test_a_city_built_on_future_land_earns_a_card_at_the_end_of_the_turn():
    state = table(at="f1a", ap=8, hands=[(), ()], deck=("burn", "wall", "army"))
    state, _ = play(state, 0, "build")
    assert state.hands[0] == (), "the card comes at the end of the turn"
    state, events = play(state, 0, "end")
    assert state.hands[0] == ("burn",)
    assert [e.text for e in events if e.seat == 0] == ["You draw Burn City."]
    assert "Burn City" not in public(events), "what was drawn is private"
    sea = table(at="f1d", ap=6, deck=("burn",))
    sea, _ = play(sea, 0, "build", "end")
    assert sea.hands[0] == (), "no card for building on future sea"


def test_discard_down_to_two_at_the_end_of_the_turn():
    state = table(hands=[("burn", "wall", "army", "points2"), ()])
    state, events = play(state, 0, "end")
    assert state.stage == DISCARD and g.to_play(state) == (0,)
    assert "must discard 2" in public(events)
    assert "Discard down to 2" in refused(state, 0, "move f1b")
    state, _ = play(state, 0, "discard wall")
    assert state.stage == DISCARD
    state, _ = play(state, 0, "discard army")
    assert state.hands[0] == sort_hand(("burn", "points2"))
    assert state.turn == 1 and state.stage == TURN
    assert state.blue[-2:] == ("wall", "army")


def test_an_empty_draw_pile_reshuffles_blue_but_never_red():
    state = table(deck=(), blue=("wall",), red=("burn", "army"))
    state = replace(state, turn=1)  # seat 1 ends the round: seat 1 opens the next
    state, events = play(state, 1, "end")
    assert "blue discard pile (1 card) is shuffled" in public(events)
    assert sum(len(h) for h in state.hands) == 1, "one card to go round, red stays out"
    assert state.red == ("burn", "army") and state.blue == ()
    assert "Both the draw pile and the blue discard pile are empty" in public(events)


def test_unused_action_points_are_lost():
    state = table(ap=3)
    state, events = play(state, 0, "end")
    assert "3 unused AP lost" in public(events)
    assert state.ap == 0 and state.turn == 1


# -- the round: timeshift, the Time-Shift card, winning --------------------------------


def test_the_timeshift_copies_past_cities_forward_except_onto_shields():
    state = table(
        players=3,
        turn=2,
        cities=cities(("p1a", 0), ("f1a", 1), ("p1b", 2), ("f1b", 1), ("f1c", 1)),
        shields=((T("f1b"), 1),),
    )
    state, events = play(state, 2, "end")
    assert owner(state, "f1a") == 0, "the past city replaces the future one"
    assert owner(state, "f1b") == 1, "a shielded future tile keeps its city"
    assert owner(state, "f1c") == 1, "an empty past tile erases nothing"
    assert "shields keep f1b" in public(events)
    assert state.first == 2, "the Time-Shift card passes counter-clockwise (0 -> 2)"
    assert state.turn == 2 and state.round == 2


def test_the_timeshift_skips_an_owner_with_no_token_left():
    past = [(f"p{g_}{c}", 1) for g_ in (1, 2, 3) for c in "abcd" if f"{g_}{c}" != "1d"]
    state = table(turn=1, cities=cities(*past, ("f2a", 1), ("f2b", 1), ("f2c", 1), ("f1a", 0)))
    assert sum(c.size for c in state.cities if c.owner == 1) == 14
    state, events = play(state, 1, "end")
    assert owner(state, "f1a") == 0 and owner(state, "f1b") is None
    assert "no token left for f1a, f1b" in public(events)


def test_seven_future_cities_end_the_game_at_the_end_of_the_round():
    seven = [(f"f{g_}{c}", 0) for g_, c in zip("1112222", "abcabcd", strict=True)]
    state = table(cities=cities(*seven, ("f3a", 1)))
    state, _ = play(state, 0, "end")
    assert not g.is_over(state), "only at the end of a round"
    state, events = play(state, 1, "end")
    assert g.is_over(state) and "reached 7 future cities" in public(events)
    result = g.result(state)
    assert result.scores == (7, 1) and result.places == (1, 2)


def test_ties_go_to_most_future_cities_on_water_then_most_cities():
    state = table(
        players=3,
        cities=cities(("f1a", 0), ("f1b", 0), ("f1d", 1), ("f3b", 1), ("f2a", 2), ("f2b", 2)),
    )
    result = g.result(replace(state, over="goal"))
    assert result.scores == (2, 2, 2)
    assert result.places == (2, 1, 2), "seat 1 has both cities on water"
    more = replace(state, cities=state.cities + (City(T("p1a"), 2),), over="goal")
    more = replace(more, cities=tuple(sorted(more.cities, key=lambda c: c.tile)))
    assert g.result(more).places == (3, 1, 2), "then most cities in all [P]"


def test_a_metropolis_counts_two():
    state = table(cities=cities(("f1a", 0, 2), ("f1b", 1)), over="goal")
    assert g.result(state).scores == (2, 1)


def test_the_round_cap_ends_random_play():
    state = table(round=ROUND_CAP, turn=1)
    state, events = play(state, 1, "end")
    assert g.is_over(state) and state.over == "cap"
    assert "round limit" in public(events)


# -- cards -----------------------------------------------------------------------------


def test_expedition_lays_the_next_past_group_and_its_future_twin_and_a_free_city():
    state = table(at="f2d", hands=[("expedition",), ()])
    state, events = play(state, 0, "play expedition")
    assert state.stage == PLACE and state.expedition == 4 and state.past_deck[0] == 5
    assert "draws past tile group 4" in public(events)
    placing = g.view(state, None)
    assert placing.anchors, "the picture can show where the group may go"
    assert "overlap no tile" in refused(state, 0, "place 0,0 r0")
    state, _ = play(state, 0, "place 4,0 r0")
    geo = board(state.placements)
    assert geo.tile_named("p4a") == (0, 4, 0) and geo.tile_named("f4a") == (1, 4, 0)
    assert state.red == ("expedition",)
    founds = [g.format(a) for a in g.legal(state, 0)]
    assert founds == ["found p4a", "found p4b", "found p4c", "found p4d", "found none"]
    state, _ = play(state, 0, "found p4d")
    assert any(c.tile == (0, 5, 1) and c.owner == 0 for c in state.cities)
    state, _ = play(state, 0, "end")
    assert state.hands[0] == (), "a free city earns no card"
    empty = table(hands=[("expedition",), ()], past_deck=())
    assert "cannot be played now" in refused(empty, 0, "play expedition")


def _burn_table(players: int = 3, hands=None):
    hands = hands or [("burn",), (), ()]
    return table(players=players, at="f1a", hands=hands, cities=cities(("f1a", 1)))


def test_burn_city_waits_for_every_other_player_then_burns():
    state = _burn_table(hands=[("burn",), (), ("defend",)])
    state, events = play(state, 0, "play burn")
    assert g.reaction_open(state)
    assert g.to_play(state) == (1, 2), "holder or not, both others are asked"
    assert "Defend City, or `pass`" in public(events)
    assert [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    assert [g.format(a) for a in g.legal(state, 2)] == ["play defend", "pass"]
    assert "waiting for" in refused(state, 0, "end")
    state, _ = play(state, 2, "pass")
    assert g.to_play(state) == (1,) and owner(state, "f1a") == 1
    state, events = play(state, 1, "pass")
    assert owner(state, "f1a") is None and "burns" in public(events)
    assert state.red == ("burn",) and g.to_play(state) == (0,)


def test_defend_city_negates_the_attack_and_sends_it_to_blue():
    state = _burn_table(hands=[("burn",), ("defend",), ("defend",)])
    state, _ = play(state, 0, "play burn")
    state, _ = play(state, 2, "play defend")
    state, events = play(state, 1, "play defend")
    assert owner(state, "f1a") == 1
    assert "seat1}'s Defend City negates Burn City" in public(events).replace("{", "")
    assert state.blue == ("burn",) and state.red == ("defend",)
    assert state.hands[1] == () and state.hands[2] == ("defend",), "first in turn order wins"


def test_burn_city_only_on_unshielded_soil_forest_or_mountain_where_you_stand():
    sea = table(at="f1d", hands=[("burn",), ()], cities=cities(("f1d", 1)))
    assert "soil, forest or mountain" in refused(sea, 0, "play burn")
    shielded = table(hands=[("burn",), ()], cities=cities(("f1a", 1)), shields=((T("f1a"), 1),))
    assert "cannot be played now" in refused(shielded, 0, "play burn")


def test_hostile_takeover_replaces_a_rival_city_next_to_yours():
    state = table(
        players=2,
        hands=[("takeover",), ()],
        cities=cities(("f1a", 0), ("f1b", 1), ("f3d", 1)),
    )
    assert [g.format(m) for m in g.legal(state, 0) if "takeover f" in g.format(m)] == [
        "play takeover f1b"
    ]
    assert "not a rival city next to" in refused(state, 0, "play takeover f3d")
    state, _ = play(state, 0, "play takeover f1b")
    assert g.to_play(state) == (1,)
    state, events = play(state, 1, "pass")
    assert owner(state, "f1b") == 0 and "takes over" in public(events)
    state, _ = play(state, 0, "end")
    assert state.hands[0] == (), "a takeover earns no card"


def test_remote_construction_builds_next_to_you_in_the_future_and_earns_a_card():
    state = table(at="f1a", hands=[("remote",), ()], deck=("wall",))
    state, _ = play(state, 0, "play remote f1c")
    assert owner(state, "f1c") == 0
    state, _ = play(state, 0, "end")
    assert state.hands[0] == ("wall",)
    past = table(at="p1a", hands=[("remote",), ()])
    assert "in the future" in refused(past, 0, "play remote f1c")


def test_build_atlantis_only_on_past_light_sea():
    state = table(at="p1d", hands=[("atlantis",), ()])
    state, _ = play(state, 0, "play atlantis")
    assert owner(state, "p1d") == 0
    land = table(at="p1a", hands=[("atlantis",), ()])
    assert "light sea" in refused(land, 0, "play atlantis")


def test_standing_army_shields_three_per_player_four_in_all():
    state = table(hands=[("army", "army"), ()], cities=cities(("f1a", 0), ("p1a", 1)))
    state, _ = play(state, 0, "play army f1a")
    assert state.shields == ((T("f1a"), 0),)
    burn = replace(state, turn=1, hands=(state.hands[0], ("burn",)))
    assert "cannot be played now" in refused(burn, 1, "play burn")
    full = table(
        hands=[("army",), ()],
        cities=cities(("f1a", 0), ("f1b", 0)),
        shields=tuple((T(n), 0) for n in ("p1a", "p1b", "p1c")),
    )
    assert "cannot be played now" in refused(full, 0, "play army f1a")


def test_railway_and_wall_cover_three_connected_tiles_and_move_when_none_is_left():
    state = table(hands=[("railway", "wall"), ()])
    options = [g.format(m) for m in g.legal(state, 0) if m.__class__.__name__ == "Play"]
    assert "play railway f1a f1b f1c" in options
    assert "play railway f1a f1b f3d" not in options, "not connected"
    assert "covers 3 connected" in refused(state, 0, "play railway f1a f1b f3d")
    state, _ = play(state, 0, "play wall f2a f2b f2c")
    assert "play railway f2a f2b f2c" not in [g.format(m) for m in g.legal(state, 0)]
    two = table(
        hands=[("railway",), ()],
        railways=((T("f1a"), T("f1b"), T("f1c")), (T("p1a"), T("p1b"), T("p1c"))),
    )
    two, events = play(two, 0, "play railway f3a f3b f3c")
    assert two.railways == ((T("p1a"), T("p1b"), T("p1c")), (T("f3a"), T("f3b"), T("f3c")))
    assert "moves it onto" in public(events)


def test_embassy_brings_up_to_two_players_to_your_city():
    state = table(players=4, hands=[("embassy",), (), (), ()], cities=cities(("p3d", 0)))
    state, _ = play(state, 0, "play embassy p3d seat2 seat4")
    assert state.positions == (T("f1a"), T("p3d"), T("f1a"), T("p3d"))
    assert "Embassy" in refused(
        replace(state, hands=(("embassy",), (), (), ())), 0, "play embassy f1a seat2"
    )


def test_the_enemy_of_my_enemy_gives_a_rival_city_to_a_third_player():
    state = table(players=3, hands=[("enemy",), (), ()], cities=cities(("f3b", 1)))
    state, events = play(state, 0, "play enemy f3b seat3")
    assert owner(state, "f3b") == 2
    assert g.to_play(state) == (0,), "no Defend City window: the card names only two attacks"
    again = table(players=3, hands=[("enemy",), (), ()], cities=cities(("f3b", 1)))
    assert "third player" in refused(again, 0, "play enemy f3b seat2")


def test_metropolis_on_your_turn_doubles_a_crowded_future_city():
    sparse = table(hands=[("metropolis",), ()], cities=cities(("f1a", 0), ("f1b", 1), ("f1c", 1)))
    assert "3 neighbouring" in refused(sparse, 0, "play metropolis f1a")
    busy = table(
        hands=[("metropolis",), ()],
        cities=cities(("f1d", 0), ("f1b", 1), ("f1c", 1), ("f2c", 1)),
    )
    busy, _ = play(busy, 0, "play metropolis f1d")
    assert [c.size for c in busy.cities if c.tile == T("f1d")] == [2]
    assert g.result(busy).scores == (2, 3)


def test_a_metropolis_window_asks_the_owner_whose_city_gets_crowded():
    state = table(
        ap=6,
        at="f1d",
        hands=[(), ("metropolis",)],
        cities=cities(("f1b", 1), ("f1c", 0), ("f2a", 0)),
    )
    state, events = play(state, 0, "build")  # f1d is the third neighbour of seat 1's f1b
    assert g.reaction_open(state) and g.to_play(state) == (1,)
    assert [g.format(a) for a in g.legal(state, 1)] == ["play metropolis f1b", "pass"]
    state, _ = play(state, 1, "play metropolis f1b")
    assert [c.size for c in state.cities if c.tile == T("f1b")] == [2]
    assert g.to_play(state) == (0,)


def test_a_metropolis_window_asks_holders_and_others_alike():
    state = table(at="f1d", ap=6, cities=cities(("f1b", 1), ("f1c", 0), ("f2a", 0)))
    state, _ = play(state, 0, "build")
    assert g.to_play(state) == (1,) and [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    state, _ = play(state, 1, "pass")
    state, _ = play(state, 0, "end")
    assert g.to_play(state) == (1,) and not g.reaction_open(state), "answered: not asked again"


def test_sands_of_time_removes_a_past_build_under_your_future_city():
    state = table(at="p1a", ap=5, hands=[(), ("sands",)], cities=cities(("f1a", 1)))
    state, events = play(state, 0, "build")
    assert g.to_play(state) == (1,) and "Sands of Time, or `pass`" in public(events)
    state, events = play(state, 1, "play sands")
    assert owner(state, "p1a") is None and owner(state, "f1a") == 1
    assert state.red == ("sands",) and g.to_play(state) == (0,)


def test_sands_of_time_window_is_asked_without_the_card_and_pass_keeps_the_city():
    state = table(at="p1a", ap=5, cities=cities(("f1a", 1)))
    state, _ = play(state, 0, "build")
    assert [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    state, _ = play(state, 1, "pass")
    assert owner(state, "p1a") == 0
    own = table(at="p1a", ap=5, cities=cities(("f1a", 0)))
    own, _ = play(own, 0, "build")
    assert not g.reaction_open(own), "nobody to ask above your own future city"


def test_reaction_cards_are_not_played_on_your_own_turn():
    state = table(hands=[("defend", "sands"), ()])
    assert "reaction window" in refused(state, 0, "play defend")
    state, _ = play(state, 0, "ap defend")
    assert state.ap == 3


def test_out_of_city_tokens_you_recall_one_of_your_own():
    mine = [(f"p{g_}{c}", 0) for g_ in (1, 2) for c in "abcd"]
    mine += [("p3a", 0), ("p3b", 0), ("f3a", 0), ("f3b", 0), ("f3c", 0), ("p3c", 0)]
    state = table(at="f3d", ap=9, cities=cities(*mine), shields=((T("f3a"), 0),))
    assert "no city token left" in refused(state, 0, "build")
    moves = [g.format(a) for a in g.legal(state, 0)]
    assert "recall f3a" not in moves, "a shielded city stays"
    state, events = play(state, 0, "recall p1a", "build")
    assert owner(state, "p1a") is None and owner(state, "f3d") == 0
    assert "out of city tokens" in public(events)


# -- turn order, refusals, hidden hands --------------------------------------------------


def test_the_last_player_of_a_round_opens_the_next():
    state = table(players=3, turn=2, deck=())
    state, _ = play(state, 2, "end")
    assert state.first == 2 and state.turn == 2
    state, _ = play(state, 2, "end")
    assert state.turn == 0, "play goes clockwise from the first player"


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


def test_the_public_view_holds_counts_only():
    state = table(hands=[("burn", "defend"), ("sands",)])
    public_view = g.view(state, None)
    assert public_view.hand is None and public_view.hand_counts == (2, 1)
    assert "defend" not in repr(public_view) and "sands" not in repr(public_view)
    assert g.view(state, 0).hand == ("burn", "defend")


def test_resigning_passes_the_turn_and_answers_a_window():
    state = _burn_table(hands=[("burn",), (), ()])
    state, _ = play(state, 0, "play burn")
    state, _ = play(state, 1, "resign")
    assert g.to_play(state) == (2,)
    state, _ = play(state, 2, "pass")
    assert owner(state, "f1a") is None
    state, _ = play(state, 2, "resign")
    assert g.is_over(state) and g.result(state).places[0] == 1


def test_the_help_fits_one_discord_message_and_marks_our_rulings():
    text = g.info.help
    assert len(text) <= 2000
    assert "[P]" in text and "clock=HH:MM" in text and "docs/rules/seven-cities.md" in text


def test_random_play_keeps_every_card_and_city_token_accounted_for():
    """Cards only move between deck, hands, piles and a window; nobody exceeds 14 tokens;
    every hand is down to 2 whenever a turn passes."""
    import random

    for players, seed in ((2, 1), (4, 2), (6, 3)):
        rnd = random.Random(seed)
        state = g.new(players, None, seed)
        deck = sorted(deck_for(players))
        while not g.is_over(state):
            seat = rnd.choice(g.to_play(state))
            turn, stage, round_ = state.turn, state.stage, state.round
            state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
            held = [w.card for w in state.windows if w.card]
            cards = [*state.deck, *state.blue, *state.red, *held]
            assert sorted(cards + [c for h in state.hands for c in h]) == deck
            for s in range(players):
                assert sum(c.size for c in state.cities if c.owner == s) <= 14
            passed = state.turn != turn and state.round == round_ and stage != "start"
            if passed:
                assert len(state.hands[turn]) <= 2, "a turn ends with at most 2 cards"


def test_a_round_opens_with_the_next_player_when_the_first_has_resigned():
    state = g.new(3, {"clock": "12:30"}, 9)
    first = state.first
    state, _ = play(state, first, "resign")
    while state.stage == "start":
        state, _ = play(state, state.turn, g.format(g.legal(state, state.turn)[0]))
    assert state.round == 1 and state.turn != first
    assert g.legal(state, state.turn), "the seat to play has moves"


def test_a_bare_move_with_extra_words_says_so():
    with pytest.raises(IllegalMove, match="where your token stands"):
        g.parse("build f7b")
    with pytest.raises(IllegalMove, match="`end` takes nothing"):
        g.parse("end now")
