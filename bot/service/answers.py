"""What the service answers after a request: the board (drawn by a worker where there is
one), the public post of a position, a seat's private view, and how the players a
position newly waits for are told (:class:`Told`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from bot.domain.clocks import Clocks, turn_deadline
from bot.processes.drawing import DrawingFailed
from bot.service.context import Context
from bot.service.games import Loaded, effective_moves
from bot.service.marks import when
from bot.service.notify import routes
from bot.service.pings import alone, game_label, your_turn
from bot.service.replies import Reply, StatusCard, ordinal
from bot.store import iso, parse_time
from engine.core import Event, Result, Step
from renders import looks

log = logging.getLogger(__name__)

#: where a seat's own view is read in words whole: the public board, and its own part
OWN_WORDS = "/game board text:true, with /hand,"
#: said instead of the board when its drawing worker died (the move itself stands)
BOARD_LOST = "The board could not be drawn this time; `/game board` shows it."
#: the same for a game in a DM, where ``/game board`` may not be offered (see
#: :attr:`Table.server_commands`) and ``/hand`` shows the player's own board
BOARD_LOST_IN_DM = "The board could not be drawn this time; `/hand` shows it."
#: what the ping says has happened when a game begins
BEGINS = "the game begins"


@dataclass(frozen=True)
class Told:
    """How the players a position newly waits for are told it is their turn, the way
    their ``/settings`` ask: whom the public answer pings and in what words, the DMs to
    queue (user, text, when: held through quiet hours), and each one's deadline."""

    mentions: tuple[int, ...] = ()
    ping: str | None = None
    dms: tuple[tuple[int, str, str], ...] = ()
    deadlines: dict[int, datetime | None] = field(default_factory=dict)


def _hand_line(view: Any) -> str | None:
    """The seat's own hand in words, beside its picture: read where no image shows (the
    terminal, a screen reader). Only the viewing seat's view carries a hand."""
    hand = getattr(view, "hand", None)
    if hand is None:
        return None
    return f"Your hand: {', '.join(str(item) for item in hand)}." if hand else "Your hand is empty."


def private_text(game: Loaded, state: Any, seat: int, events: Sequence[Event]) -> str:
    """:meth:`Answers.private`'s words, without its picture."""
    lines = [e.describe(game.names) for e in events if e.seat == seat]
    hand = _hand_line(game.rules.view(state, seat))
    return "\n".join(["Only you can see this.", *lines, *([hand] if hand else [])])


def result_text(game: Loaded, result: Result) -> str:
    order = sorted(range(len(game.seats)), key=lambda s: (result.places[s], s))
    lines = [f"{ordinal(result.places[s])} {game.names[s]} — {result.scores[s]}" for s in order]
    if result.detail:
        lines.append(result.detail)
    return "\n".join(lines)


def turn_text(game: Loaded, step: Step) -> str:
    """Who is to play in ``step``'s position, or how the game ended."""
    if step.result is not None:
        return "**Game over.**\n" + result_text(game, step.result)
    awaited = [game.names[s] for s in step.awaited]
    return f"To play: {', '.join(awaited)}."


def status_card(game: Loaded, position: Step | None = None) -> StatusCard:
    """The short summary a channel keeps pinned (players, scores, turn, deadline) of
    ``game`` at ``position`` (:attr:`Loaded.position` unless the caller has it already),
    and where it is pinned."""
    row, info = game.row, game.rules.info
    card = partial(StatusCard, row.channel_id, row.status_message_id)
    if game.damage is not None:
        return card(
            f"**{info.name}** ({row.status}) — {', '.join(game.names)}. Its stored state "
            "is damaged, so it can't be played on."
        )
    if game.state is None:
        return card(f"**{info.name}** — waiting to start. Players: {', '.join(game.names)}.")
    position = position or game.position
    scores = game.rules.result(game.state).scores
    awaited = set(position.awaited)
    players = " · ".join(
        f"{'▶ ' if s in awaited else ''}{n} {scores[s]}" for s, n in enumerate(game.names)
    )
    lines = [
        f"**{info.name}** ({row.status}) — {players}",
        turn_text(game, position),
    ]
    deadlines = [seat.deadline for seat in game.seats if seat.awaiting and seat.deadline]
    if deadlines and row.status == "active":
        lines.append(f"Deadline: {when(parse_time(min(deadlines)))}.")
    return card("\n".join(lines))


