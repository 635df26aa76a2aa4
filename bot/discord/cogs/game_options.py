"""Each game's options as typed slash options, so a phone user picks values, never types
``name=value``: a whole number with Discord's own min and max, a switch (true/false), one of
a few named values picked from a list, and a text (a square, a time) with suggestions while
it is typed.

They come from the engine's specs (``engine.options``), one slash option per option name,
its description naming the game it belongs to ("Bridge Wars: the rods' height, 4 to 16
layers (default 12)"). Discord cannot show an option only once a game is chosen, so a
command offers the options of every game it opens; one given for another game than the
chosen one is refused by the service, naming both games, before anything is stored, and its
suggestions already say so while it is typed.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord
from discord import app_commands

import engine
from bot.discord.cogs.options import CHOICE_TEXT, CHOICES
from engine.core import BadOptions, Game
from engine.options import Choice, Option, Switch, Text, Whole

#: what the refusal shown among the suggestions starts with
REFUSED = "✗ "


def suggestions(name: str, game_key: str | None, typed: str) -> list[tuple[str, str]]:
    """(what to show, the value it gives) while ``typed`` is typed into option ``name`` of
    the chosen game (None: not chosen yet): the values that fit, or why none can."""
    game = engine.GAMES.get(game_key or "")
    owners = [g for g in engine.GAMES.values() if g.info.option(name) is not None]
    text = typed.strip()
    try:
        if game is not None:
            engine.check_option_owners(game, [name])
        option = (game or owners[0]).info.option(name)
        assert isinstance(option, Text), "only a text option is suggested"
        found = [(label, value) for value, label in option.suggest(text)]
        if not found:
            option.read(text)  # says why nothing fits, or it fits though none is suggested
            found = [(text, text)]
    except BadOptions as exc:
        return [(f"{REFUSED}{exc}"[:CHOICE_TEXT], text[:CHOICE_TEXT] or name)]
    fitting = [(label[:CHOICE_TEXT], value) for label, value in found if len(value) <= CHOICE_TEXT]
    return fitting[:CHOICES]


class _Typed(app_commands.Transformer):
    """One game option as Discord types it; the value goes to the service as sent, where
    the game's spec reads it like any other (the terminal's text, a stored game's)."""

    def __init__(self, option: Option) -> None:
        self.option = option

    @property
    def type(self) -> discord.AppCommandOptionType:
        if isinstance(self.option, Whole):
            return discord.AppCommandOptionType.integer
        if isinstance(self.option, Switch):
            return discord.AppCommandOptionType.boolean
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int | None:
        return self.option.low if isinstance(self.option, Whole) else None

    @property
    def max_value(self) -> int | None:
        return self.option.high if isinstance(self.option, Whole) else None

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]] | None:
        """A ``Choice`` option's values, each with what it means, as Discord lists them
        (typed as discord.py's ``Transformer`` declares them: any value kind)."""
        if not isinstance(self.option, Choice):
            return None
        listed: list[app_commands.Choice[int | float | str]] = [
            app_commands.Choice(name=f"{value}: {meaning}"[:CHOICE_TEXT], value=value)
            for value, meaning in self.option.choices
        ]
        return listed

    async def transform(self, interaction: discord.Interaction, value: Any) -> Any:
        return value


class _Suggested(_Typed):
    """A text option: Discord asks for suggestions while it is typed (discord.py turns on
    ``autocomplete`` for a transformer that has its own)."""

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str
    ) -> list[app_commands.Choice[int | float | str]]:
        # a text option: what is typed so far is text
        found = suggestions(self.option.name, interaction.namespace.game, str(value))
        return [app_commands.Choice(name=label, value=given) for label, given in found]


def _options_of(games: Iterable[Game]) -> dict[str, tuple[Option, list[str]]]:
    """Each option name of ``games``, its spec and the names of the games that have it."""
    found: dict[str, tuple[Option, list[str]]] = {}
    for game in games:
        for option in game.info.options:
            spec, owners = found.setdefault(option.name, (option, []))
            if spec != option:  # one slash option cannot take two kinds of value
                raise TypeError(f"two games have an option {option.name}, not alike")
            owners.append(game.info.name)
    return found


def game_options(games: Iterable[Game]) -> Callable[[Callable], Callable]:
    """Put one typed slash option per option of ``games`` where the command's callback has
    its ``options`` parameter; the callback gets the ones given as that one dict.

    discord.py builds a command from its callback's signature, so the callback Discord
    sees has the original's parameters (their annotations resolved where they were
    written) with ``options`` replaced by the game options, each optional."""
    offered = _options_of(games)

    def decorate(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        signature = inspect.signature(func, eval_str=True)
        names = list(signature.parameters)
        at = names.index("options")
        before = [signature.parameters[n] for n in names[:at]]
        after = [signature.parameters[n] for n in names[at + 1 :]]
        typed = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=(_Suggested if isinstance(spec, Text) else _Typed)(spec),
            )
            for name, (spec, _) in offered.items()
        ]

        @functools.wraps(func)
        async def callback(self: Any, interaction: discord.Interaction, **values: Any) -> None:
            given = {name: values.pop(name) for name in offered if name in values}
            options = {name: value for name, value in given.items() if value is not None}
            await func(self, interaction, options=options, **values)

        # Discord lists the options in this order, the game's own right after the game
        keyword_only = [p.replace(kind=p.KEYWORD_ONLY) for p in after]
        callback.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*before, *typed, *keyword_only]
        )
        described = dict(getattr(func, "__discord_app_commands_param_description__", {}))
        for name, (spec, owners) in offered.items():
            described[name] = f"{', '.join(owners)}: {spec.summary}, {spec.values()}"
        callback.__discord_app_commands_param_description__ = described  # type: ignore[attr-defined]
        return callback

    return decorate
