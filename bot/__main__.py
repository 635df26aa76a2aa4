"""``python -m bot [console | web | selfplay | arena | bench | backup | restore |
migrate-store]``; alone, the bot (serving the games' pages too)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import secrets
import shlex
import sys
import tempfile
import traceback
from collections.abc import Coroutine
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import engine
from bot.hosting import shard_claims
from bot.hosting.backups import backup, checked_store, hold, rebuild_ratings, restore
from bot.hosting.config import BadSetting, Settings, Shards, Web, load_settings
from bot.processes.drawing import drawers
from bot.processes.holders import process_holder
from bot.processes.thinking import AI_PROCESSES, thinkers
from bot.service import Refused, Service, Table, player_count
from bot.service.inputs import parse_options
from bot.store import (
    Store,
    StoreFault,
    Target,
    backend,
    open_store,
    target,
)
from bot.web.serving import CannotServe, beside, serving

NO_TOKEN = """\
No Discord token found, so the bot cannot connect to Discord.
  Set one:   export DISCORD_TOKEN=your-bot-token   (or put DISCORD_TOKEN=... in a .env file here)
  Play locally without Discord instead:   {python} -m bot console"""


def no_token_hint() -> str:
    """The hint names the interpreter running now: a bare ``python`` outside the venv
    would not find the bot's packages."""
    return NO_TOKEN.format(python=shlex.quote(sys.executable or "python3"))


def _database(text: str) -> Target:
    """``--db``: a SQLite file or a ``postgresql://`` URL; another scheme is refused here."""
    try:
        return target(text)
    except StoreFault as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_DB_HELP = "SQLite file or postgresql:// URL (default: BRIDGEKEEPER_DB)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (the default)")
    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    console.add_argument("--db", type=_database, help=_DB_HELP)
    console.add_argument(
        "--images", type=Path, help="board image folder (default: boards/<database name>/)"
    )
    console.add_argument("--seed", type=int, help="fix new games' seed, to replay a script")
    console.add_argument(
        "--manager", action="append", default=[], metavar="NAME",
        help="this user manages the terminal's server: leagues, others' games (repeatable)",
    )  # fmt: skip
    web = sub.add_parser("web", help="serve the games' pages alone, without Discord")
    web.add_argument("--db", type=_database, help=_DB_HELP)
    selfplay = sub.add_parser("selfplay", help="play whole games with random legal moves")
    selfplay.add_argument("game")
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--players", type=int, help="default: every count the game allows")
    selfplay.add_argument(
        "--db", type=_database, help="SQLite file or postgresql:// URL (default: a temporary file)"
    )
    selfplay.add_argument("--images", action="store_true", help="render after each move too")
    arena = sub.add_parser("arena", help="AI levels against each other: strength and CPU")
    arena.add_argument("game")
    arena.add_argument("--a", default="hard", help="the level reported on (default hard)")
    arena.add_argument("--b", default="normal", help="its opponent's level, or euler (solo)")
    arena.add_argument("--games", type=int, default=20)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--budget", type=int, help="hard's search iterations (default: tuned)")
    arena.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument(
        "--option", action="append", default=[], type=_option, metavar="NAME=VALUE",
        help="one of the game's options, as /game new takes it (repeatable)",
    )  # fmt: skip
    balance = sub.add_parser("balance", help="an AI level against itself: which seat wins")
    balance.add_argument("game")
    balance.add_argument("--level", default="hard", help="the AI level on both seats (hard)")
    balance.add_argument("--games", type=int, default=200, help="games a row (default 200)")
    balance.add_argument("--seed", type=int, default=21)
    balance.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    balance.add_argument(
        "--row", action="append", default=[], metavar="OPTIONS",
        help='a row\'s options, "name=value name=value" (repeatable); rulebook, singles',
    )  # fmt: skip
    backup = sub.add_parser("backup", help="copy the live database safely (online backup)")
    backup.add_argument("target", type=Path, help="the file to write the copy to")
    backup.add_argument("--db", type=_database, help=_DB_HELP)
    restore = sub.add_parser("restore", help="put a backup in place of the database")
    restore.add_argument("source", type=Path, help="a file written by backup")
    restore.add_argument("--db", type=_database, help=_DB_HELP)
    restore.add_argument("--force", action="store_true", help="replace an existing database")
    move = sub.add_parser(
        "migrate-store",
        help="copy a whole database into an empty one of another store (SQLite to PostgreSQL)",
    )
    move.add_argument(
        "source", metavar="FROM", type=_database, help="SQLite file or postgresql:// URL; only read"
    )
    move.add_argument(
        "target", metavar="TO", type=_database, help="an empty SQLite file or PostgreSQL database"
    )
    ratings = sub.add_parser("ratings", help="recompute every rating from stored results")
    ratings.add_argument("--rebuild", action="store_true", required=True)
    ratings.add_argument("--db", type=_database, help=_DB_HELP)
    bench = sub.add_parser("bench", help="print speed figures as JSON lines")
    bench.add_argument("--quick", action="store_true", help="fewer games, for CI")
    bench.add_argument(
        "--db", type=_database, help="time moves on this store (a scratch database; default: "
        "temporary SQLite files); with --load, the PostgreSQL database the processes share",
    )  # fmt: skip
    bench.add_argument(
        "--game", action="append", default=[], metavar="KEY", help="only this game (repeatable)"
    )
    bench.add_argument("--load", action="store_true", help="many games at once on one file")
    bench.add_argument(
        "--timers", action="store_true", help="the minute's tick and start-up at 100,000 games"
    )
    bench.add_argument("--games", type=int, default=1000, help="with --load: games at once")
    bench.add_argument("--seconds", type=float, default=20.0, help="with --load: per phase")
    bench.add_argument(
        "--processes", type=int, default=0, help="with --load: render worker processes (0: threads)"
    )
    bench.add_argument(
        "--rate", type=float, default=200.0, help="with --load: moves/s the paced phases offer"
    )
    bench.add_argument(
        "--ai-share",
        type=float,
        default=0.0,
        help="with --load: share of seats for AI",
    )
    bench.add_argument(
        "--ai-level", default="hard", help="with --load: the AI players' level (default hard)"
    )
    bench.add_argument(
        "--bot-processes",
        type=_counts,
        default=[1],
        metavar="N[,N...]",
        help="with --load --db postgresql://...: bot processes sharing the games, e.g. 1,2,4",
    )
    return parser


