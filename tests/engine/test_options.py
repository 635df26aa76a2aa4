"""Game options (engine/options.py): each read once through its spec, whoever typed it.

What a player notices: the same value typed as text in the terminal, stored in an old game
or sent as a number or a switch by Discord opens the same game; a wrong value is refused
in a sentence naming the option and the game; an option of another game says which game
has it; and the suggestions offered while a text is typed are values the game accepts.
"""

from __future__ import annotations

import pytest

import engine
from engine.core import BadOptions
from engine.options import Switch, Text, Whole
from engine.seven_bridges.board import CITY, parse_square

SEVEN_BRIDGES, BRIDGE_WARS = engine.get("seven-bridges"), engine.get("bridge-wars")
SEVEN_CITIES, SKYBRIDGE = engine.get("seven-cities"), engine.get("skybridge")
HEIGHTS = "height must be 4 to 16 layers (default 12)"


def test_a_value_typed_as_text_or_sent_typed_opens_the_same_game():
    assert BRIDGE_WARS.new(2, {"height": "8"}, 1) == BRIDGE_WARS.new(2, {"height": 8}, 1)
    assert BRIDGE_WARS.new(2, {"height": 8}, 1).height == 8
    on = SEVEN_BRIDGES.new(2, {"advanced": True, "start": "r2c9"}, 1)
    assert on == SEVEN_BRIDGES.new(2, {"advanced": "on", "start": "ii-2-3"}, 1)
    assert on.advanced and not SEVEN_BRIDGES.new(2, {"advanced": False}, 1).advanced
    assert SEVEN_CITIES.new(3, {"clock": "9:05"}, 4) == SEVEN_CITIES.new(3, {"clock": "09:05"}, 4)


def test_the_game_setup_gets_every_option_read_and_the_defaults_filled_in():
    assert BRIDGE_WARS.read_options(None) == {"height": 12}
    assert BRIDGE_WARS.read_options({"height": " 8 "}) == {"height": 8}
    assert SEVEN_BRIDGES.read_options({"advanced": "yes"}) == {"start": "roll", "advanced": True}
    assert SEVEN_CITIES.read_options({}) == {"clock": None}
    assert SKYBRIDGE.read_options(None) == {}


def test_what_is_stored_is_each_option_given_in_its_one_spelling():
    assert SEVEN_BRIDGES.written_options({"start": "R2C9", "advanced": True}) == {
        "start": "ii-2-3",
        "advanced": "on",
    }
    assert BRIDGE_WARS.written_options({"height": 8}) == {"height": "8"}
    assert SEVEN_CITIES.written_options({"clock": "7:30"}) == {"clock": "07:30"}
    assert SEVEN_BRIDGES.written_options({}) == {}, "a default is not written down"


@pytest.mark.parametrize(
    ("game", "options", "refusal"),
    [
        (BRIDGE_WARS, {"height": 40}, f"Bridge Wars: {HEIGHTS}, not 40."),
        (BRIDGE_WARS, {"height": "tall"}, f"Bridge Wars: {HEIGHTS}, not 'tall'."),
        (BRIDGE_WARS, {"height": True}, "not 'True'"),
        (BRIDGE_WARS, {"height": "9" * 5000}, "not '99999999999999999999…'"),
        (SEVEN_BRIDGES, {"advanced": "maybe"}, "Seven Bridges: advanced is on or off, not 'maybe'"),
        (SEVEN_BRIDGES, {"start": "zz9"}, "Seven Bridges: start 'zz9' is not a square"),
        (SEVEN_BRIDGES, {"start": "r7c1"}, "start iii-1-1 is water: the game starts on a square"),
        (SEVEN_BRIDGES, {"start": 7}, "start is a text such as ii-2-3, not '7'."),
        (SEVEN_CITIES, {"clock": "25:99"}, "Battle for Seven Cities: clock is the time the game"),
        (SKYBRIDGE, {"height": 8}, "Skybridge has no options (got height)."),
        (BRIDGE_WARS, {"colour": "red"}, "Bridge Wars has no option colour (its options: height)."),
    ],
)  # fmt: skip
def test_a_value_its_option_refuses_is_named_with_the_game(game, options, refusal):
    with pytest.raises(BadOptions) as refused:
        game.new(game.info.min_players, options, 1)
    assert refusal in str(refused.value)


def test_an_option_of_another_game_names_the_game_it_belongs_to():
    def refusal(game, *names):
        with pytest.raises(BadOptions) as refused:
            engine.check_option_owners(game, names)
        return str(refused.value)

    assert refusal(SKYBRIDGE, "height") == (
        "height is a Bridge Wars option; Skybridge has no options."
    )
    assert refusal(SEVEN_BRIDGES, "start", "clock") == (
        "clock is a Battle for Seven Cities option; "
        "Seven Bridges has the options start and advanced."
    )
    assert refusal(BRIDGE_WARS, "start") == (
        "start is a Seven Bridges option; Bridge Wars has one option, height."
    )
    engine.check_option_owners(SEVEN_BRIDGES, ["start", "advanced", "colour"])  # colour: new's


def test_every_starting_square_suggested_is_one_the_game_starts_on():
    every = SEVEN_BRIDGES.info.option("start").suggest("")
    squares = [value for value, _ in every if value != "roll"]
    assert len(squares) == sum(1 for arms in CITY.arms if arms) == 110
    for value, label in every:
        SEVEN_BRIDGES.new(1, {"start": value}, 1)
        assert label.startswith(value)
    assert [v for v, _ in every[:3]] == ["roll", "i-1-1", "i-1-2"], "the rulebook's order"
    levels = dict(every)
    assert levels["ii-2-3"] == "ii-2-3 · solo level 3"
    assert levels["i-1-2"] == "i-1-2 · landmark K · solo level 1", "starting there gives a bonus"


def test_starting_squares_are_filtered_by_what_is_typed():
    def suggested(typed):
        return [value for value, _ in SEVEN_BRIDGES.info.option("start").suggest(typed)]

    assert suggested("ii-2") == ["ii-2-1", "ii-2-2", "ii-2-3", "ii-2-4", "ii-2-5"], "ii-2-6: water"
    assert suggested("r2c9") == ["ii-2-3"] == suggested("II23"), "a square however written"
    assert all(CITY.solo_levels[parse_square(v)] == 9 for v in suggested("level 9"))
    assert suggested("ro") == ["roll"]
    assert suggested("r7c1") == [] and suggested("zz") == [], "water, nonsense: nothing fits"


def test_times_are_suggested_by_the_hour_then_by_five_minutes():
    def suggested(typed):
        return [value for value, _ in SEVEN_CITIES.info.option("clock").suggest(typed)]

    assert suggested("") == [f"{h:02d}:00" for h in range(24)]
    assert suggested("19") == [f"19:{m:02d}" for m in range(0, 60, 5)]
    assert suggested("7")[:2] == ["07:00", "07:05"]
    assert suggested("19:32") == ["19:32"] and suggested("9:05") == ["09:05"]
    assert suggested("25") == []


def test_each_kind_says_its_values_for_the_rules_page():
    assert Whole("n", "a number", 1, 3, 2).describe() == "a number: 1 to 3 (default 2)"
    assert Switch("s", "a switch", note="[P]").describe() == "a switch: on or off (default off) [P]"
    start = SEVEN_BRIDGES.info.option("start")
    assert isinstance(start, Text)
    assert start.describe() == "the starting square: e.g. ii-2-3 (default: rolled with the dice)"
