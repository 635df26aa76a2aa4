"""The terminal front end as a second client: lines in, text out, a real SQLite file.

Everything a player can do on Discord can be done here, with the same names and options.
"""

from __future__ import annotations

import io
import os
import pty
import random
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest

import engine
from bot.discord.cogs import COGS
from bot.service import Service
from bot.store import SQLiteStore
from bot.terminal.commands import DM, TABLE
from bot.terminal.session import Console, run
from tests.conftest import run_bot

NOON = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday


@pytest.fixture
async def console(tmp_path):
    store = await SQLiteStore.open(tmp_path / "console.db", clock=lambda: NOON)
    out = io.StringIO()
    service = Service(store, images=False, seed=lambda: 4242)
    yield Console(service, tmp_path / "boards", out, managers=["mod"]), out
    await store.close()


async def play(console: Console, out: io.StringIO, *lines: str) -> str:
    """Type ``lines``; what the terminal printed for them."""
    start = out.tell()
    for line in lines:
        await console.handle(line)
    return out.getvalue()[start:]


def discord_commands() -> list[str]:
    """Every slash command a player sees on Discord, as typed: ``game new``, ``move`` …"""
    typed = []
    for cog in COGS:
        group = f"{cog.__cog_group_name__} " if cog.__cog_is_app_commands_group__ else ""
        typed += [group + command.name for command in cog.__cog_app_commands__]
    return typed


async def test_every_discord_command_is_understood_in_the_terminal(console):
    console, out = console
    commands = discord_commands()
    assert len(commands) >= 35
    for typed in commands:
        said = await play(console, out, f"ada: /{typed}")
        assert "Unknown command" not in said and "has no '" not in said, typed
        assert said.strip(), typed
    for discord_only in ("daily setup", "league role"):
        assert "the terminal has none" in await play(console, out, f"ada: /{discord_only}")


async def test_help_lists_every_command(console):
    console, out = console
    listed = await play(console, out, "ada: /help")
    for typed in discord_commands():
        name = typed.split()[-1] if typed.startswith("game ") else typed.split()[0]
        assert f"/{name}" in listed or f" {typed.split()[-1]}" in listed, typed


async def test_solo_reads_a_first_word_with_an_equals_sign_as_an_option(console):
    console, out = console
    said = await play(console, out, "ada: /solo start=ii-2-3")
    assert "**Seven Bridges** begins. Seats: 1. ada." in said
    game = await console.service.store.live_game(1)
    assert game.options["start"] == "ii-2-3"
    refused = await play(console, out, "bob: /new start=ii-2-3")
    assert "Name the game first, e.g. `/new skybridge`" in refused


async def test_new_takes_the_discord_options_and_the_games_own(console):
    console, out = console
    said = await play(
        console,
        out,
        "ada: /new seven-bridges time_per_move=2d at_deadline=forfeit rated=off advanced=on",
        "ada: /new skybridge rated=maybe",
    )
    assert "A casual game: ratings stay as they are. Time per move: 2 days" in said
    assert "their resignation" in said
    assert "(only ada sees this) rated is on or off, not 'maybe'." in said
    game = await console.service.store.live_game(1)
    assert game.options == {"advanced": "on"}


async def test_a_games_options_are_read_through_its_specs_as_on_discord(console):
    """``name=value`` stays in the terminal, read by the same specs as Discord's typed
    options, with the same refusals: and a refused line stores nothing."""
    console, out = console
    said = await play(
        console,
        out,
        "ada: /new skybridge height=8",
        "ada: /new bridge-wars height=40",
        "ada: /new bridge-wars height=tall",
        "ada: /new seven-bridges start=r7c1",
        "ada: /new seven-cities clock=25:99",
    )
    assert "(only ada sees this) height is a Bridge Wars option; Skybridge has no options." in said
    assert "Bridge Wars: height must be 4 to 16 layers (default 12), not 40." in said
    assert "Bridge Wars: height must be 4 to 16 layers (default 12), not 'tall'." in said
    assert "Seven Bridges: start iii-1-1 is water" in said
    assert "Battle for Seven Cities: clock is the time the game starts, as HH:MM" in said
    assert console.refused == 5 and await console.service.store.count_games() == 0
    opened = await play(console, out, "ada: /new bridge-wars height=8", "bob: /join", "ada: /start")
    assert "**Bridge Wars** (2–4 players; height 8)" in opened
    row = await console.service.store.live_game(1)
    assert row.options == {"height": "8"}
    assert engine.get("bridge-wars").from_json(row.state).height == 8