def render_processes(environ: dict[str, str] | None = None) -> int:
    """Worker processes drawing boards: ``BRIDGEKEEPER_RENDER_PROCESSES``, by default one
    per core on a machine with more than one (0: draw in threads of the bot's process).

    Pillow holds the GIL for much of a board, so threads share one core with the event
    loop; ``python -m bot bench --load --processes N`` shows the difference."""
    value = (os.environ if environ is None else environ).get("BRIDGEKEEPER_RENDER_PROCESSES")
    if value is not None and value.strip():
        return max(0, int(value))
    cores = os.cpu_count() or 1
    return cores if cores > 1 else 0


async def _run_bot(settings: Settings) -> None:
    """Run the bot. On SQLite it holds the file's one-process lock: SQLite is one process,
    however many shards that process runs. PostgreSQL is shared by design: any number of
    processes, each with its own shards, share one database (docs/deploy.md)."""
    with ExitStack() as stack:
        if not backend(settings.db_path).shared:
            hold(stack, Path(settings.db_path))  # one process's database: a file
        await _serve(settings.db_path, settings.token, settings.shards, web=settings.web)


async def _serve(
    db_path: Target, token: str | None, shards: Shards, web: Web | None = None
) -> None:
    assert token  # main() stops without one
    from bot.discord.callers import jump_link
    from bot.discord.client import Bridgekeeper

    log = logging.getLogger(__name__)
    processes = render_processes()
    log.info("drawing boards in %d worker processes", processes)
    store = await checked_store(db_path)
    holder = process_holder()
    shared = backend(db_path).shared  # else the file's lock already keeps a second process off
    try:
        if shared:
            try:
                await shard_claims.claim(store, shards, holder)
            except BadSetting as exc:
                raise SystemExit(str(exc)) from None
        log.info("connecting %s", shards.describe())
        with ExitStack() as stack:
            workers = stack.enter_context(drawers(processes)) if processes else None
            pool = stack.enter_context(thinkers(AI_PROCESSES))
            service = Service(store, link=jump_link, drawers=workers, thinkers=pool)
            await service.games.check_stored()
            client = Bridgekeeper(
                service,
                shard_ids=list(shards.ids) if shards.ids is not None else None,
                shard_count=shards.count,
            )
            async with client, beside(service, web):
                if shared:
                    await _holding(client.start(token), shard_claims.keep(store, shards, holder))
                else:
                    await client.start(token)
    finally:
        if shared:
            await shard_claims.release(store, shards, holder)
        await store.close()


