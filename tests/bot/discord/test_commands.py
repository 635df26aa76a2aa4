"""Layer 2: every slash command and button through the real discord.py, fed raw payloads.

The bot is the production :class:`~bot.discord.client.Bridgekeeper` over a SQLite file with real
board renders; :mod:`discord_harness` plays Discord (see its docstring). Each test asserts
what a player would notice: who is pinged, what is private, which buttons appear, what the
picture shows, and that a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from bot.service import Caller
from tests.bot.discord.discord_harness import (
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    THREAD_ID,
    Harness,
    Replies,
    Reply,
    text,
)

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
CY = Caller(1003, "Cy")  # never sits down
DEE = Caller(1004, "Dee")
MO = Caller(1009, "Mo", manager=True)  # may manage the server
SKYBRIDGE = engine.get("skybridge")
PLAY_ID = re.compile(r"bk:play:(\d+):(\d+)")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


# -- helpers -------------------------------------------------------------------------------


async def open_game(h: Harness, *players: Caller, channel: int = CHANNEL_ID) -> Reply:
    """``/game new`` by the first player, ``/game join`` by the others, ``/game start``:
    the first board."""
    return board_of(await start_game(h, *players, channel=channel))


async def start_game(h: Harness, *players: Caller, channel: int = CHANNEL_ID) -> Replies:
    """:func:`open_game`'s start, whole: the ping of the player to move, then the board."""
    first, *others = players or (ADA, BOB)
    await h.slash("game", "new", game="skybridge", user=first, channel=channel)
    for player in others:
        await h.slash("game", "join", user=player, channel=channel)
    return await h.slash("game", "start", user=first, channel=channel)


def board_of(replies: Replies) -> Reply:
    """The one public board posted by an interaction: a card, the newest public message,
    after the one plain message that pings whoever it is for (if anyone)."""
    board = replies.board
    assert len(board.images) == 1, "the board picture is attached"
    assert replies.public[-1] is board, "the board, with its buttons, is the newest message"
    assert board.pinged == set(), "a card pings nobody: its ping comes before it"
    replies.ping  # noqa: B018 -- checks that a ping sits right before the card
    return board


def play_button(board: Reply) -> tuple[str, int, int]:
    """(custom id, game id, version) of the board's Play button."""
    assert board.labels == ["Play"], board.labels
    custom_id = board.custom_ids[0]
    match = PLAY_ID.fullmatch(custom_id)
    assert match, custom_id
    return custom_id, int(match[1]), int(match[2])


def assert_refused(replies: Replies, *fragments: str) -> Reply:
    """One private message, no picture, no buttons, nobody pinged, saying ``fragments``."""
    reply = replies.one
    assert reply.kind == "message"
    assert reply.ephemeral, f"a refusal must be private: {reply.text!r}"
    assert not reply.files and not reply.custom_ids
    assert reply.pinged == set()
    for fragment in fragments:
        assert fragment in reply.text, f"{fragment!r} not in {reply.text!r}"
    return reply


async def snapshot(h: Harness, channel: int = CHANNEL_ID) -> tuple:
    """Everything a refusal must leave alone: the game row and its move log."""
    row = await h.store.latest_game(channel)
    if row is None:
        return (None,)
    return row, await h.store.moves(row.id), await h.store.seats(row.id)


async def engine_state(h: Harness, channel: int = CHANNEL_ID):
    row = await h.store.latest_game(channel)
    return SKYBRIDGE.from_json(row.state)


async def legal_for(h: Harness, seat: int, channel: int = CHANNEL_ID) -> list[str]:
    """The rules' own list, straight from the engine (the oracle for the bot's offers)."""
    state = await engine_state(h, channel)
    return [SKYBRIDGE.format(a) for a in SKYBRIDGE.legal(state, seat)]


def assert_pings_only(replies: Replies, user: Caller) -> None:
    """The board's post pings ``user`` and nobody else, once, in its own plain message."""
    ping = replies.ping
    assert ping is not None and ping.text.startswith(f"<@{user.user_id}>, your ")
    assert replies.pinged == ping.pinged == {user.user_id}
    assert [int(u) for u in ping.allowed_mentions["users"]] == [user.user_id]
    assert ping.allowed_mentions["parse"] == []


CHOICE_ID = re.compile(r"bk:pick:(\d+):(\d+):[\d.]*")
SUCCESS = 3  # Discord's green button style: this choice completes a move


def choices(picker: Reply) -> list:
    """The picker's choice buttons (not Back / Previous / Next)."""
    return [
        b
        for b in picker.buttons
        if b.custom_id and CHOICE_ID.fullmatch(b.custom_id) and not b.label.startswith("↩")
    ]


async def open_picker_at_a_move(h: Harness, board: Reply, user: Caller) -> tuple[Reply, object]:
    """Play, then the first choice at every step, up to the first green (finishing) button.

    Returns the picker message and that button, not yet clicked.
    """
    play, game_id, version = play_button(board)
    picker = (await h.click(play, user=user)).one
    assert picker.ephemeral and picker.text.endswith(("choose:", "Your only move:"))
    while True:
        first = choices(picker)[0]
        assert first.custom_id.startswith(f"bk:pick:{game_id}:{version}:")
        if first.style == SUCCESS:
            return picker, first
        picker = (await h.click(first.custom_id, user=user)).one
        assert picker.kind == "update" and picker.ephemeral, "the picker changes in place"
        assert picker.text.startswith(f"**{first.label}") or f" {first.label}**" in picker.text


def move_of(picker: Reply, button) -> str:
    """The move a green button plays: the picker's chosen prefix and the button's label."""
    return played_by(picker, button.label)


def played_by(picker: Reply, label: str) -> str:
    """The move a finishing choice plays: the picker's chosen prefix and the choice's label."""
    prefix = picker.text.split("**")[1] if picker.text.startswith("**") else ""
    return f"{prefix} {label}".strip()  # "Your only move:" has no prefix


PLAYS = "plays this move"  # a select option's description when choosing it plays


async def every_choice(h: Harness, picker: Reply, user: Caller):
    """Yield (move, None) for each choice of ``picker`` that plays a move, and (None, the
    picker it leads to) for each that leads on: buttons and select options alike."""
    for button in choices(picker):
        if button.style == SUCCESS:
            yield move_of(picker, button), None
        else:
            yield None, (await h.click(button.custom_id, user=user)).one
    for menu in picker.selects:
        for value, label, description in menu.options:
            if description == PLAYS:
                yield played_by(picker, label), None
            else:
                yield None, (await h.choose(menu.custom_id, value, user=user)).one


async def play_by_buttons(h: Harness, board: Reply, user: Caller) -> tuple[str, Reply]:
    """Play a move with the picker. Returns (the move, the new public board)."""
    move, posted = await post_by_buttons(h, board, user)
    return move, board_of(posted)


async def post_by_buttons(h: Harness, board: Reply, user: Caller) -> tuple[str, Replies]:
    """:func:`play_by_buttons`, with the new board's whole post (its ping, its card)."""
    picker, button = await open_picker_at_a_move(h, board, user)
    move = move_of(picker, button)
    confirm, *posted = await h.click(button.custom_id, user=user)
    assert confirm.kind == "update" and confirm.ephemeral
    assert confirm.text == f"You played `{move}`." and confirm.custom_ids == []
    return move, Replies(posted)


async def play_by_slash(
    h: Harness, user: Caller, seat: int, channel: int = CHANNEL_ID
) -> tuple[str, Reply]:
    """Type the first word of a move, take the first suggestion, send ``/move``."""
    move, posted = await post_by_slash(h, user, seat, channel)
    return move, board_of(posted)


async def post_by_slash(
    h: Harness, user: Caller, seat: int, channel: int = CHANNEL_ID
) -> tuple[str, Replies]:
    """:func:`play_by_slash`, with the new board's whole post (its ping, its card)."""
    legal = await legal_for(h, seat, channel)
    typed = legal[0].split()[0]
    suggestions = await h.autocomplete("move", "notation", typed, user=user, channel=channel)
    assert 1 <= len(suggestions.choices) <= 25
    assert set(suggestions.choice_values) <= set(legal), "only legal moves are suggested"
    assert all(typed in v for v in suggestions.choice_values)
    assert all(c["name"] == c["value"] for c in suggestions.choices)
    move = suggestions.choice_values[0]
    return move, await h.slash("move", notation=move, user=user, channel=channel)


