"""Every game stays within its player's reach (issue 29, item 4), through the fake Discord:
a game is opened only where its player can get at it, every game waiting for someone
has a Play button that works wherever they ask, and every hint names only commands
Discord offers where it is read.

Discord offers the commands of a person's own (installed to their account) everywhere,
and the rest only in servers that added the bot; in a DM with the bot it offers the
server's ``/game`` and ``/move`` only to people who share a server with it.
"""

from __future__ import annotations

import re

import pytest

from bot.service import Caller, Table
from tests.bot.discord.discord_harness import (
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GROUP_DM_ID,
    GUILD_ID,
    OTHER_GUILD_CHANNEL_ID,
    Harness,
    Replies,
    Reply,
    pinged,
    text,
)

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
AWAY = {"channel": OTHER_GUILD_CHANNEL_ID, "user_install": True}  # a server without the bot
ADAS_DM = DM_CHANNEL_ID + ADA.user_id  # where the bot opens Ada's DM with it
PLAY = re.compile(r"bk:play:(\d+):(\d+)")
COMMAND = re.compile(r"</([a-z][\w -]*):\d+>|`/([a-z][\w-]*(?: [a-z][\w-]*)?)")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def refused(replies: Replies) -> Reply:
    reply = replies.one
    assert reply.ephemeral and not reply.files and not reply.custom_ids, reply
    return reply


async def test_solo_away_from_the_bot_by_someone_whose_dms_are_closed_opens_nothing(h):
    """Discord refuses the DM (50007) before anything is opened: no game waits, unplayable,
    in a DM the player cannot read (it would keep them from `/solo` and `/daily play` for
    good), and they are told exactly what lets the bot in."""
    h.closed_dms.add(ADA.user_id)
    told = refused(await h.slash("solo", user=ADA, **AWAY))
    assert "can't send you a direct message" in told.text and "opened nothing" in told.text
    assert "allow direct messages from server members" in told.text
    assert f"then run {h.mention('solo')} again" in told.text
    assert "ask a server manager to add me to this server" in told.text
    assert "/game" not in told.text, "Discord does not offer /game there"
    assert await h.store.latest_game(ADAS_DM) is None
    assert h.dms(ADA.user_id) == [], "nothing reached the DM, nothing is left in it"
    refused(await h.slash("daily", "play", user=ADA, **AWAY))
    assert await h.store.entries(user_id=ADA.user_id) == []

    h.closed_dms.discard(ADA.user_id)  # Ada lets the bot in, and asks again
    said = (await h.slash("solo", user=ADA, **AWAY)).one
    assert said.ephemeral and "waiting in our DM" in said.text
    asked, board, *_status = h.dms(ADA.user_id)
    assert text(asked) == "Here is the game you asked me for, to play in our DM:"
    assert board["attachments"] and "**Seven Bridges** begins" in text(board)
    assert (await h.store.latest_game(ADAS_DM)).status == "active"


async def test_a_game_refused_after_the_dm_opened_leaves_nothing_in_the_dm(h):
    """The DM is tried first; if the game is then refused (Ada's solo game still runs
    there), the words that went ahead are taken back: nothing she did not get stays."""
    await h.slash("solo", user=ADA, **AWAY)
    before = h.dms(ADA.user_id)
    told = refused(await h.slash("daily", "play", user=ADA, **AWAY))
    assert "You already have a game going in our DM" in told.text
    assert h.mention("turns") in told.text and "/game" not in told.text
    assert h.dms(ADA.user_id) == before
    deleted = [c for c in h.calls if c.method == "DELETE" and "/channels/" in c.url]
    assert len(deleted) == 1 and deleted[0].error is None, "the bot deleted its own message"


async def test_turns_offers_every_waiting_game_a_play_button_that_plays_it_from_anywhere(h):
    """Ada's solo game lives in her DM and a Skybridge game in a server; from a server
    that never added the bot, `/turns` lists both with a Play button each. A move made
    there is posted where the game lives, and Ada sees it privately where she is."""
    await h.slash("solo", start="ii-2-3", user=ADA, **AWAY)  # roll first: no landmark
    await h.slash("game", "new", game="skybridge", user=BOB)
    await h.slash("game", "join", user=ADA)
    await h.slash("game", "start", user=BOB)
    if await h.store.awaiting(BOB.user_id):  # Bob moves first: then it is Ada's turn
        table = Table(CHANNEL_ID, GUILD_ID)
        (first, *_) = await h.service.play.legal_moves(table, BOB)
        await h.slash("move", notation=first, user=BOB)
    solo = await h.store.latest_game(ADAS_DM)
    duel = await h.store.latest_game(CHANNEL_ID)
    waiting = [w.game_id for w in await h.store.awaiting(ADA.user_id)]
    assert sorted(waiting) == [solo.id, duel.id]

    turns = (await h.slash("turns", user=ADA, **AWAY)).one
    assert turns.ephemeral
    lines = turns.text.splitlines()[1:]
    names = {solo.id: "Seven Bridges", duel.id: "Skybridge"}
    assert [line.split(" in ")[0] for line in lines] == [
        f"{n}. **{names[g]}**" for n, g in enumerate(waiting, 1)
    ]
    assert turns.labels == [f"{n}. {names[g]}" for n, g in enumerate(waiting, 1)]
    versions = {solo.id: solo.version, duel.id: duel.version}
    assert turns.custom_ids == [f"bk:play:{g}:{versions[g]}" for g in waiting]

    listing = h.messages[turns.message_id]
    play = f"bk:play:{solo.id}:{solo.version}"
    picker = (await h.click(play, user=ADA, message=listing)).one
    assert picker.ephemeral and picker.labels == ["roll"], "the picker opens where Ada is"
    before = len(h.dms(ADA.user_id))
    played = await h.click(picker.custom_ids[0], user=ADA)
    board = h.dms(ADA.user_id)[before:][0]
    assert "rolls" in text(board) and board["attachments"], "the board goes to the game's DM"
    seen, sheet = [r for r in played if r.kind == "message"]
    assert seen.ephemeral and seen.images and "rolls" in seen.text
    assert sheet.ephemeral and sheet.text.startswith("Only you can see this."), "her own sheet"
    assert f"Posted in https://discord.com/channels/@me/{ADAS_DM}." in seen.text
    now = await h.store.latest_game(ADAS_DM)
    assert seen.custom_ids == [f"bk:play:{solo.id}:{now.version}"], "Ada picks next: Play"
    away = [m for m in h.messages.values() if int(m["channel_id"]) == OTHER_GUILD_CHANNEL_ID]
    assert away and all(m["flags"] & 64 for m in away), "nothing public where the bot is not"


