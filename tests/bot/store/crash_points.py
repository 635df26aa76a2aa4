"""Crash points: every multi-step operation, killed right after each of its commits.

An operation runs in a process of its own, which SIGKILLs itself the moment its Nth
store write returns (each store write is one transaction: its commit is done). Then the
database is opened afresh, as the next process finds it, and checked: what must hold at
any instant (no orphan game, a draw whole or not at all, ...), then what the next pass,
or the player trying again after hearing nothing, must complete (every member seated
this round, the attempt recorded once, each post made once).

``python -m tests.bot.store.crash_points`` is the runner: it imports the bot once, then for
each request read from stdin (one JSON line) forks a child that runs the operation, and
answers how the child ended. Forking saves each crash point the interpreter's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.service import Caller, Refused, Service, Table
from bot.service.timers import Posted
from bot.store import Settings, Store, open_store, parse_time, target
from bot.store.interface import Store as StoreProtocol

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
GUILD = 77
HOME = Table(channel_id=4242, guild_id=GUILD)  # the league's channel
TABLE = Table(channel_id=5001, guild_id=GUILD)  # a server channel with a game
DM = Table(channel_id=555, guild_id=None)  # a player's DM with the bot
MOD = Caller(1, "Mod", manager=True)
ADA, BOB, CY, DEE, EVE = (
    Caller(100 + i, name) for i, name in enumerate(["Ada", "Bob", "Cy", "Dee", "Eve"])
)
MEMBERS = (ADA, BOB, CY, DEE, EVE)
#: a player told of their turn by DM: what starts their turn queues the DM with it
DM_SETTINGS = Settings(notify="dm")

#: store calls that only read: every other call of the interface is one transaction
READS = frozenset(
    {
        "game", "live_game", "latest_game", "seats", "seated_game", "seated_live_game",
        "moves", "count_games", "is_rated", "undo_request", "clocks", "waiting_since",
        "awaiting", "due_digests", "settings", "organiser_role", "league", "leagues",
        "leagues_due_to_start", "leagues_to_step", "league_match_of", "members", "matches",
        "lease_holder", "entries", "all_entries", "unsettled_entries", "entries_to_share",
        "attempt_day", "daily_channels", "daily_posted", "ratings", "schema_version",
        "integrity", "close", "backup", "rematch",
    }
)  # fmt: skip


def writes() -> list[str]:
    """The store interface's writing calls."""
    return sorted(
        name
        for name, member in inspect.getmembers(StoreProtocol)
        if not name.startswith("_") and inspect.iscoroutinefunction(member) and name not in READS
    )


def kill_after_commits(store: Store, kill_after: int, commits: list[str]) -> None:
    """Wrap every writing call of ``store``: each one that returns is noted in ``commits``
    and, at the ``kill_after``-th, the process is killed on the spot (0: never)."""
    for name in writes():
        real = getattr(store, name)

        async def counted(*args: Any, _real: Callable = real, _name: str = name, **kw: Any) -> Any:
            result = await _real(*args, **kw)
            commits.append(_name)
            if len(commits) == kill_after:
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        setattr(store, name, counted)


@dataclass
class World:
    """One process's bot over one database: what an operation or a check works with."""

    store: Store
    service: Service
    posts: list[dict] = field(default_factory=list)

    async def post(self, item: Posted) -> bool:
        """Post ``item`` (noted, as Discord would show it); done with it."""
        self.posts.append(noted(item))
        return True

    async def post_all(self, items: list[Posted]) -> None:
        for item in items:
            await self.post(item)


def noted(item: Posted) -> dict:
    reply = item.reply
    return {
        "channel": item.table.channel_id,
        "game": reply.game_id,
        "playable": reply.playable,
        "text": reply.text[:120],
    }


async def world(where: str, clock: Callable[[], datetime], seeds: int = 1) -> World:
    store = await open_store(target(where), clock=clock)
    service = Service(store, images=False, seed=itertools.count(seeds).__next__)
    return World(store, service)


# -- the operations, as a player or the minute's pass makes them ------------------------


async def league_start(w: World) -> None:
    await w.post_all(await w.service.league_rounds.start(GUILD, MOD, "Cup", w.post))


async def league_tick(w: World) -> None:
    await w.post_all(await w.service.league_rounds.tick(w.post))


async def league_leave(w: World) -> None:
    _reply, notices = await w.service.leagues.leave(GUILD, BOB, "Cup")
    await w.post_all(notices)