class Answers:
    """The answers every feature gives after a change: boards, public posts of a
    position, private views, and the notices of whose turn it is."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.store = context.store

    async def board(
        self, game: Loaded, state: Any, text: str, seat: int | None = None, view: Any = None
    ) -> tuple[str, bytes | None, str | None]:
        """``text`` with the board as ``seat`` sees it (the spectator's view, ``None``, for
        public posts; ``view``, where the caller has it already), and the board in words
        for its alt text. A board lost with its drawing worker leaves the move standing,
        and ``text`` then says so, so nobody waits for a picture that is not coming."""
        drawn = looks(game.row.game_key)
        if not self.context.images or drawn is None:
            return text, None, None
        if view is None:
            view = game.rules.view(state, seat)
        alt = drawn.describe(view, game.names)
        drawers = self.context.drawers
        if drawers is None:
            image = await asyncio.to_thread(drawn.draw, view, game.names)
            return text, image, alt
        try:
            return text, await drawers.draw(game.row.game_key, view, game.names), alt
        except DrawingFailed:
            log.error("no board for game %d: its drawing worker stopped", game.row.id)
            lost = BOARD_LOST if game.row.guild_id is not None else BOARD_LOST_IN_DM
            return f"{text}\n{lost}", None, None

    async def private(
        self, game: Loaded, state: Any, version: int, seat: int, events: Sequence[Event]
    ) -> Reply:
        """What only ``seat`` may see now: its own view and the events meant for it."""
        text = private_text(game, state, seat, events)
        text, image, alt = await self.board(game, state, text, seat)
        return Reply(
            text=text,
            private=True,
            image=image,
            alt=alt,
            game_id=game.row.id,
            version=version,
            alt_whole=OWN_WORDS,
        )

    async def position(
        self,
        game: Loaded,
        step: Step,
        version: int,
        lines: Sequence[str],
        *,
        told: Told,
    ) -> Reply:
        """The public answer after anything that changed the position, told from ``step``
        (whose awaited seats and result the engine worked out once), pinging whom ``told``
        says in its words: whom the caller's change told it is their turn in the channel
        (the DMs were queued with the change itself, :meth:`turn_notices`). Whoever
        watches the game live hears of it first (:class:`~bot.service.changes.Changes`)."""
        self.context.changes.moved(game.row.id, version)
        over = step.over
        awaited = tuple(game.seats[s].user_id for s in step.awaited)
        people = game.people(step.awaited)
        if not over and len(people) < len(awaited):
            self.context.ai_awaited(game.row.id, version)
        text = "\n".join([*lines, turn_text(game, step)])
        if over:
            text += "\n" + await self._summary(game)
        # the public view, worked out once for the picture, its words and its accent
        view = game.rules.view(step.state, None) if self.context.images else None
        text, image, alt = await self.board(game, step.state, text, view=view)
        return Reply(
            text=text,
            image=image,
            alt=alt,
            accent=self._accent(game, step, view) if image is not None else None,
            mentions=told.mentions,
            ping=told.ping,
            awaiting=awaited,
            game_id=game.row.id,
            version=version,
            playable=not over,
            changed=(game.row.id,),
            rematch=over,
        )

    @staticmethod
    def words(game: Loaded, view: Any) -> str | None:
        """``view`` of ``game``'s board in words: a picture's alt text, whole (None for
        a game with no looks yet)."""
        drawn = looks(game.row.game_key)
        return None if drawn is None else drawn.describe(view, game.names)

    @staticmethod
    def colour(game: Loaded, view: Any, seat: int) -> tuple[int, int, int] | None:
        """The colour ``seat`` plays in on ``view``'s board, as (red, green, blue)."""
        drawn = looks(game.row.game_key)
        return None if drawn is None else drawn.accent(view, seat)

    @classmethod
    def _accent(cls, game: Loaded, step: Step, view: Any) -> int | None:
        """The colour (``0xRRGGBB``) of the one seat a public board of ``view`` is about:
        the seat to play, or the winner; none when several play at once or share first
        place."""
        places = step.result.places if step.result is not None else ()
        seats = [s for s, place in enumerate(places) if place == 1] or list(step.awaited)
        if len(seats) != 1:
            return None
        rgb = cls.colour(game, view, seats[0])
        return None if rgb is None else rgb[0] << 16 | rgb[1] << 8 | rgb[2]

    async def _summary(self, game: Loaded) -> str:
        """How long the game that just ended took: its moves, and the days from its opening."""
        log = effective_moves(await self.store.moves(game.row.id))
        moves = sum(m.kind == "move" and m.action != "resign" for m in log)
        days = (self.store.clock() - parse_time(game.row.created_at)).days
        span = "in less than a day" if days < 1 else f"over {days} day{'s' * (days > 1)}"
        return f"Played in {moves} move{'s' * (moves != 1)}, {span}."

    async def turn_notices(
        self,
        game: Loaded,
        users: Sequence[int],
        step: Step,
        happened: str | None,
        clocks: Clocks | None = None,
    ) -> Told:
        """How to tell each user it is their turn in ``step``'s position, which
        ``happened`` brought (``bot.service.pings`` words it), under the game's stored
        ``clocks`` (given for a game not stored yet; read with a game loaded with its
        seats). A game played in a DM tells nobody:
        its board, posted there, is the notice, and a mention of the DM's only player
        would ping them about their own move."""
        if game.row.guild_id is None or not users:
            return Told()
        now = self.store.clock()
        clocks = clocks or game.row.clocks  # read with the game, where it was loaded so
        if clocks is None:
            clocks = await self.store.clocks(game.row.id)
        label = game_label(game.row.game_key, game.row.id)
        answer = step.reaction_open
        mentioned, dms, deadlines = [], [], {}
        for user_id in users:
            settings = await self.context.settings_of(user_id)
            seat = game.seats[game.held_seat(user_id)]
            # a wait that goes on keeps its deadline; a new one counts from now
            due = deadlines[user_id] = (
                parse_time(seat.deadline)
                if seat.awaiting and seat.deadline
                else turn_deadline(clocks, answer, now, settings.vacation_until)
            )
            for via, at in routes(settings, now):
                if via == "channel":
                    mentioned.append(user_id)
                else:
                    words = your_turn(label, answer=answer, happened=happened, due=due)
                    dms.append((user_id, alone(words), iso(at)))
        ping = None
        if mentioned:  # one message pings them all: the earliest of their deadlines
            due = min((d for u in mentioned if (d := deadlines[u]) is not None), default=None)
            ping = your_turn(label, answer=answer, happened=happened, due=due)
        return Told(tuple(mentioned), ping, tuple(dms), deadlines)