# -- setup_hook ----------------------------------------------------------------------------


async def test_setup_hook_synced_every_command(h):
    puts = [c for c in h.calls if c.method == "PUT"]
    assert [c.path for c in puts] == ["/applications/{application_id}/commands"]
    assert f"/applications/{h.bot.application_id}/commands" in puts[0].url
    synced = {c["name"]: c for c in puts[0].payload}
    assert set(synced) == {
        "game",
        "move",
        "hand",
        "turns",
        "vacation",
        "settings",
        "rating",
        "leaderboard",
        "league",
        "daily",
        "solo",
    }
    subcommands = {o["name"] for o in synced["game"]["options"] if o["type"] == 1}
    assert subcommands == {
        "new", "join", "leave", "start", "board", "status", "history",
        "legal", "undo", "resign", "abandon", "rules", "snooze", "extend", "replace", "archive",
        "add-ai", "link",
    }  # fmt: skip
    (notation,) = synced["move"]["options"]
    assert notation["name"] == "notation" and notation["autocomplete"] and notation["required"]
    login = [(c.method, c.path) for c in h.calls[:2]]
    assert login == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert h.bot.is_ready() and h.bot.get_guild(GUILD_ID) is not None


# -- a whole game --------------------------------------------------------------------------


async def test_full_game_by_buttons_and_slash_commands(h):
    opened = (await h.slash("game", "new", game="skybridge", user=ADA)).one
    assert not opened.ephemeral and "Ada opened a game of **Skybridge**" in opened.text
    assert opened.custom_ids == [] and opened.pinged == set()
    joined = (await h.slash("game", "join", user=BOB)).one
    assert not joined.ephemeral and "Players: Ada, Bob" in joined.text

    post = await h.slash("game", "start", user=ADA)
    board = board_of(post)
    assert "Seats: 1. Ada (red and yellow), 2. Bob (blue and green)." in board.text
    picture = board.images[0]
    assert picture.format == "PNG"
    assert 600 <= picture.width <= 2000 and 400 <= picture.height <= 2000
    colours = picture.convert("RGB").getcolors(1 << 16)
    assert colours is None or len(colours) > 8, "a drawn board, not a blank image"
    players = [ADA, BOB]
    _, game_id, version = play_button(board)
    previous_png = board.files[0].data
    moves_played: list[str] = []
    methods = {"buttons": set(), "slash": set()}

    while "**Game over.**" not in board.text:
        state = await engine_state(h)
        (seat,) = SKYBRIDGE.to_play(state)
        mover = players[seat]
        assert f"To play: {mover.name}." in board.text
        assert_pings_only(post, mover)
        if (len(moves_played) // 2) % 2 == 0:
            move, post = await post_by_buttons(h, board, mover)
            methods["buttons"].add(mover.name)
        else:
            move, post = await post_by_slash(h, mover, seat)
            methods["slash"].add(mover.name)
        board = board_of(post)
        moves_played.append(move)
        assert f"{mover.name} placed {move}." in board.text
        assert board.files[0].data != previous_png, "the picture shows the new piece"
        previous_png = board.files[0].data
        if "**Game over.**" not in board.text:
            assert play_button(board)[1:] == (game_id, version + 1), "Play carries the new version"
            version += 1
        assert len(moves_played) < 60, "the game should have ended"

    assert methods == {"buttons": {"Ada", "Bob"}, "slash": {"Ada", "Bob"}}
    assert len(moves_played) > 20
    final = board.text
    assert "**Game over.**" in final
    result = SKYBRIDGE.result(await engine_state(h))
    ranking = [line for line in final.splitlines() if re.match(r"\d(st|nd) ", line)]
    expected = sorted(range(2), key=lambda s: result.places[s])
    assert ranking == [
        f"{['1st', '2nd'][result.places[s] - 1]} {players[s].name} — {result.scores[s]}"
        for s in expected
    ]
    assert post.pinged == set() and post.public == [board], "the game is over: nobody to ping"
    assert board.labels == ["Rematch"], "the final board offers the same game again"

    history = (await h.slash("game", "history", user=CY)).one
    assert history.ephemeral
    assert history.text.splitlines()[0] == f"1. Ada: {moves_played[0]}"
    assert history.text.splitlines()[-1].endswith(moves_played[-1])
    status = (await h.slash("game", "status", user=BOB)).one
    assert "Game over" in status.text and status.ephemeral
    assert "No game is waiting for you." in (await h.slash("turns", user=ADA)).one.text


# -- refusals: private, specific, and nothing changes ------------------------------------


async def test_move_refusals_are_private_and_change_nothing(h):
    board = await open_game(h, ADA, BOB)
    assert "To play: Ada." in board.text
    before = await snapshot(h)
    cases = [
        (CY, "red tall a1", "You are not playing in this game."),
        (BOB, "blue tall a1", "It is not your turn: waiting for Ada."),
        (ADA, "red roof a1", "A roof goes on a tower, and a1 is an empty foundation."),
        (ADA, "blue tall a1", "You don't play blue pieces."),
        (ADA, "xyzzy", "I can't read 'xyzzy' as a Skybridge move."),
        (ADA, "red bridge a1", "A bridge joins two squares"),
        (ADA, "red tall " + "a1 " * 50, "characters long; no move is over 100"),
    ]
    for user, notation, reason in cases:
        assert_refused(await h.slash("move", notation=notation, user=user), reason)
        assert await snapshot(h) == before, f"{notation!r} by {user.name} changed the game"
    # and the game still goes on from where it was
    played = board_of(await h.slash("move", notation="red tall b2", user=ADA))
    assert "Ada placed red tall b2." in played.text


async def test_move_with_no_game_here(h):
    assert_refused(await h.slash("move", notation="red tall a1", user=ADA), "There is no game here")


async def test_lobby_refusals(h):
    await h.slash("game", "new", game="skybridge", user=ADA)
    before = await snapshot(h)
    assert_refused(
        await h.slash("game", "new", game="skybridge", user=BOB),
        "This channel already has a game.",
    )
    assert_refused(
        await h.slash("game", "start", user=ADA), "Skybridge needs at least 2 players; 1 joined"
    )
    assert await snapshot(h) == before
    await h.slash("game", "join", user=BOB)
    before = await snapshot(h)
    assert_refused(await h.slash("game", "join", user=BOB), "You are already in this game.")
    assert_refused(
        await h.slash("game", "start", user=BOB),
        "Only the player who opened the game (or a server manager) can start it.",
    )
    assert_refused(
        await h.slash("game", "leave", user=ADA),
        f"call it off with {h.mention('game abandon')} instead",
    )
    assert_refused(await h.slash("move", notation="red tall a1", user=ADA), "not started yet")
    assert_refused(await h.slash("game", "board", user=ADA), "no board")
    assert await snapshot(h) == before
    # another channel is free for a game of its own
    elsewhere = (
        await h.slash("game", "new", game="skybridge", user=BOB, channel=OTHER_CHANNEL_ID)
    ).one
    assert not elsewhere.ephemeral and "Bob opened a game" in elsewhere.text


async def test_leave_and_manager_start(h):
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "join", user=CY)
    left = (await h.slash("game", "leave", user=CY)).one
    assert not left.ephemeral and left.text == "Cy left. Players: Ada, Bob."
    assert_refused(await h.slash("game", "leave", user=CY), "You are not in this game.")
    lobby = (await h.slash("game", "status", user=CY)).one
    assert lobby.ephemeral and "lobby — players: Ada, Bob" in lobby.text
    # a server manager may start a game they did not open
    board = board_of(await h.slash("game", "start", user=MO))
    assert "Seats: 1. Ada (red and yellow), 2. Bob (blue and green)." in board.text


# -- buttons -------------------------------------------------------------------------------


