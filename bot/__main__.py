"""``python -m bot [console | selfplay | arena | bench | backup | restore]``; alone, the bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import secrets
import shlex
import sqlite3
import sys
import tempfile
import traceback
from contextlib import ExitStack, closing, suppress
from pathlib import Path

from bot.config import load_settings
from bot.drawing import drawers
from bot.ratings import replay
from bot.service import Service, Table, player_count
from bot.store import (
    SQLiteStore,
    Store,
    StoreFault,
    Target,
    dumps,
    is_postgres,
    open_checked,
    open_store,
    redacted,
    sole_process,
    target,
)
from bot.thinking import AI_PROCESSES, thinkers

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
    console.add_argument("--images", type=Path, default=Path("boards"), help="board image folder")
    console.add_argument("--seed", type=int, help="fix new games' seed, to replay a script")
    console.add_argument(
        "--manager", action="append", default=[], metavar="NAME",
        help="this user manages the terminal's server: leagues, others' games (repeatable)",
    )  # fmt: skip
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
    backup = sub.add_parser("backup", help="copy the live database safely (online backup)")
    backup.add_argument("target", type=Path, help="the file to write the copy to")
    backup.add_argument("--db", type=_database, help=_DB_HELP)
    restore = sub.add_parser("restore", help="put a backup in place of the database")
    restore.add_argument("source", type=Path, help="a file written by backup")
    restore.add_argument("--db", type=_database, help=_DB_HELP)
    restore.add_argument("--force", action="store_true", help="replace an existing database")
    ratings = sub.add_parser("ratings", help="recompute every rating from stored results")
    ratings.add_argument("--rebuild", action="store_true", required=True)
    ratings.add_argument("--db", type=_database, help=_DB_HELP)
    bench = sub.add_parser("bench", help="print speed figures as JSON lines")
    bench.add_argument("--quick", action="store_true", help="fewer games, for CI")
    bench.add_argument(
        "--db", type=_database, help="time moves on this store (a scratch database; default: "
        "temporary SQLite files)",
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
    return parser


async def _checked_store(db_path: Target, full: bool = False) -> Store:
    """Open the store, or stop saying what is wrong with the file and what to do about it:
    a missing folder, a lock held elsewhere, a newer schema and damage each get their own.
    ``full``: check a big file in full before going on, not after (for the one-off commands:
    a backup must not copy damage, nor a ratings rebuild write into it)."""
    try:
        return await open_checked(db_path, full=full)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None


async def _backup(db_path: Target, target: Path) -> int:
    if target.exists():
        print(f"{target} already exists; choose a new file for the backup.", file=sys.stderr)
        return 1
    store = await _checked_store(db_path, full=True)
    try:
        games = await store.count_games()
        await store.backup(target)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    finally:
        await store.close()
    if is_postgres(db_path):
        print(f"backed up {redacted(db_path)} to {target} (pg_dump, custom format): {games} games")
        print(f"restore it with: {dumps.restore_command(target, db_path)}")
        return 0
    copy = await SQLiteStore.open(target)
    try:
        verdict, games = await copy.integrity(), await copy.count_games()
    finally:
        await copy.close()
    print(f"backed up {db_path} to {target}: {games} games, integrity {verdict}")
    return 0 if verdict == "ok" else 1


async def _restore(source: Path, db_path: Target, force: bool) -> int:
    """Put a backup in place of the database with one atomic rename, so the live file is
    always either the old database or the whole restored one, never missing or half-copied.
    On PostgreSQL, ``pg_restore`` replaces the database's contents in one transaction."""
    if not source.is_file():
        print(f"no backup at {source}", file=sys.stderr)
        return 1
    if is_postgres(db_path):
        return await _restore_postgres(source, db_path, force)
    if db_path.exists() and not force:
        print(f"{db_path} exists; stop the bot and add --force to replace it.", file=sys.stderr)
        return 1
    with ExitStack() as stack:
        _hold(stack, db_path)  # refused while a bot runs on the file
        fd, name = tempfile.mkstemp(dir=db_path.parent, prefix=f".{db_path.name}.restoring-")
        os.close(fd)
        staged = Path(name)
        stack.callback(_remove_with_journals, staged)  # gone by then, unless it failed
        _copy_backup(source, staged)
        games = await _migrated_games(staged, source)  # migrates a backup taken by an older version
        _fsync(staged)
        _settle_old(db_path)
        os.replace(staged, db_path)
        _fsync(db_path.parent)
    print(f"restored {games} games from {source} to {db_path}")
    return 0


async def _restore_postgres(source: Path, url: str, force: bool) -> int:
    if not force:
        print(
            f"restoring replaces everything {redacted(url)} holds; stop every bot using it "
            "and add --force.",
            file=sys.stderr,
        )
        return 1
    try:
        dumps.restore(source, url)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    store = await _checked_store(url)  # migrates a dump taken by an older version
    try:
        games = await store.count_games()
    finally:
        await store.close()
    print(f"restored {games} games from {source} to {redacted(url)}")
    return 0


def _hold(stack: ExitStack, db_path: Path) -> None:
    """Hold the database's one-process lock until ``stack`` closes, or stop, saying who has it."""
    try:
        stack.enter_context(sole_process(db_path))
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None