async def daily_play(w: World) -> None:
    await w.service.daily.play(DM, ADA, None)


async def solo(w: World) -> None:
    await w.service.lobby.solo(DM, ADA, "seven-bridges")


async def lobby_with_ai(w: World) -> None:
    await w.service.lobby.create(TABLE, ADA, "skybridge", ai=2)


async def start(w: World) -> None:
    await w.service.lobby.start(TABLE, ADA)


async def replace(w: World) -> None:
    """A manager hands the seat the game waits for to Cy."""
    awaited = next(s for s in await _seats(w) if s.awaiting)
    await w.service.postal.replace_player(TABLE, MOD, awaited.user_id, CY)


async def undo(w: World) -> None:
    """The player who made the last move takes it back."""
    last = (await w.store.moves((await w.store.live_game(TABLE.channel_id)).id))[-1]
    seat = (await _seats(w))[last.seat]
    await w.service.undo.ask(TABLE, Caller(seat.user_id, seat.name))


async def _seats(w: World) -> list:
    return await w.store.seats((await w.store.live_game(TABLE.channel_id)).id)


async def abandon(w: World) -> None:
    await w.service.lobby.abandon(TABLE, ADA)


async def rematch(w: World) -> None:
    """Both players click Rematch under the finished game's board (game 1), in turn."""
    for player in (ADA, BOB):
        await w.service.rematch.agree(TABLE, player, 1)


# -- setting up, completing and checking each operation ----------------------------------


async def retrying(call: Awaitable[Any]) -> None:
    """The player tries again, having heard nothing: a refusal is an answer too."""
    with contextlib.suppress(Refused):
        await call


async def cup(w: World, format_name: str = "round-robin", players: int = 5, **kw: Any) -> None:
    await w.service.leagues.create(HOME, MOD, "Cup", "skybridge", format_name, **kw)
    for member in MEMBERS[:players]:
        await w.service.leagues.join(GUILD, member, "Cup")


async def started_cup(w: World, format_name: str = "round-robin", players: int = 5, **kw: Any):
    await cup(w, format_name, players, **kw)
    await w.service.league_rounds.start(GUILD, MOD, "Cup")


async def resign_round(w: World, leave_one: bool = False) -> None:
    """Every game of the current round ends (seat 0 resigns), but one if ``leave_one``."""
    league = await w.store.league(GUILD, "Cup")
    games = [m for m in await w.store.matches(league.id) if m.round == league.round and m.game_id]
    for match in games[1:] if leave_one else games:
        seats = await w.store.seats(match.game_id)
        first = Caller(seats[0].user_id, seats[0].name)
        await w.service.play.resign(Table(match.channel_id, GUILD), first)


async def live_games(store: Store) -> list[tuple]:
    return list(
        await store.rows(
            "SELECT id, channel_id, status, league_match FROM games "
            "WHERE status IN ('lobby', 'active') ORDER BY id"
        )
    )


async def league_now(w: World) -> list[str]:
    """What holds at any instant of a league's life: a round's draw whole or not at all;
    no member in two matches of a round; a match linked to one game, seated as drawn; no
    live game in a match thread that no match counts."""
    problems = []
    league = await w.store.league(GUILD, "Cup")
    matches = await w.store.matches(league.id)
    members = {m.user_id for m in await w.store.members(league.id) if not m.dropped}
    for number in sorted({m.round for m in matches}):
        drawn = [p for m in matches if m.round == number for p in m.players]
        if len(drawn) != len(set(drawn)):
            problems.append(f"round {number}: a member drawn twice")
        if not members <= set(drawn):
            problems.append(f"round {number}: drawn in part ({len(drawn)} of {len(members)})")
    linked = {}
    for match in matches:
        if match.game_id is None:
            continue
        seats = await w.store.seats(match.game_id)
        if tuple(s.user_id for s in seats) != match.players:
            problems.append(f"match {match.id}: its game is seated {[s.name for s in seats]}")
        linked[match.game_id] = match.id
    for game_id, _channel, status, league_match in await live_games(w.store):
        if game_id not in linked or league_match != linked[game_id]:
            problems.append(f"game {game_id} ({status}) is live but no match counts it")
    return problems


