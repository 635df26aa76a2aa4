"""What ``python -m bot`` runs without Discord: the terminal and the games' pages alone."""

from __future__ import annotations

import asyncio
import random
import secrets
import sys
from pathlib import Path

from bot.config import Web
from bot.hosting.backups import checked_store
from bot.service import Service
from bot.store import Store, Target
from bot.web.serving import CannotServe, beside, serving


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


async def run_console(
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


async def serve_pages(db_path: Target, web: Web | None) -> int:
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
