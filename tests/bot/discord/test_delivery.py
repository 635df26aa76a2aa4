"""Layer 2: a turn is always announced, however slow the board or dead the interaction.

Discord drops an interaction not acknowledged within 3 seconds and notifies nobody about a
mention added by an edit. These tests drive the real bot through :mod:`discord_harness`,
whose fake refuses exactly that, with a board that takes 5 seconds to draw and with
interactions that reach the bot after Discord gave up on them.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import discord
import pytest

import engine
from bot.service import Caller, Table
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, Harness, Reply, pinged, text

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
SKYBRIDGE = engine.get("skybridge")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


async def started(h: Harness) -> tuple[Reply, Caller, Caller]:
    """A Skybridge game for Ada and Bob: its first board, who moves, who waits."""
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    start = await h.slash("game", "start", user=ADA)
    mover = ADA if start.pinged == {ADA.user_id} else BOB
    return start.board, mover, BOB if mover is ADA else ADA


async def a_legal_move(h: Harness, mover: Caller) -> str:
    return (await h.service.play.legal_moves(Table(CHANNEL_ID, GUILD_ID), mover))[0]


async def moves_stored(h: Harness) -> int:
    row = await h.store.latest_game(CHANNEL_ID)
    return len(await h.store.moves(row.id))


def channel_boards(h: Harness, since: int) -> list[dict]:
    """Boards the bot posted in the game's channel by itself (not answering anyone)."""
    return [
        h.messages[m]
        for m in h.posted[since:]
        if m in h.messages
        and int(h.messages[m]["channel_id"]) == CHANNEL_ID
        and h.messages[m]["attachments"]
    ]


def pings_of(h: Harness, board: dict) -> set[int]:
    """Who a board the bot posted in a channel notifies: nobody by the card itself (a
    mention in a card notifies with no words), so whoever the plain message the bot
    posted right before it pings (mentioned and allowed)."""
    sent = [
        c
        for c in h.calls
        if c.method == "POST" and c.path == "/channels/{channel_id}/messages" and c.status == 200
    ]
    (at,) = [i for i, c in enumerate(sent) if c.payload and c.text == text(board)]
    assert pinged(sent[at].payload) == set(), "the card pings nobody"
    return pinged(sent[at - 1].payload)


async def test_a_board_that_takes_five_seconds_is_posted_and_pings_the_next_player(h, monkeypatch):
    board, mover, waiting = await started(h)
    draw = h.service.answers.board

    async def slow_board(*args, **kwargs):
        await asyncio.sleep(5)  # a cold drawing worker on a loaded machine
        return await draw(*args, **kwargs)

    monkeypatch.setattr(h.service.answers, "board", slow_board)
    before = await moves_stored(h)
    pinned_before = len(h.pinned)
    replies = await h.slash("move", notation=await a_legal_move(h, mover), user=mover)
    # acknowledged at once, answered later: the fake refuses a callback after 3 s
    public = replies.board
    assert len(public.images) == 1, "the board arrives"
    assert replies.pinged == {waiting.user_id}, "the next player is notified, nobody else"
    assert replies.public == [replies.ping, public], "by a message of its own, right before"
    assert not [r for r in replies if r.ephemeral], "the placeholder went once the board was out"
    assert await moves_stored(h) == before + 1, "stored once"
    assert len(h.pinned) == max(pinned_before, 1), "one status message, pinned once"
    status = h.messages[h.pinned[0]]["content"]
    assert waiting.name in status