async def round_done(w: World, number: int, child_posts: list[dict]) -> list[str]:
    """Round ``number`` is whole: every member drawn once, every table's game open and
    started, the league on that round, and each post made once."""
    problems = await league_now(w)
    league = await w.store.league(GUILD, "Cup")
    if league.round != number or league.round_deadline is None:
        problems.append(f"the league is on round {league.round}, not {number}")
    tables = [m for m in await w.store.matches(league.id) if m.round == number]
    if not tables:
        problems.append(f"round {number} was never drawn")
    posts = child_posts + w.posts
    for match in tables:
        if match.kind == "played":
            if match.game_status != "active":
                problems.append(f"match {match.id} of round {number}: game {match.game_status}")
            boards = [p for p in posts if p["game"] == match.game_id and p["playable"]]
            if match.game_id is not None and len(boards) != 1:
                problems.append(f"match {match.id}'s board posted {len(boards)} times")
    told = [p for p in posts if f"round {number} of" in p["text"]]
    if len(told) != 1:
        problems.append(f"round {number} announced {len(told)} times")
    return problems


async def settled_round(w: World, number: int) -> list[str]:
    league = await w.store.league(GUILD, "Cup")
    open_ = [m.id for m in await w.store.matches(league.id) if m.round == number and not m.settled]
    return [f"round {number}: matches {open_} unsettled"] if open_ else []


async def attempt_now(w: World) -> list[str]:
    """No live game in the DM that is not a recorded attempt; one attempt at most."""
    entries = await w.store.entries(user_id=ADA.user_id)
    live = await w.store.live_game(DM.channel_id)
    problems = [] if len(entries) <= 1 else [f"{len(entries)} attempts recorded"]
    if live is not None and live.id not in {e.game_id for e in entries}:
        problems.append(f"game {live.id} ({live.status}) in the DM is no recorded attempt")
    return problems


async def attempt_done(w: World, _posts: list[dict]) -> list[str]:
    problems = await attempt_now(w)
    entries = await w.store.entries(user_id=ADA.user_id)
    live = await w.store.live_game(DM.channel_id)
    if len(entries) != 1 or live is None or live.status != "active":
        problems.append(f"{len(entries)} attempts, live game {live and live.status}")
    return problems


async def dm_game_now(w: World) -> list[str]:
    live = await w.store.live_game(DM.channel_id)
    return [] if live is None or live.status == "active" else [f"a {live.status} solo game"]


async def dm_game_done(w: World, _posts: list[dict]) -> list[str]:
    live = await w.store.live_game(DM.channel_id)
    return [] if live is not None and live.status == "active" else ["no solo game going"]


async def ai_lobby_now(w: World) -> list[str]:
    live = await w.store.live_game(TABLE.channel_id)
    if live is None:
        return []
    seats = await w.store.seats(live.id)
    return [] if len(seats) == 3 else [f"a lobby of {len(seats)} seats, 3 asked for"]


async def ai_lobby_done(w: World, _posts: list[dict]) -> list[str]:
    if await w.store.live_game(TABLE.channel_id) is None:
        return ["no lobby"]
    return await ai_lobby_now(w)


async def told_now(w: World) -> list[str]:
    """Every person the game waits for who takes DMs has their "your turn" DM queued for
    the wait they have now, from the moment the wait is stored."""
    live = await w.store.live_game(TABLE.channel_id)
    if live is None or live.status != "active":
        return []
    queued = {
        (user, since)
        for user, since in await w.store.rows(
            f"SELECT user_id, turn_since FROM outbox WHERE game_id = {int(live.id)} "
            "AND kind = 'turn'"
        )
    }
    since = {
        user: turn_since
        for user, awaiting, turn_since in await w.store.rows(
            f"SELECT user_id, awaiting, turn_since FROM seats WHERE game_id = {int(live.id)}"
        )
        if awaiting
    }
    problems = []
    for user, turn_since in since.items():
        if (await w.store.settings(user)).notify == "dm" and (user, turn_since) not in queued:
            problems.append(f"user {user} awaited since {turn_since} was never told")
    return problems


async def told_done(w: World, _posts: list[dict]) -> list[str]:
    live = await w.store.live_game(TABLE.channel_id)
    if live is None or live.status != "active":
        return ["no game going"]
    return await told_now(w)


