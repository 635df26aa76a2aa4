"""A game's options, each declared once: its name, the values it takes, what it does.

A game lists its options in ``GameInfo.options``; :meth:`engine.core.Game.new` reads what a
player gave through them, so the game's ``setup`` receives each option as a value of its
kind (a whole number, a bool, a text in its one canonical spelling), the defaults filled
in, and judges only what needs the whole game. Every front end reads the same specs: the
rules page lists them, Discord offers each as a typed slash option (a number with its range,
a switch, a text with suggestions while it is typed) and the terminal reads ``name=value``
through them, so every front end accepts and refuses the same values with the same words.
Nothing here knows Discord.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


class BadOptions(ValueError):
    """Game options that cannot be played, with a sentence saying which and why."""


#: what a refusal quotes of a value, at most: enough to recognise it
QUOTED = 20
#: the words a switch takes, on or off
SWITCH = {"on": True, "yes": True, "true": True, "1": True,
          "off": False, "no": False, "false": False, "0": False}  # fmt: skip
#: a suggestion while a text is typed: (the text it gives, what is shown for it)
Suggestion = tuple[str, str]
#: suggestions worth reading at once: a longer list shows its best (Discord shows 25)
SUGGESTED = 25


def quoted(value: Any) -> str:
    """``value`` as a refusal quotes it: short, whatever was typed."""
    text = str(value)
    return repr(text[:QUOTED] + "…" if len(text) > QUOTED else text)


class Option(ABC):
    """One option of a game. ``summary`` says what it does in a few words (Discord shows
    it after the game's name, within 100 characters); ``note`` adds what only the rules
    page has room for."""

    name: str
    summary: str
    note: str
    default: Any

    @abstractmethod
    def read(self, value: Any) -> Any:
        """``value`` as typed (text: the terminal, a stored game) or as a front end sends
        it (a number, a bool) as the game's value; :class:`BadOptions` naming the option."""

    @abstractmethod
    def values(self) -> str:
        """The values it takes and its default, in words: ``4 to 16 layers (default 12)``."""

    def write(self, value: Any) -> str:
        """A value read by :meth:`read` in its one spelling, as stored and as typed."""
        return str(value)

    def describe(self) -> str:
        """The option for the rules page: what it does, its values, and the note."""
        return f"{self.summary}: {self.values()}" + (f" {self.note}" if self.note else "")


@dataclass(frozen=True)
class Whole(Option):
    """A whole number from ``low`` to ``high``, counted in ``unit``."""

    name: str
    summary: str
    low: int
    high: int
    default: int
    unit: str = ""
    note: str = ""

    def read(self, value: Any) -> int:
        text = str(value).strip()
        if isinstance(value, str) and text.isascii() and text.isdigit() and len(text) <= 6:
            value = int(text)
        number = isinstance(value, int) and not isinstance(value, bool)
        if not number or not self.low <= value <= self.high:
            shown = value if number else quoted(value)
            raise BadOptions(f"{self.name} must be {self.values()}, not {shown}.")
        return value

    def values(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.low} to {self.high}{unit} (default {self.default})"


@dataclass(frozen=True)
class Switch(Option):
    """On or off."""

    name: str
    summary: str
    default: bool = False
    note: str = ""

    def read(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word not in SWITCH:
            raise BadOptions(f"{self.name} is on or off, not {quoted(value)}.")
        return SWITCH[word]

    def values(self) -> str:
        return f"on or off (default {self.write(self.default)})"

    def write(self, value: Any) -> str:
        return "on" if value else "off"


@dataclass(frozen=True)
class Text(Option):
    """A text the game reads itself (a square, a time): ``check`` gives its canonical
    spelling or raises :class:`BadOptions`, and ``suggest`` lists the values that fit what
    is typed so far, best first, so nobody has to know the notation. ``default`` is
    ``None`` when the game decides for itself; ``default_text`` says what happens then."""

    name: str
    summary: str
    example: str
    check: Callable[[str], str]
    suggest: Callable[[str], Sequence[Suggestion]]
    default_text: str
    default: str | None = None
    note: str = ""

    def read(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise BadOptions(f"{self.name} is a text such as {self.example}, not {quoted(value)}.")
        return self.check(value.strip())

    def values(self) -> str:
        return f"e.g. {self.example} (default: {self.default_text})"


@dataclass(frozen=True)
class Choice(Option):
    """One of a few named values (Discord offers them as a list to pick from). A value may
    be a preset: choosing it sets other options too (``presets``: value -> {option name:
    value as typed}), each unless given itself, so a table can pick a whole variant in one
    option and still change one of its rules.

    A preset is written out when a game is opened (``Game.written_options``): the game
    stores every option the preset set, so retuning a preset never changes a game already
    stored. Games stored before presets were written out hold the word alone; ``formerly``
    keeps what the word meant to them (value -> {option name: value as typed}), and
    reading stored options fills in from it (``Game.read_options``)."""

    name: str
    summary: str
    choices: tuple[tuple[str, str], ...]  # (value, what it means), the default among them
    default: str
    note: str = ""
    presets: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    formerly: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def read(self, value: Any) -> str:
        word = str(value).strip().lower() if isinstance(value, str) else None
        if word not in {v for v, _ in self.choices}:
            raise BadOptions(f"{self.name} is {self._listed()}, not {quoted(value)}.")
        return word

    def values(self) -> str:
        return f"{self._listed()} (default {self.default})"

    def preset(self, value: str) -> dict[str, str]:
        """The other options ``value`` sets in a game opened now (none for a plain value)."""
        return dict(dict(self.presets).get(value, ()))

    def former(self, value: str) -> dict[str, str]:
        """The other options ``value`` set in a game stored with the word alone."""
        return dict(dict(self.formerly).get(value, ()))

    def _listed(self) -> str:
        names = [v for v, _ in self.choices]
        return ", ".join(names[:-1]) + f" or {names[-1]}"
