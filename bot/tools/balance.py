"""``python -m bot balance <game>``: which seat wins when one AI level plays itself, option
by option: the balance between seats that play different sides (Bridges and Boats'
attacker and defender).

Built on the arena (``bot.tools.arena``): each row is one arena match of ``--level``
against itself with the row's options, seats alternated, and prints as soon as it is
played, as a row of a Markdown table: how often each seat won with its 95 % interval (Wilson's;
draws count against both), draws, and the mean number of turns. The rows are
the game as written, then each option on its own at each value other than its default
(a number one step either side), unless ``--row "name=value …"`` names the rows
(``--row rulebook`` is the game as written, ``--row singles`` those single options).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import engine
from bot.service.inputs import parse_options
from bot.tools import arena
from engine.core import Game
from engine.options import Choice, Option, Switch, Whole

#: how a row names the game as written, and the rows of every option on its own
RULEBOOK, SINGLES = "rulebook", "singles"
Z95 = 1.959964  # the normal distribution's 97.5th percentile


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % interval of a rate of ``wins`` in ``games`` (Wilson's score interval, which
    stays within 0–1 and is fair near either end)."""
    if games == 0:
        return 0.0, 1.0
    rate, z2 = wins / games, Z95**2
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games**2)) / (1 + z2 / games)
    return max(0.0, round(centre - half, 12)), min(1.0, round(centre + half, 12))


def other_values(option: Option) -> list[str]:
    """The values a bench tries an option at: not its default."""
    if isinstance(option, Switch):
        return [option.write(not option.default)]
    if isinstance(option, Choice):
        return [value for value, _ in option.choices if value != option.default]
    if isinstance(option, Whole):
        near = (option.default - 1, option.default + 1)
        return [str(n) for n in near if option.low <= n <= option.high]
    return []  # a text (a square, a time) has no value worth a row of its own


def rows_of(game: Game, asked: Sequence[str]) -> list[dict[str, str]]:
    """The rows ``asked`` names (none: the rulebook and the single options)."""
    rows: list[dict[str, str]] = []
    for text in asked or (RULEBOOK, SINGLES):
        if text == RULEBOOK:
            rows.append({})
        elif text == SINGLES:
            rows += [{o.name: v} for o in game.info.options for v in other_values(o)]
        else:
            rows.append(parse_options(text))
    return rows


def run(
    key: str,
    rows: Sequence[Mapping[str, str]],
    games: int,
    seed: int,
    level: str = "hard",
    jobs: int = 1,
    emit: Callable[[str], None] = print,
) -> list[dict]:
    """Play every row and emit the table, a row at a time; the arena's lines, for tests."""
    game = engine.get(key)
    for row in rows:  # every row refused before any is played
        arena.checked_options(game, row, 2)
    first = game.seat_label(game.new(2, rows[0] if rows else {}, 0), 0) or "seat 1"
    second = game.seat_label(game.new(2, rows[0] if rows else {}, 0), 1) or "seat 2"
    emit(f"{game.info.name}: `{level}` against itself, {games} games a row, seed {seed}")
    emit(
        f"| options | {first} won | 95 % interval | {second} won | 95 % interval | drawn "
        "| mean turns |"
    )
    emit("|---|---|---|---|---|---|---|")
    lines = []
    for row in rows:
        line = arena.run(
            key, level, level, games, seed, emit=lambda _: None, jobs=jobs, options=row
        )
        won, lost = line["seat_wins"]
        named = " ".join(f"{k}={v}" for k, v in row.items()) or RULEBOOK  # as asked
        emit(
            f"| {named} | {_rate(won, games)} | {_rate(lost, games)} | "
            f"{games - won - lost} | {line['turns']:.1f} |"
        )
        lines.append(line)
    return lines


def _rate(wins: int, games: int) -> str:
    """A seat's share of the games and its 95 % interval, as two cells of the table (draws
    count against both seats, so each needs its own)."""
    low, high = wilson(wins, games)
    return f"{100 * wins / max(1, games):.1f} % | {100 * low:.1f}–{100 * high:.1f} %"
