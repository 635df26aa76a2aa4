"""Play by post: snoozes, extra time, handing a seat on, vacations, personal settings and
archiving, under the fair-play rules the README states.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.domain.clocks import digest_after, quiet_hour
from bot.service.answers import Answers, Told
from bot.service.context import Context
from bot.service.fair_play import manager_of, may_replace
from bot.service.games import Games, Loaded, seated
from bot.service.inputs import (
    EXTEND_BY,
    Refused,
    check_count,
    check_hours,
    check_text,
    format_hours,
    parse_reminders,
    parse_timezone,
    shown,
)
from bot.service.marks import when
from bot.service.replies import Caller, Reply, Table
from bot.store import Settings, StaleGame, iso, parse_time
from renders.text.common import plural

NOTIFY = {
    "channel": "a mention in the game's channel",
    "dm": "a direct message",
    "both": "a mention and a direct message",
    "off": "none",
}


#: the most extra time `/game extend` gives one turn, unless its time per move is longer
EXTEND_CAP_HOURS = 7 * 24
#: the hours a digest may come at, and the one it comes at unless the player names one
DIGEST_HOURS = (0, 23)
DEFAULT_DIGEST_HOUR = 8


def _heads_up_text(settings: Settings) -> str:
    if not settings.heads_up:
        return "off"
    return (
        "on, but your turn notices are off, so it reaches you nowhere"
        if settings.notify == "off"
        else "on"
    )


def _cadence(reminders: str | None, hour: int | None, current: Settings) -> dict[str, Any]:
    """The settings ``/settings reminders:`` and ``digest_hour:`` change (none: neither
    given). A digest hour goes with the digest, the only thing it times."""
    if reminders is None and hour is None:
        return {}
    choice = parse_reminders(reminders) if reminders is not None else None
    digest = choice == "digest" or (choice is None and current.digest_hour is not None)
    if hour is not None and not digest:
        raise Refused(
            "digest_hour is the hour of your daily digest: ask for the digest with it, "
            "e.g. `/settings reminders:digest digest_hour:8`."
        )
    if digest:
        hour = hour if hour is not None else current.digest_hour
        return {"remind_hours": None, "digest_hour": DEFAULT_DIGEST_HOUR if hour is None else hour}
    return {"remind_hours": None if choice == "game" else choice, "digest_hour": None}


def _days(days: float) -> str:
    """``1 day``, ``2 days``, ``1.5 days``: a vacation's length as people say it."""
    return f"{days:g} day" if days == 1 else f"{days:g} days"


