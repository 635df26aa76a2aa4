"""Nothing is lost: a bot process killed with SIGKILL mid-move leaves every move it
acknowledged in the log, and a state that is exactly the log's replay."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

import engine
from bot.service import effective_moves
from bot.store import SQLiteStore

SKY = engine.get("skybridge")
SEED = 4242


def scripted_game() -> list[str]:
    """Every move of a whole 2-player game, as console lines."""
    names = ["ada", "bob"]
    state = SKY.new(2, None, SEED)
    lines = []
    while not SKY.is_over(state):
        seat = state.turn
        action = SKY.legal(state, seat)[0]
        state = SKY.apply(state, seat, action).state
        lines.append(f"{names[seat]}: /move {SKY.format(action)}")
    return lines


def read_until(proc: subprocess.Popen, marker: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if marker in line:
            return line
    raise AssertionError(f"no {marker!r} from the bot")


@pytest.mark.parametrize("kill_after_ms", [0, 3, 12])
def test_sigkill_mid_move_loses_no_acknowledged_move(tmp_path, kill_after_ms):
    db = tmp_path / "kill.db"
    moves = scripted_game()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-m",
            "bot",
            "console",
            "--db",
            str(db),
            "--seed",
            str(SEED),
            "--images",
            str(tmp_path / "img"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    try:
        for line in ("ada: /new skybridge", "bob: /join", "ada: /start"):
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        read_until(proc, "begins. Seats:")
        acknowledged = 0
        for line in moves[:9]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            read_until(proc, " placed ")
            acknowledged += 1
        proc.stdin.write(moves[9] + "\n")
        proc.stdin.flush()
        time.sleep(kill_after_ms / 1000)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()

    async def check() -> None:
        store = await SQLiteStore.open(db)  # the restart: migrations, WAL recovery
        try:
            async with store.transaction() as conn:
                (verdict,) = await (await conn.execute("PRAGMA integrity_check")).fetchone()
            assert verdict == "ok"
            game = await store.latest_game(1)
            log = await store.moves(game.id)
            played = [f"{['ada', 'bob'][m.seat]}: /move {m.action}" for m in log]
            assert acknowledged <= len(played) <= acknowledged + 1
            assert played == moves[: len(played)], "every acknowledged move, in order"
            standing = [(m.seat, m.action) for m in effective_moves(log)]
            replayed = SKY.replay(2, game.options, game.seed, standing)
            assert SKY.to_json(replayed) == game.state, "the stored state is the log's replay"
            assert game.version == 2 + len(log)
        finally:
            await store.close()

    asyncio.run(check())
