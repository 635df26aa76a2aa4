"""The command line of ``python -m bot``: its subcommands, their options, and the checks
an option's value gets before anything runs."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from bot.service import Refused
from bot.service.inputs import parse_options
from bot.store import StoreFault, Target, backend, target

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


def parser(description: str) -> argparse.ArgumentParser:
    """Every subcommand and its options; ``description`` heads ``--help``."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=description)
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
    arena.add_argument(
        "--a", default="hard", help="the level reported on (default hard; mc100: the reference)"
    )
    arena.add_argument("--b", default="normal", help="its opponent's level, mc100, or euler (solo)")
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
        "--web", action="store_true", help="the games' pages under 100 readers, and live updates"
    )
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


def bench_refusal(args: argparse.Namespace) -> str | None:
    """What is wrong with a bench's options, if anything: each says what would do."""
    if args.web and (args.load or args.timers):
        return "--web is a bench of its own: give it without --load or --timers."
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