async def _holding(connected: Coroutine[Any, Any, None], keep: Coroutine[Any, Any, None]) -> None:
    """Stay connected while the shards' leases are kept: if another process takes one,
    stop (a SystemExit saying so), never running a shard twice."""
    keeper, running = asyncio.create_task(keep), asyncio.create_task(connected)
    try:
        await asyncio.wait({keeper, running}, return_when=asyncio.FIRST_COMPLETED)
        if not running.done():
            try:
                keeper.result()
            except shard_claims.ShardLost as exc:
                raise SystemExit(str(exc)) from None
        await running
    finally:
        keeper.cancel()
        running.cancel()
        await asyncio.gather(keeper, running, return_exceptions=True)


def terminal_service(store: Store, seed: int) -> Service:
    """The service the terminal plays on: every new game dealt by ``seed``, and the AI
    players' chance a stream of its own drawn from it, so a script replays exactly."""
    chance = random.Random(f"ai {seed}")
    return Service(
        store,
        link=lambda _table: "the terminal table",
        seed=lambda: seed,
        ai_seed=lambda: chance.getrandbits(63),
    )


async def _console(
    db_path: Target, images: Path, seed: int | None, managers: list[str], web: Web | None
) -> int:
    """Exit status 1 when a piped script had refused lines, so a broken replay is noticed.
    Every run has a seed (one drawn now, if not given), told so it can be replayed. A
    person at the keyboard has the games' pages served too, each game's address printed
    as it begins; a piped script, over when its lines are, serves none."""
    from bot.terminal import session as console

    store = await checked_store(db_path)
    seed = secrets.randbits(31) if seed is None else seed
    interactive = sys.stdin.isatty()
    try:
        service = terminal_service(store, seed)
        await service.games.check_stored()
        async with beside(service, web if interactive else None) as served:
            refused = await console.run(
                service,
                images,
                seed=seed,
                managers=managers,
                pages=served.link if served is not None else None,
            )
    finally:
        await store.close()
    return 1 if refused and not interactive else 0


async def _web(db_path: Target, web: Web | None) -> int:
    """Serve the games' pages alone until stopped (Ctrl-C): no Discord, no timers."""
    if web is None:
        print("BRIDGEKEEPER_WEB=off: there are no pages to serve.", file=sys.stderr)
        return 2
    store = await checked_store(db_path)
    try:
        service = Service(store)
        async with serving(service, web) as served:
            print(f"Serving the games' pages at {served.listening}; Ctrl-C stops.", flush=True)
            await asyncio.Event().wait()
    except CannotServe as exc:
        raise SystemExit(str(exc)) from None
    finally:
        await store.close()
    return 0


async def _selfplay(args: argparse.Namespace) -> int:
    import engine
    from bot.tools.selfplay import known_game, play_random

    rules = engine.get(known_game(args.game))
    info = rules.info
    if args.players and not info.min_players <= args.players <= info.max_players:
        print(f"{info.name} is for {player_count(info)}, not {args.players}.", file=sys.stderr)
        return 2
    counts = [args.players] if args.players else list(range(info.min_players, info.max_players + 1))
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-selfplay-") as tmp:
        store = await open_store(args.db or Path(tmp) / "selfplay.db")
        service = Service(store, images=args.images, seed=lambda: 0)
        rng = random.Random(args.seed)
        try:
            for n in range(args.games):
                players = counts[n % len(counts)]
                seed = args.seed * 100_003 + n
                try:
                    played = await play_random(
                        service,
                        Table(channel_id=10_000 + n, guild_id=1),
                        args.game,
                        players,
                        rng,
                        seed=seed,
                    )
                except Exception:  # the very thing selfplay is run to find: say which game
                    print(f"game {n + 1}: {players} players, seed {seed} FAILED", file=sys.stderr)
                    traceback.print_exc()
                    return 1
                summary = played.final.text.split("\n", 1)[-1].replace("\n", "; ")
                print(f"game {n + 1}: {players} players, {played.moves} moves — {summary}")
        finally:
            await store.close()
    return 0


