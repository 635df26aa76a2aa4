"""The board in words, where players meet it: the alt text of every board picture (cut to
Discord's 1,024 characters at a line, saying where the rest is), ``/game board text:true``
on Discord, ``/board text=on`` in the terminal, and the standings picture's alt text.
"""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

import engine
import renders
from bot.discord.messages import ALT_LIMIT, ALT_MORE, clip, parts_of
from bot.service import Caller, Reply, Service
from bot.terminal.session import Console
from tests.bot.discord.discord_harness import Harness
from tests.bot.discord.discord_limits import ALT_TEXT
from tests.bot.discord.test_commands import ADA, BOB, open_game
from tests.conftest import CY, DEE, TABLE
from tests.renders.test_text import KEYS, views

SKYBRIDGE = engine.get("skybridge")
MOD = Caller(1009, "Mod", manager=True)


# -- cut to Discord's limit, in one place ------------------------------------------------


def test_words_that_fit_are_kept_whole():
    text = "Skybridge board.\nAda to play.\nScores: Ada 0, Bob 0."
    assert clip(text) == text


def test_long_words_are_cut_after_the_last_whole_line_that_fits_and_say_so():
    lines = [f"Line {i}: " + "word " * 29 + "end." for i in range(20)]
    cut = clip("\n".join(lines))
    assert len(cut) <= ALT_LIMIT == ALT_TEXT
    kept, more = cut.rsplit("\n", 1)
    assert more == ALT_MORE and "/game board text:true" in more
    assert "\n".join(lines).startswith(kept + "\n"), "only whole lines are kept"
    assert len(kept) + len(lines[len(kept.split("\n"))]) > ALT_LIMIT - len(ALT_MORE) - 1


def test_one_long_line_is_cut_after_a_sentence():
    cut = clip("A sentence. " * 200)
    assert len(cut) <= ALT_LIMIT
    assert cut.endswith(f"sentence.\n{ALT_MORE}")


@pytest.mark.parametrize("key", KEYS)
def test_every_alt_text_fits_and_keeps_the_game_the_turn_and_the_scores(key):
    cut_somewhere = 0
    for _, _, _, lines in views(key):
        alt = clip("\n".join(lines))
        assert len(alt) <= ALT_TEXT
        assert alt.startswith("\n".join(lines[:4]) + "\n"), "game, turn, scores, last move"
        cut_somewhere += alt.endswith(ALT_MORE)
    if key in ("seven-cities", "bridge-wars"):
        assert cut_somewhere, "the longest positions were cut"


def test_a_reply_without_a_picture_carries_no_alt_text():
    (part,) = parts_of(Reply("No board here.", alt="words"))
    assert "file" not in part.kwargs()


# -- the service ---------------------------------------------------------------------------


async def start_skybridge(service: Service) -> Reply:
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    return await service.lobby.start(TABLE, ADA)


async def test_every_board_the_service_draws_carries_its_view_in_words(store):
    service = Service(store, images=True, seed=lambda: 12345)
    started = await start_skybridge(service)
    game = await service.games.live(TABLE)
    public = renders.LOOKS["skybridge"].describe(SKYBRIDGE.view(game.state, None), game.names)
    assert started.image is not None and started.alt == public
    mover = {ADA.user_id: ADA, BOB.user_id: BOB}[game.awaited_users()[0]]
    move = (await service.play.legal_moves(TABLE, mover))[0]
    moved = await service.play.move(TABLE, mover, move)
    assert moved.alt.startswith("Skybridge board.\n") and f"Last move: {move}." in moved.alt


async def test_board_text_gives_the_whole_words_and_without_it_none(service):
    await start_skybridge(service)
    game = await service.games.live(TABLE)
    words = renders.LOOKS["skybridge"].describe(SKYBRIDGE.view(game.state, None), game.names)
    plain = await service.looking.board(TABLE)
    assert words not in plain.text and "Scores:" not in plain.text
    spoken = await service.looking.board(TABLE, words=True)
    assert spoken.private and spoken.text.endswith("\n" + words)
    at_start = await service.looking.board(TABLE, move=0, words=True)
    assert "No move yet." in at_start.text


async def test_words_of_a_game_with_secrets_are_the_public_ones(store):
    service = Service(store, images=True, seed=lambda: 12345)
    await service.lobby.create(TABLE, ADA, "bridges-and-boats")
    await service.lobby.join(TABLE, BOB)
    started = await service.lobby.start(TABLE, ADA)
    assert "only you" not in started.alt and "Your reserve" not in started.alt
    spoken = await service.looking.board(TABLE, words=True)
    assert "Face-down reserves:" in spoken.text and "Your reserve" not in spoken.text


# -- the terminal --------------------------------------------------------------------------


