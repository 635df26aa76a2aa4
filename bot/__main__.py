"""``python -m bot [console | web | selfplay | arena | bench | backup | restore |
migrate-store]``; alone, the bot (serving the games' pages too)."""

from __future__ import annotations

import asyncio
import logging
import sys

import engine
from bot.config import BadSetting, load_settings
from bot.hosting.arguments import bench_refusal, no_token_hint, parser
from bot.hosting.backups import backup, rebuild_ratings, restore
from bot.hosting.offline import run_console, serve_pages
from bot.hosting.running import run_bot
from bot.service import Refused
from bot.store import StoreFault


def _flushed(line: str) -> None:
    """A line printed at once, for a long bench's output read while it runs."""
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__ or "").parse_args(argv)
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
        return asyncio.run(run_console(db_path, images, args.seed, args.manager, settings.web))
    if args.command == "web":
        try:
            return asyncio.run(serve_pages(args.db or settings.db_path, settings.web))
        except KeyboardInterrupt:
            return 0
    if args.command == "selfplay":
        from bot.tools import selfplay

        return asyncio.run(selfplay.run(args))
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
        refusal = bench_refusal(args)
        if refusal:
            print(refusal, file=sys.stderr)
            return 2
        if args.timers:
            from bot.tools import timers

            asyncio.run(timers.run())
            return 0
        if args.web:
            from bot.tools import bench_web

            asyncio.run(bench_web.run(print, args.db))
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
    asyncio.run(run_bot(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