async def test_stale_and_foreign_clicks_are_refused_politely(h):
    board = await open_game(h, ADA, BOB)
    old_play, game_id, version = play_button(board)
    assert_refused(await h.click(old_play, user=BOB), "It is not your turn: waiting for Ada.")
    assert_refused(await h.click(old_play, user=CY), "You are not playing in this game.")

    untouched = (await h.click(old_play, user=ADA)).one  # a picker left open
    _, button = await open_picker_at_a_move(h, board, ADA)
    old_move = button.custom_id
    before = await snapshot(h)
    _, board = await play_by_slash(h, ADA, 0)  # the game moves on without the pickers
    after = await snapshot(h)
    assert after != before

    for stale, user in ((old_play, BOB), (untouched.custom_ids[1], ADA), (old_move, ADA)):
        assert_refused(await h.click(stale, user=user), "earlier position", "newest board")
    assert await snapshot(h) == after, "stale clicks change nothing"

    # a doubled click on one move button: the first plays, the second is stale
    _, _, now = play_button(board)
    _, button = await open_picker_at_a_move(h, board, BOB)
    move_id = button.custom_id
    as_shown = h.find_message(move_id)  # the second click comes from the same old message
    first = await h.click(move_id, user=BOB)
    assert board_of(first).custom_ids[0] == f"bk:play:{game_id}:{now + 1}"
    assert_refused(await h.click(move_id, user=BOB, message=as_shown), "earlier position")

    # a button of a game that never existed
    assert_refused(await h.click(f"bk:play:999:{version}", user=ADA), "earlier position")
    assert_refused(
        await h.click("bk:pick:999:1:0", user=ADA, channel=OTHER_CHANNEL_ID), "earlier position"
    )


async def test_the_picker_offers_exactly_the_legal_moves(h):
    """Walk every branch of the private picker: its green (finishing) buttons are the
    legal moves, all of them, and nothing else."""
    board = await open_game(h, ADA, BOB)
    await h.slash("move", notation="red tall b2", user=ADA)
    board = board_of(await h.slash("move", notation="blue cube a1", user=BOB))
    legal = await legal_for(h, 0)
    offered = []
    frontier = [(await h.click(board.custom_ids[0], user=ADA)).one]
    while frontier:
        picker = frontier.pop()
        assert len(picker.rows) <= 5 and all(len(row) <= 5 for row in picker.rows)
        async for move, leads_to in every_choice(h, picker, ADA):
            if move is not None:
                offered.append(move)
            else:
                frontier.append(leads_to)
    assert sorted(offered) == sorted(legal)
    assert len(offered) == len(set(offered))


async def test_a_double_click_at_the_same_moment_plays_once(h):
    board = await open_game(h, ADA, BOB)
    game_id = play_button(board)[1]
    _, button = await open_picker_at_a_move(h, board, ADA)
    move_id = button.custom_id
    shown = h.find_message(move_id)
    outcomes = await asyncio.gather(
        h.click(move_id, user=ADA, message=shown), h.click(move_id, user=ADA, message=shown)
    )
    refused, played = sorted(outcomes, key=len)
    assert "Ada placed red tall a1." in board_of(played).text
    reason = assert_refused(refused).text
    assert "earlier position" in reason or "same moment" in reason
    assert [m.action for m in await h.store.moves(game_id)] == ["red tall a1"]

    # two /move at once by the same player: one is played, the other is out of turn
    outcomes = await asyncio.gather(
        h.slash("move", notation="blue tall b1", user=BOB),
        h.slash("move", notation="blue tall c1", user=BOB),
    )
    assert sorted(len(o.public) for o in outcomes) == [0, 2], "one ping and board, once"
    assert len(await h.store.moves(game_id)) == 2
    assert_refused(next(o for o in outcomes if not o.public), "It is not your turn")


# -- looking at the game -------------------------------------------------------------------


async def test_board_status_history_legal(h):
    board = await open_game(h, ADA, BOB)
    await h.slash("move", notation="red tall b2", user=ADA)

    seen = (await h.slash("game", "board", user=CY)).one
    assert seen.ephemeral and seen.custom_ids == [] and seen.pinged == set()
    assert seen.text.startswith("**Skybridge** — To play: Bob.")
    (picture,) = seen.images
    assert picture.size == board.images[0].size
    assert seen.files[0].data != board.files[0].data, "the private board is the current one"

    status = (await h.slash("game", "status", user=CY)).one
    assert status.ephemeral and "1. Ada" in status.text and "2. Bob" in status.text
    assert "To play: Bob." in status.text

    history = (await h.slash("game", "history", user=BOB)).one
    assert history.ephemeral and history.text == "1. Ada: red tall b2"

    legal = (await h.slash("game", "legal", user=BOB)).one
    assert legal.ephemeral
    offered = re.findall(r"`([^`]+)`", legal.text)
    assert offered == await legal_for(h, 1)
    assert legal.text.startswith(f"Your {len(offered)} legal moves:")
    assert_refused(await h.slash("game", "legal", user=ADA), "It is not your turn")

    rules = (await h.slash("game", "rules", game="skybridge", user=CY)).one
    assert rules.ephemeral and "**Skybridge**" in rules.text and "`red tall b2`" in rules.text


async def test_history_before_any_move(h):
    await open_game(h, ADA, BOB)
    assert (await h.slash("game", "history", user=ADA)).one.text == "No moves yet."


async def test_autocomplete_for_someone_who_may_not_move_is_empty(h):
    await open_game(h, ADA, BOB)
    assert (await h.autocomplete("move", "notation", "", user=BOB)).choices == []
    assert (await h.autocomplete("move", "notation", "red", user=CY)).choices == []
    everything = await h.autocomplete("move", "notation", "", user=ADA)
    assert len(everything.choices) == 25 < len(await legal_for(h, 0)), "capped at Discord's 25"
    narrowed = await h.autocomplete("move", "notation", "  YELLOW   cube ", user=ADA)
    assert narrowed.choice_values == [m for m in await legal_for(h, 0) if "yellow cube" in m]


async def test_turns_links_to_each_waiting_game(h):
    await open_game(h, ADA, BOB)
    await open_game(h, BOB, ADA, channel=OTHER_CHANNEL_ID)
    turns = (await h.slash("turns", user=ADA)).one
    assert turns.ephemeral and turns.text.startswith("Your turn in:")
    assert f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}" in turns.text
    waiting_here = (await h.slash("turns", user=BOB)).one.text
    assert f"https://discord.com/channels/{GUILD_ID}/{OTHER_CHANNEL_ID}" in waiting_here
    assert f"/{CHANNEL_ID}" not in waiting_here
    assert (await h.slash("turns", user=CY)).one.text == "No game is waiting for you."


async def test_a_game_in_a_thread_beside_the_channel_game(h):
    await open_game(h, ADA, BOB)
    start = await start_game(h, BOB, CY, channel=THREAD_ID)
    board = board_of(start)
    assert "Seats: 1. Bob (red and yellow), 2. Cy (blue and green)." in board.text
    assert_pings_only(start, BOB)
    move, board = await play_by_buttons(h, board, BOB)
    assert f"Bob placed {move}." in board.text
    move, board = await play_by_slash(h, CY, 1, channel=THREAD_ID)
    assert f"Cy placed {move}." in board.text
    turns = (await h.slash("turns", user=BOB)).one.text
    assert f"https://discord.com/channels/{GUILD_ID}/{THREAD_ID}" in turns
    # the channel's own game did not move
    assert (await h.slash("game", "history", user=ADA)).one.text == "No moves yet."


async def test_turns_works_from_a_dm_with_the_bot(h):
    await open_game(h, ADA, BOB)
    turns = (await h.slash("turns", user=ADA, channel=DM_CHANNEL_ID)).one
    assert f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}" in turns.text


async def test_in_a_dm_you_play_alone_and_a_lobby_is_refused(h):
    """A game for several lives in a channel or thread (DESIGN.md); a DM with the bot holds
    one person, so there it is a solo game against Euler, started at once by /solo."""
    for command in ("game", "move", "hand", "solo", "turns"):
        assert h.offered_in_dms(command), f"/{command} in DMs"
    lobby = await h.slash("game", "new", game="skybridge", user=ADA, channel=DM_CHANNEL_ID)
    assert_refused(lobby, "Nobody else can join a game in a DM", "/solo")
    assert await h.store.latest_game(DM_CHANNEL_ID) is None

    board = board_of(await h.slash("solo", start="ii-2-3", user=ADA, channel=DM_CHANNEL_ID))
    assert "**Seven Bridges** begins" in board.text
    picker = (await h.click(play_button(board)[0], user=ADA)).one
    assert picker.labels == ["roll"], "the player rolls their own turns"
    rolled = await h.click(picker.custom_ids[0], user=ADA)
    assert "rolls" in board_of(rolled).text
    row = await h.store.latest_game(DM_CHANNEL_ID)
    move = SEVEN_BRIDGES.format(SEVEN_BRIDGES.legal(SEVEN_BRIDGES.from_json(row.state), 0)[0])
    suggested = await h.autocomplete("move", "notation", move, user=ADA, channel=DM_CHANNEL_ID)
    assert suggested.choice_values[0] == move
    board = board_of(await h.slash("move", notation=move, user=ADA, channel=DM_CHANNEL_ID))
    token, *where = move.split()
    assert f"Ada took {token} and drew it at {' '.join(where)}." in board.text
    sheet = (await h.slash("hand", user=ADA, channel=DM_CHANNEL_ID)).one
    assert sheet.ephemeral and sheet.images[0].width == 900, "the player's own sheet"
    again = await h.slash("solo", user=ADA, channel=DM_CHANNEL_ID)
    # Discord offers /game in a DM only to people who share a server with the bot: the
    # way out named is the Play button and /turns, which everyone has there
    told = assert_refused(again, "You already have a game going in our DM", "**Play** button")
    assert h.mention("turns") in told.text and "/game" not in told.text
    assert (await h.store.latest_game(DM_CHANNEL_ID)).guild_id is None