async def test_a_move_from_afar_in_a_server_game_pings_the_next_player_in_its_channel(h):
    await h.slash("game", "new", game="skybridge", user=BOB)
    await h.slash("game", "join", user=ADA)
    await h.slash("game", "start", user=BOB)
    duel = await h.store.latest_game(CHANNEL_ID)
    seats = {s.user_id: s for s in await h.store.seats(duel.id)}
    mover, other = (ADA, BOB) if seats[ADA.user_id].awaiting else (BOB, ADA)
    turns = (await h.slash("turns", user=mover, channel=GROUP_DM_ID, user_install=True)).one
    picker = (
        await h.click(turns.custom_ids[0], user=mover, message=h.messages[turns.message_id])
    ).one
    before = len(h.calls)

    def boards() -> list:
        sent = h.calls[before:]
        return [c for c in sent if c.path == "/channels/{channel_id}/messages" and c.files]

    while not boards():  # the first choice at every step, until a move is played
        if picker.selects:
            select = picker.selects[0]
            replies = await h.choose(select.custom_id, select.options[0][0], user=mover)
        else:
            replies = await h.click(picker.custom_ids[0], user=mover)
        picker = replies[0]
    (board,) = boards()
    assert board.url.endswith(f"/channels/{CHANNEL_ID}/messages"), "posted where the game is"
    posts = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]
    ping = posts[posts.index(board) - 1]
    assert not ping.files and pinged(ping.payload) == {other.user_id}, "a ping in words first"
    assert pinged(board.payload) == set(), "the card pings nobody (discord-api-docs#7854)"
    seen = [r for r in replies if r.kind == "message"][-1]
    assert seen.ephemeral and seen.pinged == set() and not seen.custom_ids, "their turn now"
    assert f"Posted in https://discord.com/channels/{duel.guild_id}/{CHANNEL_ID}." in seen.text


async def test_hand_shows_the_sheet_in_words_with_its_play_button_and_points_the_way_away(h):
    await h.slash("solo", start="ii-2-3", user=ADA, channel=DM_CHANNEL_ID, user_install=True)
    game = await h.store.latest_game(DM_CHANNEL_ID)
    sheet = (await h.slash("hand", user=ADA, channel=DM_CHANNEL_ID, user_install=True)).one
    assert sheet.ephemeral and sheet.images
    assert "Your score 0, cross a bridge to count: Loop 0 (no loop yet)" in sheet.text
    assert "Euler's score" in sheet.text and "Bonuses:" in sheet.text
    assert sheet.custom_ids == [f"bk:play:{game.id}:{game.version}"]
    nothing = refused(await h.slash("hand", user=ADA, **AWAY))
    assert nothing.text.startswith("There is no game here.")
    assert h.mention("solo") in nothing.text and h.mention("turns") in nothing.text
    assert "/game" not in nothing.text


def offered(h: Harness, name: str, place: str) -> bool:
    """Whether Discord offers the synced command ``name`` to a person who installed the
    bot to their account: in a server that added it, in their DM with it (without a
    server in common) or away from it (another server, a group DM)."""
    spec = next(c for c in h.syncs[-1] if c["name"] == name)
    if place == "server":
        return 0 in spec["contexts"]
    context = 1 if place == "dm" else 0
    return 1 in spec["integration_types"] and context in spec["contexts"]


async def test_every_hint_names_only_commands_offered_where_it_is_read(h):
    """Each personal command, run in a server that added the bot, in a DM with it and in a
    server that never did, with and without games to find: every command its answers
    name, clickable or not, is one Discord offers to the asker there."""
    places = {
        "server": {"channel": CHANNEL_ID},
        "dm": {"channel": DM_CHANNEL_ID + ADA.user_id, "user_install": True},
        "away": AWAY,
    }
    said: list[tuple[str, str]] = []
    for place, where in places.items():
        for command in (
            ("hand",),
            ("turns",),
            ("daily", "stats"),
            ("solo",),
            ("solo",),  # again: a game is going
            ("hand",),
            ("daily", "play"),
            ("daily", "leaderboard"),
            ("vacation",),
            ("settings",),
        ):
            values = {"days": 1} if command == ("vacation",) else {}
            for reply in await h.slash(*command, user=ADA, **where, **values):
                said.append((place, reply.text))
        for waiting in await h.store.awaiting(ADA.user_id):  # a clean slate for the next place
            await h.service.lobby.abandon(Table(waiting.channel_id, waiting.guild_id), ADA)
    named = [(place, a or b) for place, t in said for a, b in COMMAND.findall(t)]
    wrong = [(p, n) for p, n in named if not offered(h, n.split()[0], p)]
    assert not wrong, wrong
    assert {"solo", "turns"} <= {n for _, n in named}, "the way back is named"
