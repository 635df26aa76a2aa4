"""``python -m bot console``: play any game in a terminal, through the same service.

Every input line is ``<user>: /<command> <args>`` — several people can share one
keyboard (hot seat), and a file of such lines piped to standard input replays a game.
Board images are written to a folder and their paths printed (:mod:`bot.terminal.boards`).
The console offers every command a player has on Discord, with the same names and options
(``name=value``); only what picks Discord channels or roles (``/daily setup``,
``/league role``) is not here. A name is one person on a database, in every session: the
store keeps each name's user id (:meth:`~bot.store.interface.TerminalUsers.terminal_user`).
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from bot.service import Caller, Refused, Reply, Service, Table
from bot.service.inputs import check_text
from bot.service.marks import plain
from bot.service.timers import Posted
from bot.store import CannotSave
from bot.terminal import boards, commands
from bot.terminal.commands import GUILD, HELP, TABLE, Pictured

LINE = re.compile(
    r"\s*(?P<user>[^:/\s][^:]*?)\s*:\s*/(?P<command>[a-z](?:[a-z-]*[a-z])?)\b\s*(?P<args>.*)"
)
#: AI moves played in a row before a person is awaited, at most (a guard, never reached:
#: a game of only AI players is refused)
AI_MOVES_AT_MOST = 10_000


class Console:
    def __init__(
        self,
        service: Service,
        images: Path,
        out: TextIO = sys.stdout,
        managers: Sequence[str] = (),
        pages: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        """``pages`` gives a game's page address, where the pages are served."""
        self.service = service
        self.pages = pages
        self.shown_pages: set[int] = set()  # games whose address has been printed
        self.images = images
        self.out = out
        self.managers = {name.lower() for name in managers}  # may manage the console's server
        self.users: dict[str, Caller] = {}  # this session's, by name in lower case
        self.newcomers: list[str] = []  # names first given an id by the line being read
        self.places: dict[int, Table] = {}  # user id -> where their game commands go
        self.refused = 0  # lines refused or not understood: a replayed script went wrong

    async def caller(self, name: str, what: str = "Your name") -> Caller:
        """The person called ``name``: the same user in every session on the database (a
        name no database can keep is refused, naming it as ``what``)."""
        key = check_text(name, what).lower()
        if key not in self.users:
            user_id, new = await self.service.store.terminal_user(key)
            if new:
                self.newcomers.append(key)
            self.users[key] = Caller(user_id=user_id, name=name, manager=key in self.managers)
        return self.users[key]

    async def refuse(self, text: str) -> None:
        """Say why a line was refused. A refused line changes nothing: a name it was the
        first to use (its typer's, or a player it names) is forgotten again."""
        self.refused += 1
        self.say(text)
        for key in self.newcomers:
            user_id = self.users.pop(key).user_id
            self.places.pop(user_id, None)
            with suppress(CannotSave):  # the disk that refused the line keeps the name
                await self.service.store.forget_terminal_user(key, user_id)

    def say(self, text: str) -> None:
        """Everything the terminal prints, the service's marks (moments, commands,
        channels, buttons) written the terminal's way (``bot.service.marks``)."""
        print(plain(text), file=self.out, flush=True)

    async def handle(self, line: str) -> None:
        self.newcomers = []
        if not line.strip() or line.lstrip().startswith("#"):
            return
        if line.strip() in ("/help", "help"):
            self.say(HELP)
            return
        m = LINE.fullmatch(line.rstrip("\n"))
        if not m:
            await self.refuse(
                "? Write '<user>: /<command> <args>', e.g. 'ada: /move red tall b2'. /help"
            )
            return
        command, args = m["command"], m["args"].strip()
        if command == "game":  # Discord's `/game join` is the terminal's `/join`: both work
            command, _, args = args.partition(" ")
            args = args.strip()
        if command == "help":
            self.say(HELP)
            return
        name = m["user"]
        try:
            caller = await self.caller(name)
            action = await commands.action(self, caller, command, args)
            if action is None:
                await self.refuse(f"? Unknown command /{command}. /help lists them.")
                return
            done = await action()
        except (Refused, CannotSave) as exc:  # a full disk is told like any refusal
            await self.refuse(f"  (only {name} sees this) {exc}")
            return
        if isinstance(done, Reply):
            await self.show(caller, done)
        elif isinstance(done, Pictured):
            await self.show(caller, done.reply, done.picture)
        else:
            await self.post(caller, done)
        await self.play_ai(await self.place(caller))
        await self.post(
            caller, await self.service.league_rounds.tick()
        )  # rounds move on, as each minute

    async def play_ai(self, table: Table) -> None:
        """The AI players of the table's game move at once, each as soon as it is awaited,
        until a person is (on Discord each pauses a few seconds first, on its timer). What
        only an AI sees (its hand, its sheet) is never shown: nobody at the keyboard is it."""
        for _ in range(AI_MOVES_AT_MOST):
            ai = await self.service.seats.waiting_ai(table)
            if ai is None:
                return
            await self.show(ai, replace(await self.service.seats.ai_move(table, ai), followup=None))

    async def place(self, caller: Caller) -> Table:
        """Where the caller's game commands go: their daily or league game while it runs,
        else the shared table. A new session finds it again in the database."""
        if caller.user_id not in self.places:
            self.places[caller.user_id] = await self._own_table(caller)
        table = self.places[caller.user_id]
        if table != TABLE and not await self.service.looking.is_live(table):
            self.places[caller.user_id] = TABLE
            return TABLE
        return table

    async def _own_table(self, caller: Caller) -> Table:
        """The caller's daily game or league match in play, if any (the newest, if both:
        as a session sends their commands to the game that began last), else the shared
        table."""
        store = self.service.store
        found: list[tuple[int, Table]] = []
        daily = commands.daily_table(caller)
        row = await store.live_game(daily.channel_id)
        if row is not None:
            found.append((row.id, daily))
        for league in await store.leagues(GUILD):
            if league.status != "running":
                continue
            for match in await store.matches(league.id):
                if (
                    caller.user_id in match.players
                    and match.game_id is not None
                    and match.channel_id is not None
                    and match.game_status in ("lobby", "active")
                ):
                    found.append((match.game_id, Table(match.channel_id, league.guild_id)))
        return max(found, key=lambda pair: pair[0])[1] if found else TABLE

    async def post(self, caller: Caller, posted: list[Posted]) -> None:
        """Show what went to channels (a league's rounds, its matches) and send each
        seated player's game commands to the match they now play in."""
        for item in posted:
            if item.table != TABLE:
                self.say(f"  [at table {item.table.channel_id}]")
            await self.show(caller, item.reply)
            if item.table != TABLE and item.reply.playable and item.reply.game_id is not None:
                players = await self.service.looking.players(item.reply.game_id)
                for player in players:
                    self.places[player.user_id] = item.table
                names = ", ".join(p.name for p in players)
                self.say(f"  ({names}: your game commands now go to this table)")

    async def show(self, caller: Caller, reply: Reply, picture: str | None = None) -> None:
        """Print ``reply`` as the people at the keyboard may see it: what is for the
        caller's eyes, or another person's, marked as theirs. Its picture is kept as
        ``picture`` (by default its game's board as it stands: :mod:`bot.terminal.boards`)."""
        prefix = f"  (only {caller.name} sees this) " if reply.private else ""
        self.say(prefix + reply.text)
        if reply.image is not None:
            path = boards.keep(self.images, picture or boards.board_name(reply), reply.image)
            self.say(f"  [board image: {path}]")
        game_id = reply.game_id
        if reply.image and not reply.private and game_id is not None:
            await self._page_of(game_id)
        names = await self._names(reply)
        if reply.mentions:
            self.say("  → " + ", ".join(f"@{names.get(u, u)}" for u in reply.mentions))
        if reply.followup is not None:
            own = boards.own_name(reply.followup.game_id, caller.name)
            await self.show(caller, reply.followup, own)
        for user, text in reply.told:
            self.say(f"  (only {names.get(user, user)} sees this) {text}")

    async def _page_of(self, game_id: int) -> None:
        """Say where game ``game_id``'s page is, the first time its board is shown."""
        if self.pages is not None and game_id not in self.shown_pages:
            self.shown_pages.add(game_id)
            self.say(f"  [watch it live in a browser: {await self.pages(game_id)}]")

    async def _names(self, reply: Reply) -> dict[int, str]:
        """Who the reply's user ids are: this session's people, else the game's seats."""
        names = {c.user_id: c.name for c in self.users.values()}
        wanted = {*reply.mentions, *(user for user, _ in reply.told)}
        if wanted - names.keys() and reply.game_id is not None:
            seated = {p.user_id: p.name for p in await self.service.looking.players(reply.game_id)}
            names = seated | names
        return names


async def run(
    service: Service,
    images: Path,
    source: TextIO = sys.stdin,
    *,
    seed: int | None = None,
    managers: Sequence[str] = (),
    out: TextIO = sys.stdout,
    pages: Callable[[int], Awaitable[str]] | None = None,
) -> int:
    """Play lines from ``source``; returns how many were refused or not understood.

    An interactive run says its ``seed`` first: the same seed and the same lines play
    the same games again (``--seed``). ``pages`` gives a game's page address, printed
    once, with the game's first public board."""
    console = Console(service, images, out, managers, pages)
    interactive = source.isatty()
    if interactive:
        console.say("Bridgekeeper terminal. " + HELP)
        if seed is not None:
            console.say(f"Seed {seed}: `--seed {seed}` plays the same games again.")
    while True:
        if interactive:
            print("> ", end="", file=out, flush=True)
        line = await asyncio.to_thread(source.readline)
        if not line:
            break
        await console.handle(line)
    return console.refused