async def test_a_name_that_looks_like_a_ping_pings_nobody(h):
    everyone = Caller(1010, "@everyone")
    opened = (await h.slash("game", "new", game="skybridge", user=everyone)).one
    assert opened.text.startswith("@everyone opened a game")
    assert not opened.pings_everyone and opened.pinged == set()
    await h.slash("game", "join", user=ADA)
    start = await h.slash("game", "start", user=everyone)
    board = board_of(start)
    assert "@everyone" in board.text and not any(r.pings_everyone for r in start)
    assert start.pinged == {everyone.user_id}, "only the player to move is notified"


# -- changing course -----------------------------------------------------------------------


async def test_undo_alone_and_by_agreement(h):
    board = await open_game(h, ADA, BOB)
    _, game_id, version = play_button(board)
    await h.slash("move", notation="red tall b2", user=ADA)
    undone = await h.slash("game", "undo", user=ADA)
    back = board_of(undone)
    assert "Taken back: `red tall b2`." in back.text and "To play: Ada." in back.text
    assert back.custom_ids == [f"bk:play:{game_id}:{version + 2}"]
    assert_pings_only(undone, ADA)
    assert "Ada took back `red tall b2`" in undone.ping.text
    assert back.files[0].data == board.files[0].data, "the board is as it was"

    await h.slash("move", notation="red tall b2", user=ADA)
    await h.slash("move", notation="blue cube a1", user=BOB)
    asked = (await h.slash("game", "undo", user=ADA)).one
    assert not asked.ephemeral and "Ada asks to take back their move `red tall b2`" in asked.text
    assert asked.pinged == {BOB.user_id} and asked.custom_ids == []
    assert_refused(await h.slash("game", "undo", user=ADA), "You already asked")
    agreed = await h.slash("game", "undo", user=BOB)
    assert "Taken back: `red tall b2`, `blue cube a1`." in board_of(agreed).text
    assert_pings_only(agreed, ADA)
    assert_refused(await h.slash("game", "undo", user=CY), "You are not playing in this game.")


async def test_resign_ends_the_game(h):
    await open_game(h, ADA, BOB)
    await h.slash("move", notation="red tall b2", user=ADA)
    over = (await h.slash("game", "resign", user=BOB)).one
    assert not over.ephemeral and "Bob resigned." in over.text and "**Game over.**" in over.text
    lines = over.text.splitlines()
    assert lines.index("1st Ada — 0") < lines.index("2nd Bob — 0")
    assert over.labels == ["Rematch"] and over.pinged == set()
    assert len(over.images) == 1
    for command in (("move",), ("game", "resign")):
        options = {"notation": "red tall a1"} if command == ("move",) else {}
        assert_refused(
            await h.slash(*command, user=ADA, **options), "The game here is finished", "/game new"
        )


async def test_abandon_by_creator_manager_or_nobody_else(h):
    await open_game(h, ADA, BOB)
    before = await snapshot(h)
    for user in (BOB, CY):
        assert_refused(
            await h.slash("game", "abandon", user=user),
            "Only the player who opened the game (or a server manager) can abandon it.",
        )
    assert await snapshot(h) == before
    gone = (await h.slash("game", "abandon", user=MO)).one
    assert not gone.ephemeral and gone.text == "Mo abandoned the game of Skybridge."
    assert "(abandoned)" in (await h.slash("game", "status", user=ADA)).one.text
    assert (await h.slash("turns", user=ADA)).one.text == "No game is waiting for you."

    await open_game(h, BOB, ADA)
    gone = (await h.slash("game", "abandon", user=BOB)).one
    assert gone.text == "Bob abandoned the game of Skybridge."
    assert_refused(await h.slash("game", "abandon", user=BOB), "The game here is abandoned")


# -- restarts ------------------------------------------------------------------------------


async def test_buttons_survive_a_restart(h):
    first = await open_game(h, ADA, BOB)
    stale_play = first.custom_ids[0]
    board = board_of(await h.slash("move", notation="red tall b2", user=ADA))
    play, game_id, version = play_button(board)
    old_bot = h.bot

    await h.restart()
    assert h.bot is not old_bot and old_bot.is_closed()
    assert len(h.syncs) == 2, "the new bot synced its commands too"

    picker = (await h.click(play, user=BOB)).one
    assert picker.ephemeral and picker.text.endswith("choose:")
    assert picker.custom_ids[0] == f"bk:pick:{game_id}:{version}:0"
    assert_refused(await h.click(stale_play, user=ADA), "earlier position")
    _, posted = await play_by_buttons(h, board, BOB)
    assert posted.custom_ids == [f"bk:play:{game_id}:{version + 1}"]


# -- when the bot itself fails ---------------------------------------------------------------


async def test_a_crash_gets_a_private_apology_and_fails_the_harness(h, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(h.service.looking, "my_turns", broken)
    with pytest.raises(AssertionError, match="(?s)logged at ERROR.*database on fire"):
        await h.slash("turns", user=ADA)
    (apology,) = list(h.fed.values())[-1].replies
    assert apology.ephemeral and "went wrong" in apology.text and not apology.files


async def test_hand_in_a_game_without_secrets_shows_the_board_everyone_sees_privately(h):
    await open_game(h, ADA, BOB)
    row = await h.store.latest_game(CHANNEL_ID)
    waiting = {s.user_id for s in await h.store.seats(row.id) if s.awaiting}
    for player in (ADA, BOB):
        shown = (await h.slash("hand", user=player)).one
        assert shown.ephemeral and shown.images and "Nothing is hidden in Skybridge" in shown.text
        # the one the game waits for gets its Play button with it, wherever they asked
        plays = [f"bk:play:{row.id}:{row.version}"] if player.user_id in waiting else []
        assert shown.custom_ids == plays
    assert_refused(await h.slash("hand", user=CY), "You are not playing in this game.")


# -- play by post: the loop that runs deadlines and reminders -------------------------------


async def test_the_postal_loop_posts_deadline_moves_and_reminders_in_the_channel(h):
    """With timers made overdue in the database, one tick of the real loop posts the
    automatic move with a fresh board and Play button, and a reminder pinging only
    the waiting player; a second tick posts nothing more."""
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    start = await h.slash("game", "start", user=ADA)
    assert "Time per move" not in board_of(start).text
    (first,) = start.pinged
    async with h.store.transaction() as db:
        await db.execute(  # and warned in time
            "UPDATE seats SET deadline = '2000-01-01T00:00:00.000000+00:00', warned = 1 "
            "WHERE awaiting = 1"
        )
    postal = h.bot.get_cog("Postal")
    sent_before = len(h.calls)
    await postal.run_once()
    posts = [c for c in h.calls[sent_before:] if c.path == "/channels/{channel_id}/messages"]
    ping, post = posts
    assert "ran out of time" in post.text
    assert post.files and post.files[0].filename == "board.png"
    assert post.payload["allowed_mentions"]["users"] == [], "the card pings nobody"
    users = [int(u) for u in ping.payload["allowed_mentions"]["users"]]
    assert len(users) == 1 and users[0] != first, "the next player is pinged, nobody else"
    assert ping.payload["content"].startswith(f"<@{users[0]}>, your move in **Skybridge #1**")
    (play,) = post.custom_ids
    assert play.startswith("bk:play:")

    async with h.store.transaction() as db:
        await db.execute(
            "UPDATE seats SET turn_since = '2000-01-01T00:00:00.000000+00:00' WHERE awaiting = 1"
        )
    sent_before = len(h.calls)
    await postal.run_once()
    await postal.run_once()
    (reminder,) = [c for c in h.calls[sent_before:] if c.method == "POST"]
    assert reminder.payload["content"].startswith(f"<@{users[0]}> Reminder")
    assert [int(u) for u in reminder.payload["allowed_mentions"]["users"]] == users


async def test_a_failing_league_tick_does_not_hold_back_the_minutes_other_posts(h, monkeypatch):
    """The leagues' pass raising must not cost the deadline notice due in the same minute
    (a deadline passed unwarned is warned first)."""
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    async with h.store.transaction() as db:
        await db.execute(
            "UPDATE seats SET deadline = '2000-01-01T00:00:00.000000+00:00' WHERE awaiting = 1"
        )

    async def broken() -> list:
        raise RuntimeError("a league that cannot go on")

    monkeypatch.setattr(h.bot.service.league_rounds, "tick", broken)
    before = len(h.calls)
    await h.bot.get_cog("Postal").run_once()
    posts = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]
    assert len(posts) == 1 and "Your move in **Skybridge #1** is due" in posts[0].payload["content"]
    (logged,) = h._errors.records  # said once, for the operator, and nothing else went wrong
    assert logged.getMessage() == "play-by-post: leagues failed"
    h._errors.records.clear()