def _bench_refusal(args: argparse.Namespace) -> str | None:
    """What is wrong with a bench's options, if anything: each says what would do."""
    if args.db is not None and args.timers:
        return "--timers builds its own SQLite file; it takes no --db."
    if args.db is not None and args.load and not backend(args.db).shared:
        return (
            "--load builds its own SQLite file; --db with --load takes a PostgreSQL URL (an "
            "empty scratch database), to share the games out between --bot-processes."
        )
    if args.bot_processes != [1] and not (args.load and args.db is not None):
        return "--bot-processes goes with --load --db postgresql://... (one SQLite process)."
    return None


def _flushed(line: str) -> None:
    """A line printed at once, for a long bench's output read while it runs."""
    print(line, flush=True)


def _option(text: str) -> tuple[str, str]:
    """``--option name=value``: read as the terminal reads a game's options."""
    try:
        (pair,) = parse_options(text).items()
    except (Refused, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r}: write one name=value, e.g. height=8") from None
    return pair


def _counts(text: str) -> list[int]:
    """``--bot-processes 1,2,4``: each a whole number of processes, 1 to 64."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= n <= 64 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: give counts of processes, e.g. 1,2,4")
    return counts


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = load_settings()
    except (StoreFault, BadSetting) as exc:
        raise SystemExit(str(exc)) from None
    if args.command == "console":
        from bot.terminal.boards import folder_for

        db_path = args.db or settings.db_path
        images = args.images or folder_for(db_path)
        return asyncio.run(_console(db_path, images, args.seed, args.manager, settings.web))
    if args.command == "web":
        try:
            return asyncio.run(_web(args.db or settings.db_path, settings.web))
        except KeyboardInterrupt:
            return 0
    if args.command == "selfplay":
        return asyncio.run(_selfplay(args))
    if args.command == "arena":
        from bot.tools import arena
        from bot.tools.selfplay import known_game

        arena.run(
            known_game(args.game), args.a, args.b, args.games, args.seed, args.budget,
            jobs=args.jobs, options=dict(args.option),
        )  # fmt: skip
        return 0
    if args.command == "balance":
        from bot.tools import balance
        from bot.tools.selfplay import known_game

        game = known_game(args.game)
        try:
            rows = balance.rows_of(engine.get(game), args.row)
        except Refused as exc:
            raise SystemExit(str(exc)) from None
        balance.run(game, rows, args.games, args.seed, args.level, args.jobs, _flushed)
        return 0
    if args.command == "ratings":
        return asyncio.run(rebuild_ratings(args.db or settings.db_path))
    if args.command == "migrate-store":
        from bot.hosting.migrate_store import migrate_store

        return asyncio.run(migrate_store(args.source, args.target))
    if args.command == "backup":
        return asyncio.run(backup(args.db or settings.db_path, args.target))
    if args.command == "restore":
        return asyncio.run(restore(args.source, args.db or settings.db_path, args.force))
    if args.command == "bench":
        refusal = _bench_refusal(args)
        if refusal:
            print(refusal, file=sys.stderr)
            return 2
        if args.timers:
            from bot.tools import timers

            asyncio.run(timers.run())
            return 0
        if args.load:
            from bot.tools import load, load_processes

            shape = {
                "games": args.games,
                "seconds": args.seconds,
                "processes": args.processes,
                "rate": args.rate,
                "ai": (args.ai_share, args.ai_level),
            }
            if args.db is None:
                asyncio.run(load.run(print, **shape))
            else:
                asyncio.run(load_processes.run(print, args.db, args.bot_processes, **shape))
            return 0
        from bot.tools import bench
        from bot.tools.selfplay import known_game

        for key in args.game:
            known_game(key)
        asyncio.run(bench.run(quick=args.quick, only=args.game, db=args.db))
        return 0
    if not settings.token:
        print(no_token_hint(), file=sys.stderr)
        return 2
    asyncio.run(_run_bot(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
