"""The timers bench runs end to end and reports what docs/bench.md documents."""

from __future__ import annotations

import json

from bot.tools import timers

DOCUMENTED = (
    "timers.tick_ms",
    "timers.minute_ms",
    "timers.first_tick_ms",
    "timers.startup_s",
    "timers.startup.open_check_s",
)


async def test_timers_bench_reports_every_documented_metric() -> None:
    lines: list[str] = []
    await timers.run(lines.append, stored=200, ticks=2)
    metrics = {row["metric"]: row for row in map(json.loads, lines)}
    for name in DOCUMENTED:
        assert name in metrics, name
        assert metrics[name]["value"] > 0, name
    assert metrics["timers.first_due"]["value"] > 0, "the seeded reminders were due"
