"""The pages' bench runs end to end, on both stores, and reports what docs/bench.md
documents (small sizes; no timing is judged here)."""

from __future__ import annotations

import json

from bot.tools import bench_web

DOCUMENTED = (
    "web.page_p50_ms",
    "web.page_p99_ms",
    "web.board_p50_ms",
    "web.board_p99_ms",
    "web.pages_per_s",
    "web.cpu_ms_per_page",
    "web.update_p50_ms",
    "web.update_p99_ms",
    "web.gif_cpu_ms",
)


async def _figures(db=None) -> dict[str, dict]:
    lines: list[str] = []
    await bench_web.run(lines.append, db, readers=3, seconds=1.0, moves=5)
    return {row["metric"]: row for row in map(json.loads, lines)}


async def test_the_web_bench_reports_every_documented_metric() -> None:
    _check(await _figures(), "sqlite")


async def test_on_postgresql_another_store_moves_the_game(postgres_url) -> None:
    _check(await _figures(postgres_url), "postgresql")


def _check(metrics: dict[str, dict], where: str) -> None:
    for name in DOCUMENTED:
        assert name in metrics, name
        assert metrics[name]["value"] > 0, name
    assert metrics["web.update_p99_ms"]["store"] == where, "moved by another store on a server"
    assert metrics["web.gif_cpu_ms"]["moves"] == 5
    assert metrics["web.loadavg_start"]["value"] >= 0
    for kind in ("page", "board", "update"):
        p50, p99 = (metrics[f"web.{kind}_{q}_ms"]["value"] for q in ("p50", "p99"))
        assert p50 <= p99, kind
