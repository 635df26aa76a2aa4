"""The terminal speaks the terminal's syntax: over whole games of every game, leagues, the
daily challenge and every personal command, nothing it prints is written the way only
Discord reads it, and every command it names works there as written."""

from __future__ import annotations

import io
import random
import re
from datetime import UTC, datetime

import pytest

from bot.service import Refused, Service
from bot.store import SQLiteStore
from bot.terminal.commands import HELP
from bot.terminal.session import Console

NOON = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
#: the moves against an AI: random play, chosen so that every game ends (an AI of Seven
#: Cities' may walk to and fro on a railway, free to enter, for ever: a defect of its own)
AI_SEED = 5

#: what only Discord reads, each with what it is
DISCORD = {
    "a mention or timestamp": re.compile(r"<(?:#|@[!&]?|t:|/)[^>\s]*>"),
    "a mark left unwritten": re.compile(r"\{(?:t:|#|&|press:)"),
    "Discord's /game group": re.compile(r"`/game [a-z]"),
    "an option as Discord types it": re.compile(r"`[^`\n]*\b[a-z_]+:[^\s`/][^`\n]*`"),
    "a word as Discord types an option": re.compile(r"(?<![\w/:.])[a-z_]{2,}:(?=[^\s/:])"),
    "a button": re.compile(r"\b(?:click|button)", re.IGNORECASE),
}
#: a refusal that means the terminal did not understand the command as written (a group
#: typed alone, `/daily`, is asked which of its commands: that is understood)
NOT_UNDERSTOOD = re.compile(r"\? Unknown command|has no option|is not an option of|has no '[^']")


async def finish(console: Console, people: list[str], rng: random.Random) -> None:
    """Random legal moves by whichever of ``people`` is awaited, until none is."""
    for _ in range(3000):
        for name in people:
            caller = await console.caller(name)
            try:
                moves = await console.service.play.legal_moves(await console.place(caller), caller)
            except Refused:  # not their turn, or no game of theirs
                continue
            await console.handle(f"{name}: /move {rng.choice(moves)}")
            break
        else:
            return


async def whole_games(console: Console, out: io.StringIO) -> str:
    """Every game played to its end by two people, and again by one against an AI (each
    with moves of its own, so that each ends the same whatever the others do)."""
    for info in console.service.lobby.offered():
        people = ["ada", "bob", "cy"][: max(2, info.min_players)]
        await console.handle(f"ada: /new {info.key} time_per_move=2d")
        for name in people[1:]:
            await console.handle(f"{name}: /join")
        for line in ("ada: /start", "ada: /status", "bob: /hand", "ada: /legal", "bob: /undo"):
            await console.handle(line)
        await finish(console, people, random.Random(f"{info.key} people"))
        for line in ("ada: /history", "ada: /rematch", "ada: /board move=1", "ada: /archive"):
            await console.handle(line)
        await console.handle(f"ada: /new {info.key} ai=1 ai_level=easy")
        await console.handle("ada: /start")
        await finish(console, ["ada"], random.Random(f"{info.key} {AI_SEED}"))
        await console.handle("ada: /archive")
    return out.getvalue()


async def everything_else(console: Console, out: io.StringIO) -> str:
    """A league to its end, the daily challenge, the personal commands, and refusals."""
    start = out.tell()
    for line in (
        "ada: /turns", "ada: /vacation days=2", "ada: /vacation days=0", "ada: /settings",
        "ada: /settings reminders=fortnightly", "ada: /rules skybridge", "ada: /games",
        "ada: /rating", "ada: /leaderboard skybridge", "ada: /extend by=100d", "ada: /undo",
        "ada: /board", "ada: /replace", "ada: /add-ai", "ada: /league create name=Cup",
        'mod: /league create name="Spring Cup" game=skybridge format=round-robin',
        "ada: /league join Spring Cup", 'bob: /league join name="Spring Cup"',
        "ada: /league list", "mod: /league start Spring Cup", "ada: /league standings Spring Cup",
        "ada: /league schedule Spring Cup", "ada: /daily setup", "ada: /league role",
    ):  # fmt: skip
        await console.handle(line)
    await console.handle("cy: /daily play")
    await finish(console, ["ada", "bob", "cy"], random.Random(2))  # the match, the daily game
    for line in (
        "ada: /league results Spring Cup", "ada: /league standings Spring Cup",
        "ada: /league leave Spring Cup", "cy: /daily stats", "cy: /daily leaderboard",
        "cy: /daily play", "ada: /new skybridge time_per_move=1d", "bob: /join", "ada: /start",
        "ada: /extend by=1d", "bob: /replace player=bob by=dee", "ada: /snooze", "ada: /abandon",
    ):  # fmt: skip
        await console.handle(line)
    return out.getvalue()[start:]


@pytest.fixture
async def console(tmp_path):
    store = await SQLiteStore.open(tmp_path / "console.db", clock=lambda: NOON)
    out = io.StringIO()
    yield Console(Service(store, images=False, seed=lambda: 7), tmp_path, out, ["mod"]), out
    await store.close()


async def test_nothing_the_terminal_prints_is_discords_syntax(console):
    console, out = console
    said = await whole_games(console, out) + await everything_else(console, out)
    found = {
        what: sorted({line for line in said.splitlines() if pattern.search(line)})[:3]
        for what, pattern in DISCORD.items()
    }
    assert {what: lines for what, lines in found.items() if lines} == {}
    assert said.count("Game over") >= 10 and "Spring Cup is over" in said, "all was played"
    assert "Daily challenge" in said and "**cy**: 1 daily game" in said


async def test_every_command_the_terminal_names_works_there_as_written(console):
    """Each command the terminal's answers and ``/help`` name, typed as they name it, is
    understood (it may still be refused for what the table holds, as any command is)."""
    console, out = console
    said = HELP + await whole_games(console, out) + await everything_else(console, out)
    named = {span.strip() for span in re.findall(r"`(/[a-z][^`\n]*)`", said)}
    named |= set(re.findall(r"(?<![\w`])(/[a-z][a-z-]*)", HELP))
    assert {"/add-ai", "/join", "/board move=N", '/league join name="Spring Cup"'} <= named
    for command in sorted(named):
        answer = await play(console, out, f"ada: {command}")
        assert not NOT_UNDERSTOOD.search(answer), (command, answer)


async def play(console: Console, out: io.StringIO, line: str) -> str:
    start = out.tell()
    await console.handle(line)
    return out.getvalue()[start:]