async def test_one_pinned_status_message_per_game_follows_every_move(h):
    board = await open_game(h, ADA, BOB)
    (status_id,) = h.pinned
    status = h.messages[status_id]
    assert status["content"].startswith("**Skybridge** (active) — ▶ Ada 0 · Bob 0")
    assert "To play: Ada." in status["content"]
    before = len(status_edits(h, status_id))
    await play_by_buttons(h, board, ADA)
    assert "To play: Bob." in h.messages[status_id]["content"]
    assert h.messages[status_id]["content"].startswith("**Skybridge** (active) — Ada 0 · ▶ Bob")
    await h.slash("move", notation=(await legal_for(h, 1))[0], user=BOB)
    assert h.pinned == [status_id], "edited in place, not posted again"
    assert len(status_edits(h, status_id)) == before + 2, "one edit per move"
    assert "To play: Ada." in h.messages[status_id]["content"]
    h.delete_message(status_id)  # someone deleted it: the next move posts and pins a new one
    await h.slash("move", notation=(await legal_for(h, 0))[0], user=ADA)
    assert len(h.pinned) == 2 and "To play: Bob." in h.messages[h.pinned[1]]["content"]


def status_edits(h: Harness, message_id: int) -> list:
    """The bot's edits of one channel message (the PATCH calls that reached Discord)."""
    return [
        c
        for c in h.calls
        if c.method == "PATCH" and c.url.endswith(f"/messages/{message_id}") and c.status == 200
    ]


async def test_the_status_follows_extend_replace_vacation_and_abandon(h):
    """Not only moves change where a game stands: each of these edits the pinned status."""
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    (status_id,) = h.pinned

    def status() -> str:
        return h.messages[status_id]["content"]

    def deadline() -> str:
        return status().split("Deadline: ")[1]

    first = deadline()
    await h.slash("game", "extend", by="1d", user=MO)
    assert deadline() > first, "a later deadline"
    extended = deadline()
    await h.slash("vacation", days=2, user=ADA)  # Ada is to play: her clock stops
    assert deadline() > extended
    await h.slash("game", "replace", player=ADA, by=CY, user=MO)
    assert "▶ Cy 0" in status() and "To play: Cy." in status()
    await h.slash("game", "abandon", user=ADA)
    assert status().startswith("**Skybridge** (abandoned)")
    assert h.pinned == [status_id] and len(status_edits(h, status_id)) == 4


async def test_a_finished_game_thread_is_archived_and_its_records_kept(h):
    await open_game(h, ADA, BOB, channel=THREAD_ID)
    assert_refused(
        await h.slash("game", "archive", user=ADA, channel=THREAD_ID), "Finish or abandon"
    )
    assert_refused(await h.slash("game", "archive", user=ADA), "Only a thread can be archived")
    await h.slash("game", "abandon", user=ADA, channel=THREAD_ID)
    assert_refused(
        await h.slash("game", "archive", user=BOB, channel=THREAD_ID), "Only the player who opened"
    )
    done = (await h.slash("game", "archive", user=ADA, channel=THREAD_ID)).one
    assert not done.ephemeral and "history and every past board stay" in done.text
    assert h.thread_edits == [{"archived": True}]
    history = (await h.slash("game", "history", user=CY, channel=THREAD_ID)).one
    assert history.ephemeral


# -- hardening: whatever Discord delivers, the bot answers privately and changes nothing -----

ODD_INPUT = [
    "\u202eb2 llat der",  # right-to-left override
    "red\u200btall b2",  # zero-width space inside
    "🧱 tall b2",
    "ＲＥＤ ＴＡＬＬ Ｂ２",  # full-width letters
    "red tall b2\x00",
    "' OR 1=1 --",
    "",
    " " * 50,
    "x" * 101,
]


@pytest.mark.parametrize("notation", ODD_INPUT)
async def test_odd_and_malicious_move_text_is_refused_privately(h, notation):
    await open_game(h, ADA, BOB)
    before = await snapshot(h)
    reply = assert_refused(await h.slash("move", notation=notation, user=ADA))
    assert len(reply.text) < 400
    assert await snapshot(h) == before


_POKE = st.one_of(
    st.tuples(st.just("move"), st.text(max_size=120)),
    st.tuples(
        st.just("click"),
        st.one_of(
            st.from_regex(
                r"bk:(play|pick|page|sel|grp):[0-9]{0,12}(:[0-9.]{0,9}){0,3}", fullmatch=True
            ),
            st.text(min_size=1, max_size=100),
        ),
    ),
    st.tuples(st.just("duration"), st.text(max_size=30)),
)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(pokes=st.lists(st.tuples(_POKE, st.sampled_from([ADA, BOB, CY])), min_size=1, max_size=6))
def test_random_input_from_anyone_is_answered_privately_and_changes_nothing(
    tmp_path_factory, pokes
):
    """Hypothesis' text and ids, from players and a passer-by: each gets exactly one private
    answer with no ping, and the game and its log stay as they were."""

    async def poke_all(path) -> None:
        async with Harness(path, images=False) as h:
            await h.slash("game", "new", game="skybridge", user=ADA)
            await h.slash("game", "join", user=BOB)
            await h.slash("game", "start", user=ADA)
            for (kind, value), user in pokes:
                before = await snapshot(h)
                if kind == "move":
                    replies = await h.slash("move", notation=value or " ", user=user)
                elif kind == "click":
                    replies = await h.click(value, user=user)
                else:
                    replies = await h.slash("game", "extend", by=value or " ", user=user)
                reply = replies.one
                assert reply.ephemeral and reply.pinged == set(), (kind, value, reply.text)
                assert await snapshot(h) == before, (kind, value)

    asyncio.run(poke_all(tmp_path_factory.mktemp("poke") / "bk.db"))


@pytest.mark.parametrize(
    "custom_id",
    [
        "bk:grp:1:2:0",
        "garbage",
        "bk:play:x",
        "bk:pick:1:2:0.1:extra",
        "bk:pick:1:2:9.9.9.9",
        "bk:page:1:2:0:99",
        "bk:pick:99999999999:2:0",
    ],
)
async def test_unknown_or_garbled_buttons_get_an_answer_and_change_nothing(h, custom_id):
    await open_game(h, ADA, BOB)
    before = await snapshot(h)
    reply = assert_refused(await h.click(custom_id, user=ADA))
    assert any(
        words in reply.text
        for words in ("no longer in use", "no longer offered", "earlier position", "no game")
    ), reply.text
    assert await snapshot(h) == before


async def test_clicks_and_moves_on_a_finished_game_are_refused(h):
    board = await open_game(h, ADA, BOB)
    play = board.custom_ids[0]
    await h.slash("game", "resign", user=BOB)
    before = await snapshot(h)
    assert_refused(await h.click(play, user=ADA), "finished")
    assert_refused(await h.slash("move", notation="red tall b2", user=ADA), "finished")
    assert_refused(await h.slash("game", "undo", user=ADA), "finished")
    assert await snapshot(h) == before


