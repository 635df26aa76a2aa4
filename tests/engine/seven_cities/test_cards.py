"""The cards' special actions played on your own turn, each by name."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_cities.board import board
from engine.seven_cities.state import PLACE
from tests.engine.seven_cities.conftest import T, cities, g, owner, play, public, refused, table


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


def test_burn_city_only_on_unshielded_soil_forest_or_mountain_where_you_stand():
    sea = table(at="f1d", hands=[("burn",), ()], cities=cities(("f1d", 1)))
    assert "soil, forest or mountain" in refused(sea, 0, "play burn")
    shielded = table(hands=[("burn",), ()], cities=cities(("f1a", 1)), shields=((T("f1a"), 1),))
    assert "cannot be played now" in refused(shielded, 0, "play burn")


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
