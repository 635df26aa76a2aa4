"""The load bench runs end to end and reports what the README documents."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from bot.hosting.running import render_processes
from bot.store import SQLiteStore
from bot.tools import load, seeding

DOCUMENTED = (
    "load.startup_s",
    "load.moves_per_s",
    "load.p50_ms",
    "load.p99_ms",
    "load.p99_norender_ms",
    "load.capacity_moves_per_s",
    "load.cpu_ms_per_move",
    "load.peak_rss_mb",
)


async def test_load_bench_reports_every_documented_metric() -> None:
    lines: list[str] = []
    await load.run(lines.append, games=4, seconds=1.0, rate=40.0, stored=200)
    metrics = {row["metric"]: row for row in map(json.loads, lines)}
    for name in DOCUMENTED:
        assert name in metrics, name
        assert metrics[name]["value"] > 0, name
    assert metrics["load.p50_ms"]["value"] <= metrics["load.p99_ms"]["value"]
    # the whole machine's busy cores hold the bot's own (a tick of /proc/stat's rounding aside)
    machine = metrics["load.capacity_machine_cores_busy"]["value"]
    stolen = metrics["load.capacity_machine_cores_stolen"]["value"]
    assert machine >= metrics["load.capacity_cores_busy"]["value"] - 0.1
    assert stolen >= 0 and machine + stolen <= os.cpu_count() + 0.1


async def test_seeded_database_holds_played_games_and_live_ones_on_a_clock(tmp_path) -> None:
    path = tmp_path / "seeded.db"
    await seeding.seed(path, 120)
    store = await SQLiteStore.open(path)
    try:
        assert await store.count_games() == 120
        later = datetime.max.replace(tzinfo=UTC)
        waits = await store.claim_due_waits(later, later, 10_000)
        assert waits and all(w.deadline is not None for w in waits)
        async with store.transaction() as db:
            cur = await db.execute("SELECT COUNT(*) FROM moves")
            (moves,) = await cur.fetchone()
            await cur.close()
        assert moves > 120 * 10  # real move logs, not empty rows
    finally:
        await store.close()


def test_render_processes_default_to_one_per_core_and_can_be_set(monkeypatch) -> None:
    assert render_processes({"BRIDGEKEEPER_RENDER_PROCESSES": "0"}) == 0
    assert render_processes({"BRIDGEKEEPER_RENDER_PROCESSES": "3"}) == 3
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert render_processes({}) == 0
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert render_processes({}) == 2


async def test_load_bench_splits_the_drawing_workers_cpu_from_the_bots() -> None:
    lines: list[str] = []
    await load.run(lines.append, games=4, seconds=1.0, processes=1, rate=40.0, stored=200)
    metrics = {row["metric"]: row["value"] for row in map(json.loads, lines)}
    assert metrics["load.loadavg_start"] >= 0
    assert 0 < metrics["load.cpu_drawing_ms_per_move"] < metrics["load.cpu_ms_per_move"]


async def test_load_bench_with_ai_seats_times_people_and_ai_apart() -> None:
    """A quarter of the seats AI players, thinking in their worker: people's moves and
    the AI's are both made and timed, each on their own."""
    lines: list[str] = []
    await load.run(lines.append, games=8, seconds=1.0, rate=40.0, stored=200, ai=(0.25, "easy"))
    metrics = {row["metric"]: row["value"] for row in map(json.loads, lines)}
    assert metrics["load.ai_share"] == 0.25
    assert metrics["load.ai_p99_ms"] > 0 and metrics["load.p99_ms"] > 0