async def test_settings_extend_replace_and_archive_work_as_on_discord(console):
    console, out = console
    said = await play(
        console,
        out,
        "ada: /settings notify=dm timezone=Europe/Berlin quiet_start=22 quiet_end=7",
        "ada: /settings quiet=off",
        "ada: /settings colour=red",
        "ada: /new skybridge time_per_move=1d",
        "bob: /join",
        "ada: /start",
        "ada: /extend by=12h",
        "mod: /replace player=bob by=cy",
        "ada: /vacation days=2",
    )
    assert "Turn notices: a direct message; time zone Europe/Berlin; quiet 22:00–7:00" in said
    assert "time zone Europe/Berlin; no quiet hours" in said
    assert "/settings has no option 'colour'; its options: notify, timezone" in said
    assert re.search(
        r"ada gave (ada|bob) 12 hours more: due 20\d\d-\d\d-\d\d \d\d:\d\d UTC\.", said
    )
    assert "cy takes over seat 2 from bob." in said
    assert "your clocks are paused for 2 days" in said


async def test_reminder_settings_are_the_same_options_as_on_discord(console):
    console, out = console
    said = await play(
        console,
        out,
        "ada: /settings reminders=digest digest_hour=8 timezone=Europe/Berlin heads_up=on",
        "ada: /settings heads_up=maybe",
        "ada: /settings reminders=fortnightly",
        "ada: /settings reminders=12h digest_hour=9",
        "ada: /settings reminders=3d heads_up=off",
    )
    lines = said.splitlines()
    assert lines[1] == (
        "Reminders: one digest a day instead, at 8:00 Europe/Berlin, next 2026-11-03 07:00 UTC; "
        '"you\'re next" heads-up: on.'
    )
    assert "(only ada sees this) heads_up is on or off, not 'maybe'." in said
    assert "reminders: `fortnightly` is not a choice" in said
    assert "digest_hour is the hour of your daily digest" in said
    assert lines[-1] == 'Reminders: every 3 days (in every game); "you\'re next" heads-up: off.'
    stored = await console.service.store.settings((await console.caller("ada")).user_id)
    assert (stored.remind_hours, stored.digest_hour, stored.heads_up) == (72, None, False)


async def test_hand_prints_the_players_own_hand_as_text_and_nobody_elses(console):
    console, out = console
    rules = engine.get("seven-cities")
    state = rules.new(2, {"clock": "12:00"}, 4242)  # opened at noon UTC, the test's clock
    names = ["ada", "bob"]
    lines = ["ada: /new seven-cities", "bob: /join", "ada: /start"]
    for _ in range(2):  # each player's starting city deals the hands
        seat = rules.to_play(state)[0]
        action = rules.legal(state, seat)[0]
        state = rules.apply(state, seat, action).state
        lines.append(f"{names[seat]}: /move {rules.format(action)}")
    hands = [", ".join(rules.view(state, s).hand) for s in (0, 1)]
    assert all(hands) and hands[0] != hands[1]
    await play(console, out, *lines)
    assert console.refused == 0, "every line was played"
    mine = await play(console, out, "ada: /hand")
    assert f"(only ada sees this) Only you can see this.\nYour hand: {hands[0]}." in mine
    assert hands[1] not in mine
    theirs = await play(console, out, "bob: /hand")
    assert f"Your hand: {hands[1]}." in theirs and hands[0] not in theirs