async def rematch_now(w: World) -> list[str]:
    """No rematch, or one whole started game that game 1's rematch is marked as having
    opened: never a lobby, a game short of a seat, or one a click could open again."""
    live = await w.store.live_game(TABLE.channel_id)
    opened = (await w.store.rematch(1)).opened
    if live is None:
        return [] if opened is None else [f"marked as opened by game {opened}, not going"]
    seats = await w.store.seats(live.id)
    problems = [] if live.status == "active" else [f"a {live.status} rematch"]
    if len(seats) != 2:
        problems.append(f"a rematch of {len(seats)} seats")
    if opened != live.id:
        problems.append(f"game {live.id} is not marked as game 1's rematch ({opened})")
    return problems


async def rematch_done(w: World, _posts: list[dict]) -> list[str]:
    """Clicking again made it whole: one rematch, and no more."""
    if await w.store.live_game(TABLE.channel_id) is None:
        return ["no rematch"]
    games = await w.store.count_games()
    return await rematch_now(w) + ([] if games == 2 else [f"{games} games, not 2"])


async def abandoned_done(w: World, _posts: list[dict]) -> list[str]:
    latest = await w.store.latest_game(TABLE.channel_id)
    return [] if latest.status == "abandoned" else [f"the game is {latest.status}"]


@dataclass(frozen=True)
class Scenario:
    """An operation, the world it runs in, and what must hold after a crash in it."""

    name: str
    op: Callable[[World], Awaitable[None]]
    setup: Callable[[World], Awaitable[None]]
    now: Callable[[World], Awaitable[list[str]]]
    #: what happens next: the pass again, or the player trying again
    recover: Callable[[World], Awaitable[None]]
    done: Callable[[World, list[dict]], Awaitable[list[str]]]
    at: timedelta = timedelta(minutes=1)  # when the operation runs, after T0


async def _game_of_two(w: World, *, start: bool = True) -> None:
    await w.service.lobby.create(TABLE, ADA, "skybridge")
    await w.service.lobby.join(TABLE, BOB)
    if start:
        await w.service.lobby.start(TABLE, ADA)


async def _told_by_dm(w: World, *users: Caller) -> None:
    for user in users:
        await w.store.put_settings(user.user_id, DM_SETTINGS)


async def _setup_start(w: World) -> None:
    await _game_of_two(w, start=False)
    await _told_by_dm(w, ADA, BOB)


async def _setup_replace(w: World) -> None:
    await _game_of_two(w)
    await _told_by_dm(w, CY)


async def _setup_undo(w: World) -> None:
    await _told_by_dm(w, ADA, BOB)
    await _game_of_two(w)
    first = next(s for s in await _seats(w) if s.awaiting)
    mover = Caller(first.user_id, first.name)
    await w.service.play.move(TABLE, mover, (await w.service.play.legal_moves(TABLE, mover))[0])


async def _finished(w: World) -> None:
    await _game_of_two(w)
    await w.service.play.resign(TABLE, BOB)


async def _clicked_again(w: World) -> None:
    """Having heard nothing, each player clicks Rematch again."""
    for player in (ADA, BOB):
        await retrying(w.service.rematch.agree(TABLE, player, 1))


async def _then(*steps: Awaitable[Any]) -> None:
    for step in steps:
        await step


async def _nothing(_w: World) -> None:
    return None


async def _none() -> list[str]:
    return []


def _retry(op: Callable[[World], Awaitable[None]]) -> Callable[[World], Awaitable[None]]:
    return lambda w: retrying(op(w))


def _league_done(number: int, settled: int | None = None):
    async def done(w: World, posts: list[dict]) -> list[str]:
        problems = await round_done(w, number, posts)
        if settled is not None:
            problems += await settled_round(w, settled)
        return problems

    return done


async def _late_done(w: World, posts: list[dict]) -> list[str]:
    """Round 2 opened, and round 1's unfinished match is a forfeit by the seat holding
    it up alone (its game called off), not by both."""
    problems = await _league_done(2, settled=1)(w, posts)
    league = await w.store.league(GUILD, "Cup")
    for match in await w.store.matches(league.id):
        if match.round == 1 and match.kind == "forfeit" and len(match.forfeiting) != 1:
            problems.append(f"match {match.id} forfeited by {len(match.forfeiting)} players")
    return problems


async def _final_done(w: World, posts: list[dict]) -> list[str]:
    league = await w.store.league(GUILD, "Cup")
    problems = await league_now(w) + await settled_round(w, 1)
    if league.status != "finished":
        problems.append(f"the league is {league.status}")
    finals = [p for p in posts + w.posts if "is over" in p["text"]]
    if len(finals) != 1:
        problems.append(f"the final standings posted {len(finals)} times")
    return problems


