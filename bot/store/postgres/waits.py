"""A move's statements on PostgreSQL, where each is a trip to the server: the version bump
with the log entry and the seats' read in one statement, and everything the move writes
back in one more (data-modifying CTEs, the seats as arrays), so a move costs the same four
trips (BEGIN, these two, COMMIT) however many seats the game has. What they write is what
:class:`~bot.store.shared.waits.WaitsSQL` writes statement by statement elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.clocks import Seat
from bot.store.faults import StaleGame
from bot.store.rows import MoveRecord
from bot.store.shared.daily import settle_attempt
from bot.store.shared.ratings import RATING_INSERT, RATING_UPSERT
from bot.store.shared.seats import GAME, SEAT, Game, due_at, seat_of
from bot.store.shared.waits import Columns, Queued, WaitsSQL
from bot.store.sql import COUNT, Body, Q

_GAME_WIDTH = len(GAME.split(", "))
#: the parts of a move's statement that log it and drop a pending undo request, once the
#: game's bump (``g``, returning its id) is made
LOGGED = (
    "m AS (INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
    "SELECT g.id, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) + 1, "
    ":seat, :user_id, :kind, :action, :now FROM g RETURNING seq), "
    "d AS (DELETE FROM undo_requests WHERE game_id IN (SELECT id FROM g))"
)
#: a seat's columns the move writes, and their types as arrays take them
_WRITTEN = {
    "seat": "int",
    "awaiting": "bool",
    "place": "int",
    "score": "int",
    "turn_since": "timestamptz",
    "deadline": "timestamptz",
    "reminders": "int",
    "snoozed": "bool",
    "warned": "bool",
    "reacting": "bool",
    "paused_hours": "float8",
    "extended_hours": "float8",
    "told_next": "bool",
}


class WaitsPG(WaitsSQL):
    def _bump(
        self, now: str, game_id: int, version: int, columns: Columns, entry: MoveRecord | None
    ) -> Body[Game]:
        """One statement: the bump, the log entry and the dropped undo request if it did
        (CTEs that run only then), and the seats as they were, locked as they are read (a
        game always has its creator's seat): a reminder another process claims meanwhile
        is waited for and read as it left the seat, never written back over by this
        write's older copy. The transaction's id is read with them, so a COMMIT cut off by
        the server's crash can be settled
        (:meth:`~bot.store.postgres.connection.Connection.write`)."""
        params: dict[str, object] = dict(columns, now=now, game_id=game_id, version=version)
        sets = "".join(f", {name} = :{name}" for name in columns)
        log, seq = "", "NULL"
        if entry is not None:
            log = f", {LOGGED}"
            seq = "(SELECT seq FROM m)"
            params.update(
                seat=entry.seat, user_id=entry.user_id, kind=entry.kind, action=entry.action
            )
        rows = yield Q(
            f"WITH g AS (UPDATE games SET version = version + 1, updated_at = :now{sets} "
            f"WHERE id = :game_id AND version = :version RETURNING {GAME}){log} "
            f"SELECT g.*, {seq}, {SEAT}, pg_current_xact_id()::text FROM g "
            "JOIN seats s ON s.game_id = g.id LEFT JOIN user_settings u ON u.user_id = s.user_id "
            "ORDER BY s.seat FOR UPDATE OF s",
            params,
            xid=True,
        )
        if not rows:
            raise StaleGame(f"game {game_id} moved on from version {version}")
        seats = [seat_of(r[_GAME_WIDTH + 1 : -1]) for r in rows]
        return Game.read(rows[0], seats, rows[0][_GAME_WIDTH])

    def _settle(
        self, now: str, game: Game, seats: Sequence[Seat], queued: Queued | None = None
    ) -> Body[None]:
        """One statement, one trip: every seat's wait and due time, the "your turn" DMs,
        the heads-ups, the stand-in for the move's public post, the daily attempt the
        game settles, and the ratings the game moves."""
        queued = queued or Queued()
        params: dict[str, object] = dict(now=now, game_id=game.id)
        parts = [
            f"s AS ({_write_seats(params, game, seats)})",
            *_queue(params, game, seats, queued),
        ]
        if queued.attempt is not None:
            attempt = settle_attempt(now, game.id, queued.attempt)
            parts.append(f"a AS ({attempt.sql})")
            params.update(attempt.params)
        if queued.ratings is not None:
            parts.append(f"r AS ({_ratings(params, game, queued.ratings)})")
        yield Q(f"WITH {', '.join(parts)} SELECT 1", params, COUNT)


def _write_seats(
    params: dict[str, object], game: Game, seats: Sequence[Seat], gate: str = "TRUE"
) -> str:
    """An UPDATE that writes every seat's wait, place, score and due time, from arrays,
    if ``gate`` holds."""
    arrays = []
    for name, kind in _WRITTEN.items():
        params[f"seat_{name}"] = [getattr(s, name) for s in seats]
        arrays.append(f":seat_{name}::{kind}[]")
    params["seat_due_at"] = [due_at(game, s) for s in seats]
    sets = ", ".join(f"{name} = v.{name}" for name in [*_WRITTEN, "due_at"] if name != "seat")
    return (
        f"UPDATE seats SET {sets} FROM unnest({', '.join(arrays)}, :seat_due_at::timestamptz[]) "
        f"AS v({', '.join(_WRITTEN)}, due_at) WHERE seats.game_id = :game_id "
        f"AND seats.seat = v.seat AND {gate}"
    )


def _queue(
    params: dict[str, object],
    game: Game,
    seats: Sequence[Seat],
    queued: Queued,
    seq: str = ":board_seq",
    gate: str = "TRUE",
) -> list[str]:
    """The parts that queue what a move sends: the "your turn" DMs for the waits it starts
    (to players it waits for, since their wait began), the heads-ups, and the stand-in for
    its public post (of the log entry ``seq``), each only if ``gate`` holds."""
    parts = []
    since = {s.user_id: s.turn_since for s in seats if s.awaiting}
    turns = [(user, text, due, since[user]) for user, text, due in queued.notices if user in since]
    if turns:
        params.update(
            zip(
                ("turn_users", "turn_texts", "turn_dues", "turn_since"),
                _columns(turns),
                strict=True,
            )
        )
        parts.append(
            "n AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            "turn_since) SELECT :game_id, v.u, 'turn', 'dm', v.t, v.d, :now, v.s "
            "FROM unnest(:turn_users::bigint[], :turn_texts::text[], "
            f":turn_dues::timestamptz[], :turn_since::timestamptz[]) AS v(u, t, d, s) WHERE {gate})"
        )
    if queued.heads_ups:
        names = ("next_users", "next_vias", "next_texts", "next_dues")
        params.update(zip(names, _columns(queued.heads_ups), strict=True))
        parts.append(
            "h AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at) "
            "SELECT :game_id, v.u, 'heads_up', v.v, v.t, v.d, :now "
            "FROM unnest(:next_users::bigint[], :next_vias::text[], :next_texts::text[], "
            f":next_dues::timestamptz[]) AS v(u, v, t, d) WHERE {gate})"
        )
    if queued.board is not None:
        params.update(zip(("board_user", "board_note", "board_due"), queued.board, strict=True))
        params["board_seq"] = game.seq
        parts.append(
            "b AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            "seq) SELECT :game_id, :board_user, 'board', 'channel', :board_note, "
            f":board_due::timestamptz, :now, {seq} WHERE {gate})"
        )
    return parts


def _ratings(params: dict[str, object], game: Game, ratings: Sequence) -> str:
    """The upsert of the players' new ratings (user, name, rating), from arrays."""
    params.update(
        rating_guild=game.guild_id or 0,
        rating_key=game.game_key,
        rating_users=[u for u, _n, _r in ratings],
        rating_names=[n for _u, n, _r in ratings],
        rating_mus=[r.mu for _u, _n, r in ratings],
        rating_sigmas=[r.sigma for _u, _n, r in ratings],
        rating_games=[r.games for _u, _n, r in ratings],
    )
    return (
        f"{RATING_INSERT} SELECT :rating_guild, :rating_key, v.u, v.n, v.mu, v.sigma, "
        "v.games, :now FROM unnest(:rating_users::bigint[], :rating_names::text[], "
        ":rating_mus::float8[], :rating_sigmas::float8[], :rating_games::int[]) "
        f"AS v(u, n, mu, sigma, games) {RATING_UPSERT}"
    )


def _columns(rows: Sequence[Sequence]) -> list[list]:
    return [list(column) for column in zip(*rows, strict=True)]