async def test_malformed_options_are_refused_with_what_was_wrong(h):
    assert_refused(
        await h.slash("game", "new", game="skybridge", time_per_move="soon", user=ADA),
        "time_per_move: `soon` is not a duration",
    )
    assert_refused(
        await h.slash("game", "new", game="skybridge", remind_every="3 fortnights", user=ADA),
        "is not a duration",
    )
    assert_refused(await h.slash("settings", timezone="Nowhere/Atlantis", user=ADA), "time zone")
    assert_refused(await h.slash("game", "extend", by="-3h", user=ADA), "duration")
    sb = "seven-bridges"
    assert_refused(
        await h.slash("game", "new", game=sb, start="zz9", user=ADA),
        "Seven Bridges: start 'zz9' is not a square",
    )
    assert_refused(
        await h.slash("game", "new", game=sb, height=8, user=ADA),
        "height is a Bridge Wars option; Seven Bridges has the options start and advanced.",
    )
    assert_refused(
        await h.slash("solo", start="r7c1", user=ADA), "start iii-1-1 is water", "streets"
    )
    assert await snapshot(h) == (None,)


# -- leagues ------------------------------------------------------------------------------


async def test_a_league_by_slash_commands_opens_a_thread_and_game_per_match(h):
    refused = await h.slash(
        "league", "create", name="Cup", game="skybridge", format="swiss", user=ADA
    )
    assert_refused(refused, "Only a server manager")
    cup = {"name": "Cup", "game": "skybridge", "format": "swiss", "rounds": 2}
    late = await h.slash("league", "create", **cup, round_time="a fortnight", user=MO)
    assert_refused(late, "round_time: `a fortnight` is not a duration")
    made = (await h.slash("league", "create", **cup, round_time="36h", user=MO)).one
    assert "opened the **Cup** league" in made.text and "36 hours per round" in made.text
    for player in (ADA, BOB, CY, Caller(1004, "Dee")):
        await h.slash("league", "join", name="Cup", user=player)
    assert_refused(await h.slash("league", "join", name="cup", user=ADA), "already in")
    suggested = await h.autocomplete("league", "name", "c", "standings", user=BOB)
    assert suggested.choice_values == ["Cup"]
    before = len(h.calls)
    # started from another channel: the round is still announced in the league's own
    started = await h.slash("league", "start", name="Cup", user=MO, channel=OTHER_CHANNEL_ID)
    (told,) = started.messages
    assert started.public == [] and told.ephemeral
    assert told.text == f"Round 1 is out: see <#{CHANNEL_ID}>."
    posts = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]
    assert posts[0].url.endswith(f"/channels/{CHANNEL_ID}/messages")
    assert "**Cup** — round 1 of 2" in posts[0].payload["content"]
    threads = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/threads"]
    assert len(threads) == 2 and threads[0].payload["name"].startswith("Cup R1 T1: ")
    boards = [c for c in posts if c.files]
    assert len(boards) == 2, "a board with a Play button in each match's thread"
    for board in boards:  # both players of the match are pinged, and nobody else
        ping = posts[posts.index(board) - 1]  # in a message of its own, right before
        assert board.payload["allowed_mentions"]["users"] == [] and ping.url == board.url
        thread_id = int(board.url.split("/channels/")[1].split("/")[0])
        game = await h.store.live_game(thread_id)
        seated = {s.user_id for s in await h.store.seats(game.id)}
        assert {int(u) for u in ping.payload["allowed_mentions"]["users"]} == seated
        assert all(f"<@{u}>" in ping.text for u in seated)
        assert f"your **Cup** match begins in **Skybridge #{game.id}**: " in ping.text
    standings = (await h.slash("league", "standings", name="Cup", user=BOB)).one
    assert "**Cup** standings with round 1 of 2 in play" in standings.text
    listed = (await h.slash("league", "list", user=BOB)).one
    assert listed.ephemeral
    (league,) = await h.store.leagues(GUILD_ID)
    pending = [m.id for m in await h.store.matches(league.id) if m.post_pending]
    assert not league.news_pending and pending == [], "marked made: posted once, not again"
    ends = int(datetime.fromisoformat(league.round_deadline).timestamp())
    assert listed.text == (
        f"**Leagues here**\nCup — Skybridge, swiss, round 1 of 2, until <t:{ends}:f> "
        f"(<t:{ends}:R>), in <#{CHANNEL_ID}>"
    )


async def test_daily_play_from_a_server_opens_the_game_in_dms(h):
    before = len(h.calls)
    told = (await h.slash("daily", "play", user=ADA)).one
    assert told.ephemeral and "waiting in your DMs" in told.text
    opened = [c for c in h.calls[before:] if c.path == "/users/@me/channels"]
    assert opened and opened[0].payload == {"recipient_id": ADA.user_id}
    posts = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]
    assert posts[0].text == "Here is today's challenge, which you asked me for:"
    assert "Daily challenge" in posts[1].text
    (play,) = posts[1].custom_ids
    assert play.startswith("bk:play:")
    again = await h.slash("daily", "play", user=ADA)
    assert_refused(again, "still going")


async def test_daily_play_for_a_player_who_takes_no_dms_opens_nothing_and_says_what_to_do(h):
    """Discord refuses a DM to a person whose settings keep the bot out (50007): today's
    attempt is not opened (it would count, unplayable, and keep them from the next
    days), and they are told which setting lets the bot in, then to ask again."""
    h.closed_dms.add(ADA.user_id)
    told = assert_refused(await h.slash("daily", "play", user=ADA), "can't send you a direct")
    assert "opened nothing" in told.text and "Privacy Settings ▸ Direct Messages" in told.text
    assert f"then run {h.mention('daily play')} again" in told.text and "/game" not in told.text
    assert await h.store.entries(user_id=ADA.user_id) == []
    assert await h.store.latest_game(DM_CHANNEL_ID + ADA.user_id) is None
    assert h.dms(ADA.user_id) == []
    h.closed_dms.discard(ADA.user_id)  # Ada lets the bot in, and asks again
    again = (await h.slash("daily", "play", user=ADA)).one
    assert again.ephemeral and "waiting in your DMs" in again.text
    asked, board, *status = h.dms(ADA.user_id)
    assert "Daily challenge" in text(board) and board["attachments"]


# -- Seven Bridges at the table ----------------------------------------------------------------

SEVEN_BRIDGES = engine.get("seven-bridges")


async def awaited_user(h: Harness, channel: int = CHANNEL_ID) -> Caller | None:
    """Who the game waits for now, from the stored state (None once it is over)."""
    row = await h.store.latest_game(channel)
    state = SEVEN_BRIDGES.from_json(row.state)
    seats = {s.seat: s.user_id for s in await h.store.seats(row.id)}
    waiting = SEVEN_BRIDGES.to_play(state)
    by_id = {c.user_id: c for c in (ADA, BOB, DEE)}
    return by_id[seats[waiting[0]]] if waiting else None


async def open_seven_bridges(h: Harness) -> Replies:
    """A three-player game from ii-2-3, a square with no landmark: the first turn is a roll."""
    await h.slash("game", "new", game="seven-bridges", start="ii-2-3", user=ADA)
    for player in (BOB, DEE):
        await h.slash("game", "join", user=player)
    return await h.slash("game", "start", user=ADA)


async def test_seven_bridges_picker_offers_dice_as_buttons_and_placements_in_a_select(h):
    """The roller rolls with a button; then the dice are buttons, and where to draw a die
    comes from a select once there are many places: all of it exactly the legal moves."""
    start = await open_seven_bridges(h)
    board = board_of(start)
    user = await awaited_user(h)
    assert start.pinged == {user.user_id}
    picker = (await h.click(play_button(board)[0], user=user)).one
    assert picker.text == "Your only move:" and picker.labels == ["roll"]
    rolled = await h.click(picker.custom_ids[0], user=user)
    board = board_of(rolled)
    assert re.search(r"rolls (\w+\d, ){5}\w+\d\.", board.text), board.text
    assert await awaited_user(h) == user, "the roller picks first"

    row = await h.store.latest_game(CHANNEL_ID)
    seat = next(s.seat for s in await h.store.seats(row.id) if s.user_id == user.user_id)
    legal = [
        SEVEN_BRIDGES.format(a)
        for a in SEVEN_BRIDGES.legal(SEVEN_BRIDGES.from_json(row.state), seat)
    ]
    picker = (await h.click(play_button(board)[0], user=user)).one
    dice = [b.label for b in choices(picker)]
    # one button per die that can be drawn, named by face and type; a die with a single
    # place to go says it all (`straight2 ii-2-2 ew`)
    assert dice and all(re.match(r"(cross|tee|corner|straight|half|horse)[23]\b", d) for d in dice)
    offered, selects = [], 0
    frontier = [picker]
    while frontier:
        picker = frontier.pop()
        selects += len(picker.selects)
        assert len(picker.rows) <= 5 and all(len(o) <= 25 for o in picker.selects)
        async for move, leads_to in every_choice(h, picker, user):
            if move is not None:
                offered.append(move)
            else:
                frontier.append(leads_to)
    assert sorted(offered) == sorted(legal)
    assert selects or len(legal) <= 10, "many placements come in a select"


