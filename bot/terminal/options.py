"""How the terminal reads a command's options: bare words and ``name=value`` pairs, with
Discord's own option names, so a line reads like the slash command it stands for."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TypedDict

from bot.domain.clocks import Clocks
from bot.service import Refused
from bot.service.inputs import (
    LEAGUE_MOVE_TIME,
    ROUND_TIME,
    VACATION,
    parse_clocks,
    parse_hours,
    parse_options,
    parse_whole,
)
from bot.service.seats import DEFAULT_LEVEL
from engine.options import BadOptions, Switch

#: ``/new``'s own options; every other name=value is the game's (see ``/rules <game>``)
CLOCK_OPTIONS = ("time_per_move", "at_deadline", "remind_every", "rated", "reaction_window")
AI_OPTIONS = ("ai", "ai_level")
#: ``/settings``' options, as on Discord, and those of them that are whole hours
SETTINGS = (
    "notify", "timezone", "quiet_start", "quiet_end", "quiet", "reminders", "digest_hour",
    "heads_up",
)  # fmt: skip
SETTINGS_HOURS = ("quiet_start", "quiet_end", "digest_hour")


def tokens(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:  # an unclosed quote
        raise Refused(f"Could not read '{text[:40]}': {exc}.") from None


def named(
    command: str, text: str, allowed: Sequence[str], positional: Sequence[str] = ()
) -> dict[str, str]:
    """``bob game=skybridge`` as options: bare words fill ``positional`` in order, and
    every name=value must be one of ``allowed`` (the command's Discord options)."""
    values: dict[str, str] = {}
    free = list(positional)
    for token in tokens(text):
        name, equals, value = token.partition("=")
        if equals and name.lower() in allowed:
            values[name.lower()] = value
        elif equals:
            raise Refused(
                f"/{command} has no option '{name[:30]}'; its options: {', '.join(allowed)}."
            )
        elif free:
            values[free.pop(0)] = token
        else:
            raise Refused(f"'{token[:30]}' is not an option of /{command}: write name=value.")
    return values


def game_and_options(text: str, default: str | None = None) -> tuple[str, dict[str, str]]:
    """``seven-bridges start=ii-2-3`` as the game's key and its options, as Discord has
    them (``game=seven-bridges`` too); a first word with ``=`` in it is already an option,
    of the ``default`` game. The game's spec reads each value (``engine.options``)."""
    first, _, rest = text.strip().partition(" ")
    if "=" not in first and first:
        text, default = rest, first
    options = parse_options(" ".join(tokens(text))) if text.strip() else {}
    game = options.pop("game", default)
    if game is None:
        raise Refused("Name the game first, e.g. `/new skybridge`; `/games` lists them.")
    return game, options


def bare_or_named(name: str, text: str) -> str:
    """A command's one option, typed bare or as ``name=value``."""
    prefix = f"{name}="
    return text[len(prefix) :].strip() if text.lower().startswith(prefix) else text


def switch(name: str, value: str) -> bool:
    """An on/off option of a command, read as a game's switch is."""
    try:
        return Switch(name, name).read(value)
    except BadOptions as exc:
        raise Refused(str(exc)) from None


def clocks_of(options: dict[str, str]) -> tuple[Clocks, bool]:
    """Take ``/new``'s own options out of ``options``: its clocks, and whether it is rated."""
    given = {k: options.pop(k) for k in CLOCK_OPTIONS if k in options}
    clocks = parse_clocks(
        given.get("time_per_move"),
        given.get("at_deadline"),
        given.get("remind_every"),
        given.get("reaction_window"),
    )
    return clocks, switch("rated", given["rated"]) if "rated" in given else True


def ai_of(options: dict[str, str]) -> tuple[int, str]:
    """Take ``/new``'s AI options out of ``options``: how many AI players, at what level
    (the service checks both against the game)."""
    given = {k: options.pop(k) for k in AI_OPTIONS if k in options}
    count = parse_whole(given["ai"], "ai", (0, 99)) if "ai" in given else 0
    return count, given.get("ai_level", DEFAULT_LEVEL)


def number(name: str, value: str | None) -> int | None:
    """An option typed as a whole number (the service checks its range for the option)."""
    return None if value is None else parse_whole(value, name, (0, 10**9))


def vacation_days(text: str) -> float:
    """``3`` (days, as Discord's ``days`` option), ``3d`` or ``1d 12h``."""
    if text.strip() in ("", "0"):
        return 0.0
    return parse_hours(text, VACATION, bare=24.0) / 24


def settings_changes(text: str) -> tuple[bool, dict[str, object]]:
    """``/settings notify=dm quiet=off heads_up=on ...`` as the service takes it: whether
    ``quiet=off`` was said (its ``quiet_off``), and the changes, hours as whole numbers
    and ``heads_up`` on or off."""
    given = named("settings", text, SETTINGS)
    quiet = given.pop("quiet", None)
    if quiet is not None and quiet.lower() != "off":
        raise Refused(f"Option quiet can only be off, not '{quiet[:20]}'.")
    changes: dict[str, object] = {h: number(h, given.pop(h, None)) for h in SETTINGS_HOURS}
    if "heads_up" in given:
        changes["heads_up"] = switch("heads_up", given.pop("heads_up"))
    return quiet is not None, {**given, **changes}


class LeagueOptions(TypedDict, total=False):
    """The options of ``/league create`` beside its name, game and format, as
    :meth:`~bot.service.leagues.Leagues.create` takes them (one left out: its default)."""

    table_size: int
    rounds: int | None
    points: str | None
    round_hours: float
    move_hours: float | None
    starts: str | None
    bye: int | None


def league_options(text: str) -> tuple[str, str, str, LeagueOptions]:
    """``/league create name="Spring Cup" game=skybridge format=round-robin ...`` as the
    organiser takes it: its name, game and format, and its options: numbers as numbers,
    times as hours, two seats a table unless said."""
    allowed = (
        "name", "game", "format", "table_size", "rounds", "points", "round_time", "move_time",
        "starts", "bye",
    )  # fmt: skip
    given = named("league create", text, allowed)
    missing = [k for k in ("name", "game", "format") if k not in given]
    if missing:
        raise Refused(
            f"/league create needs {', '.join(missing)}, e.g. `/league create "
            'name="Spring Cup" game=skybridge format=round-robin`.'
        )
    size = number("table_size", given.get("table_size"))
    options: LeagueOptions = {
        "table_size": 2 if size is None else size,
        "rounds": number("rounds", given.get("rounds")),
        "bye": number("bye", given.get("bye")),
    }
    if "points" in given:
        options["points"] = given["points"]
    if "starts" in given:
        options["starts"] = given["starts"]
    if "round_time" in given:
        options["round_hours"] = parse_hours(given["round_time"], ROUND_TIME)
    if "move_time" in given:
        options["move_hours"] = parse_hours(given["move_time"], LEAGUE_MOVE_TIME)
    return given["name"], given["game"], given["format"], options