async def test_the_daily_challenge_is_played_in_the_terminal_beside_the_shared_table(console):
    console, out = console
    said = await play(console, out, "ada: /daily stats", "ada: /daily play", "ada: /daily fly")
    assert "You have not finished a daily challenge yet" in said
    assert "**Daily challenge 2026-11-02** (Monday" in said
    assert "/daily has no 'fly'; choose play, leaderboard or stats" in said
    opened = await play(console, out, "bob: /new skybridge", "cy: /join")
    assert "bob opened a game of **Skybridge**" in opened and "cy joined" in opened
    ada = await console.caller("ada")
    table = await console.place(ada)
    assert table.channel_id == DM + ada.user_id
    refused = console.refused
    while await console.service.store.live_game(table.channel_id) is not None:
        move = (await console.service.play.legal_moves(table, ada))[0]
        await play(console, out, f"ada: /move {move}")
    assert console.refused == refused, "every move went to ada's daily game"
    after = await play(console, out, "ada: /daily play", "ada: /daily stats", "ada: /status")
    assert "You have played today's challenge" in after
    assert "**ada**: 1 daily game," in after
    assert "**Skybridge** lobby — players: bob, cy" in after, "ada is back at the shared table"
    board = await play(console, out, "ada: /daily leaderboard")
    assert "**Today (2026-11-02)** — by margin over Euler\n1. ada " in board


async def test_a_league_is_run_from_the_terminal_and_its_players_are_sent_to_their_match(
    console,
):
    console, out = console
    said = await play(
        console,
        out,
        'ada: /league create name="Spring Cup" game=skybridge format=round-robin',
        'mod: /league create name="Spring Cup" game=skybridge format=round-robin',
        "ada: /league join Spring Cup",
        "bob: /league join Spring Cup",
        "mod: /league start Spring Cup",
    )
    assert "Only a server manager or the league organiser role can create a league." in said
    assert "ada joined the Spring Cup league (1 player)." in said
    assert re.search(r"\((ada, bob|bob, ada): your game commands now go to this table\)", said)
    status = await play(console, out, "ada: /status")
    assert "**Skybridge**\n1. " in status
    listed = await play(console, out, "ada: /league list", "ada: /league schedule Spring Cup")
    assert "Spring Cup — Skybridge, round-robin, round 1 of 1" in listed
    assert re.search(r"\*\*Spring Cup\*\* schedule\nR1: (ada v bob|bob v ada)", listed)


def test_without_a_token_the_hint_names_the_interpreter_running_now(tmp_path):
    """A bare `python` outside the venv would not find the bot: say this one."""
    done = run_bot(cwd=tmp_path)
    assert done.returncode == 2
    assert f"Play locally without Discord instead:   {sys.executable} -m bot console" in (
        done.stderr
    )


async def test_an_interactive_run_says_its_seed_first(tmp_path):
    class Keyboard(io.StringIO):
        def isatty(self) -> bool:
            return True

    store = await SQLiteStore.open(tmp_path / "t.db")
    out = io.StringIO()
    try:
        await run(Service(store, images=False), tmp_path, Keyboard(""), seed=99, out=out)
    finally:
        await store.close()
    assert "Seed 99: `--seed 99` plays the same games again." in out.getvalue()


def test_a_terminal_session_prints_a_seed_that_replays_it(tmp_path):
    """Typed at a real terminal with no --seed: the seed it shows replays the same dice."""
    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BRIDGEKEEPER_DB")}
    typed = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", "a.db"],
        cwd=tmp_path,
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(secondary)
    os.write(primary, b"ada: /solo start=ii-2-3\nada: /move roll\n\x04")
    shown, _ = typed.communicate(timeout=120)
    os.close(primary)
    shown = shown.decode()
    seed = re.search(r"Seed (\d+): `--seed \1` plays the same games again", shown)
    assert seed, shown[:500]
    rolled = re.search(r"Round 1, turn 1: ada rolls [^\n]*", shown)
    assert rolled, shown
    again = run_bot(
        "console", "--db", "b.db", "--seed", seed[1], cwd=tmp_path,
        stdin="ada: /solo start=ii-2-3\nada: /move roll\n",
    )  # fmt: skip
    assert rolled[0] in again.stdout


