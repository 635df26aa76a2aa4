"""Ratings and leaderboards, per server and game."""

from __future__ import annotations

import engine
from bot.service.context import Context
from bot.service.games import rules_of
from bot.service.inputs import Refused
from bot.service.replies import Caller, Reply
from renders.text.common import plural


class Ratings:
    """Ratings and leaderboards, per server and game."""

    def __init__(self, context: Context) -> None:
        self.store = context.store

    async def rating(self, guild_id: int | None, player: Caller, game_key: str | None) -> Reply:
        """A player's rating in this server, for one game or every game they have played."""
        keys = [rules_of(game_key).info.key] if game_key else sorted(engine.GAMES)
        lines = []
        for key in keys:
            board = await self.store.ratings(guild_id, key)
            for rank, (user_id, _name, r) in enumerate(board, start=1):
                if user_id == player.user_id:
                    lines.append(
                        f"{engine.get(key).info.name}: **{r.label()}** — #{rank} of {len(board)}, "
                        f"{plural(r.games, 'rated game')}"
                    )
        if not lines:
            raise Refused(f"{player.name} has no rated games here yet.")
        note = "\n(? = provisional: fewer than 5 rated games)" if "?" in "".join(lines) else ""
        return Reply(text=f"**{player.name}**\n" + "\n".join(lines) + note, private=True)

    async def leaderboard(self, guild_id: int | None, game_key: str) -> Reply:
        info = rules_of(game_key).info
        board = await self.store.ratings(guild_id, game_key)
        if not board:
            raise Refused(f"No rated {info.name} games have been played here yet.")
        lines = [
            f"{rank}. {name} — {r.label()} ({r.games})"
            for rank, (_u, name, r) in enumerate(board[:20], start=1)
        ]
        return Reply(
            text=f"**{info.name} leaderboard** (rating = mu − 3·sigma; ? = provisional)\n"
            + "\n".join(lines)
        )
