"""Ratings on PostgreSQL (:mod:`bot.store.shared.ratings`): processes finishing games at
once take a transaction-wide advisory lock to rate them one at a time, in the order their
transactions commit; a finished game is numbered and its players' ratings read in one
statement."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.shared.ratings import RatingsSQL
from bot.store.shared.seats import Game
from bot.store.sql import Body, Q

#: the advisory lock rating takes, until its transaction ends
_RATING_LOCK = 0x7261_7469_6E67  # "rating"


class RatingsPG(RatingsSQL):
    def _lock_ratings(self) -> Body[None]:
        yield Q.count("SELECT pg_advisory_xact_lock(:lock)", lock=_RATING_LOCK)

    def _numbered(self, game: Game, users: Sequence[int]) -> Body[Sequence[Sequence]]:
        return (
            yield Q.rows(
                "WITH q AS (UPDATE games SET rating_seq = "
                "(SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games) WHERE id = :game_id) "
                "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = :guild_id "
                "AND game_key = :game_key AND user_id = ANY(:users::bigint[])",
                game_id=game.id,
                guild_id=game.guild_id or 0,
                game_key=game.game_key,
                users=list(users),
            )
        )