async def test_discords_own_option_names_work_too(console):
    console, out = console
    said = await play(
        console,
        out,
        "ada: /solo game=seven-bridges start=ii-2-3",
        "ada: /move notation=roll",
        "ada: /rules game=skybridge",
        "ada: /leaderboard game=skybridge",
    )
    assert console.refused == 1, said  # no rated Skybridge games yet: the leaderboard says so
    assert "Round 1, turn 1: ada rolls " in said and "Skybridge" in said
    assert "No rated Skybridge games have been played here yet." in said
    assert (await console.service.store.live_game(1)).options["start"] == "ii-2-3"


async def test_a_number_option_takes_ascii_digits_only(console):
    """'²' passes str.isdigit but is no number int() reads: refused, not a crash."""
    console, out = console
    said = await play(console, out, "ada: /settings quiet_start=²", "ada: /board move=²")
    assert "quiet_start must be a whole number from 0 to 1000000000; `²` is not." in said
    assert "move must be a whole number from 0 to 1000000; `²` is not." in said


async def test_a_person_plays_an_ai_alone_in_the_terminal(console):
    console, out = console
    opened = await play(console, out, "ada: /new skybridge ai=1 ai_level=easy", "ada: /start")
    assert "AI players: AI Telford (easy)" in opened
    ada = await console.caller("ada")
    said = ""
    for _ in range(3):
        move = (await console.service.play.legal_moves(TABLE, ada))[0]
        said += await play(console, out, f"ada: /move {move}")
    assert said.count("AI Telford (easy) placed") >= 2, "it answered each move by itself"
    assert said.rstrip().endswith("To play: ada.\n  → @ada"), "the turn is the person's"
    refused = await play(console, out, "ada: /replace player=ada ai=easy")
    assert "only AI players, with nobody to watch" in refused


async def test_against_an_ai_each_person_sees_their_own_secrets_and_nobody_the_ais(tmp_path):
    """Each person's own draws are printed, marked as theirs, even when they came on the
    AI's move; nothing only the AI may see is printed or written as a picture."""
    store = await SQLiteStore.open(tmp_path / "console.db", clock=lambda: NOON)
    out = io.StringIO()
    console = Console(Service(store, images=True, seed=lambda: 4242), tmp_path / "boards", out)
    try:
        await play(console, out, "ada: /new seven-cities ai=1 ai_level=easy", "ada: /start")
        ada, rng = await console.caller("ada"), random.Random(3)
        for _ in range(40):  # a few rounds: one begins on the AI's move
            move = rng.choice(await console.service.play.legal_moves(TABLE, ada))
            await play(console, out, f"ada: /move {move}")
        assert console.refused == 0
        game = await store.live_game(TABLE.channel_id)
        log = await store.moves(game.id)
        seats = await store.seats(game.id)
    finally:
        await store.close()
    said = out.getvalue()
    (person,) = [s for s in seats if s.ai is None]
    (ai,) = [s for s in seats if s.ai is not None]
    names = [s.name for s in seats]
    rules = engine.get("seven-cities")
    state = rules.new(2, game.options, game.seed)
    told_on_ais_move = []
    for entry in log:
        step = rules.play(state, entry.seat, entry.action)
        for event in step.events:
            line = event.describe(names)
            if event.seat == ai.seat:
                assert line not in said, f"the AI's secret was printed: {line}"
            if event.seat == person.seat and entry.seat == ai.seat:
                told_on_ais_move.append(line)
        state = step.state
    assert told_on_ais_move, "a round began on the AI's move: ada drew then"
    for line in told_on_ais_move:
        assert f"(only ada sees this) Only you can see this.\n{line}" in said
    assert f"(only {ai.name} sees this)" not in said
    kept = sorted(path.name for path in (tmp_path / "boards").iterdir())
    assert kept == [f"game{game.id}-ada.png", f"game{game.id}.png"], "no picture of the AI's"
