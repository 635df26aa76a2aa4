"""Build and recall: terrain costs in both eras, the land card, running out of tokens."""

from __future__ import annotations

from tests.engine.seven_cities.conftest import T, cities, g, owner, play, public, refused, table


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