def _copy_backup(source: Path, staged: Path) -> None:
    """Copy a checked backup into ``staged``. The backup is only read (a check that opened
    it as a store would migrate it and turn it to WAL): it stays as taken, to restore again."""
    with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as backup:
        try:
            verdict = backup.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
        if verdict != "ok":
            detail = " ".join(verdict.split())[:200]
            raise SystemExit(
                f"{source} failed SQLite's integrity check ({detail}), so it cannot be "
                "restored; nothing was changed. Choose another backup."
            )
        with closing(sqlite3.connect(staged)) as copy:
            backup.backup(copy)


async def _migrated_games(staged: Path, source: Path) -> int:
    """Bring the staged copy's schema up to date; its game count. Closing the last
    connection checkpoints its WAL into the file, which is all that is renamed."""
    try:
        store = await _checked_store(staged)
    except SystemExit as exc:  # a fault of the backup's contents: name the backup
        raise SystemExit(str(exc).replace(str(staged), str(source))) from None
    try:
        return await store.count_games()
    finally:
        await store.close()


def _settle_old(db_path: Path) -> None:
    """Fold the old database's WAL into it if SQLite can, then delete its -wal and -shm:
    left beside the restored file, SQLite would replay the old frames into it."""
    if db_path.is_file():
        with suppress(sqlite3.Error), closing(sqlite3.connect(db_path)) as old:
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _remove_journals(db_path)


def _remove_journals(path: Path) -> None:
    for journal in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        journal.unlink(missing_ok=True)


def _remove_with_journals(path: Path) -> None:
    path.unlink(missing_ok=True)
    _remove_journals(path)


def _fsync(path: Path) -> None:
    """Make a file's data, or a folder's entries (a rename), durable before going on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


async def _rebuild_ratings(db_path: Target) -> int:
    store = await _checked_store(db_path, full=True)
    try:
        games, same = await store.rebuild_ratings(replay)
    finally:
        await store.close()
    verdict = "identical to the stored ratings" if same else "DIFFERENT from the stored ratings"
    print(f"replayed {games} rated games: {verdict}; the recomputed ratings are now stored")
    return 0 if same else 1


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


async def _run_bot(db_path: Target, token: str, sharded: bool = False) -> None:
    """Run the bot; one process per SQLite file unless the deployment is sharded
    (PostgreSQL is shared by design: its writes and claims hold across processes)."""
    with ExitStack() as stack:
        if not sharded and not is_postgres(db_path):
            _hold(stack, db_path)
        await _serve(db_path, token)


async def _serve(db_path: Target, token: str) -> None:
    from bot.client import Bridgekeeper
    from bot.views import jump_link

    processes = render_processes()
    logging.getLogger(__name__).info("drawing boards in %d worker processes", processes)
    store = await _checked_store(db_path)
    try:
        with ExitStack() as stack:
            workers = stack.enter_context(drawers(processes)) if processes else None
            pool = stack.enter_context(thinkers(AI_PROCESSES))
            service = Service(store, link=jump_link, drawers=workers, thinkers=pool)
            async with Bridgekeeper(service) as client:
                await client.start(token)
    finally:
        await store.close()


async def _console(db_path: Target, images: Path, seed: int | None, managers: list[str]) -> int:
    """Exit status 1 when a piped script had refused lines, so a broken replay is noticed.
    Every run has a seed (one drawn now, if not given), told so it can be replayed."""
    from bot import console

    store = await _checked_store(db_path)
    seed = secrets.randbits(31) if seed is None else seed
    try:
        service = Service(store, link=lambda _table: "the terminal table", seed=lambda: seed)
        refused = await console.run(service, images, seed=seed, managers=managers)
    finally:
        await store.close()
    return 1 if refused and not sys.stdin.isatty() else 0


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


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = load_settings()
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    if args.command == "console":
        db_path = args.db or settings.db_path
        return asyncio.run(_console(db_path, args.images, args.seed, args.manager))
    if args.command == "selfplay":
        return asyncio.run(_selfplay(args))
    if args.command == "arena":
        from bot.tools import arena
        from bot.tools.selfplay import known_game

        arena.run(known_game(args.game), args.a, args.b, args.games, args.seed, args.budget)
        return 0
    if args.command == "ratings":
        return asyncio.run(_rebuild_ratings(args.db or settings.db_path))
    if args.command == "backup":
        return asyncio.run(_backup(args.db or settings.db_path, args.target))
    if args.command == "restore":
        return asyncio.run(_restore(args.source, args.db or settings.db_path, args.force))
    if args.command == "bench":
        if args.db is not None and (args.load or args.timers):
            print(
                "--db times moves on that database with the plain bench only; --load and "
                "--timers build their own SQLite files.",
                file=sys.stderr,
            )
            return 2
        if args.timers:
            from bot.tools import timers

            asyncio.run(timers.run())
            return 0
        if args.load:
            from bot.tools import load

            asyncio.run(
                load.run(
                    games=args.games,
                    seconds=args.seconds,
                    processes=args.processes,
                    rate=args.rate,
                    ai=(args.ai_share, args.ai_level),
                )
            )
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
    asyncio.run(_run_bot(settings.db_path, settings.token, settings.sharded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
