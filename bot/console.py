"""``python -m bot console``: play any game in a terminal, through the same service.

Every input line is ``<user>: /<command> <args>`` — several people can share one
keyboard (hot seat), and a file of such lines piped to standard input replays a game.
Board images are written to a folder and their paths printed.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

from bot.service import (
    Caller,
    Refused,
    Reply,
    Service,
    Table,
    parse_hours,
    parse_options,
    player_count,
)
from bot.store import CannotSave

LINE = re.compile(r"\s*(?P<user>[^:/\s][^:]*?)\s*:\s*/(?P<command>[a-z]+)\b\s*(?P<args>.*)")
TABLE = Table(channel_id=1, guild_id=1)  # a server of its own: players share the keyboard
HELP = """\
Lines look like  <user>: /<command> <args>   (several users can take turns at one keyboard)
  ada: /new skybridge      open a game        bob: /join       take a seat
  ada: /new seven-bridges start=ii-2-3  a game with options (see /rules <game>)
  ada: /solo               Seven Bridges alone against Euler, started at once
  ada: /start              start it           ada: /legal      list your legal moves
  ada: /move red tall b2   play a move        ada: /board      draw the board
  /board [N] (after move N)  /hand (what only you see)  /status  /history  /undo
  /resign  /leave  /abandon  /snooze  /vacation <days, e.g. 3d>
  /turns  /rating [user]  /leaderboard <game>  /games  /rules <game>  /help
Lines starting with # are comments. End with Ctrl-D."""


def _game_and_options(text: str) -> tuple[str, dict[str, str] | None]:
    """``seven-bridges start=ii-2-3`` as the game's key and its options."""
    game, _, options = text.strip().partition(" ")
    return game, parse_options(options) if options.strip() else None


def _move_number(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit():
        raise Refused(f"'{text[:20]}' is not a move number; see /history.")
    return int(text)


class Console:
    def __init__(self, service: Service, images: Path, out: TextIO = sys.stdout) -> None:
        self.service = service
        self.images = images
        self.out = out
        self.users: dict[str, Caller] = {}
        self.drawn = 0  # images written, numbering the files in the order they were shown
        self.refused = 0  # lines refused or not understood: a replayed script went wrong

    def caller(self, name: str) -> Caller:
        key = name.lower()
        if key not in self.users:
            self.users[key] = Caller(user_id=len(self.users) + 1, name=name)
        return self.users[key]

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def handle(self, line: str) -> None:
        if not line.strip() or line.lstrip().startswith("#"):
            return
        if line.strip() in ("/help", "help"):
            self.say(HELP)
            return
        m = LINE.fullmatch(line.rstrip("\n"))
        if not m:
            self.refused += 1
            self.say("? Write '<user>: /<command> <args>', e.g. 'ada: /move red tall b2'. /help")
            return
        caller, command, args = self.caller(m["user"]), m["command"], m["args"].strip()
        if command == "game":  # the bot's replies say `/game join`: the same words work here
            command, _, args = args.partition(" ")
            args = args.strip()
        if command == "help":
            self.say(HELP)
            return
        action = self._commands(caller, args).get(command)
        if action is None:
            self.refused += 1
            self.say(f"? Unknown command /{command}. /help lists them.")
            return
        try:
            reply = await action()
        except (Refused, CannotSave) as exc:  # a full disk is told like any refusal
            self.refused += 1
            self.say(f"  (only {caller.name} sees this) {exc}")
            return
        self.show(caller, reply)

    def _commands(self, caller: Caller, args: str) -> dict[str, Callable[[], Awaitable[Reply]]]:
        s = self.service

        async def text(value: str) -> Reply:
            return Reply(text=value, private=True)

        games = "\n".join(
            f"  {g.key}: {g.name} ({player_count(g)}) — {g.summary}" for g in s.games()
        )
        return {
            "new": lambda: s.create(TABLE, caller, *_game_and_options(args)),
            "solo": lambda: s.solo(TABLE, caller, *_game_and_options(args or "seven-bridges")),
            "join": lambda: s.join(TABLE, caller),
            "leave": lambda: s.leave(TABLE, caller),
            "start": lambda: s.start(TABLE, caller),
            "move": lambda: s.move(TABLE, caller, args),
            "legal": lambda: s.legal(TABLE, caller),
            "hand": lambda: s.hand(TABLE, caller),
            "board": lambda: s.board(TABLE, _move_number(args)),
            "snooze": lambda: s.snooze(TABLE, caller),
            "vacation": lambda: s.vacation(caller, parse_hours(args or "0") / 24),
            "status": lambda: s.status(TABLE),
            "history": lambda: s.history(TABLE),
            "undo": lambda: s.undo(TABLE, caller),
            "resign": lambda: s.resign(TABLE, caller),
            "abandon": lambda: s.abandon(TABLE, caller),
            "turns": lambda: s.my_turns(caller),
            "rating": lambda: s.rating(TABLE.guild_id, self.caller(args) if args else caller, None),
            "leaderboard": lambda: s.leaderboard(TABLE.guild_id, args),
            "games": lambda: text("Games:\n" + games),
            "rules": lambda: text(s.rules_text(args)),
        }

    def show(self, caller: Caller, reply: Reply) -> None:
        prefix = f"  (only {caller.name} sees this) " if reply.private else ""
        self.say(prefix + reply.text)
        if reply.image is not None:
            self.images.mkdir(parents=True, exist_ok=True)
            self.drawn += 1
            private = f"-{caller.name.lower()}-only" if reply.private else ""
            path = self.images / f"game{reply.game_id}-{self.drawn:03d}{private}.png"
            path.write_bytes(reply.image)
            self.say(f"  [board image: {path}]")
        if reply.mentions:
            names = {c.user_id: c.name for c in self.users.values()}
            self.say("  → " + ", ".join(f"@{names.get(u, u)}" for u in reply.mentions))
        if reply.followup is not None:
            self.show(caller, reply.followup)


async def run(service: Service, images: Path, source: TextIO = sys.stdin) -> int:
    """Play lines from ``source``; returns how many were refused or not understood."""
    console = Console(service, images)
    interactive = source.isatty()
    if interactive:
        console.say("Bridgekeeper terminal. " + HELP)
    while True:
        if interactive:
            print("> ", end="", flush=True)
        line = await asyncio.to_thread(source.readline)
        if not line:
            break
        await console.handle(line)
    return console.refused
