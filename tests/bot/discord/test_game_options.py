"""Layer 2: each game's options as typed slash options (bot/discord/cogs/game_options.py).

What a phone user notices: ``/game new`` and ``/solo`` offer every game option as its own
field — a number Discord keeps within its range, a true/false switch, a text with
suggestions while it is typed — each saying which game it belongs to; an option of another
game than the one chosen, or a value the game refuses, is refused privately, naming the
option and the game, before anything is stored; and a game opened so has those options.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

import engine
from bot.discord.cogs.game_options import game_options
from bot.service import Refused
from engine.core import BadOptions
from engine.options import Choice, Switch, Text, Whole
from engine.seven_bridges.board import parse_square
from engine.skybridge import Skybridge
from tests.bot.discord.discord_harness import CHANNEL_ID, DM_CHANNEL_ID, Harness
from tests.bot.discord.discord_limits import CHOICES, COMMAND_OPTIONS, DESCRIPTION
from tests.bot.discord.test_commands import ADA, BOB, assert_refused
from tests.conftest import TABLE

#: what each kind of option is on Discord: its type, and whether it is autocompleted
DISCORD_KIND = {Whole: (4, False), Switch: (5, False), Text: (3, True), Choice: (3, False)}


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def synced_options(h: Harness, *path: str) -> dict[str, dict]:
    """The options of a synced command (``game new``) as Discord received them, by name."""
    node = next(c for c in h.commands if c["name"] == path[0])
    for name in path[1:]:
        node = next(o for o in node["options"] if o["name"] == name and o["type"] == 1)
    return {o["name"]: o for o in node["options"]}


def expected(games: list[engine.Game]) -> dict[str, tuple[engine.Game, object]]:
    return {o.name: (g, o) for g in games for o in g.info.options}


@pytest.mark.parametrize(
    ("path", "games"),
    [
        (("game", "new"), list(engine.GAMES.values())),
        (("solo",), [g for g in engine.GAMES.values() if g.info.min_players == 1]),
    ],
)
async def test_every_game_option_is_a_typed_slash_option_named_for_its_game(h, path, games):
    offered = synced_options(h, *path)
    assert "options" not in offered, "no free-text name=value field is left on Discord"
    assert len(offered) <= COMMAND_OPTIONS
    own = expected(games)
    assert own, "the command offers game options"
    assert list(offered)[1 : 1 + len(own)] == list(own), "right after the game"
    for name, (game, option) in own.items():
        sent = offered[name]  # e.g. "Bridge Wars: the rods' height, 4 to 16 layers (default 12)"
        kind, autocompleted = DISCORD_KIND[type(option)]
        assert sent["type"] == kind and not sent.get("required"), sent
        assert bool(sent.get("autocomplete")) == autocompleted, sent
        if isinstance(option, Choice):  # picked from a list, each value saying what it does
            values = [(c["value"], c["name"]) for c in sent["choices"]]
            assert values == [(v, f"{v}: {meaning}") for v, meaning in option.choices]
        else:
            assert not sent.get("choices"), "a set too large for choices is autocompleted"
        assert sent["description"].startswith(f"{game.info.name}: {option.summary}")
        assert len(sent["description"]) <= DESCRIPTION
        if isinstance(option, Whole):
            assert (sent["min_value"], sent["max_value"]) == (option.low, option.high)
    assert offered["start"]["description"] == (
        "Seven Bridges: the starting square, e.g. ii-2-3 (default: rolled with the dice)"
    )


async def test_starting_squares_are_suggested_filtered_by_what_is_typed(h):
    async def shown(typed, *path, **chosen):
        reply = await h.autocomplete(path[0], "start", typed, *path[1:], user=ADA, **chosen)
        return [(c["name"], c["value"]) for c in reply.choices]

    row = await shown("ii-2", "game", "new", game="seven-bridges")
    assert [v for _, v in row] == ["ii-2-1", "ii-2-2", "ii-2-3", "ii-2-4", "ii-2-5"]
    assert ("ii-2-3 · solo level 3", "ii-2-3") in row, "each with what it is worth alone"
    everything = await shown("", "solo")
    assert len(everything) == CHOICES and everything[0] == ("roll · rolled with the dice", "roll")
    assert await shown("r2c9", "solo") == [("ii-2-3 · solo level 3", "ii-2-3")]
    easy = await shown("level 1", "solo", game="seven-bridges")
    assert easy and all(name.endswith("solo level 1") for name, _ in easy)
    (water,) = await shown("r7c1", "game", "new", game="seven-bridges")
    assert water[0].startswith("✗ start iii-1-1 is water"), water
    (elsewhere,) = await shown("ii", "game", "new", game="skybridge")
    assert elsewhere[0] == "✗ start is a Seven Bridges option; Skybridge has no options."
    assert await h.store.count_games() == 0, "suggesting opens nothing"


async def test_a_start_time_is_suggested_by_the_hour_then_by_five_minutes(h):
    async def shown(typed):
        reply = await h.autocomplete("game", "clock", typed, "new", game="seven-cities", user=ADA)
        return reply.choice_values

    assert await shown("") == [f"{hour:02d}:00" for hour in range(24)]
    assert await shown("19") == [f"19:{m:02d}" for m in range(0, 60, 5)]
    assert await shown("9:07") == ["09:07"]
    clock = await h.autocomplete("game", "clock", "25", "new", game="seven-cities", user=ADA)
    (wrong,) = clock.choices
    assert wrong["name"].startswith("✗ clock is the time the game starts, as HH:MM")


@pytest.mark.parametrize(
    ("chosen", "given", "refusal"),
    [
        ("skybridge", {"height": 8}, "height is a Bridge Wars option; Skybridge has no options."),
        (
            "bridge-wars",
            {"start": "ii-2-3", "height": 8},
            "start is a Seven Bridges option; Bridge Wars has one option, height.",
        ),
        (
            "seven-cities",
            {"clock": "25:99"},
            "Battle for Seven Cities: clock is the time the game starts, as HH:MM (e.g. 19:05), "
            "not '25:99'.",
        ),
        ("seven-bridges", {"start": "ii-3-4"}, "Seven Bridges: start ii-3-4 is water"),
    ],
)
async def test_a_wrong_option_is_refused_privately_before_anything_is_stored(
    h, chosen, given, refusal
):
    assert_refused(await h.slash("game", "new", game=chosen, user=ADA, **given), refusal)
    assert await h.store.count_games() == 0


async def test_discord_itself_keeps_a_number_within_its_range(h):
    """The client cannot send height 40 (min 4, max 16), and the harness, like it, refuses;
    a value out of range reaches the bot only from the terminal (test_console)."""
    with pytest.raises(AssertionError, match="Discord sends no 40 as height"):
        h._options(h._command("game"), ["new"], {"game": "bridge-wars", "height": 40}, None)


async def test_a_game_opened_with_typed_options_has_them(h):
    opened = await h.slash("game", "new", game="bridge-wars", height=8, user=ADA)
    assert "**Bridge Wars** (2–4 players; height 8)." in opened.one.text, "whoever joins sees"
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    row = await h.store.latest_game(CHANNEL_ID)
    assert row.options == {"height": "8"}
    assert engine.get("bridge-wars").from_json(row.state).height == 8

    await h.slash("solo", start="r2c9", advanced=True, user=ADA, channel=DM_CHANNEL_ID)
    solo = await h.store.latest_game(DM_CHANNEL_ID)
    assert solo.options == {"start": "ii-2-3", "advanced": "on"}, "each in its one spelling"
    state = engine.get("seven-bridges").from_json(solo.state)
    assert state.advanced and state.start == parse_square("ii-2-3")


async def test_the_rules_page_lists_the_options_where_they_are_given(h):
    for key in engine.GAMES:
        page = (await h.slash("game", "rules", game=key, user=ADA)).text
        assert "options:" not in page and "name=value" not in page, "no free text to type"
    page = (await h.slash("game", "rules", game="bridge-wars", user=ADA)).text
    assert f"**Options** (in {h.mention('game new')}):" in page
    assert "• `height`: the rods' height: 4 to 16 layers (default 12) [P]" in page


class Walls(Skybridge):
    """A game whose two options may each be fine but not together, as a rule might say."""

    info = replace(
        Skybridge.info,
        key="walls",
        name="Walls",
        options=(Whole("width", "the width", 2, 9, 3), Whole("depth", "the depth", 2, 9, 3)),
    )

    def setup(self, players, options, seed):
        if options["width"] * options["depth"] > 24:
            raise BadOptions("width × depth must be at most 24 squares.")
        return super().setup(players, options, seed)


async def test_options_a_game_cannot_play_together_are_refused_before_anything_is_stored(
    service, monkeypatch
):
    """No game of ours refuses a combination yet; the game's ``setup`` judges one, and the
    service asks it before it stores the game, for Discord and the terminal alike."""
    monkeypatch.setitem(engine.GAMES, "walls", Walls())
    with pytest.raises(Refused, match="width × depth must be at most 24 squares"):
        await service.lobby.create(TABLE, ADA, "walls", {"width": 5, "depth": 5})
    with pytest.raises(Refused, match="width is a Walls option; Skybridge has no options"):
        await service.lobby.create(TABLE, ADA, "skybridge", {"width": 5})
    assert await service.store.count_games() == 0
    await service.lobby.create(TABLE, ADA, "walls", {"width": 4, "depth": "6"})
    assert (await service.store.live_game(TABLE.channel_id)).options == {"width": "4", "depth": "6"}


def test_two_games_may_not_give_one_option_name_two_meanings():
    """One slash option takes one kind of value: a second game's ``width`` of another kind
    is a mistake caught when the command is built, not a field that misleads."""
    other = SimpleNamespace(info=replace(Walls.info, name="Other", options=(Switch("width", "w"),)))
    with pytest.raises(TypeError, match="two games have an option width, not alike"):
        game_options([Walls(), other])
