"""``python -m bot arena``: one JSON line from --a's side, the same for the same seed but
for the CPU figures; Seven Bridges alone against Euler."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.tools import arena

CPU = {"cpu_ms_p50", "cpu_ms_p99"}


def _line(capsys, *args: str) -> dict:
    assert main(["arena", *args]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1, out
    return json.loads(out[0])


def test_one_line_from_as_side_and_the_same_again_for_the_same_seed(capsys):
    args = ("skybridge", "--a", "hard", "--b", "easy", "--games", "2", "--seed", "3")
    first = _line(capsys, *args, "--budget", "8")
    assert set(first) == {
        "game", "a", "b", "games", "seed", "wins", "losses", "draws", "margin", *CPU,
    }  # fmt: skip
    assert (first["game"], first["a"], first["b"], first["games"]) == (
        "skybridge",
        "hard",
        "easy",
        2,
    )
    assert first["wins"] + first["losses"] + first["draws"] == 2
    assert 0 < first["cpu_ms_p50"] <= first["cpu_ms_p99"]
    again = _line(capsys, *args, "--budget", "8")
    assert {k: v for k, v in again.items() if k not in CPU} == {
        k: v for k, v in first.items() if k not in CPU
    }
    other = _line(capsys, "skybridge", "--a", "hard", "--b", "easy", "--games", "2",
                  "--seed", "4", "--budget", "8")  # fmt: skip
    assert other["margin"] != first["margin"] or other["wins"] != first["wins"]


def test_two_worker_processes_print_the_line_one_process_prints(capsys):
    """``--jobs 2`` shares the games between two processes: the same games, from the same
    seeds, so the same line but for the CPU figures."""
    args = ("bridges-and-boats", "--a", "normal", "--b", "easy", "--games", "3", "--seed", "5")
    alone = _line(capsys, *args)
    shared = _line(capsys, *args, "--jobs", "2")
    assert {k: v for k, v in shared.items() if k not in CPU} == {
        k: v for k, v in alone.items() if k not in CPU
    }
    solo = ("seven-bridges", "--a", "normal", "--b", "euler", "--games", "2", "--seed", "5")
    assert _line(capsys, *solo, "--jobs", "2")["score"] == _line(capsys, *solo)["score"]


def test_every_game_alone_against_euler_is_timed_not_only_the_even_ones():
    for match in arena.fixtures("seven-bridges", "normal", "euler", 2, 5, None):
        assert arena.play(match).cpu_ms, match


def test_seven_bridges_alone_against_euler_reports_both_mean_scores(capsys):
    line = _line(capsys, "seven-bridges", "--a", "normal", "--b", "euler", "--games", "2")
    assert line["wins"] + line["losses"] + line["draws"] == 2
    assert line["margin"] == pytest.approx(line["score"] - line["euler"], abs=0.01)
    assert line["euler"] > 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("skybridge", "--a", "expert"), "no AI level 'expert'"),
        (("skybridge", "--b", "euler"), "Only Seven Bridges has Euler"),
        (("seven-bridges", "--a", "euler"), "give him as --b"),
        (("chess",), "no game 'chess'"),
        (("skybridge", "--jobs", "0"), "--jobs is the number of worker processes"),
    ],
)
def test_a_level_game_or_opponent_that_cannot_be_played_is_refused(args, said):
    with pytest.raises(SystemExit, match=said):
        main(["arena", *args, "--games", "1"])
