"""Playing: a move, a resignation or a skipped turn, each stored in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.domain.ratings import rate
from bot.service.answers import Answers, Told, private_text, status_card, turn_text
from bot.service.context import Context
from bot.service.games import (
    NOT_STARTED,
    STALE,
    Games,
    Loaded,
    Outdated,
    rebuild,
    seated,
    solo_attempt,
    unchanged,
)
from bot.service.heads_up import heads_ups
from bot.service.inputs import Refused
from bot.service.picker import Picked, StalePath, walk
from bot.service.picker import Step as Chosen
from bot.service.replies import Caller, Offer, Reply, Table
from bot.store import MoveRecord, StaleGame, iso
from engine.core import IllegalMove, Step, describe, not_your_turn
from renders import looks
from renders.text.common import plural

#: how many characters of moves /game legal lists: one message, with room for its words
LEGAL_LISTED = 1800
#: said to a picker path that no longer fits the position's legal moves
NOT_OFFERED = "That choice is no longer offered; press Play again."
#: when a timer's move is posted by whichever process delivers notices, should the one
#: that made it not have (it died): its own post goes out within seconds
ANNOUNCE_AFTER = timedelta(minutes=5)


class Play:
    """Playing: a move, a resignation or a skipped turn, each stored in one transaction."""

    def __init__(self, context: Context, games: Games, answers: Answers) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers

    async def move(
        self,
        table: Table,
        caller: Caller,
        text: str,
        expect: tuple[int, int] | None = None,
        *,
        announce: str | None = None,
    ) -> Reply:
        """Play ``text`` for the caller. ``expect`` = (game id, version) from a button.

        ``announce`` is for a move nobody asked for in person (a timer's): the note its
        public post begins with, queued with the move as a stand-in for that post
        (:meth:`announcement`), so the post is never lost, whatever becomes of the
        process that made the move."""

        def played(game: Loaded, seat: int) -> tuple[str, Step]:
            try:
                step = game.rules.play(game.state, seat, text)
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None
            return game.rules.format(step.action), step

        return await self._played(table, caller, expect, played, announce=announce)

    async def pick(
        self,
        game_id: int,
        version: int,
        caller: Caller,
        path: tuple[int, ...] = (),
        *,
        server_commands: bool = True,
        play: bool = True,
    ) -> Picked:
        """A click of the move picker on game ``game_id`` at ``version`` (what its button
        carries), the game loaded once: the caller's legal moves, the step ``path`` (the
        index chosen at each step, ``bot.service.picker``) leads to, and, with ``play``, the move
        it completes played as the very action listed, never written out and read back.
        A button of a position the game has left is refused as stale, changing nothing;
        ``server_commands`` is the clicker's place's (:attr:`Table.server_commands`).

        A click that completes a move on a game this process moved last is decided on
        the game as that move left it (:meth:`Games.kept`), not read again: the move's
        one trip to the database checks it is still so. Any other click reads the game."""
        kept, listed = self.games.kept(game_id), None
        if kept is not None and kept.row.version == version and play:
            try:
                listed = self._listed(kept, version, caller, path)
            except Refused:  # decided again on the game as stored
                self.games.forget(game_id)
            if listed is not None and listed[3].move is not None:
                self.games.forget(game_id)  # kept again once the move is stored
                with suppress(Outdated):  # not stored: decided again on the game as stored
                    return await self._picked(kept, caller, *listed, server_commands)
                listed = None
        game = await self.games.load(game_id, missing=STALE)
        row = game.row
        table = Table(row.channel_id, row.guild_id, server_commands)
        if row.status not in ("lobby", "active"):  # said as for any request at its table
            await self.games.live(table)
            raise Refused(STALE)  # another game is live there now
        if listed is None or not unchanged(game, kept):
            listed = self._listed(game, version, caller, path)
        seat, actions, moves, step = listed
        if step.move is None or not play:
            return Picked(table, moves, step)
        return await self._picked(game, caller, *listed, server_commands)

    def _listed(
        self, game: Loaded, version: int, caller: Caller, path: tuple[int, ...]
    ) -> tuple[int, list[Any], list[str], Chosen]:
        """The clicker's seat, legal actions and their notation in ``game``, and the step
        ``path`` leads to; refused if the button is stale or the path no longer fits."""
        if game.row.version != version:
            raise Refused(STALE)
        if game.row.status == "lobby":
            raise Refused(NOT_STARTED)
        seat = seated(game, caller)
        actions = self._legal(game, seat)
        moves = [game.rules.format(a) for a in actions]
        try:
            return seat, actions, moves, walk(moves, path)
        except StalePath:
            raise Refused(NOT_OFFERED) from None

    async def _picked(
        self,
        game: Loaded,
        caller: Caller,
        seat: int,
        actions: list[Any],
        moves: list[str],
        step: Chosen,
        server_commands: bool,
    ) -> Picked:
        """The move a picker's path completed, played as the very action listed."""
        assert step.move is not None
        table = Table(game.row.channel_id, game.row.guild_id, server_commands)
        action = actions[moves.index(step.move)]
        async with self.context.lock(table):
            done = game.rules.apply_listed(game.state, seat, action)
            reply = await self._commit(game, seat, caller, step.move, done)
        return Picked(table, moves, step, await self._own(game, seat, done, reply))

    async def resign(
        self,
        table: Table,
        caller: Caller,
        expect: tuple[int, int] | None = None,
        *,
        announce: str | None = None,
    ) -> Reply:
        def played(game: Loaded, seat: int) -> tuple[str, Step]:
            try:
                return "resign", game.rules.play(game.state, seat, "resign")
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None

        return await self._played(table, caller, expect, played, announce=announce)

    async def skip_turn(
        self, table: Table, caller: Caller, expect: tuple[int, int], *, announce: str | None = None
    ) -> Reply:
        """Pass a seat's turn because its time ran out (the ``skip`` deadline policy)."""

        def played(game: Loaded, seat: int) -> tuple[str, Step]:
            try:
                return "skip", game.rules.skip(game.state, seat)
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None

        return await self._played(table, caller, expect, played, kind="skip", announce=announce)

    async def _played(
        self,
        table: Table,
        caller: Caller,
        expect: tuple[int, int] | None,
        played: Callable[[Loaded, int], tuple[str, Step]],
        *,
        kind: str = "move",
        announce: str | None = None,
    ) -> Reply:
        """The caller's move in the channel's running game (``played``: its notation and
        step, or refused), stored and answered under the channel's lock. Decided first on
        the game as this process's last move of it left it (:meth:`Games.kept`), stored
        in one trip that checks it is still so; refused or stale there, decided again on
        the game as stored, as a move with no kept copy is."""
        async with self.context.lock(table):
            reply, decided, game = None, None, self.games.kept_active(table, expect)
            if game is not None:
                self.games.forget(game.row.id)  # kept again once the move is stored
                with suppress(Refused):  # decided again on the game as stored
                    seat = seated(game, caller)
                    decided = (seat, *played(game, seat))
            if game is not None and decided is not None:
                seat, notation, step = decided
                with suppress(Outdated):  # not stored: decided again on the game as stored
                    reply = await self._commit(game, seat, caller, notation, step, kind, announce)
            if reply is None:
                game = await self.games.active(table, expect)
                seat = seated(game, caller)
                notation, step = played(game, seat)
                reply = await self._commit(game, seat, caller, notation, step, kind, announce)
        assert game is not None  # the copy the move was stored on, or the game as read
        return await self._own(game, seat, step, reply)

    async def _commit(
        self,
        game: Loaded,
        seat: int,
        caller: Caller,
        notation: str,
        step: Step,
        kind: str = "move",
        announce: str | None = None,
    ) -> Reply:
        """Store ``step`` as the game's next move, in one transaction, and answer it
        (a stand-in for the answer's post queued with it, with ``announce``)."""
        rules = game.rules
        state, events, result = step.state, step.events, step.result
        results, status = None, "active"
        if result is not None:
            results = list(zip(result.places, result.scores, strict=True))
            status = "finished"
        already = game.awaited_users()
        newly = [u for u in game.people(step.awaited) if u not in already]
        lines = [e.describe(game.names) for e in events if e.seat is None and e.kind != "end"]
        happened = next(iter(lines), None)
        told = await self.answers.turn_notices(game, newly, step, happened)
        next_up = await heads_ups(
            game, step, already, seat, self.context.settings_of, self.store.clock(), happened, told
        )
        board = None
        if announce is not None:
            board = (announce, iso(self.store.clock() + ANNOUNCE_AFTER))
        stored = self.context.states.stored(game.row.id, game.row.game_key, state)
        try:
            recorded = await self.store.record(
                game.row.id,
                game.row.version,
                MoveRecord(
                    seat=seat,
                    user_id=caller.user_id,
                    action=notation,
                    state=stored,
                    awaiting=tuple(step.awaited),
                    results=results,
                    kind=kind,
                    reacting=step.reaction_open,
                    attempt=solo_attempt(game, state) if step.over else None,
                    rate=rate,
                    notices=told.dms,
                    heads_ups=next_up,
                    announce=board,
                    seen=tuple(game.seats),
                ),
            )
        except StaleGame:
            raise Outdated from None
        version = game.row.version + 1
        # the game as the move left it, for its pinned status and the next move: no
        # second read of it
        row = replace(
            game.row,
            version=version,
            status=status,
            state=stored,
            status_message_id=recorded.status_message_id,
        )
        after = Loaded(row, recorded.seats, rules, state)
        self.games.keep(after)
        reply = await self.answers.position(game, step, version, lines, told=told)
        return replace(reply, seq=recorded.seq, status=status_card(after, step))

    async def _own(self, game: Loaded, seat: int, step: Step, reply: Reply) -> Reply:
        """``reply`` to a stored move with what it showed only the mover (``followup``:
        their own view) and each other player it showed something (``told``), in a game
        with secrets. Worked out once the move is stored and the channel's lock let go,
        so the next move there (several players move at once in Seven Bridges) does not
        wait for the mover's own board."""
        if not game.rules.info.sends_own_view:
            return reply
        state, events = step.state, step.events
        private = await self.answers.private(game, state, game.row.version + 1, seat, events)
        dms = tuple(
            (s.user_id, private_text(game, state, s.seat, events))
            for s in game.seats
            if s.seat != seat and s.ai is None and any(e.seat == s.seat for e in events)
        )
        return replace(reply, followup=private, told=dms)

    async def announcement(self, game_id: int, seq: int, note: str) -> Reply:
        """Move ``seq``'s public post, rebuilt from the log: what the stand-in of a timer's
        move posts when the process that made the move died before posting it. It is the
        post the move would have had, but for what has moved on since: a game that has
        moved on pings nobody and offers no buttons (its newest board does that)."""
        game = await self.games.load(game_id)
        log = await self.store.moves(game_id)
        before = rebuild(game, log[: seq - 1])
        entry = log[seq - 1]
        if entry.kind == "skip":
            step = game.rules.skip(before, entry.seat)
        else:
            step = game.rules.play(before, entry.seat, entry.action)
        latest = seq == len(log) and game.row.status in ("active", "finished")
        lines = [e.describe(game.names) for e in step.events if e.seat is None and e.kind != "end"]
        told = Told()
        if latest:
            waiting = game.people(game.rules.step(None, before, ()).awaited)
            newly = [u for u in game.people(step.awaited) if u not in waiting]
            # the DMs went with the move; the seats loaded now hold the deadlines it set
            told = await self.answers.turn_notices(game, newly, step, next(iter(lines), None))
        reply = await self.answers.position(game, step, game.row.version, lines, told=told)
        if not latest:
            reply = replace(reply, version=None, playable=False, rematch=False)
        return replace(reply, text=f"{note}\n{reply.text}" if note else reply.text, seq=seq)

    async def hand(self, table: Table, caller: Caller) -> Reply:
        """The caller's own view of the game here, for their eyes only, in words too (a
        player's own sheet item by item); where nothing is hidden, the board everyone
        sees. With its **Play** button while the game waits for the caller: wherever
        they ask, they can play it from here."""
        return await self.own(await self.games.active(table), caller)

    async def own(self, game: Loaded, caller: Caller) -> Reply:
        """:meth:`hand` of a game already loaded (a game's web page asks it of the
        player logged in); refused if the caller has no seat in it."""
        seat = seated(game, caller)
        offers: tuple[Offer, ...] = ()
        if caller.user_id in game.people(game.position.awaited):
            offers = (Offer(game.row.id, game.row.version),)
        info = game.rules.info
        if not info.sends_own_view:
            text = (
                f"**{info.name}** — {turn_text(game, game.position)}\n"
                f"Nothing is hidden in {info.name}: this is the board everyone sees."
            )
            text, image, alt = await self.answers.board(game, game.state, text)
            return Reply(
                text=text, private=True, image=image, alt=alt, game_id=game.row.id, offers=offers
            )
        reply = await self.answers.private(game, game.state, game.row.version, seat, [])
        drawn = looks(game.row.game_key)
        own = None if drawn is None else drawn.describe_own
        words = None if own is None else own(game.rules.view(game.state, seat), game.names)
        text = reply.text if words is None else f"{reply.text}\n{words}"
        return replace(reply, text=text, offers=offers)

    async def legal_moves(
        self, table: Table, caller: Caller, expect: tuple[int, int] | None = None
    ) -> list[str]:
        """The caller's legal moves in notation; refuses if it is not their turn."""
        game = await self.games.active(table, expect)
        return [game.rules.format(a) for a in self._legal(game, seated(game, caller))]

    @staticmethod
    def _legal(game: Loaded, seat: int) -> list[Any]:
        """``seat``'s legal actions in ``game``; refused if it is not its turn."""
        if game.position.over:
            raise Refused("The game is over.")
        if seat not in game.position.awaited:
            raise Refused(describe(not_your_turn(tuple(game.position.awaited)), game.names))
        return game.rules.legal(game.state, seat)

    async def legal(
        self, table: Table, caller: Caller, characters: int | None = LEGAL_LISTED
    ) -> Reply:
        """The caller's legal moves, up to ``characters`` of them (one Discord message's
        worth: the Play button walks through any number); None lists every one."""
        moves = await self.legal_moves(table, caller)
        listed: list[str] = []
        used = 0  # characters so far, with each move's backquotes and comma
        for m in moves:
            if characters is not None and used + len(m) > characters:
                break
            listed.append(m)
            used += len(m) + 4
        listing = ", ".join(f"`{m}`" for m in listed)
        if len(listed) < len(moves):
            listing += f" and {len(moves) - len(listed)} more (the **Play** button offers them all)"
        return Reply(text=f"Your {plural(len(moves), 'legal move')}: {listing}", private=True)
