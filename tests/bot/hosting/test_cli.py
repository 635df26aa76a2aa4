"""The terminal front end and tools, run as a newcomer runs them: ``python -m bot ...``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

import engine
from bot.config import load_settings
from tests.conftest import run_bot


def test_without_a_token_the_bot_says_how_to_set_one_and_how_to_play_locally(tmp_path):
    done = run_bot(cwd=tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr
    assert ".env" in done.stderr
    assert "python -m bot console" in done.stderr


def test_settings_come_from_dotenv_and_the_environment_wins(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# secrets\nDISCORD_TOKEN='from-file'\nBRIDGEKEEPER_DB=games.db\n")
    assert load_settings({}, dotenv).token == "from-file"
    assert load_settings({}, dotenv).db_path == Path("games.db")
    assert load_settings({"DISCORD_TOKEN": "from-env"}, dotenv).token == "from-env"
    assert load_settings({}, tmp_path / "missing").db_path == Path("bridgekeeper.db")


def test_console_plays_a_scripted_skybridge_game_and_writes_board_images(tmp_path):
    script = "\n".join(
        [
            "# two friends at one keyboard",
            "ada: /new skybridge",
            "bob: /join",
            "ada: /start",
            "ada: /status",
            "not a command line",
        ]
    )
    done = run_bot("console", "--db", "t.db", "--images", "pics", cwd=tmp_path, stdin=script)
    assert done.returncode == 1, "the line it could not read makes a piped script fail"
    out = done.stdout
    assert "ada opened a game of **Skybridge**" in out
    assert "bob joined" in out
    assert "begins. Seats: 1. ada (red and yellow), 2. bob (blue and green)." in out
    assert "? Write '<user>: /<command> <args>'" in out
    images = sorted((tmp_path / "pics").glob("*.png"))
    assert images, out
    with Image.open(images[0]) as board:
        assert board.width >= 600


def test_console_opens_a_game_with_options_and_plays_alone_against_euler(tmp_path):
    script = "\n".join(
        [
            "ada: /new seven-bridges start=ii-2-3 advanced=maybe",
            "ada: /solo seven-bridges start=ii-2-3",
            "ada: /legal",
            "ada: /move roll",
        ]
    )
    done = run_bot("console", "--db", "t.db", "--images", "pics", cwd=tmp_path, stdin=script)
    assert done.returncode == 1, "a piped script with a refused line says so in its status"
    lines = done.stdout.splitlines()
    assert "(only ada sees this) Seven Bridges: advanced is on or off, not 'maybe'." in lines[0]
    assert "**Seven Bridges** begins. Seats: 1. ada." in done.stdout
    assert "Your 1 legal move: `roll`" in done.stdout
    assert "Round 1, turn 1: ada rolls " in done.stdout
    with Image.open(tmp_path / "pics" / "game1-ada.png") as sheet:
        assert sheet.width == 900, "ada's own map sheet, privately"


def test_console_takes_the_words_the_bot_itself_suggests(tmp_path):
    """Discord's words (`/game join`) work too, though the terminal's answers say `/join`;
    and so does `ada: /help`."""
    script = "\n".join(
        ["ada: /game new skybridge", "bob: /game join", "ada: /help", "ada: /game start"]
    )
    done = run_bot("console", "--db", "t.db", "--images", "pics", cwd=tmp_path, stdin=script)
    assert done.returncode == 0, done.stdout
    assert "Join with `/join`; ada starts it with `/start`." in done.stdout
    assert "bob joined" in done.stdout and "Lines look like" in done.stdout
    assert "Seats: 1. ada (red and yellow), 2. bob (blue and green)." in done.stdout
    assert "Unknown command" not in done.stdout


def test_console_replays_a_whole_game_piped_from_a_file(tmp_path):
    """A script written from the engine's own play, replayed with the same seed."""
    rules = engine.get("skybridge")
    names = ["ada", "bob", "cy"]
    state = rules.new(3, None, 77)
    lines = ["ada: /new skybridge", "bob: /join", "cy: /join", "ada: /start"]
    while not rules.is_over(state):
        seat = rules.to_play(state)[0]
        action = rules.legal(state, seat)[-1]
        state = rules.apply(state, seat, action).state
        lines.append(f"{names[seat]}: /move {rules.format(action)}")
    lines.append("ada: /history")
    (tmp_path / "game.txt").write_text("\n".join(lines) + "\n")

    with open(tmp_path / "game.txt") as script:
        done = subprocess.run(
            [sys.executable, "-m", "bot", "console", "--db", "t.db", "--seed", "77"],
            cwd=tmp_path,
            stdin=script,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("(only ") == 1  # just the private history: no move refused
    assert "**Game over.**" in done.stdout
    result = rules.result(state)
    winner = names[result.places.index(1)]
    assert f"1st {winner} — {max(result.scores)}" in done.stdout
    kept = list((tmp_path / "boards" / "t").glob("*.png"))
    assert [path.name for path in kept] == ["game1.png"], "the board as it stands: the final one"


def test_selfplay_prints_one_line_per_game_and_exits_zero(tmp_path):
    done = run_bot("selfplay", "skybridge", "--games", "3", "--seed", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("game ")]
    assert len(lines) == 3
    assert all("Game over" in ln and "1st" in ln for ln in lines)
    assert [ln.split(",")[0] for ln in lines] == [
        "game 1: 2 players",
        "game 2: 3 players",
        "game 3: 4 players",
    ]


def test_selfplay_refuses_a_player_count_the_game_cannot_seat(tmp_path):
    done = run_bot("selfplay", "skybridge", "--players", "5", cwd=tmp_path)
    assert done.returncode == 2
    assert "Skybridge is for 2–4 players, not 5." in done.stderr
    assert "Traceback" not in done.stderr


def test_selfplay_refuses_an_unknown_game(tmp_path):
    done = run_bot("selfplay", "chess", cwd=tmp_path)
    assert done.returncode != 0
    assert "known games: " in done.stderr


def test_bench_quick_prints_the_documented_metrics_as_json_lines(tmp_path):
    done = run_bot(
        "bench", "--quick", "--game", "skybridge", "--game", "seven-bridges", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    metrics = {row["metric"]: row for row in rows}
    for name in (
        "sqlite.commit_p50_ms",
        "sqlite.commit_normal_p50_ms",
        "skybridge.move_p50_ms",
        "skybridge.move_p99_ms",
        "skybridge.render_p50_ms",
        "skybridge.render_p99_ms",
        "skybridge.png_kb",
        "skybridge.moves_per_s",
        "seven-bridges.legal_p99_ms",
        "seven-bridges.loop_p99_ms",
        "seven-bridges.loop_speedup",
    ):
        assert name in metrics, name
        assert metrics[name]["value"] > 0
        assert metrics[name]["unit"]
    assert metrics["skybridge.move_p50_ms"]["value"] <= metrics["skybridge.move_p99_ms"]["value"]
    assert {m.split(".")[0] for m in metrics} == {"sqlite", "skybridge", "seven-bridges"}


def test_the_running_bot_imports_no_developer_tools():
    """Benchmarks and self-play live in bot/tools: starting the bot must not load them."""
    probe = (
        "import sys, bot.discord.client, bot.terminal.session, bot.__main__; "
        "print(sorted(m for m in sys.modules if m.startswith('bot.tools')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
