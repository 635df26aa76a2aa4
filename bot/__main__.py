"""``python -m bot [console | selfplay | bench]`` — with no command, runs the Discord bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
from pathlib import Path

from bot.config import load_settings
from bot.service import Service, Table
from bot.store import Store

NO_TOKEN = """\
No Discord token found, so the bot cannot connect to Discord.
  Set one:   export DISCORD_TOKEN=your-bot-token   (or put DISCORD_TOKEN=... in a .env file here)
  Play locally without Discord instead:   python -m bot console"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (the default)")
    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    console.add_argument("--db", type=Path, help="SQLite file (default: BRIDGEKEEPER_DB)")
    console.add_argument("--images", type=Path, default=Path("boards"), help="board image folder")
    console.add_argument("--seed", type=int, help="fix new games' seed, to replay a script")
    selfplay = sub.add_parser("selfplay", help="play whole games with random legal moves")
    selfplay.add_argument("game")
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--players", type=int, help="default: every count the game allows")
    selfplay.add_argument("--db", type=Path, help="SQLite file (default: a temporary one)")
    selfplay.add_argument("--images", action="store_true", help="render after each move too")
    bench = sub.add_parser("bench", help="print speed figures as JSON lines")
    bench.add_argument("--quick", action="store_true", help="fewer games, for CI")
    return parser


async def _run_bot(db_path: Path, token: str) -> None:
    from bot.client import Bridgekeeper
    from bot.views import jump_link

    store = await Store.open(db_path)
    try:
        async with Bridgekeeper(Service(store, link=jump_link)) as client:
            await client.start(token)
    finally:
        await store.close()


async def _console(db_path: Path, images: Path, seed: int | None) -> None:
    from bot import console

    store = await Store.open(db_path)
    options = {} if seed is None else {"seed": lambda: seed}
    try:
        service = Service(store, link=lambda _table: "the terminal table", **options)
        await console.run(service, images)
    finally:
        await store.close()


async def _selfplay(args: argparse.Namespace) -> int:
    import engine
    from bot.selfplay import known_game, play_random

    rules = engine.get(known_game(args.game))
    counts = (
        [args.players]
        if args.players
        else list(range(rules.info.min_players, rules.info.max_players + 1))
    )
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-selfplay-") as tmp:
        store = await Store.open(args.db or Path(tmp) / "selfplay.db")
        service = Service(store, images=args.images, seed=lambda: 0)
        rng = random.Random(args.seed)
        try:
            for n in range(args.games):
                players = counts[n % len(counts)]
                played = await play_random(
                    service,
                    Table(channel_id=10_000 + n),
                    args.game,
                    players,
                    rng,
                    seed=args.seed * 100_003 + n,
                )
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
    settings = load_settings()
    if args.command == "console":
        asyncio.run(_console(args.db or settings.db_path, args.images, args.seed))
        return 0
    if args.command == "selfplay":
        return asyncio.run(_selfplay(args))
    if args.command == "bench":
        from bot import bench

        asyncio.run(bench.run(quick=args.quick))
        return 0
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    asyncio.run(_run_bot(settings.db_path, settings.token))
    return 0


if __name__ == "__main__":
    sys.exit(main())