async def test_a_seven_bridges_game_for_three_by_clicks_to_the_end(tmp_path):
    """Three players play a whole game only by pressing buttons and choosing in selects,
    the bot's own picker deciding what is offered; each pick is announced in a short line."""
    rng = random.Random(2)
    async with Harness(tmp_path / "sb.db", images=False) as h:
        board = (await open_seven_bridges(h)).public[-1]
        rolls = picks = listed = 0
        while (user := await awaited_user(h)) is not None:
            play = play_button(board)[0] if board.labels else None
            assert play, f"the game waits for {user.name}, so the board has a Play button"
            picker = (await h.click(play, user=user)).one
            while True:
                options = [(b.custom_id, None, b.style == SUCCESS) for b in choices(picker)]
                for menu in picker.selects:
                    options += [(menu.custom_id, v, d == PLAYS) for v, _, d in menu.options]
                    listed += 1
                custom_id, value, plays = rng.choice(options)
                if value is None:
                    replies = await h.click(custom_id, user=user)
                else:
                    replies = await h.choose(custom_id, value, user=user)
                if plays:
                    break
                picker = replies.one
            confirm, *posted = replies
            board = Replies(posted).public[-1]  # no picture drawn: a message, not a card
            private = posted[posted.index(board) + 1 :]
            assert confirm.text.startswith("You played `") and not board.ephemeral
            assert all(p.ephemeral for p in private), "a player's own sheet stays private"
            rolls += " rolls " in board.text
            line = rf"{user.name} took \w+\d and drew it at [iv]+-\d-\d"
            picks += bool(re.search(line, board.text))
        assert rolls == 15, "five rounds of a roll each for three players"
        assert picks > 0 and listed > 0, "picks announced; some steps came as selects"
        assert "Game over" in board.text and board.labels == ["Rematch"]


# -- secrets at the Discord layer --------------------------------------------------------------

BNB = engine.get("bridges-and-boats")
OUR_ID = re.compile(r"bk:[a-z]+:\d+(:\d+)?(:[\d.]*)?(:\d+)?")


def _payload_texts(payload) -> list[str]:
    """Every string in a REST payload: content, embeds, labels, ids, option values."""
    if isinstance(payload, str):
        return [payload]
    if isinstance(payload, dict):
        return [t for v in payload.values() for t in _payload_texts(v)]
    if isinstance(payload, list):
        return [t for v in payload for t in _payload_texts(v)]
    return []


def _custom_ids(payload) -> list[str]:
    if isinstance(payload, dict):
        own = [payload["custom_id"]] if "custom_id" in payload else []
        return own + [i for v in payload.values() for i in _custom_ids(v)]
    if isinstance(payload, list):
        return [i for v in payload for i in _custom_ids(v)]
    return []


async def test_a_whole_game_with_secrets_leaks_nothing_into_channel_posts_ids_or_logs(
    tmp_path, caplog
):
    """Bridges and Boats by /move from start to end. Dominoes still face down at the end
    (the pool, both reserves, unboarded boats) were never public, so no channel post, no
    component id and no log line at the bot's level may name one; a buyer is told privately."""
    from engine.bridges_and_boats.dominoes import DOUBLE_SIX

    caplog.set_level(logging.INFO)
    rng = random.Random(5)
    async with Harness(tmp_path / "bnb.db", images=False) as h:
        await h.slash("game", "new", game="bridges-and-boats", user=ADA)
        await h.slash("game", "join", user=BOB)
        await h.slash("game", "start", user=ADA)
        row = await h.store.latest_game(CHANNEL_ID)
        seats = await h.store.seats(row.id)
        users = {s.seat: ADA if s.user_id == ADA.user_id else BOB for s in seats}
        told = 0
        while True:
            state = BNB.from_json((await h.store.latest_game(CHANNEL_ID)).state)
            if BNB.is_over(state):
                break
            seat = BNB.to_play(state)[0]
            moves = [BNB.format(a) for a in BNB.legal(state, seat)]
            busy = [m for m in moves if m != "end"]
            move = rng.choice(busy) if busy and rng.random() < 0.75 else rng.choice(moves)
            replies = await h.slash("move", notation=move, user=users[seat])
            told += any(r.ephemeral and "bought" in r.text.lower() for r in replies)
        revealed = set(state.planes) | set(state.cannons) | set(state.discard)
        revealed |= {d for d in state.bridge if d is not None}
        revealed |= {b.domino for b in state.boats if b.soldiers}
        never_shown = set(DOUBLE_SIX) - revealed
        assert never_shown and told
        names = {f"{d.low}-{d.high}" for d in never_shown} | {
            f"{d.high}-{d.low}" for d in never_shown
        }
        public_texts, ids = [], []
        for call in h.calls:
            if call.path.endswith("/commands"):
                continue  # the commands' own descriptions, synced at start-up
            payload = call.payload or {}
            ids += _custom_ids(payload)
            if not call.ephemeral:
                public_texts += _payload_texts(payload)
        assert ids and all(OUR_ID.fullmatch(i) for i in ids), "ids carry no move content"
        leaks = [t for t in public_texts for n in names if n in t]
        assert not leaks, leaks[:3]
        logged = [r.getMessage() for r in caplog.records]
        assert not [line for line in logged for n in names if n in line]


# -- play by post: turn notices by /settings, DMs, snooze, extend, vacation, replace -------


async def overdue_reminder(h: Harness) -> None:
    """Make every waiting seat's reminder due now, as a day without a move would."""
    async with h.store.transaction() as db:
        await db.execute(
            "UPDATE seats SET turn_since = '2000-01-01T00:00:00.000000+00:00' WHERE awaiting = 1"
        )


async def test_turn_pings_follow_each_players_settings(h):
    """channel: a mention under the board; dm: no mention, a DM with a link; both: both;
    off: neither."""
    assert (await h.slash("settings", notify="dm", user=BOB)).one.ephemeral
    assert_pings_only(await start_game(h, ADA, BOB), ADA)
    postal = h.bot.get_cog("Postal")
    move, post = await post_by_slash(h, ADA, 0)
    assert post.pinged == set() and "<@" not in post.text, "Bob asked for DMs only"
    assert h.dms(BOB.user_id) == [], "the DM goes out with the next tick"
    await postal.run_once()
    (dm,) = h.dms(BOB.user_id)
    assert dm["content"] == (
        f"Your move in **Skybridge #1** — Ada placed {move}."
        f"\nhttps://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"
    )
    await postal.run_once()
    assert len(h.dms(BOB.user_id)) == 1, "delivered once"

    await h.slash("settings", notify="off", user=ADA)
    _, post = await post_by_slash(h, BOB, 1)
    assert post.pinged == set()
    await postal.run_once()
    assert h.dms(ADA.user_id) == []

    await h.slash("settings", notify="both", user=BOB)
    _, post = await post_by_slash(h, ADA, 0)
    assert_pings_only(post, BOB)
    await postal.run_once()
    assert len(h.dms(BOB.user_id)) == 2


async def test_a_dm_held_for_quiet_hours_is_dropped_once_the_player_has_moved(h):
    await h.slash("settings", notify="dm", user=BOB)
    await open_game(h, ADA, BOB)
    await play_by_slash(h, ADA, 0)
    async with h.store.transaction() as db:  # as if Bob's quiet hours held it till tomorrow
        await db.execute("UPDATE outbox SET due_at = '2999-01-01T00:00:00.000000+00:00'")
    await play_by_slash(h, BOB, 1)  # Bob saw the board and moved anyway
    async with h.store.transaction() as db:  # the quiet hours are over
        await db.execute("UPDATE outbox SET due_at = '2000-01-01T00:00:00.000000+00:00'")
    await h.bot.get_cog("Postal").run_once()
    assert h.dms(BOB.user_id) == [], "no 'your turn' after the move"


