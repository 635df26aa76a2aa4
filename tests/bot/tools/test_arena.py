"""``python -m bot arena``: one JSON line from --a's side, the same for the same seed but
for the CPU figures; Seven Bridges alone against Euler; a game's options, checked as
``/game new`` checks them. ``python -m bot balance``: which seat wins, row by row."""

from __future__ import annotations

import json

import pytest

import engine
from bot.__main__ import main
from bot.tools import arena, balance

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
        "game", "a", "b", "games", "seed", "options", "wins", "losses", "draws", "margin",
        *CPU, "seat_wins", "turns", "stalled",
    }  # fmt: skip
    assert first["options"] == {} and sum(first["seat_wins"]) + first["draws"] == 2
    assert first["turns"] > 1
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
        (("skybridge", "--option", "height=8"), "height is a Bridge Wars option; Skybridge has"),
        (("bridge-wars", "--option", "height=40"), "Bridge Wars: height must be 4 to 16"),
        (
            ("bridges-and-boats", "--option", "secret_pilots=on", "--option", "match_bombing=on"),
            "secret_pilots and match_bombing cannot be played together",
        ),
    ],
)
def test_a_level_game_or_opponent_that_cannot_be_played_is_refused(args, said):
    with pytest.raises(SystemExit, match=said):
        main(["arena", *args, "--games", "1"])


def test_a_games_options_are_played_and_reported(capsys):
    """The same seeds with and without an option: other games, and the line says which."""
    args = ("bridges-and-boats", "--a", "easy", "--b", "easy", "--games", "4", "--seed", "2")
    plain = _line(capsys, *args)
    nine = _line(capsys, *args, "--option", "dominoes=double-9", "--option", "attacker_income=5")
    assert nine["options"] == {"dominoes": "double-9", "attacker_income": "5"}
    assert (nine["turns"], nine["margin"]) != (plain["turns"], plain["margin"])
    with pytest.raises(SystemExit):
        main(["arena", "skybridge", "--option", "height"])
    assert "write one name=value" in capsys.readouterr().err


def test_the_balance_bench_prints_a_row_for_each_option_with_its_interval(capsys):
    assert main(["balance", "bridges-and-boats", "--level", "easy", "--games", "3",
                 "--row", "rulebook", "--row", "variant=balanced bridge_speed=3"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith(
        "| options | attacker won | 95 % interval | defender won | 95 % interval |"
    )
    rows = [line.split(" | ") for line in out[3:]]
    assert [row[0] for row in rows] == ["| rulebook", "| variant=balanced bridge_speed=3"]
    assert all(row[i].endswith("%") and "–" in row[i] for row in rows for i in (2, 4))
    assert len(balance.rows_of(engine.get("bridges-and-boats"), [])) == 16


def test_a_wilson_interval_holds_the_rate_and_stays_within_bounds():
    assert balance.wilson(0, 10)[0] == 0.0 and balance.wilson(10, 10)[1] == 1.0
    low, high = balance.wilson(100, 200)
    assert low == pytest.approx(0.431, abs=0.001) and high == pytest.approx(0.569, abs=0.001)


def test_a_seat_that_never_ends_its_turn_loses_on_time_and_the_line_says_whose_clock_ran_out(
    monkeypatch,
):
    """Play by post ends a turn that never ends by the clock; the arena, which has none,
    resigns a seat after TURN_ACTIONS actions in one turn (here 2, so a Seven Cities turn
    of three actions or more runs out), and counts it from ``--a``'s side and the other's."""
    monkeypatch.setattr(arena, "TURN_ACTIONS", 2)
    line = arena.run("seven-cities", "easy", "normal", games=2, seed=5, emit=lambda _: None)
    assert sum(line["stalled"]) == 2, line  # every game ends on someone's clock
    assert line["wins"] + line["losses"] == 2
    monkeypatch.setattr(arena, "TURN_ACTIONS", 300)
    line = arena.run("seven-cities", "easy", "normal", games=2, seed=5, emit=lambda _: None)
    assert line["stalled"] == [0, 0], line