async def test_an_expired_command_still_posts_its_board_and_ping_in_the_channel(h, caplog):
    board, mover, waiting = await started(h)
    before, posted = await moves_stored(h), len(h.posted)
    caplog.set_level(logging.WARNING, logger="bot")
    move = await a_legal_move(h, mover)
    replies = await h.slash("move", notation=move, user=mover, expired=True)
    assert list(replies) == [], "Discord took no answer through the dead interaction"
    assert await moves_stored(h) == before + 1, "the move stands, stored once"
    (posted_board,) = channel_boards(h, posted)  # exactly one: nothing posted twice
    assert posted_board["components"], "with its Play button"
    assert pings_of(h, posted_board) == {waiting.user_id}
    warned = [r for r in caplog.records if "takes no more answers" in r.getMessage()]
    assert len(warned) == 1, "the failure is logged once"
    (status,) = {h.messages[m]["content"] for m in h.pinned}
    assert f"To play: {waiting.name}." in status, "the pinned status follows the move"
    # the game plays on from the posted board
    replies = await h.slash("move", notation=await a_legal_move(h, waiting), user=waiting)
    assert replies.board.custom_ids and replies.pinged == {mover.user_id}


async def test_an_expired_refusal_posts_nothing_and_changes_nothing(h):
    board, mover, waiting = await started(h)
    before, posted = await moves_stored(h), len(h.posted)
    replies = await h.slash("move", notation="red tall z9", user=waiting, expired=True)
    assert list(replies) == []
    assert await moves_stored(h) == before
    assert channel_boards(h, posted) == [], "a refusal is private: never posted publicly"


async def test_the_last_click_of_an_expired_picker_still_announces_the_turn(h):
    board, mover, waiting = await started(h)
    (picker,) = await h.click(board.custom_ids[0], user=mover)
    before, posted = await moves_stored(h), len(h.posted)
    # walk the picker to a choice that plays a move, then click it too late
    while True:
        finishing = [b for b in picker.buttons if b.style == 3]
        if finishing:
            break
        (picker,) = await h.click(picker.buttons[0].custom_id, user=mover)
    replies = await h.click(finishing[0].custom_id, user=mover, expired=True)
    assert list(replies) == []
    assert await moves_stored(h) == before + 1
    (posted_board,) = channel_boards(h, posted)
    assert pings_of(h, posted_board) == {waiting.user_id}


async def test_move_suggestions_come_empty_rather_than_late(h, monkeypatch):
    board, mover, waiting = await started(h)
    legal = h.service.play.legal_moves

    async def slow_legal(*args, **kwargs):
        await asyncio.sleep(5)
        return await legal(*args, **kwargs)

    monkeypatch.setattr(h.service.play, "legal_moves", slow_legal)
    suggested = await h.autocomplete("move", "notation", "", user=mover)  # the fake: <= 3 s
    assert suggested.choices == []
    monkeypatch.setattr(h.service.play, "legal_moves", legal)
    suggested = await h.autocomplete("move", "notation", "", user=mover)
    assert suggested.choices, "in time, the legal moves are offered"


async def test_a_full_disk_is_told_privately_and_nothing_is_posted(h):
    from tests.bot.store.test_storage_faults import fill_the_disk

    board, mover, waiting = await started(h)
    await fill_the_disk(h.store)
    for _ in range(200):  # the last page's last bytes may still take a move or two
        row = await h.store.latest_game(CHANNEL_ID)
        game = await h.service.games.live(Table(CHANNEL_ID, GUILD_ID))
        player = ADA if game.awaited_users()[0] == ADA.user_id else BOB
        before = await moves_stored(h)
        replies = await h.slash("move", notation=await a_legal_move(h, player), user=player)
        if not replies.public:
            break
    else:
        raise AssertionError("the capped file never filled up")
    (refusal,) = replies.messages
    assert refusal.ephemeral and "I can't save anything right now" in refusal.text
    assert "disk is full" in refusal.text
    assert await moves_stored(h) == before
    assert (await h.store.latest_game(CHANNEL_ID)).version == row.version


