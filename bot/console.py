"""``python -m bot console``: play any game in a terminal, through the same service.

Every input line is ``<user>: /<command> <args>`` — several people can share one
keyboard (hot seat), and a file of such lines piped to standard input replays a game.
Board images are written to a folder and their paths printed (:mod:`bot.console_boards`).
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from bot import console_boards as boards
from bot.console_options import (
    ai_of,
    bare_or_named,
    clocks_of,
    game_and_options,
    league_options,
    named,
    settings_changes,
    switch,
    tokens,
    vacation_days,
)
from bot.service import Caller, Refused, Reply, Service, Table, player_count
from bot.service.inputs import (
    EXTEND_BY,
    MOVE_NUMBERS,
    check_text,
    parse_hours,
    parse_whole,
)
from bot.service.marks import plain
from bot.service.seats import DEFAULT_LEVEL
from bot.service.timers import Posted
from bot.store import CannotSave

LINE = re.compile(
    r"\s*(?P<user>[^:/\s][^:]*?)\s*:\s*/(?P<command>[a-z](?:[a-z-]*[a-z])?)\b\s*(?P<args>.*)"
)
GUILD = 1  # a server of its own: players share the keyboard
TABLE = Table(channel_id=1, guild_id=GUILD)
DM = 1_000_000  # a user's direct messages with the bot are channel DM + their user id
#: AI moves played in a row before a person is awaited, at most (a guard, never reached:
#: a game of only AI players is refused)
AI_MOVES_AT_MOST = 10_000

HELP = """\
Lines look like  <user>: /<command> <args>   (several users can take turns at one keyboard)
Options are name=value, as on Discord; quote a value with spaces: name="Spring Cup".
  ada: /new skybridge      open a game        bob: /join       take a seat
  ada: /new seven-bridges start=ii-2-3 time_per_move=3d at_deadline=skip rated=off
  ada: /solo [seven-bridges] [start=ii-2-3]   alone against Euler, started at once
  ada: /new skybridge time_per_move=2d at_deadline=skip remind_every=12h  with a clock
  ada: /new skybridge ai=1 [ai_level=easy|normal|hard]   against an AI player (it moves
  by itself); /add-ai [level] seats one more, /replace player=bob ai=hard hands a seat on
  ada: /start              start it           ada: /legal      list your legal moves
  ada: /move red tall b2   play a move        ada: /board [move=N]  the board (after move N)
  ada: /board text=on      the board in words too (for a screen reader, or no pictures)
  /hand (what only you see)  /status  /history  /undo  /resign  /leave  /abandon  /archive
  /rematch                 play the finished game again (once every player asks)
  /snooze  /extend by=1d  /replace player=bob by=cy  /rules <game>  /games
  /turns  /vacation days=3  /settings notify=dm timezone=Europe/Berlin quiet_start=22
  quiet_end=7 quiet=off reminders=12h|digest|game digest_hour=8 heads_up=on
  /rating [player] [game=...]  /leaderboard <game>
  /daily play | leaderboard | stats     today's challenge against Euler, in your own DM
  /league create name=... game=... format=round-robin (a manager: --manager NAME)
  /league list | join | leave | start | standings | schedule | results <league name>
While your daily or league game runs, your game commands (/move, /board …) go to it.
Lines starting with # are comments. End with Ctrl-D."""


@dataclass(frozen=True)
class Pictured:
    """A reply whose picture has a file name of its own (a past board, a person's view)."""

    reply: Reply
    picture: str


