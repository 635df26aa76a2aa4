"""One pass per move (issue 35, item 4): the picker's last click plays the very action
it listed, loading its game once, and a move's answer needs no second look at the game."""

from __future__ import annotations

import pytest

import engine
from bot.service import Caller, Refused, Service, Table
from bot.service.picker import walk
from bot.store import open_store
from tests.bot.discord.discord_harness import Harness, Replies
from tests.bot.discord.test_commands import (
    ADA,
    BOB,
    board_of,
    open_game,
    open_picker_at_a_move,
    play_button,
    play_by_buttons,
    snapshot,
)

TABLE = Table(channel_id=7, guild_id=1)


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


async def traced(h: Harness) -> list[str]:
    """Every statement the store's SQLite connection runs from now on."""
    statements: list[str] = []
    await h.store._db.set_trace_callback(statements.append)
    return statements


def game_reads(statements: list[str]) -> list[str]:
    """The statements that read a game's row: each is a load of the game."""
    return [s for s in statements if s.lstrip().upper().startswith("SELECT") and " games " in s]


async def test_the_final_click_reads_no_game_it_kept(h):
    board = await open_game(h, ADA, BOB)
    for player in (ADA, BOB):  # each one's settings read once (then kept for a minute)
        _, board = await play_by_buttons(h, board, player)
    picker, button = await open_picker_at_a_move(h, board, ADA)
    statements = await traced(h)
    trips = h.store.round_trips
    confirm, *posted = await h.click(button.custom_id, user=ADA)
    assert confirm.text.startswith("You played `")
    assert board_of(Replies(posted)).custom_ids  # the new board, its Play button for Bob
    # the game as this process's last move left it, not read again: the move stored in
    # one transaction, which checks the game is still so
    assert game_reads(statements) == []
    assert h.store.round_trips - trips == 1


async def test_a_listed_index_of_an_older_position_is_refused_as_stale(tmp_path):
    store = await open_store(tmp_path / "g.db")
    service = Service(store, images=False)
    try:
        table = TABLE
        await service.lobby.create(table, ADA, "skybridge")
        await service.lobby.join(table, BOB)
        started = await service.lobby.start(table, ADA)
        mover, other = (ADA, BOB) if started.awaiting == (ADA.user_id,) else (BOB, ADA)
        game = await service.games.live(table)
        old = game.row.version
        first = await service.play.pick(game.row.id, old, mover, (), play=False)
        path = _first_choices(first.moves)
        move = walk(first.moves, path).move
        played = await service.play.pick(game.row.id, old, mover, path)
        assert played.reply is not None and played.step.move == move
        log = await store.moves(game.row.id)
        assert log[-1].action == move, "the listed action itself was played"
        # the other's turn now: the same indices lead to a legal move of theirs, but
        # the button carries the position before
        again = await service.play.pick(game.row.id, old + 1, other, (), play=False)
        assert walk(again.moves, path).move is not None
        with pytest.raises(Refused, match="earlier position"):
            await service.play.pick(game.row.id, old, other, path)
        assert await store.moves(game.row.id) == log, "a stale click changes nothing"
    finally:
        await store.close()


async def test_old_picker_buttons_still_play(h):
    """A picker's ids stay as they were (``bk:pick:<game>:<version>:<path>``): a message
    posted before the change plays the move it offered."""
    board = await open_game(h, ADA, BOB)
    _, game_id, version = play_button(board)
    before = await snapshot(h)
    confirm, *posted = await h.click(f"bk:pick:{game_id}:{version}:0.0.0", user=ADA)
    assert confirm.text.startswith("You played `")
    after = await snapshot(h)
    assert len(after[1]) == len(before[1]) + 1
    assert after[1][-1].action == confirm.text.split("`")[1]


def _first_choices(moves: list[str]) -> tuple[int, ...]:
    """The picker path that takes the first choice at every step, to a move."""
    path: tuple[int, ...] = ()
    while walk(moves, path).move is None:
        path = (*path, 0)
    return path


async def test_a_move_is_its_transaction_alone(tmp_path):
    """A typed move on a game this process moved last reads nothing and stores
    everything in one trip to the database: its notices need no read of their own."""
    store = await open_store(tmp_path / "g.db")
    service = Service(store, images=False)
    try:
        await service.lobby.create(TABLE, ADA, "skybridge")
        await service.lobby.join(TABLE, BOB)
        reply = await service.lobby.start(TABLE, ADA)
        for n in range(6):
            mover = ADA if reply.awaiting == (ADA.user_id,) else BOB
            move = (await service.play.legal_moves(TABLE, mover))[0]
            trips = store.round_trips
            reply = await service.play.move(TABLE, mover, move)
            if n >= 2:  # each player's settings were read once (kept for a minute)
                assert store.round_trips - trips == 1
            assert reply.mentions, "the next player is pinged: the notices were worked out"
    finally:
        await store.close()


async def test_a_posts_public_view_is_worked_out_once(tmp_path, monkeypatch):
    """The picture, its words and its accent colour come from one view of the board."""
    store = await open_store(tmp_path / "g.db")
    service = Service(store)  # boards drawn
    rules = engine.get("skybridge")
    views: list[int | None] = []
    view = rules.view
    monkeypatch.setattr(rules, "view", lambda state, seat: views.append(seat) or view(state, seat))
    try:
        await service.lobby.create(TABLE, ADA, "skybridge")
        await service.lobby.join(TABLE, BOB)
        reply = await service.lobby.start(TABLE, ADA)
        mover = ADA if reply.awaiting == (ADA.user_id,) else BOB
        move = (await service.play.legal_moves(TABLE, mover))[0]
        views.clear()
        reply = await service.play.move(TABLE, mover, move)
        assert reply.image is not None and reply.accent is not None and reply.alt
        assert views == [None]
    finally:
        await store.close()


@pytest.mark.parametrize("key", ["seven-bridges", "seven-cities"])
async def test_the_movers_own_view_is_built_once_the_move_is_stored(tmp_path, monkeypatch, key):
    """In a game with secrets the mover's own view comes with the answer, worked out
    after the move is stored and the channel let go for the next move."""
    store = await open_store(tmp_path / "g.db")
    service = Service(store, images=False)
    rules = engine.get(key)
    lock = service.context.lock(TABLE)
    stored = []  # whether the move was stored, at each own view worked out
    view, record = rules.view, store.record
    recorded: list[int] = []

    def seen(state, seat):
        if seat is not None:
            stored.append((bool(recorded), lock.locked()))
        return view(state, seat)

    async def recording(*args):
        result = await record(*args)
        recorded.append(result.seq)
        return result

    try:
        players = [ADA, BOB, Caller(1003, "Cy")][: rules.info.min_players]
        await service.lobby.create(TABLE, players[0], key)
        for player in players[1:]:
            await service.lobby.join(TABLE, player)
        reply = await service.lobby.start(TABLE, players[0])
        monkeypatch.setattr(rules, "view", seen)
        monkeypatch.setattr(store, "record", recording)
        by_id = {p.user_id: p for p in players}
        for _ in range(3):
            recorded.clear()
            mover = by_id[reply.awaiting[0]]
            move = (await service.play.legal_moves(TABLE, mover))[0]
            reply = await service.play.move(TABLE, mover, move)
            assert reply.followup is not None and reply.followup.private
        assert stored and all(s == (True, False) for s in stored), stored
    finally:
        await store.close()
