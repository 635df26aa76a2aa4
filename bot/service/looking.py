"""Looking at a game: its board (now or after any move), status, history, and your turns."""

from __future__ import annotations

from typing import Any

import engine
from bot.service.answers import Answers, status_card, turn_text
from bot.service.context import Context
from bot.service.games import Games, Loaded, rebuild
from bot.service.inputs import Refused
from bot.service.marks import link, when
from bot.service.pages import Pages
from bot.service.replies import (
    Caller,
    Offer,
    Reply,
    StatusCard,
    Table,
    player_count,
    waited_for,
)
from bot.store import Awaiting, parse_time

#: the most games one answer offers to play: Discord shows 25 buttons under a message
OFFERED = 25


class Looking:
    """Looking at a game: its board (now or after any move), status, history, and your turns."""

    def __init__(self, context: Context, games: Games, answers: Answers, pages: Pages) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers
        self.pages = pages

    async def is_live(self, table: Table) -> bool:
        """Whether a game is open or being played at ``table``."""
        return await self.store.live_game(table.channel_id) is not None

    async def players(self, game_id: int) -> list[Caller]:
        """Who sits at a game, in seat order."""
        return [Caller(s.user_id, s.name) for s in await self.store.seats(game_id)]

    async def board(self, table: Table, move: int | None = None, words: bool = False) -> Reply:
        """The public board now, or as it stood after entry ``move`` of the history;
        with ``words``, the whole board in words too (for a screen reader, or a terminal
        that shows no picture), where the picture's alt text stops at Discord's limit."""
        game = await self.games.latest(table)
        if game.state is None:
            raise Refused("The game has not started yet, so there is no board.")
        if move is None:
            text = f"**{game.rules.info.name}** — " + turn_text(game, game.position)
            text, image, alt = await self.answers.board(game, game.state, text)
            return Reply(
                text=self._in_words(game, game.state, text) if words else text,
                image=image,
                alt=alt,
                private=True,
                game_id=game.row.id,
                version=game.row.version,
            )
        log = await self.store.moves(game.row.id)
        if not 0 <= move <= len(log):
            raise Refused(f"Pick a move from 0 (the start) to {len(log)}; see `/game history`.")
        state = rebuild(game, log[:move])
        when = "at the start" if move == 0 else f"after move {move} (`{log[move - 1].action}`)"
        text = f"**{game.rules.info.name}** {when} — " + turn_text(
            game, game.rules.step(None, state, ())
        )
        text, image, alt = await self.answers.board(game, state, text)
        return Reply(
            text=self._in_words(game, state, text) if words else text,
            image=image,
            alt=alt,
            private=True,
            game_id=game.row.id,
        )

    def _in_words(self, game: Loaded, state: Any, text: str) -> str:
        """``text``, then the public board in words (a game with no words says so)."""
        words = self.answers.words(game, game.rules.view(state, None))
        return f"{text}\n{words or 'This game has no description in words yet.'}"

    async def status_card(self, game_id: int) -> StatusCard:
        """The short summary a channel keeps pinned (players, scores, turn, deadline), and
        where it is pinned: one query, as it is refreshed after every move."""
        game = await self.games.load(game_id, damaged=True)
        return status_card(game)

    async def status_posted(self, game_id: int, message_id: int) -> None:
        """Remember where the game's status now is, so the next refresh edits it."""
        await self.store.set_status_message(game_id, message_id)

    async def status(self, table: Table) -> Reply:
        game = await self.games.latest(table)
        info = game.rules.info
        if game.state is None:
            players = ", ".join(game.names)
            return Reply(
                text=f"**{info.name}** lobby — players: {players} ({player_count(info)} can play).",
                private=True,
            )
        result = game.rules.result(game.state)
        seats = "\n".join(
            f"{s + 1}. {name} — {result.scores[s]}" for s, name in enumerate(game.names)
        )
        status = "" if game.row.status in ("active", "finished") else f" ({game.row.status})"
        return Reply(
            text=f"**{info.name}**{status}\n{seats}\n{turn_text(game, game.position)}",
            private=True,
        )

    async def history(self, table: Table) -> Reply:
        game = await self.games.latest(table)
        log = await self.store.moves(game.row.id)
        if not log:
            return Reply(text="No moves yet.", private=True)
        lines = []
        for m in log:
            who = game.names[m.seat]
            if m.kind == "undo":
                lines.append(f"{m.seq}. {who} took back {m.action} move(s)")
            elif m.kind == "skip":
                lines.append(f"{m.seq}. {who}'s turn was skipped (out of time)")
            else:
                lines.append(f"{m.seq}. {who}: {m.action}")
        return Reply(text="\n".join(lines), private=True)

    async def my_turns(self, caller: Caller) -> Reply:
        """Every game waiting for the caller, numbered, each with a **Play** button that
        plays it from wherever this is read: the way back to a game whose board the
        caller cannot reach (a DM they cannot find, a server they are not in now)."""
        waiting = await self._waiting(caller.user_id)
        if not waiting:
            return Reply(text="No game is waiting for you.", private=True)
        lines = [f"{n}. {line}" for n, (_, line) in enumerate(waiting, 1)]
        offers = tuple(
            Offer(w.game_id, w.version, f"{n}. {engine.get(w.game_key).info.name}")
            for n, (w, _) in enumerate(waiting[:OFFERED], 1)
        )
        if len(waiting) > OFFERED:
            lines.append(f"The {OFFERED} longest-waiting have a **Play** button here.")
        return Reply(text="Your turn in:\n" + "\n".join(lines), private=True, offers=offers)

    async def waiting_lines(self, user_id: int) -> list[str]:
        """One line for each game waiting for the user, the longest-waiting first: its
        name and a link to it, how long it has waited, its deadline. ``/turns`` lists
        them, and so does the daily digest, where each links to its game's page too."""
        lines = []
        for waiting, line in await self._waiting(user_id):
            page = await self.pages.link(waiting.game_id)
            lines.append(f"• {line}" + ("" if page is None else f" · {link('Game page', page)}"))
        return lines

    async def _waiting(self, user_id: int) -> list[tuple[Awaiting, str]]:
        now = self.store.clock()
        lines = []
        for w in await self.store.awaiting(user_id):
            since = parse_time(w.since)
            due = f", due {when(parse_time(w.deadline))}" if w.deadline else ""
            line = (
                f"**{engine.get(w.game_key).info.name}** in "
                f"{self.context.link(Table(w.channel_id, w.guild_id))} — waiting since "
                f"{when(since, 'f')} ({waited_for(now - since)}){due}"
            )
            lines.append((w, line))
        return lines