async def _leave_done(w: World, posts: list[dict]) -> list[str]:
    """Bob is out: dropped, his match settled as his forfeit, his game over."""
    problems = await league_now(w)
    league = await w.store.league(GUILD, "Cup")
    if not any(m.user_id == BOB.user_id and m.dropped for m in await w.store.members(league.id)):
        problems.append("Bob is still a member")
    for match in await w.store.matches(league.id):
        if match.round == 1 and BOB.user_id in match.players:
            lost = match.places and match.places[match.players.index(BOB.user_id)] == 2
            if not match.settled or not lost:
                problems.append(f"Bob's match {match.id}: settled {match.settled} {match.places}")
            if match.game_status in ("lobby", "active"):
                problems.append(f"Bob's game {match.game_id} is still {match.game_status}")
    return problems


async def _tick_later(w: World) -> None:
    await league_tick(w)


async def _retry_start_then_tick(w: World) -> None:
    await retrying(league_start(w))
    await league_tick(w)


async def _retry_leave_then_tick(w: World) -> None:
    await retrying(league_leave(w))
    await league_tick(w)


SCENARIOS = {
    s.name: s
    for s in (
        Scenario(
            "league start",
            league_start,
            cup,
            league_now,
            _retry_start_then_tick,
            _league_done(1),
        ),
        Scenario(
            "league round",
            league_tick,
            lambda w: _then(started_cup(w), resign_round(w)),
            league_now,
            _tick_later,
            _league_done(2, settled=1),
            at=timedelta(hours=1),
        ),
        Scenario(
            "league round late",
            league_tick,
            lambda w: _then(started_cup(w), resign_round(w, leave_one=True)),
            league_now,
            _tick_later,
            _late_done,
            at=timedelta(days=8),
        ),
        Scenario(
            "league end",
            league_tick,
            lambda w: _then(started_cup(w, "swiss", 4, rounds=1), resign_round(w)),
            league_now,
            _tick_later,
            _final_done,
            at=timedelta(hours=1),
        ),
        Scenario(
            "league leave",
            league_leave,
            lambda w: started_cup(w, players=4),
            league_now,
            _retry_leave_then_tick,
            _leave_done,
            at=timedelta(hours=1),
        ),
        Scenario("daily play", daily_play, _nothing, attempt_now, _retry(daily_play), attempt_done),
        Scenario("solo", solo, _nothing, dm_game_now, _retry(solo), dm_game_done),
        Scenario(
            "lobby with AI",
            lobby_with_ai,
            _nothing,
            ai_lobby_now,
            _retry(lobby_with_ai),
            ai_lobby_done,
        ),
        Scenario("start", start, _setup_start, told_now, _retry(start), told_done),
        Scenario("replace", replace, _setup_replace, told_now, _retry(replace), told_done),
        Scenario("undo", undo, _setup_undo, told_now, _retry(undo), told_done),
        Scenario("rematch", rematch, _finished, rematch_now, _clicked_again, rematch_done),
        Scenario(
            "abandon",
            abandon,
            lambda w: _game_of_two(w, start=False),
            lambda w: _none(),
            _retry(abandon),
            abandoned_done,
        ),
    )
}


# -- the runner ----------------------------------------------------------------------------


async def _run(request: dict) -> None:
    """In the forked child: run the operation on the database, killed after the asked
    commit; the commits it made are written to the result file if it lives."""
    scenario = SCENARIOS[request["scenario"]]
    moment = parse_time(request["now"])
    w = await world(request["target"], lambda: moment, seeds=1000)
    commits: list[str] = []
    kill_after_commits(w.store, request["kill_after"], commits)
    posts = Path(request["posts"])

    async def post(item: Posted) -> bool:
        with posts.open("a") as out:  # on disk before the next commit can kill us
            out.write(json.dumps(noted(item)) + "\n")
            out.flush()
            os.fsync(out.fileno())
        return True

    w.post = post  # type: ignore[method-assign]
    try:
        await scenario.op(w)
    except Refused as exc:
        commits.append(f"refused: {exc}")
    Path(request["result"]).write_text(json.dumps(commits))
    await w.store.close()


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                asyncio.run(_run(request))
            except BaseException:
                import traceback

                traceback.print_exc()
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        answer = {"signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None}
        answer["exit"] = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
