"""The terminal's command lines: what each ``/command`` a person types does, and ``/help``.

Each command is an action on the service, named and optioned as on Discord; a line is read
and its typer found by the session (:mod:`bot.terminal.session`), which hands this module
what the command needs of it (:class:`Session`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from bot.service import Caller, Refused, Reply, Service, Table, player_count
from bot.service.inputs import (
    EXTEND_BY,
    MOVE_NUMBERS,
    parse_hours,
    parse_whole,
)
from bot.service.seats import DEFAULT_LEVEL
from bot.service.timers import Posted
from bot.terminal import boards
from bot.terminal.options import (
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

GUILD = 1  # a server of its own: players share the keyboard
TABLE = Table(channel_id=1, guild_id=GUILD)
DM = 1_000_000  # a user's direct messages with the bot are channel DM + their user id

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
  /link                    the address of the game's page, to watch it in a browser
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


class Session(Protocol):
    """What the command lines need of the terminal session that reads them."""

    service: Service
    places: dict[int, Table]  # user id -> where their game commands go

    async def caller(self, name: str, what: str = "Your name") -> Caller: ...

    async def place(self, caller: Caller) -> Table: ...


def daily_table(caller: Caller) -> Table:
    """Where a person plays the daily challenge: their DM with the bot, as on Discord."""
    return Table(channel_id=DM + caller.user_id)


async def action(session: Session, caller: Caller, command: str, args: str) -> Action | None:
    if command == "daily":
        return daily(session, caller, args)
    if command == "league":
        return league(session, caller, args)
    if command in ("turns", "vacation", "settings", "rating", "leaderboard", "games", "rules"):
        return personal(session, caller, command, args).get(command)
    return at_table(session, caller, await session.place(caller), args).get(command)


def at_table(session: Session, caller: Caller, table: Table, args: str) -> dict[str, Action]:
    s = session.service

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
        old = await session.caller(given["player"], "The player's name")
        if "ai" in given:
            return await s.seats.hand_to_ai(table, caller, old.user_id, given["ai"])
        new = await session.caller(given["by"], "The new player's name")
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
        "link": lambda: s.pages.address(table),
        "undo": lambda: s.undo.ask(table, caller),
        "rematch": lambda: s.rematch.agree(table, caller),
        "resign": lambda: s.play.resign(table, caller),
        "abandon": lambda: s.lobby.abandon(table, caller),
        "archive": lambda: s.postal.archive(table, caller),
    }


def personal(session: Session, caller: Caller, command: str, args: str) -> dict[str, Action]:
    """Commands about the caller or every game, wherever they are typed."""
    s = session.service

    async def text(value: str) -> Reply:
        return Reply(text=value, private=True)

    async def rating() -> Reply:
        given = named("rating", args, ("player", "game"), ("player",))
        who = caller
        if "player" in given:
            who = await session.caller(given["player"], "The player's name")
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


def daily(session: Session, caller: Caller, args: str) -> Action:
    sub = args.strip().lower()

    async def play() -> Reply:
        table = daily_table(caller)
        if await session.service.looking.is_live(table):  # begun in an earlier session, say
            session.places[caller.user_id] = table
            status = await session.service.looking.status(table)
            return replace(
                status,
                text="Your daily challenge is still going; your game commands go to it.\n"
                + status.text,
            )
        reply = await session.service.daily.play(table, caller, GUILD)
        session.places[caller.user_id] = table
        return reply

    async def setup() -> Reply:
        raise Refused(
            "`/daily setup` picks a Discord channel for the daily posts; the terminal "
            "has none. Here: `/daily play`, `/daily leaderboard`, `/daily stats`."
        )

    async def unknown() -> Reply:
        raise Refused(
            f"/daily has no '{sub[:20]}'; choose play, leaderboard or stats (e.g. `/daily play`)."
        )

    return {
        "play": play,
        "leaderboard": session.service.daily.leaderboard,
        "stats": lambda: session.service.daily.stats(caller),
        "setup": setup,
    }.get(sub, unknown)


def league(session: Session, caller: Caller, args: str) -> Action:
    s, guild = session.service, GUILD
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