async def test_a_failed_dm_is_retried_then_becomes_a_channel_mention(h):
    await h.slash("settings", notify="dm", user=BOB)
    await open_game(h, ADA, BOB)
    await play_by_slash(h, ADA, 0)
    h.closed_dms.add(BOB.user_id)  # Bob does not accept DMs from server members
    postal = h.bot.get_cog("Postal")
    tries = 0
    while True:
        async with h.store.transaction() as db:  # the retry's wait is over
            await db.execute("UPDATE outbox SET due_at = '2000-01-01T00:00:00.000000+00:00'")
        sent = len(h.calls)
        await postal.run_once()
        posts = [c for c in h.calls[sent:] if c.method == "POST" and "/messages" in c.url]
        (post,) = posts
        if f"/channels/{CHANNEL_ID}/" in post.url:
            break
        assert post.status == 403
        tries += 1
    assert tries == 3, "three tries, then the channel"
    assert post.payload["content"].startswith(
        f"<@{BOB.user_id}> Your move in **Skybridge #1** — Ada placed "
    ), "the DM's words, as a mention"
    assert [int(u) for u in post.payload["allowed_mentions"]["users"]] == [BOB.user_id]
    await postal.run_once()
    assert not [c for c in h.calls[sent + 1 :] if c.method == "POST"], "sent once"


async def test_one_deleted_channel_does_not_hold_up_the_other_games(h):
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        await h.slash(
            "game", "new", game="skybridge", time_per_move="1d", user=ADA, channel=channel
        )
        await h.slash("game", "join", user=BOB, channel=channel)
        await h.slash("game", "start", user=ADA, channel=channel)
    async with h.store.transaction() as db:
        await db.execute(
            "UPDATE seats SET deadline = '2000-01-01T00:00:00.000000+00:00', warned = 1 "
            "WHERE awaiting = 1"
        )
    h.gone_channels.add(CHANNEL_ID)
    sent = len(h.calls)
    await h.bot.get_cog("Postal").run_once()  # the harness fails on any ERROR logged
    delivered = [c for c in h.calls[sent:] if c.method == "POST" and c.status == 200]
    assert any(
        f"/channels/{OTHER_CHANNEL_ID}/" in c.url and "ran out of time" in c.text for c in delivered
    )
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):  # both deadline moves were made, once
        assert len(await h.store.moves((await h.store.latest_game(channel)).id)) == 1
    # a vacation edits the status of every game it moves: the lost one is skipped
    lost, kept = [
        (await h.store.latest_game(channel)).status_message_id
        for channel in (CHANNEL_ID, OTHER_CHANNEL_ID)
    ]
    h.delete_message(lost)  # its repost would go to the deleted channel
    before = h.messages[kept]["content"]
    away = (await h.slash("vacation", days=1, user=BOB, channel=OTHER_CHANNEL_ID)).one
    assert away.ephemeral and "2 running deadlines moved" in away.text
    assert h.messages[kept]["content"] != before, "the other game shows Bob's new deadline"


async def test_snooze_from_the_reminder_dm_or_by_command(h):
    await h.slash("settings", notify="dm", user=ADA)
    await open_game(h, ADA, BOB)
    assert_refused(
        await h.slash("game", "snooze", user=BOB), "It is not your turn, so there is nothing"
    )
    postal = h.bot.get_cog("Postal")
    await postal.run_once()
    (turn,) = h.dms(ADA.user_id)
    assert turn["content"].startswith("Your move in **Skybridge #1** — the game begins.")
    assert not turn["components"]
    await overdue_reminder(h)
    await postal.run_once()
    _, dm = h.dms(ADA.user_id)
    assert dm["content"].startswith("Reminder: it has been your turn in **Skybridge #1** for")
    assert "/channels/" in dm["content"], "with a link to the game"
    (row,) = dm["components"]
    (snooze,) = row["components"]
    assert snooze["label"] == "Snooze" and snooze["custom_id"].startswith("bk:snooze:")
    assert_refused(
        await h.click(snooze["custom_id"], user=CY, message=dm), "You are not playing in this game."
    )
    done = (await h.click(snooze["custom_id"], user=ADA, message=dm)).one
    assert done.ephemeral and done.text == "No more reminders for this turn."
    await overdue_reminder(h)
    await postal.run_once()
    assert len(h.dms(ADA.user_id)) == 2, "snoozed: no more reminders this turn"
    await h.restart()  # the button is understood by a new process too
    await play_by_slash(h, ADA, 0)
    assert_refused(
        await h.click(snooze["custom_id"], user=ADA, message=dm),
        "That turn is over, so there is nothing to snooze.",
    )
    await play_by_slash(h, BOB, 1)
    postal = h.bot.get_cog("Postal")  # the new process's
    await postal.run_once()  # "your turn" again
    await overdue_reminder(h)
    await postal.run_once()
    assert h.dms(ADA.user_id)[-1]["content"].startswith("Reminder:"), "a new turn reminds again"
    assert len(h.dms(ADA.user_id)) == 4
    said = (await h.slash("game", "snooze", user=ADA)).one
    assert said.ephemeral and said.text == "No more reminders for this turn."


async def test_extend_vacation_and_settings_answer_privately_or_publicly_as_they_should(h):
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    before = await snapshot(h)
    assert_refused(
        await h.slash("game", "extend", by="30m", user=ADA),
        "by must be between 1 hour and 60 days; `30m` is not.",
    )
    assert_refused(
        await h.slash("game", "extend", by="0.5h", user=MO), "between 1 hour and 60 days"
    )
    assert_refused(await h.slash("game", "extend", by="1d", user=BOB), "Only the player who")
    assert_refused(await h.slash("game", "extend", by="1d", user=ADA), "extend their own clock")
    assert await snapshot(h) == before
    extended = (await h.slash("game", "extend", by="1d", user=MO)).one
    row = await h.store.latest_game(CHANNEL_ID)
    (due,) = [s.deadline for s in await h.store.seats(row.id) if s.awaiting]
    at = int(datetime.fromisoformat(due).timestamp())
    assert not extended.ephemeral
    assert extended.text == f"Mo gave Ada 24 hours more: due <t:{at}:f> (<t:{at}:R>)."
    assert extended.pinged == set()

    away = (await h.slash("vacation", days=2, user=BOB, channel=DM_CHANNEL_ID)).one
    assert away.ephemeral and "paused for 2 days, until <t:" in away.text
    assert "0 running deadlines moved" in away.text
    assert_refused(await h.slash("vacation", days=20, user=BOB), "You have 12 vacation days left")
    back = (await h.slash("vacation", days=0, user=BOB)).one
    assert back.ephemeral and back.text.startswith("Welcome back.")

    shown = (
        await h.slash("settings", notify="both", timezone="Europe/Berlin", quiet_start=22,
                      quiet_end=7, user=ADA)
    ).one  # fmt: skip
    assert shown.ephemeral and "quiet 22:00–7:00 (DMs wait)" in shown.text
    cleared = (await h.slash("settings", quiet="off", user=ADA)).one
    assert "no quiet hours" in cleared.text and "time zone Europe/Berlin" in cleared.text
    assert_refused(
        await h.slash("settings", quiet="off", quiet_start=1, user=ADA), "not both at once"
    )
    assert_refused(await h.slash("settings", timezone="Mars/Olympus", user=ADA), "not a time zone")


async def test_a_replacement_plays_with_the_newest_boards_button(h):
    board = await open_game(h, ADA, BOB)
    assert_refused(
        await h.slash("game", "replace", player=ADA, by=CY, user=BOB), "a seat is its player's"
    )
    assert_refused(
        await h.slash("game", "replace", player=ADA, by=BOB, user=MO), "Bob already has a seat"
    )
    taken = (await h.slash("game", "replace", player=ADA, by=CY, user=MO)).one
    assert not taken.ephemeral and taken.text.startswith("Cy takes over seat 1 from Ada.")
    assert taken.pinged == {CY.user_id}, "Cy is to play"
    assert_refused(await h.click(play_button(board)[0], user=ADA), "not playing in this game")
    move, after = await play_by_buttons(h, board, CY)
    assert f"Cy placed {move}." in after.text and "To play: Bob." in after.text