async def test_the_terminal_reads_the_board_aloud_on_request(store, tmp_path):
    out = io.StringIO()
    console = Console(Service(store, images=False, seed=lambda: 4242), tmp_path, out)
    for line in ("ada: /new skybridge", "bob: /join", "ada: /start", "ada: /board"):
        await console.handle(line)
    assert "Scores:" not in out.getvalue()
    await console.handle("bob: /board text=on")
    said = out.getvalue().rsplit("(only bob sees this) ", 1)[1]
    assert "\nSkybridge board.\n" in said and "Scores: ada 0, bob 0." in said
    assert "Empty squares: a1, b1, c1, a2, b2, c2, a3, b3 and c3." in said
    await console.handle("bob: /board text=maybe")
    assert "text is on or off, not 'maybe'." in out.getvalue()
    assert console.refused == 1, "only the bad value was refused"


# -- Discord -------------------------------------------------------------------------------


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


async def test_a_posted_board_carries_its_words_as_the_attachments_description(h):
    board = await open_game(h)
    (attachment,) = board.payload["attachments"]
    alt = attachment["description"]
    assert alt.startswith("Skybridge board.\n") and "Scores: Ada 0, Bob 0." in alt
    assert len(alt) <= ALT_TEXT


async def test_game_board_text_true_answers_with_the_words_privately(h):
    await open_game(h)
    replies = await h.slash("game", "board", text=True, user=BOB)
    assert all(r.ephemeral for r in replies.messages)
    said = replies.text
    assert "Skybridge board.\n" in said and "Empty squares: a1, b1" in said
    (picture,) = [r for r in replies.messages if r.files]
    assert picture.payload["attachments"][0]["description"].startswith("Skybridge board.")
    plain = await h.slash("game", "board", user=BOB)
    assert "Empty squares" not in plain.text


async def test_the_fake_refuses_alt_text_over_discords_limit_and_the_bot_never_sends_one(
    h, monkeypatch
):
    long = "\n".join(f"Line {i}: " + "word " * 40 for i in range(30))
    wordy = replace(renders.LOOKS["skybridge"], describe=lambda view, names: long)
    monkeypatch.setitem(renders.LOOKS, "skybridge", wordy)
    board = await open_game(h)
    alt = board.payload["attachments"][0]["description"]
    assert len(alt) <= ALT_TEXT and alt.endswith(ALT_MORE)
    monkeypatch.setattr("bot.discord.messages.clip", lambda text, **_: text)  # as if nothing cut it
    with pytest.raises(AssertionError, match=f"alt text over {ALT_TEXT} characters"):
        await h.slash("game", "board", user=ADA)


# -- the standings picture -----------------------------------------------------------------


async def test_the_standings_picture_reads_its_table_a_row_a_line(store):
    service = Service(store, images=False, seed=lambda: 12345)
    await service.leagues.create(TABLE, MOD, "Cup", "skybridge", "round-robin")
    for player in (ADA, BOB):
        await service.leagues.join(TABLE.guild_id, player, "Cup")
    await service.league_rounds.start(TABLE.guild_id, MOD, "Cup")
    standing = await service.league_tables.standings(TABLE.guild_id, "Cup")
    assert standing.image is not None
    title, *rows = standing.alt.split("\n")
    assert title.startswith("Cup standings ")
    assert sorted(row.split(". ", 1)[1] for row in rows) == [
        "Ada: Pts 0, GP 0, Score 0",
        "Bob: Pts 0, GP 0, Score 0",
    ]
    (part,) = parts_of(standing)
    assert part.kwargs()["file"].description == standing.alt


async def test_cut_standings_words_point_to_the_standings_not_to_a_game(store):
    """A big league's table is cut to Discord's limit like a board's, but the rest is in
    ``/league standings``, not in ``/game board text:true`` (a game's command)."""
    service = Service(store, images=False, seed=lambda: 12345)
    await service.leagues.create(TABLE, MOD, "Cup", "skybridge", "round-robin")
    for n in range(40):
        await service.leagues.join(TABLE.guild_id, Caller(2000 + n, f"Player number {n}"), "Cup")
    await service.league_rounds.start(TABLE.guild_id, MOD, "Cup")
    standing = await service.league_tables.standings(TABLE.guild_id, "Cup")
    assert len(standing.alt) > ALT_LIMIT
    (*_, part) = parts_of(standing)
    alt = part.kwargs()["file"].description
    assert len(alt) <= ALT_LIMIT and alt.endswith("… (cut here; /league standings has it all)")
    assert "/game" not in alt


async def test_a_cut_own_view_points_to_the_public_words_and_to_hand(store):
    """A player's own sheet (four players' Seven Bridges) reads longer than alt text
    holds: what is cut is in the public words and in ``/hand``, which says their own."""
    service = Service(store, seed=lambda: 12345)
    await service.lobby.create(TABLE, ADA, "seven-bridges", {"start": "ii-2-3"})
    for player in (BOB, CY, DEE):
        await service.lobby.join(TABLE, player)
    await service.lobby.start(TABLE, ADA)
    for player in (ADA, BOB, CY, DEE):
        own = await service.play.hand(TABLE, player)
        assert len(own.alt) > ALT_LIMIT
        (*_, part) = parts_of(own)
        alt = part.kwargs()["file"].description
        assert alt.endswith("… (cut here; /game board text:true, with /hand, has it all)")
        assert "Your score 0, cross a bridge to count" in own.text, "/hand has it in words"