class Postal:
    """Play by post: snoozes, extra time, handing a seat on, vacations, personal settings
    and archiving."""

    def __init__(self, context: Context, games: Games, answers: Answers) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers

    async def snooze(self, table: Table, caller: Caller) -> Reply:
        """No more reminders for the caller's current turn in this channel's game."""
        game = await self.games.active(table)
        seat = seated(game, caller)
        if seat not in game.position.awaited:
            raise Refused("It is not your turn, so there is nothing to snooze.")
        await self.store.snooze(game.row.id, caller.user_id)
        return Reply(text="No more reminders for this turn.", private=True)

    async def snooze_turn(self, game_id: int, caller: Caller, turn_since: str) -> Reply:
        """The Snooze button on a reminder (in the channel or a DM): that turn only, named
        by when it began (as stored: a moment in UTC)."""
        try:
            turn_since = iso(parse_time(turn_since))
        except (ValueError, OverflowError):  # garbled, or a moment no calendar holds
            raise Refused("That Snooze button names no turn I know; nothing was snoozed.") from None
        row = await self.store.game(game_id)
        seats = await self.store.seats(game_id) if row else []
        if row is None or all(s.user_id != caller.user_id for s in seats):
            raise Refused("You are not playing in this game.")
        if row.status != "active" or not await self.store.snooze(
            game_id, caller.user_id, turn_since
        ):
            waited = await self.store.waiting_since(game_id, turn_since)
            if row.status == "active" and waited:  # someone else's reminder, in the channel
                raise Refused(
                    f"This isn't your turn to snooze: only {', '.join(waited)} is waited for."
                )
            raise Refused("That turn is over, so there is nothing to snooze.")
        return Reply(text="No more reminders for this turn.", private=True)

    async def extend(self, table: Table, caller: Caller, hours: float) -> Reply:
        """Give the waiting players more time: never by themselves (a creator or manager
        would otherwise stretch their own clock), and at most :data:`EXTEND_CAP_HOURS`,
        or the time per move if longer, for one turn."""
        game = await self.games.active(table)
        manager_of(game, caller, "extend a deadline")
        if caller.user_id in game.awaited_users():
            raise Refused(
                "Nobody can extend their own clock, and this turn is yours: a server manager "
                "(or the game's creator, if that is not you) can give you more time."
            )
        hours = check_hours(hours, EXTEND_BY)
        most = max((await self.store.clocks(game.row.id)).move_hours or 0, EXTEND_CAP_HOURS)
        try:
            extended = await self.store.extend_turn(game.row.id, game.row.version, hours, most)
        except StaleGame:
            raise Refused("The game changed at that moment; please try again.") from None
        if extended is None:
            raise Refused("This game has no running deadline (no time per move).")
        given, made = extended
        if not made:
            raise Refused(
                f"`by:{format_hours(hours)}` is too much: one turn can be given at most "
                f"{format_hours(most)} more (its time per move, or "
                f"{format_hours(EXTEND_CAP_HOURS)} if that is longer), and this turn has had "
                + (f"{format_hours(given)} already." if given else "none yet.")
            )
        waiting = ", ".join(game.names[s] for s in game.position.awaited)
        due = [s.deadline for s in await self.store.seats(game.row.id) if s.awaiting and s.deadline]
        return Reply(
            text=f"{caller.name} gave {waiting} {format_hours(hours)} more: due "
            f"{when(parse_time(min(due)))}.",
            changed=(game.row.id,),
        )

    async def replace_player(
        self, table: Table, caller: Caller, old_user: int, new: Caller
    ) -> Reply:
        """Hand a seat to another user; the seat, its pieces and its turn stay."""
        game = await self.games.live(table)
        await may_replace(self.store, game, caller, old_user)
        seat = game.seat_of(old_user)
        if seat is None:
            raise Refused("That user is not playing in this game.")
        if game.seat_of(new.user_id) is not None:
            raise Refused(f"{new.name} already has a seat in this game.")
        check_text(new.name, "The new player's name")
        awaited = game.state is not None and seat in game.position.awaited
        taking = f"{new.name} takes over seat {seat + 1} from {game.names[seat]}"
        told = Told()
        if awaited:  # the seat's wait goes on, its deadline with it, for the newcomer
            seats = list(game.seats)
            seats[seat] = replace(seats[seat], user_id=new.user_id, name=new.name)
            taken = Loaded(game.row, seats, game.rules, game.state)
            # the newcomer's "your turn" DM goes with the change, in its transaction
            told = await self.answers.turn_notices(taken, [new.user_id], game.position, taking)
        try:
            await self.store.replace_player(
                game.row.id, game.row.version, seat, new.user_id, new.name, notices=told.dms
            )
        except StaleGame:
            raise Refused("The game changed at that moment; please try again.") from None
        by = "" if caller.user_id == old_user else f" {caller.name} made the change."
        return Reply(
            text=f"{taking}.{by}",
            mentions=told.mentions,
            ping=told.ping,
            changed=(game.row.id,),
        )

    async def vacation(self, caller: Caller, days: float) -> Reply:
        """Pause the caller's clocks for ``days`` from their bank; 0 ends a vacation early."""
        settings = await self.store.settings(caller.user_id)
        now = self.store.clock()
        until = parse_time(settings.vacation_until) if settings.vacation_until else None
        if days == 0:
            if until is None or until <= now:
                raise Refused("You are not on vacation.")
            left = (until - now).total_seconds() / 86400
            await self.context.put_settings(
                caller.user_id,
                replace(settings, vacation_until=None, vacation_days=settings.vacation_days + left),
            )
            games = await self.store.push_deadlines(-left * 24, user_id=caller.user_id)
            return Reply(
                text=f"Welcome back. {left:.1f} unused days went back to your bank.",
                private=True,
                changed=tuple(games),
            )
        if not 0 < days <= settings.vacation_days:
            raise Refused(
                f"You have {settings.vacation_days:g} vacation days left: days must be from 0 "
                f"(back early) to {settings.vacation_days:g}; {shown(days)} is not."
            )
        start = max(now, until) if until else now
        ends = start + timedelta(days=days)
        await self.context.put_settings(
            caller.user_id,
            replace(
                settings,
                vacation_until=iso(ends),
                vacation_days=settings.vacation_days - days,
            ),
        )
        games = await self.store.push_deadlines(days * 24, user_id=caller.user_id)
        return Reply(
            text=(
                f"Enjoy your break: your clocks are paused for {_days(days)}, until "
                f"{when(ends, 'f')}; {plural(len(games), 'running deadline')} moved. "
                f"{_days(settings.vacation_days - days)} left in your bank. "
                "`/vacation days:0` comes back early."
            ),
            private=True,
            changed=tuple(games),
        )

    async def settings(self, caller: Caller, *, quiet_off: bool = False, **changes: Any) -> Reply:
        """Show or change how the caller is told it is their turn; ``quiet_off`` clears
        the quiet hours (a ``None`` among ``changes`` means "unchanged"). ``reminders``
        is typed text (:func:`~bot.service.inputs.parse_reminders`), ``heads_up`` a bool."""
        current = await self.store.settings(caller.user_id)
        given = {k: v for k, v in changes.items() if v is not None}
        if "notify" in given and given["notify"] not in NOTIFY:
            raise Refused(f"Notify must be one of {', '.join(NOTIFY)}.")
        if "timezone" in given:
            given["timezone"] = parse_timezone(given["timezone"])
        for key in ("quiet_start", "quiet_end"):
            if key in given and not 0 <= given[key] <= 23:
                raise Refused("Quiet hours are whole hours from 0 to 23.")
        if quiet_off:
            if "quiet_start" in given or "quiet_end" in given:
                raise Refused("Set quiet hours or turn them off, not both at once.")
            given.update(quiet_start=None, quiet_end=None)
        if "heads_up" in given and not isinstance(given["heads_up"], bool):
            raise Refused("heads_up is on or off.")
        hour = given.pop("digest_hour", None)
        if hour is not None:
            check_count(hour, "digest_hour", DIGEST_HOURS)
        given.update(_cadence(given.pop("reminders", None), hour, current))
        updated = replace(current, **given)
        if given:
            await self.context.put_settings(caller.user_id, updated)
        quiet = (
            f"quiet {updated.quiet_start}:00–{updated.quiet_end}:00 (DMs wait)"
            if updated.quiet
            else "no quiet hours"
        )
        return Reply(
            text=(
                f"Turn notices: {NOTIFY[updated.notify]}; time zone {updated.timezone}; {quiet}; "
                f"{updated.vacation_days:g} vacation days in the bank.\n"
                f'Reminders: {self._reminders_text(updated)}; "you\'re next" heads-up: '
                f"{_heads_up_text(updated)}."
            ),
            private=True,
        )

    def _reminders_text(self, settings: Settings) -> str:
        """How the player is reminded, as their settings have it; for a digest, when the
        next comes (quiet hours move it to their end, and say so)."""
        if settings.remind_hours is not None:
            return f"every {format_hours(settings.remind_hours)} (in every game)"
        if settings.digest_hour is None:
            return "each game's own (`remind_every`)"
        hour = settings.digest_hour
        due = digest_after(settings, self.store.clock())
        assert due is not None  # they take a digest: digest_hour is set
        text = f"one digest a day instead, at {hour}:00 {settings.timezone}"
        if quiet_hour(hour, settings.quiet):
            text += f" (in your quiet hours: it comes at {settings.quiet_end}:00, when they end)"
        return f"{text}, next {when(due)}"

    async def archive(self, table: Table, caller: Caller) -> Reply:
        """Close a finished game's place; its log, boards and results are kept."""
        game = await self.games.latest(table)
        if game.row.status in ("lobby", "active"):
            raise Refused("Finish or abandon the game before archiving it.")
        manager_of(game, caller, "archive it")
        return Reply(
            text=(
                f"{caller.name} archived this {game.rules.info.name} game. Its history and "
                "every past board stay available (`/game history`, `/game board move:N`)."
            )
        )
