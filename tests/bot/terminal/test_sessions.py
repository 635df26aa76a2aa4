"""The terminal over several sessions on one database, as ``python -m bot console`` is run
and run again: a name is the same person, a daily game or league match in play is found
again, and board pictures go on under names that say what they show."""

from __future__ import annotations

import re

from tests.conftest import run_bot


def session(database, cwd, *lines: str):
    """One run of ``python -m bot console`` on ``database``, typing ``lines`` (mod manages)."""
    return run_bot(
        "console", "--db", str(database), "--seed", "1", "--manager", "mod",
        cwd=cwd, stdin="\n".join(lines),
    )  # fmt: skip


def colour_to_play(said: str) -> tuple[str, str]:
    """Who is to play a two-player Skybridge just begun, and a colour of theirs."""
    to_play = re.findall(r"To play: (\w+)\.", said)[-1]
    colours = dict(re.findall(r"\d\. (\w+) \((\w+) and", said))
    return to_play, colours[to_play]


async def test_a_name_is_the_same_person_in_every_session_on_a_database(database, tmp_path):
    first = session(database, tmp_path, "ada: /new skybridge", "bob: /join", "ada: /start")
    assert first.returncode == 0, first.stdout
    player, colour = colour_to_play(first.stdout)
    other = "ada" if player == "bob" else "bob"
    # bob types first in the next session: each is still who they were
    again = session(database, tmp_path, "bob: /status", f"{player}: /move {colour} tall b2")
    assert again.returncode == 0, again.stdout
    assert f"{player} placed {colour} tall b2.\nTo play: {other}." in again.stdout
    assert f"→ @{other}" in again.stdout


async def test_a_daily_game_and_a_league_match_in_play_are_found_again(database, tmp_path):
    first = session(
        database, tmp_path,
        "cy: /daily play",
        'mod: /league create name="Spring Cup" game=skybridge format=round-robin',
        "ada: /league join Spring Cup",
        "bob: /league join Spring Cup",
        "mod: /league start Spring Cup",
    )  # fmt: skip
    assert "**Daily challenge" in first.stdout and "your game commands now go" in first.stdout
    player, colour = colour_to_play(first.stdout)
    again = session(
        database, tmp_path,
        "cy: /status",
        "cy: /move roll",
        "cy: /daily play",
        "ada: /status",
        f"{player}: /move {colour} tall b2",
    )  # fmt: skip
    assert again.returncode == 0, again.stdout
    said = again.stdout
    assert "(only cy sees this) **Seven Bridges**\n1. cy — 0\nTo play: cy." in said
    assert "Round 1, turn 1: cy rolls " in said
    assert "Your daily challenge is still going; your game commands go to it." in said
    assert "(only ada sees this) **Skybridge**\n" in said
    assert f"{player} placed {colour} tall b2." in said


async def test_pictures_go_on_across_sessions_under_names_that_say_what_they_show(tmp_path):
    """One file for a game's board as it stands, however many moves and sessions; a past
    board and a league's standings each under a name of their own."""
    db = tmp_path / "cup.db"
    first = session(db, tmp_path, "ada: /new skybridge", "bob: /join", "ada: /start")
    player, colour = colour_to_play(first.stdout)
    folder = tmp_path / "boards" / "cup"
    started = (folder / "game1.png").read_bytes()
    again = session(
        db, tmp_path,
        f"{player}: /move {colour} tall b2",
        "ada: /board move=0",
        'mod: /league create name="Spring Cup" game=skybridge format=round-robin',
        "ada: /league join Spring Cup",
        "ada: /league standings Spring Cup",
    )  # fmt: skip
    assert again.returncode == 0, again.stdout
    assert f"[board image: {folder.relative_to(tmp_path)}/game1.png]" in again.stdout
    kept = sorted(path.name for path in folder.iterdir())
    assert kept == [
        "game1-move000.png",
        "game1.png",
        "spring-cup-standings-before-round-1.png",
    ], kept
    assert (folder / "game1.png").read_bytes() != started, "the board as it stands now"
    assert (folder / "game1-move000.png").read_bytes() == started, "the start, kept apart"
