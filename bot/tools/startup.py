"""How long ``python -m bot`` takes before it can answer, measured in a fresh process.

Both ``bench --load`` and ``bench --timers`` report it (``<bench>.startup_s``, its
phases, and the process's CPU time), on the database each has just filled.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from bot.service import Service
from bot.store import SQLiteStore
from bot.tools.figures import Emit, metric

PHASES = ("imports_s", "open_check_s", "values_check_s", "setup_s", "first_tick_s")

_STARTUP = """
import asyncio, json, sys, time
t0 = time.perf_counter()
from bot.tools.startup import startup
print(json.dumps(asyncio.run(startup(sys.argv[1], t0))), flush=True)
"""


async def _kept(_item: object) -> bool:
    """Not posted: no Discord here; the pass's own work is what is timed."""
    return True


async def _unsent(_notice: object) -> None:
    """Not sent, likewise."""


async def startup(path: str, t0: float) -> dict[str, float]:
    """What ``python -m bot`` does before it can answer, less the Discord connection:
    imports, open + migrations, integrity check, the live games' stored values checked,
    the client's setup_hook work (cogs, persistent buttons; not the command sync, which
    is a call to Discord), and the first play-by-post pass (timers, league rounds, the
    daily puzzle, due notices)."""
    from bot.discord.callers import jump_link
    from bot.discord.client import Bridgekeeper
    from bot.discord.cogs.postal import Postal  # loaded with the client: no import timed twice

    phases = {"imports_s": time.perf_counter() - t0}
    store = await SQLiteStore.open_checked(Path(path))
    phases["open_check_s"] = time.perf_counter() - t0 - sum(phases.values())
    try:
        service = Service(store, link=jump_link)
        await service.games.check_stored()
        phases["values_check_s"] = time.perf_counter() - t0 - sum(phases.values())
        async with Bridgekeeper(service) as client:
            await client.install()  # the bot's own set-up, less the command sync
            phases["setup_s"] = time.perf_counter() - t0 - sum(phases.values())
            postal = client.get_cog("Postal")
            assert isinstance(postal, Postal)  # installed just above
            due = await postal.minute.run(_kept, _unsent)
            phases["first_tick_s"] = time.perf_counter() - t0 - sum(phases.values())
            phases["due"] = due
    finally:
        await store.close()
    return phases


def _time_startup(path: Path) -> tuple[float, dict[str, float]]:
    """Wall time of a fresh process's start-up on ``path``, and its phases."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _STARTUP, str(path)],
        capture_output=True,
        text=True,
        check=True,
        # the checkout's root, as `python -m bot` runs: from inside bot/, its discord/
        # would stand in for discord.py
        cwd=Path(__file__).resolve().parents[2],
    )
    elapsed = time.perf_counter() - started
    return elapsed, json.loads(done.stdout.strip().splitlines()[-1])


def report_startup(emit: Emit, bench: str, path: Path) -> None:
    """Start a fresh process on ``path`` and emit ``<bench>.startup_s``, its CPU time
    (``<bench>.startup_cpu_s``) and each phase (``<bench>.startup.<phase>``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    elapsed, phases = _time_startup(path)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    metric(emit, f"{bench}.startup_s", elapsed, "s")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    metric(emit, f"{bench}.startup_cpu_s", cpu, "s")
    for name in PHASES:
        metric(emit, f"{bench}.startup.{name}", phases[name], "s")
