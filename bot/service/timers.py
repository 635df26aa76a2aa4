"""Play-by-post timing: what is due now (reminders, warnings, deadlines, AI players'
moves, daily digests), done once.

Every timer lives in the database (each awaited seat's wait began at ``turn_since``
and ends at ``deadline``), so nothing is lost in a restart. The store keeps when each
wait is next due (``bot.domain.clocks``) in an index, so a tick reads only the waits due, and
works out afresh what is due for them. Doing it exactly once comes from the store: a
reminder or warning is *claimed* by a conditional UPDATE that only one tick can win,
and a deadline move is an ordinary move guarded by the game's version. No Discord here.
"""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

import engine
from bot.domain.clocks import Wait, digest_after, due, remind_every, warning_window
from bot.service.context import LEASE, Context
from bot.service.games import effective_moves
from bot.service.inputs import Refused
from bot.service.lobby import POLICIES
from bot.service.looking import Looking
from bot.service.marks import when
from bot.service.notify import routes
from bot.service.pings import game_label, last_played, reminder, warning
from bot.service.play import Play
from bot.service.replies import Caller, Reply, Table, waited_for
from bot.service.seats import Seats
from bot.store import Notice, Settings, iso, parse_time

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Posted:
    """A public reply a tick produced (a deadline move), for the game's channel."""

    table: Table
    reply: Reply


#: what became of a wait a tick claimed: what was due is done, nothing was due, or its
#: game moved on under it (another wait's move), so it is another wait now
Outcome = Literal["done", "idle", "moved on"]

#: how a caller posts a reply in its channel (Discord, the terminal, a test's list): True
#: once done with it (posted, or never postable: a channel deleted); False if it may yet
#: be (Discord's servers failing), so what stands in for it stays to try again
Post = Callable[[Posted], Awaitable[bool]]


async def post_once(
    item: Posted,
    mark: Callable[[], Awaitable[bool]],
    post: Post | None,
    posted: list[Posted],
    hold: Callable[[], Awaitable[bool]],
) -> bool:
    """Post ``item`` and then ``mark`` it made, renewing the lease it is posted under
    first (``hold``: many posts may take a while); or, with nowhere to post it, mark it
    and keep it in ``posted`` for the caller if the mark was this caller's. What a
    process dies before marking is posted again by the lease's next holder: at least
    once. False once the lease is another process's: the rest is left to it."""
    if post is None:
        if await mark():
            posted.append(item)
        return True
    if not await hold():
        return False
    if await post(item):  # else it is posted again next minute
        await mark()
    return True


#: what the deadline brings, told to the player it will happen to
AT_YOUR_DEADLINE = {
    "random": "the game plays a random legal move for you",
    "skip": "your turn is skipped",
    "forfeit": "you resign the game",
}


def _following(settings: Settings, now: datetime) -> str | None:
    """When the player's digest after this one is due (None: they take none any more)."""
    moment = digest_after(settings, now)
    return None if moment is None else iso(moment)


def day_ends(moment: datetime) -> datetime:
    """The midnight (UTC) that ends ``moment``'s day: when its daily challenge closes and
    the next one opens."""
    return datetime.combine(moment.astimezone(UTC).date() + timedelta(days=1), time(), tzinfo=UTC)


#: waits claimed at a time, so several processes ticking at once share a burst between
#: them (a claim lasts :data:`~bot.service.LEASE` from when it is made, well beyond a
#: batch's work: ten AI moves of the longest think, 10 s, take under two minutes)
BATCH = 10


