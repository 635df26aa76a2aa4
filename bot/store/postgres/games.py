"""Games on PostgreSQL (:mod:`bot.store.shared.games`): a new game and its seats in one
statement, and a rematch's agreement merged under its row's lock, so two players agreeing
at once, from any processes, both count."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.faults import StaleGame
from bot.store.shared.games import GamesSQL
from bot.store.sql import Body, Q


class GamesPG(GamesSQL):
    def _insert_game(
        self, now: str, values: dict[str, object], people: Sequence[tuple[int, str, str | None]]
    ) -> Body[int]:
        users, names, levels = (list(column) for column in zip(*people, strict=True))
        (game_id,) = yield Q.row(
            "WITH g AS (INSERT INTO games (guild_id, channel_id, game_key, status, options, "
            "seed, creator_id, created_at, updated_at, move_hours, deadline_policy, "
            "remind_hours, reminder_limit, reaction_hours, rated) VALUES (:guild_id, "
            ":channel_id, :game_key, 'lobby', :options, :seed, :creator_id, :now, :now, "
            ":move_hours, :deadline_policy, :remind_hours, :reminder_limit, :reaction_hours, "
            ":rated) RETURNING id), "
            "s AS (INSERT INTO seats (game_id, seat, user_id, name, ai) "
            "SELECT g.id, v.n - 1, v.u, v.name, v.ai FROM g, unnest(:users::bigint[], "
            ":names::text[], :levels::text[]) WITH ORDINALITY AS v(u, name, ai, n)) "
            "SELECT id FROM g",
            **values,
            now=now,
            users=users,
            names=names,
            levels=levels,
        )
        return int(game_id)

    def _agree_rematch(self, now: str, game_id: int, user_id: int) -> Body[frozenset[int]]:
        """Merged into the stored list under the row's lock: a second click waits here,
        and then finds it merged (or the rematch opened)."""
        row = yield Q.row(
            "INSERT INTO rematches (game_id, agreed, created_at) VALUES (:game_id, :agreed, :now) "
            "ON CONFLICT (game_id) DO UPDATE SET agreed = (SELECT jsonb_agg(DISTINCT v "
            "ORDER BY v)::text FROM jsonb_array_elements(rematches.agreed::jsonb "
            "|| excluded.agreed::jsonb) AS e(v)) WHERE rematches.opened IS NULL "
            "RETURNING agreed",
            game_id=game_id,
            agreed=json.dumps([user_id]),
            now=now,
        )
        if row is None:
            raise StaleGame(f"the rematch of game {game_id} has been opened")
        return frozenset(json.loads(row[0]))