Action = Callable[[], Awaitable["Reply | Pictured | list[Posted]"]]


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
            action = await self._action(caller, command, args)
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
        daily = self._daily_table(caller)
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

    @staticmethod
    def _daily_table(caller: Caller) -> Table:
        """Where a person plays the daily challenge: their DM with the bot, as on Discord."""
        return Table(channel_id=DM + caller.user_id)

    async def _action(self, caller: Caller, command: str, args: str) -> Action | None:
        if command == "daily":
            return self._daily(caller, args)
        if command == "league":
            return self._league(caller, args)
        if command in ("turns", "vacation", "settings", "rating", "leaderboard", "games", "rules"):
            return self._personal(caller, command, args).get(command)
        return self._at_table(caller, await self.place(caller), args).get(command)

    def _at_table(self, caller: Caller, table: Table, args: str) -> dict[str, Action]:
        s = self.service

        async def new() -> Reply:
            game, options = game_and_options(args)
            clocks, rated = clocks_of(options)
            ai, level = ai_of(options)
            return await s.lobby.create(
                table, caller, game, options or None, clocks=clocks, rated=rated, ai=ai,
                ai_level=level,
            )  # fmt: skip

        async def add_ai() -> Reply:
            level = bare_or_named("level", args) or DEFAULT_LEVEL
            return await s.seats.add_ai(table, caller, level)

        async def hand() -> Pictured:
            reply = await s.play.hand(table, caller)
            return Pictured(reply, boards.own_name(reply.game_id, caller.name))

        async def solo() -> Reply:
            return await s.lobby.solo(table, caller, *game_and_options(args, "seven-bridges"))

        async def board() -> Reply | Pictured:
            given = named("board", args, ("move", "text"), ("move",))
            move = parse_whole(given["move"], "move", MOVE_NUMBERS) if "move" in given else None
            reply = await s.looking.board(table, move, switch("text", given.get("text", "off")))
            return reply if move is None else Pictured(reply, boards.past_name(reply.game_id, move))

        async def extend() -> Reply:
            by = named("extend", args, ("by",), ("by",)).get("by")
            if by is None:
                raise Refused("Say how much longer, e.g. `/extend by=1d`.")
            return await s.postal.extend(table, caller, parse_hours(by, EXTEND_BY))

        async def replace() -> Reply:
            given = named("replace", args, ("player", "by", "ai"), ("player", "by"))
            if "player" not in given or ("by" in given) == ("ai" in given):
                raise Refused(
                    "Name the player and who takes over: `/replace player=bob by=cy`, or an "
                    "AI player: `/replace player=bob ai=hard`."
                )
            old = await self.caller(given["player"], "The player's name")
            if "ai" in given:
                return await s.seats.hand_to_ai(table, caller, old.user_id, given["ai"])
            new = await self.caller(given["by"], "The new player's name")
            return await s.postal.replace_player(table, caller, old.user_id, new)

        return {
            "new": new,
            "add-ai": add_ai,
            "solo": solo,
            "join": lambda: s.lobby.join(table, caller),
            "leave": lambda: s.lobby.leave(table, caller),
            "start": lambda: s.lobby.start(table, caller),
            "move": lambda: s.play.move(table, caller, bare_or_named("notation", args)),
            "legal": lambda: s.play.legal(table, caller, characters=None),  # no message limit here
            "hand": hand,
            "board": board,
            "snooze": lambda: s.postal.snooze(table, caller),
            "extend": extend,
            "replace": replace,
            "status": lambda: s.looking.status(table),
            "history": lambda: s.looking.history(table),
            "undo": lambda: s.undo.ask(table, caller),
            "rematch": lambda: s.rematch.agree(table, caller),
            "resign": lambda: s.play.resign(table, caller),
            "abandon": lambda: s.lobby.abandon(table, caller),
            "archive": lambda: s.postal.archive(table, caller),
        }

    def _personal(self, caller: Caller, command: str, args: str) -> dict[str, Action]:
        """Commands about the caller or every game, wherever they are typed."""
        s = self.service

        async def text(value: str) -> Reply:
            return Reply(text=value, private=True)

        async def rating() -> Reply:
            given = named("rating", args, ("player", "game"), ("player",))
            who = caller
            if "player" in given:
                who = await self.caller(given["player"], "The player's name")
            return await s.ratings.rating(GUILD, who, given.get("game"))

        async def settings() -> Reply:
            quiet_off, changes = settings_changes(args)
            return await s.postal.settings(caller, quiet_off=quiet_off, **changes)

        async def vacation() -> Reply:
            days = named("vacation", args, ("days",), ("days",)).get("days", "0")
            return await s.postal.vacation(caller, vacation_days(days))

        games = "\n".join(
            f"  {g.key}: {g.name} ({player_count(g)}) — {g.summary}" for g in s.lobby.offered()
        )
        return {
            "turns": lambda: s.looking.my_turns(caller),
            "vacation": vacation,
            "settings": settings,
            "rating": rating,
            "leaderboard": lambda: s.ratings.leaderboard(GUILD, bare_or_named("game", args)),
            "games": lambda: text("Games:\n" + games),
            "rules": lambda: text(s.lobby.rules_text(bare_or_named("game", args))),
        }

    def _daily(self, caller: Caller, args: str) -> Action:
        sub = args.strip().lower()

        async def play() -> Reply:
            table = self._daily_table(caller)
            if await self.service.looking.is_live(table):  # begun in an earlier session, say
                self.places[caller.user_id] = table
                status = await self.service.looking.status(table)
                return replace(
                    status,
                    text="Your daily challenge is still going; your game commands go to it.\n"
                    + status.text,
                )
            reply = await self.service.daily.play(table, caller, GUILD)
            self.places[caller.user_id] = table
            return reply

        async def setup() -> Reply:
            raise Refused(
                "`/daily setup` picks a Discord channel for the daily posts; the terminal "
                "has none. Here: `/daily play`, `/daily leaderboard`, `/daily stats`."
            )

        async def unknown() -> Reply:
            raise Refused(
                f"/daily has no '{sub[:20]}'; choose play, leaderboard or stats (e.g. "
                "`/daily play`)."
            )

        return {
            "play": play,
            "leaderboard": self.service.daily.leaderboard,
            "stats": lambda: self.service.daily.stats(caller),
            "setup": setup,
        }.get(sub, unknown)

    def _league(self, caller: Caller, args: str) -> Action:
        s, guild = self.service, GUILD
        sub, _, rest = args.strip().partition(" ")
        # the league's name, bare (`/league join Spring Cup`) or as Discord names it
        name = bare_or_named("name", " ".join(tokens(rest))) if rest.strip() else ""

        async def create() -> Reply:
            name, game, format, options = league_options(rest)
            return await s.leagues.create(TABLE, caller, name, game, format, **options)

        async def leave() -> list[Posted]:
            reply, notices = await s.leagues.leave(guild, caller, name)
            return [Posted(TABLE, reply), *notices]

        async def role() -> Reply:
            raise Refused("`/league role` names a Discord role; the terminal has none.")

        async def unknown() -> Reply:
            raise Refused(
                f"/league has no '{sub[:20]}'; choose create, list, join, leave, start, "
                "standings, schedule or results."
            )

        actions: dict[str, Action] = {
            "create": create,
            "list": lambda: s.league_tables.list_leagues(guild),
            "join": lambda: s.leagues.join(guild, caller, name),
            "leave": leave,
            "start": lambda: s.league_rounds.start(guild, caller, name),
            "standings": lambda: s.league_tables.standings(guild, name),
            "schedule": lambda: s.league_tables.schedule(guild, name),
            "results": lambda: s.league_tables.results(guild, name),
            "role": role,
        }
        return actions.get(sub.lower(), unknown)

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
        ``picture`` (by default its game's board as it stands: :mod:`bot.console_boards`)."""
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