class Timers:
    """Runs what is due. The Discord loop and the tests call :meth:`tick` the same way.

    Any number of processes may tick on one database: each claims the waits it does
    (:meth:`~bot.store.interface.Postal.claim_due_waits`), and what a claim leads to is
    itself done once (a reminder by a conditional claim, a move by the game's version).
    """

    def __init__(
        self, context: Context, play: Play, seats: Seats, looking: Looking, lease: timedelta = LEASE
    ) -> None:
        """``lease``: how long a wait this process claims stays its own."""
        self.context = context
        self.store = context.store
        self.play = play
        self.seats = seats
        self.looking = looking
        self.lease = lease
        self._claims = itertools.count(1)

    async def tick(self, post: Post | None = None) -> list[Posted]:
        """Do everything due now; the public replies the moves made produced.

        With ``post``, each such reply is posted as soon as its move is stored, and the
        move was stored with a stand-in for its post (``announce``): if this process dies
        before posting, whichever process delivers notices posts it later, so a move is
        never left unannounced. Without ``post`` the replies are returned, for the caller
        to show.

        Only the waits the store has as due are read, a batch at a time, each claimed
        for this process. Doing what is due stores each wait's next due time with it; a
        wait with nothing due (one running when its database was upgraded, or changed
        outside the store) or whose game moved on has it stored here, and one whose game
        moved on is read again at once: the same minute's other timeout is due in this
        tick too. A wait is done at most once a tick at each of its game's versions: one
        that fails stays claimed, and is tried again when its claim runs out.
        """
        now = self.store.clock()
        posted: list[Posted] = []
        seen: set[tuple[int, int, int]] = set()
        while True:
            until = self.store.clock() + self.lease  # from this batch's claim, not the tick's
            claimed = await self.store.claim_due_waits(now, until, BATCH)
            fresh = [w for w in claimed if (w.game_id, w.seat, w.version) not in seen]
            seen.update((w.game_id, w.seat, w.version) for w in claimed)
            # a wait done this tick and due again already waits for the next tick, not
            # for its claim to run out
            idle = [w for w in claimed if w not in fresh]
            moved_on = False  # a wait whose game another wait's move changed under it
            for wait in fresh:
                outcome = await self._do(wait, now, posted, post)
                moved_on |= outcome == "moved on"
                if outcome != "done":
                    idle.append(wait)
            if idle:
                await self.store.reschedule(idle)
            # a game moved on under a wait (two answers of one window timing out in the
            # same minute, say): read it again at its new version, due in this pass too
            if (len(claimed) < BATCH and not moved_on) or not fresh:
                break
        try:
            await self._digests(now)
        except Exception:  # the digests wait for the next minute; the moves above stand
            log.exception("play-by-post: the daily digests failed")
        return posted

    async def _do(
        self, wait: Wait, now: datetime, posted: list[Posted], post: Post | None
    ) -> Outcome:
        """Do what is due in ``wait``: ``done``; ``idle`` if nothing was, or ``moved on``
        if its game did under it (its due time is then stored afresh either way). A
        failure is logged, and the claim keeps the wait until it runs out."""
        kind = due(wait, now)
        try:
            if kind in ("deadline", "ai"):
                durable = post is not None
                if kind == "deadline":
                    reply = await self._deadline(wait, durable)
                else:
                    reply = await self._ai(wait, durable)
                if reply is None:  # the game moved on: the wait is another one now
                    return "moved on"
                item = Posted(Table(wait.channel_id, wait.guild_id), reply)
                if post is None:
                    posted.append(item)
                else:
                    await self._announce(wait.game_id, item, post)
            elif kind is not None:
                await self._notify(wait, kind, now)
            return "idle" if kind is None else "done"
        except Exception:  # one broken game must not strand the others' committed moves
            log.exception("play-by-post: %s for game %d failed", kind, wait.game_id)
            return "done"

    async def _announce(self, game_id: int, item: Posted, post: Post) -> None:
        """Post a timer's move, stored with a stand-in for its post, due a few minutes
        on. The stand-in is taken first: a process that stalled past that time, while
        another posted it (or is posting it), posts nothing. Posted, it is marked sent;
        not (Discord's servers failing), it stays due, for whichever process delivers
        notices then."""
        assert item.reply.seq is not None  # a move's reply names its log entry
        stand_in = await self.store.claim_announcement(game_id, item.reply.seq, self.claimer())
        if stand_in is None:
            log.warning(
                "game %d: move %d is posted by another process (this one stalled past its "
                "stand-in's due time)", game_id, item.reply.seq,
            )  # fmt: skip
        elif await post(item):
            await self.sent(stand_in)

    async def _digests(self, now: datetime) -> None:
        """Each daily digest due: the player's games waiting for them, in one DM (none
        when nothing waits, or while they are on vacation, as no reminder comes then),
        and the next one's moment, all claimed in one transaction. Read through an index
        of the digests due: a minute with none due costs one look at it."""
        claims = []
        for user_id, due_at, settings in await self.store.due_digests(now):
            following = _following(settings, now)
            away = settings.vacation_until is not None and parse_time(settings.vacation_until) > now
            text = None if away else await self._digest(user_id)
            claims.append((user_id, due_at, following, text))
        if claims:
            await self.store.claim_digests(claims)

    async def _digest(self, user_id: int) -> str | None:
        lines = await self.looking.waiting_lines(user_id)
        if not lines:
            return None
        count = "1 game waits" if len(lines) == 1 else f"{len(lines)} games wait"
        return "\n".join([f"📬 Your daily digest: {count} for your move.", *lines])

    async def _notify(self, wait: Wait, kind: str, now: datetime) -> None:
        """A reminder or a warning for ``wait``, in words a notification shows whole:
        which game (a DM or a lock screen says nothing else), what was played last, and
        when the move is due (``bot.service.pings``)."""
        count = grace = None
        game = game_label(wait.game_key, wait.game_id)
        since = await self._last_played(wait)
        if kind == "warning":
            assert wait.deadline is not None  # only a wait with a deadline is warned
            deadline = parse_time(wait.deadline)
            if now >= deadline:  # warned late (the bot was down): the warning gets its time
                deadline = grace = now + warning_window(wait)
            then = (
                ", or the bot passes for you"
                if wait.reacting
                else f"; after that {AT_YOUR_DEADLINE[wait.clocks.policy]}"
            )
            text = warning(game, answer=wait.reacting, since=since, deadline=deadline, then=then)
        else:
            assert wait.turn_since is not None  # a wait is reminded once its turn began
            waited = now - parse_time(wait.turn_since)
            due_at = parse_time(wait.deadline) if wait.deadline else None
            text = await self._daily_reminder(wait, now) or reminder(
                game, waited_for(waited), since, due_at
            )
            # after time away (the bot down, say) one reminder catches up: no burst
            intervals = int(waited / remind_every(wait))
            count = min(max(wait.reminders + 1, intervals), wait.clocks.reminder_limit)
        settings = await self.store.settings(wait.user_id)
        notices = [(via, text, iso(at)) for via, at in routes(settings, now)]
        await self.store.claim(
            wait, kind, notices, reminders=count, deadline=iso(grace) if grace else None
        )

    async def _last_played(self, wait: Wait) -> str | None:
        """What ``wait`` follows: the last move standing in its game, by whom."""
        standing = effective_moves(await self.store.moves(wait.game_id))
        names = [s.name for s in await self.store.seats(wait.game_id)]
        return last_played(standing, names, wait.seat)

    async def _daily_reminder(self, wait: Wait, now: datetime) -> str | None:
        """For a daily attempt left open past its day: not how long the turn has waited,
        but when today's challenge closes, which this open game keeps the player from."""
        day = await self.store.attempt_day(wait.game_id)
        if day is None or day >= now.date().isoformat():
            return None
        weekday = date.fromisoformat(day).strftime("%A")
        return (
            f"Reminder: your daily **{engine.get(wait.game_key).info.name}** challenge of "
            f"{weekday} {day} is still open here. Today's "
            f"challenge closes at midnight UTC, {when(day_ends(now), 'R')}: finish this game, or "
            "call it off with `/game abandon` (a loss), to play it with `/daily play`."
        )

    async def _deadline(self, wait: Wait, durable: bool) -> Reply | None:
        """Apply the game's policy for a seat out of time. None if the game moved on.
        ``durable``: store the move with a stand-in for its post (see :meth:`tick`)."""
        table = Table(wait.channel_id, wait.guild_id)
        caller = Caller(wait.user_id, wait.name)
        expect = (wait.game_id, wait.version)
        if wait.reacting:  # an out-of-turn window closes: silence is a pass
            note = f"⏰ {wait.name} did not answer in time: the bot passed for them."
        else:
            played = POLICIES[wait.clocks.policy]
            note = f"⏰ {wait.name} ran out of time: the game played {played}."
        announce = note if durable else None
        try:
            if wait.reacting:
                reply = await self.play.move(table, caller, "pass", expect, announce=announce)
            elif wait.clocks.policy == "forfeit":
                reply = await self.play.resign(table, caller, expect, announce=announce)
            elif wait.clocks.policy == "skip":
                reply = await self.play.skip_turn(table, caller, expect, announce=announce)
            else:
                moves = await self.play.legal_moves(table, caller, expect)
                # the same wait always picks the same move, even if retried after a restart
                pick = random.Random(f"{wait.game_id}:{wait.version}").choice(moves)
                reply = await self.play.move(table, caller, pick, expect, announce=announce)
        except Refused:
            return None
        return replace(reply, text=f"{note}\n{reply.text}")

    async def _ai(self, wait: Wait, durable: bool) -> Reply | None:
        """An AI seat's pause is over: it moves. None if the game moved on meanwhile (its
        wait, rescheduled with the move, brings it back to the new position)."""
        table = Table(wait.channel_id, wait.guild_id)
        caller = Caller(wait.user_id, wait.name)
        try:
            return await self.seats.ai_move(
                table, caller, (wait.game_id, wait.version), announce="" if durable else None
            )
        except Refused:
            return None

    async def board(self, notice: Notice) -> Posted:
        """A ``board`` notice's post: the timer's move whose process died before posting
        it, rebuilt from the log, for its game's channel."""
        # a board notice belongs to its game's move, in its channel
        assert notice.game_id is not None and notice.seq is not None
        assert notice.channel_id is not None
        reply = await self.play.announcement(notice.game_id, notice.seq, notice.text)
        return Posted(Table(notice.channel_id, notice.guild_id), reply)

    def claimer(self) -> str:
        """A token for one claim of this process's: its holder and a count, so a claim is
        told apart from every other, this process's own earlier ones included."""
        return f"{self.context.holder}/{next(self._claims)}"

    async def still_ours(self, notice: Notice) -> bool:
        """Just before ``notice`` goes out: whether its claim is still this process's
        (extended from now if so). Not if this process stalled past the claim and another
        took the notice over: that one sends it."""
        return await self.store.confirm_claim(notice)

    async def sent(self, notice: Notice) -> None:
        if not await self.store.mark_sent(notice):
            log.warning(
                "notice %d went out after another process took it over (this one stalled "
                "while sending it): it may have gone out twice", notice.id,
            )  # fmt: skip

    async def undelivered(self, notice: Notice) -> str:
        """Discord refused ``notice``: it is tried again later, or as a mention in the
        game's channel once a DM has failed often enough; says which."""
        return await self.store.delivery_failed(notice)

    async def deliveries(self) -> list[Notice]:
        """Queued notices now due (quiet hours over), claimed for this caller alone; send
        each only if :meth:`still_ours` just before, and mark each sent once delivered, or
        report it failed so it is tried again."""
        return await self.store.claim_notices(self.claimer())