async def test_a_move_made_at_a_deadline_posts_no_private_view(h):
    """A timed-out player's own view (their dominoes) belongs to them: the timer's public
    post of the move must not carry it."""
    await h.slash("game", "new", game="bridges-and-boats", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    async with h.store.transaction() as db:  # the deadline long past, the warning given
        await db.execute(
            "UPDATE seats SET deadline = '2000-01-01T00:00:00.000000+00:00', warned = 1 "
            "WHERE awaiting = 1"
        )
    posted = len(h.posted)
    await h.bot.get_cog("Postal").run_once()
    texts = [text(h.messages[m]) for m in h.posted[posted:] if m in h.messages]
    assert any("out of time" in t or "random" in t for t in texts), texts
    assert not [t for t in texts if "Only you can see this" in t or "Your hand" in t], texts


async def test_a_public_answer_discord_fails_to_take_still_reaches_the_channel_once(h, monkeypatch):
    """A server error on the board's follow-up (the token still good): the board goes to
    the channel instead, once, and no "Posting…" placeholder is left behind."""
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    send = discord.Webhook.send
    failed: list[int] = []

    async def flaky(self, *args, **kwargs):
        if kwargs.get("file") and not kwargs.get("ephemeral") and not failed:
            failed.append(1)
            raise discord.DiscordServerError(SimpleNamespace(status=503, reason="x"), "upstream")
        return await send(self, *args, **kwargs)

    monkeypatch.setattr(discord.Webhook, "send", flaky)
    posted = len(h.posted)
    await h.slash("game", "start", user=ADA)  # the harness fails on a placeholder left
    assert failed
    boards = channel_boards(h, posted)
    assert len(boards) == 1 and "Seats:" in text(boards[0])


async def test_a_timer_move_its_process_never_posted_is_posted_from_its_stand_in(h):
    """A process stores a deadline move and dies before posting it: the move's stand-in
    notice falls due, and any process posts the board the move would have had, pinging
    the next player, with the buttons to play on."""
    _board, mover, other = await started(h)
    row = await h.store.latest_game(CHANNEL_ID)
    note = f"⏰ {mover.name} ran out of time: the game played a random legal move."
    await h.service.play.move(
        Table(CHANNEL_ID, GUILD_ID),
        mover,
        await a_legal_move(h, mover),
        (row.id, row.version),
        announce=note,
    )  # ... and the process that made it dies here, its post never made
    async with h.store.transaction() as db:  # five minutes on: the stand-in is due
        await db.execute("UPDATE outbox SET due_at = '2000-01-01T00:00:00.000000+00:00'")
    posted = len(h.posted)
    await h.bot.get_cog("Postal").run_once()
    (message,) = channel_boards(h, posted)
    assert text(message).startswith(note)
    assert pings_of(h, message) == {other.user_id}
    assert message["components"], "the Play button, for the next player"
    await h.bot.get_cog("Postal").run_once()
    assert channel_boards(h, posted) == [message], "posted once"


async def test_a_notice_that_fails_for_any_reason_holds_up_no_other_and_is_tried_again(h):
    """A stand-in whose board cannot be rebuilt (a bug, say) is put back to be tried
    again, counted, and the turn notice queued beside it is still delivered."""
    _board, mover, other = await started(h)
    row = await h.store.latest_game(CHANNEL_ID)
    await h.service.play.move(
        Table(CHANNEL_ID, GUILD_ID),
        mover,
        await a_legal_move(h, mover),
        (row.id, row.version),
        announce="⏰ the timer's move",
    )
    await h.store.queue_turn_notice(
        row.id, other.user_id, "Your turn in **Skybridge**.", "2000-01-01T00:00:00.000000+00:00"
    )
    async with h.store.transaction() as db:
        await db.execute("UPDATE outbox SET due_at = '2000-01-01T00:00:00.000000+00:00'")

    async def broken(*args):
        raise RuntimeError("a board that cannot be rebuilt")

    h.service.play.announcement = broken
    await h.bot.get_cog("Postal").run_once()
    (logged,) = h._errors.records
    assert "could not be delivered (retry next)" in logged.getMessage()
    h._errors.records.clear()
    async with h.store.transaction() as db:
        rows = await db.execute_fetchall("SELECT kind, sent_at IS NOT NULL, attempts FROM outbox")
    assert sorted(rows) == [("board", 0, 1), ("turn", 1, 1)], "the turn DM went; the board waits"
