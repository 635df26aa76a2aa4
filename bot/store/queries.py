"""What both stores' SQL shares: the columns a row is read from and how it becomes the
interface's value, the rule that decides which games are rated, and the outbox's timing.
Written once here, so the SQLite and PostgreSQL stores cannot drift apart; the SQL in it
is the common subset both dialects read alike."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.clocks import Clocks, Wait, digest_after
from bot.store.faults import StoreFault
from bot.store.rows import LeagueRow, Match, Settings, iso

# -- waits --------------------------------------------------------------------------

#: every column a :class:`Wait` is made of, for one seat and its game, and their tables
WAIT_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.game_key, g.version, s.seat, s.user_id, "
    "s.name, s.turn_since, s.deadline, s.reminders, s.snoozed, s.warned, "
    "g.move_hours, g.deadline_policy, g.remind_hours, g.reminder_limit, "
    "g.reaction_hours, u.vacation_until, s.reacting, s.ai, u.remind_hours, "
    "u.digest_hour IS NOT NULL"
)
WAIT_TABLES = (
    "seats s JOIN games g ON g.id = s.game_id LEFT JOIN user_settings u ON u.user_id = s.user_id"
)


def wait(row: Sequence) -> Wait:
    return Wait(
        *row[:11],
        bool(row[11]),
        bool(row[12]),
        Clocks(*row[13:18]),
        row[18],
        bool(row[19]),
        row[20],
        row[21],
        bool(row[22]),
    )


# -- leagues ------------------------------------------------------------------------

LEAGUE_COLUMNS = (
    "guild_id, channel_id, name, game_key, format, table_size, rounds, points, bye_points, "
    "round_hours, move_hours, seed, created_by, id, status, round, round_deadline, starts_at, "
    "news_pending"
)


def league_of(row: Sequence | None) -> LeagueRow | None:
    if row is None:
        return None
    values = list(row)
    values[7] = tuple(json.loads(values[7]))
    values[18] = bool(values[18])
    return LeagueRow(*values)


def match_of(r: Sequence) -> Match:
    return Match(
        r[0],
        r[1],
        r[2],
        tuple(json.loads(r[3])),
        r[4],
        tuple(json.loads(r[5])) if r[5] else None,
        tuple(json.loads(r[6])) if r[6] else None,
        tuple(json.loads(r[7])) if r[7] else (),
        bool(r[8]),
        r[9],
        r[10],
        bool(r[11]),
    )


# -- ratings ------------------------------------------------------------------------

#: whether game ``g`` moves ratings: opened rated, two seats or more (a solo game against
#: Euler moves none), and no AI seat (AI players are never rated)
RATED = (
    "g.rated AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id) >= 2 "
    "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.ai IS NOT NULL)"
)


# -- settings and digests -----------------------------------------------------------

#: a user's settings as :func:`settings_of` reads them
SETTINGS_COLUMNS = (
    "notify, timezone, quiet_start, quiet_end, vacation_days, vacation_until, remind_hours, "
    "digest_hour, heads_up"
)
#: what decides when a digest is due, as stored beside it, and then when it is
DUE_BY = ("digest_hour", "timezone", "quiet_start", "quiet_end")
DUE_COLUMNS = f"{', '.join(DUE_BY)}, digest_at"


def settings_of(row: Sequence | None) -> Settings:
    if row is None:
        return Settings()
    return Settings(*row[:8], bool(row[8]))


def digest_due(settings: Settings, stored: Sequence | None, now: datetime) -> str | None:
    """When the player's next digest is due, as their new ``settings`` have it. ``stored``
    is what the row held (:data:`DUE_COLUMNS`): a change
    that moves nothing of it keeps the digest due as it was, so one due this minute and
    not yet sent is not skipped by, say, a vacation taken meanwhile."""
    now_by = tuple(getattr(settings, column) for column in DUE_BY)
    kept = stored is not None and tuple(stored[:4]) == now_by and stored[4] is not None
    if settings.digest_hour is not None and kept:
        return str(stored[4])
    moment = digest_after(settings, now)
    return None if moment is None else iso(moment)


# -- the outbox -----------------------------------------------------------------------

MAX_ATTEMPTS = 3  # tries per way of delivering a notice; then a DM falls back to the channel
RETRY_AFTER = timedelta(minutes=5)  # times the attempts so far
CLAIM_LEASE = timedelta(minutes=10)  # a claim older than this died with its process
#: a :class:`~bot.store.rows.Notice` as read from ``outbox o``, its game ``g`` joined
NOTICE_COLUMNS = (
    "o.id, o.game_id, g.guild_id, g.channel_id, o.user_id, o.via, o.kind, o.text, "
    "o.turn_since, o.attempts, o.seq, o.claimed_by"
)


# -- the terminal's people ------------------------------------------------------------

#: every terminal user's id is below this (migration 0023 says the same): 2^22, the least
#: id a Discord user can have (a snowflake holds the milliseconds since 2015 above its 22
#: low bits), so on a database Discord also uses, the two never meet
TERMINAL_IDS_BELOW = 1 << 22
#: where a user's id is kept besides their name: a seat (so their games, ratings and
#: daily attempts), their settings, a league
_KEPT = ("seats", "user_settings", "league_members")
#: the highest id a terminal user has had: kept by name, or (before migration 0023 kept
#: names) anywhere else, so a new name never takes an old one's games
LAST_TERMINAL_ID = (
    "SELECT COALESCE(MAX(user_id), 0) FROM (SELECT user_id FROM terminal_users"
    + "".join(f" UNION ALL SELECT user_id FROM {table}" for table in _KEPT)
    + f") AS used WHERE user_id BETWEEN 1 AND {TERMINAL_IDS_BELOW - 1}"
)
#: forget name ``{name}``'s id ``{id}`` (each dialect's parameters), if nothing is kept
#: under it: a name given out for a line that was then refused
FORGET_TERMINAL_USER = "DELETE FROM terminal_users WHERE name = {name} AND user_id = {id}" + (
    "".join(f" AND NOT EXISTS (SELECT 1 FROM {table} WHERE user_id = {{id}})" for table in _KEPT)
)


def next_terminal_id(last: int) -> int:
    """The id after ``last``; refused rather than leave the terminal's range."""
    if last + 1 >= TERMINAL_IDS_BELOW:
        raise StoreFault("The terminal has given out every user id it may: no new name fits.")
    return last + 1
