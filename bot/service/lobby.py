"""Opening a game: the list of games, their rules, new games, seats, starting and calling off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

import engine
from bot.domain.clocks import Clocks
from bot.service.answers import BEGINS, Answers, Told
from bot.service.context import Context
from bot.service.fair_play import at_stake, manager_of, referee
from bot.service.games import Games, Loaded, rules_of, solo_attempt
from bot.service.heads_up import heads_ups
from bot.service.inputs import (
    Refused,
    check_clocks,
    check_text,
    format_hours,
    shown,
)
from bot.service.replies import Caller, Reply, Table, player_count
from bot.service.seats import DEFAULT_LEVEL, ai_identity, check_level
from bot.store import Attempt, Fence, GameRow, Opening, SeatRow, StaleGame
from engine.core import BadOptions, Game, Step

POLICIES = {
    "random": "a random legal move for them",
    "skip": "nothing for them: their turn is skipped",
    "forfeit": "their resignation",
}


def deadline_policies(rules: Game) -> list[str]:
    """The ``at_deadline`` choices ``rules`` can play: a random legal move and a
    resignation in every game (every awaited seat has a legal move; resigning is the
    core's), a skipped turn only where the game survives one (``can_skip``)."""
    return [policy for policy in POLICIES if policy != "skip" or rules.can_skip]


def _solo_names() -> str:
    return ", ".join(g.info.name for g in engine.GAMES.values() if g.info.min_players == 1)


class Lobby:
    """Opening a game: the games, their rules, new games, seats, starting and calling off."""

    def __init__(self, context: Context, games: Games, answers: Answers) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers

    @staticmethod
    def offered() -> list[engine.GameInfo]:
        """Every game the bot plays, in the engine's order."""
        return [g.info for g in engine.GAMES.values()]

    def rules_text(self, game_key: str) -> str:
        info = rules_of(game_key).info
        if not info.options:
            return info.help
        listed = "\n".join(f"• `{o.name}`: {o.describe()}" for o in info.options)
        where = "`/game new` and `/solo`" if info.min_players == 1 else "`/game new`"
        return f"{info.help}\n**Options** (in {where}):\n{listed}"

    async def create(
        self,
        table: Table,
        caller: Caller,
        game_key: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        clocks: Clocks | None = None,
        rated: bool = True,
        ai: int = 0,
        ai_level: str = DEFAULT_LEVEL,
    ) -> Reply:
        """Open a game in the lobby, the caller in seat 0 and ``ai`` AI players at
        ``ai_level`` beside them (a game with AI players is never rated), in one
        transaction."""
        rules = rules_of(game_key)
        options, clocks = await self._checked(table, caller, rules, options, clocks, ai, ai_level)
        seats = [SeatRow(0, caller.user_id, caller.name, False, None, None)]
        for _ in range(ai):
            user_id, name = ai_identity(seats, ai_level)
            seats.append(SeatRow(len(seats), user_id, name, False, None, None, ai=ai_level))
        try:
            game_id = await self.store.create_game(
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                game_key=game_key,
                options=options,
                seed=self.context.seed() if seed is None else seed,
                creator_id=caller.user_id,
                creator_name=caller.name,
                clocks=clocks,
                rated=rated,
                others=[(s.user_id, s.name, s.ai) for s in seats[1:]],
            )
        except StaleGame:
            raise Refused("This channel already has a game.") from None
        info = rules.info
        # the options chosen beside the players, so whoever joins sees what they join
        about = "; ".join([player_count(info), *(f"{k} {v}" for k, v in options.items())])
        timing = "" if rated and not ai else " A casual game: ratings stay as they are."
        if ai:
            timing += f" AI players: {', '.join(s.name for s in seats[1:])}."
        if clocks.move_hours is not None:
            timing += (
                f" Time per move: {format_hours(clocks.move_hours)}; then the game plays "
                f"{POLICIES[clocks.policy]}."
            )
        return Reply(
            text=(
                f"{caller.name} opened a game of **{info.name}** ({about}). "
                f"Join with `/game join`; {caller.name} starts it with `/game start`.{timing}"
            ),
            game_id=game_id,
        )

    async def _checked(
        self,
        table: Table,
        caller: Caller,
        rules: Game,
        options: Mapping[str, Any] | None,
        clocks: Clocks | None,
        ai: int,
        ai_level: str,
    ) -> tuple[dict, Clocks]:
        """The options (as stored) and clocks of a game ``caller`` opens at ``table``,
        with ``ai`` AI players: refused, saying why, where they or the table will not do."""
        check_text(caller.name, "Your name")
        check_level(ai_level)
        if not 0 <= ai < rules.info.max_players:
            raise Refused(
                f"ai: {shown(ai)} AI players is out of range; {rules.info.name} seats "
                f"{player_count(rules.info)}, one of them you, so 0 to "
                f"{rules.info.max_players - 1}."
            )
        clocks = clocks or Clocks()
        check_clocks(clocks)
        if clocks.policy not in POLICIES:
            raise Refused(
                f"at_deadline: {shown(clocks.policy)} is not a deadline policy; choose "
                f"{', '.join(POLICIES)}."
            )
        if clocks.policy not in deadline_policies(rules):
            raise Refused(
                f"at_deadline: {clocks.policy} is not open to {rules.info.name}, which has no "
                f"way to skip a turn; choose {' or '.join(deadline_policies(rules))}."
            )
        if table.guild_id is None and rules.info.min_players > 1 + ai:
            raise Refused(
                f"Nobody else can join a game in a DM: open {rules.info.name} in a server "
                f"channel or thread. Alone, you can play {_solo_names()} here with `/solo`."
            )
        try:
            # every option read through its game's spec before anything is stored: one of
            # another game, a value out of range, or values the game cannot play together
            engine.check_option_owners(rules, options or {})
            options = rules.written_options(options)
            if rules.info.option("clock") and "clock" not in options:
                # a game that starts by the time of day (Seven Cities' clock cards) reads
                # the opener's own clock: their time zone from /settings, else UTC
                zone = ZoneInfo((await self.context.settings_of(caller.user_id)).timezone)
                options["clock"] = self.store.clock().astimezone(zone).strftime("%H:%M")
            rules.new(rules.info.min_players, options, 0)
        except BadOptions as exc:
            raise Refused(str(exc)) from None
        if await self.store.live_game(table.channel_id):
            if table.guild_id is None and not table.server_commands:
                raise Refused(
                    "You already have a game going in our DM: finish it first. Its **Play** "
                    "button is under its newest board there, and `/turns` brings it to you "
                    "wherever you are."
                )
            if table.guild_id is None:
                raise Refused(
                    "You already have a game going in this DM: finish it, or call it off "
                    "with `/game abandon`, first."
                )
            raise Refused(
                "This channel already has a game. Finish or abandon it, or use another "
                "channel or thread."
            )
        return options, clocks

    async def solo(
        self,
        table: Table,
        caller: Caller,
        game_key: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        entry: tuple[str, int | None] | None = None,
    ) -> Reply:
        """Open and start a game for one at ``table`` (a DM, a channel, a thread): against
        the game's own opponent, unrated, in one transaction; with ``entry`` (day, server)
        it is the caller's attempt at that day's daily challenge, recorded with it."""
        rules = rules_of(game_key)
        if rules.info.min_players > 1:
            raise Refused(
                f"{rules.info.name} needs {player_count(rules.info)}; "
                f"games to play alone: {_solo_names()}."
            )
        try:
            game_id = await self.open_game(
                table, [caller], game_key, options, seed=seed, rated=False, entry=entry
            )
        except StaleGame as exc:
            raise Refused(f"Nothing was opened: {exc}. Look again.") from None
        return await self.opening(game_id, mention=True)

    async def open_game(
        self,
        table: Table,
        players: Sequence[Caller],
        game_key: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        clocks: Clocks | None = None,
        rated: bool = True,
        match: int | None = None,
        fence: Fence | None = None,
        entry: tuple[str, int | None] | None = None,
        levels: Sequence[str | None] = (),
        rematch: tuple[int, int] | None = None,
    ) -> int:
        """Open a game at ``table`` with ``players`` seated in order, started, and linked
        to what it is played for (a league ``match`` opened under ``fence``, a daily
        ``entry``), all in one transaction: a crash leaves the whole of it or none. Who
        is to play is told (their DMs queued with it); :meth:`opening` is its post.
        StaleGame, nothing stored, if the table has a game, the match its game, or the
        day its attempt already; LeaseLost if ``fence`` is another process's now. ``levels``
        gives each player's AI level (None for a person; none given: all are people);
        ``rematch`` (the finished game, the user whose agreement completes it) makes it
        that game's rematch, noted with it (StaleGame if it has one already)."""
        rules = rules_of(game_key)
        levels = list(levels) or [None] * len(players)
        ai = sum(level is not None for level in levels)
        options, clocks = await self._checked(
            table, players[0], rules, options, clocks, ai, DEFAULT_LEVEL
        )
        seed = self.context.seed() if seed is None else seed
        try:
            state = rules.new(len(players), options, seed)
        except BadOptions as exc:
            raise Refused(str(exc)) from None
        now = self.store.now()
        seats = [
            SeatRow(s, p.user_id, p.name, False, None, None, ai=level)
            for s, (p, level) in enumerate(zip(players, levels, strict=True))
        ]
        row = GameRow(
            0, table.guild_id, table.channel_id, game_key, "active", options, seed, None, 0,
            players[0].user_id, now, now,
        )  # fmt: skip
        game = Loaded(row, seats, rules, state)  # as it is to be stored, to tell who plays
        step = rules.step(None, state, ())
        told = await self.answers.turn_notices(
            game, game.people(step.awaited), step, BEGINS, clocks
        )
        next_up = await heads_ups(
            game, step, (), None, self.context.settings_of, self.store.clock(), None, told
        )
        stored = rules.to_json(state)
        return await self.store.create_game(
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            game_key=game_key,
            options=options,
            seed=seed,
            creator_id=players[0].user_id,
            creator_name=players[0].name,
            clocks=clocks,
            rated=rated,
            others=[(s.user_id, s.name, s.ai) for s in seats[1:]],
            opening=Opening(
                stored, tuple(step.awaited), next_up, told.dms, match, fence, entry, rematch
            ),
        )

    async def opening(self, game_id: int, *, mention: bool = False) -> Reply:
        """A game's post as it begins, rebuilt from the store: its seats, then the board as
        it stands. ``mention`` pings whoever is to play and asked to be pinged (as
        :meth:`open_game` left them told); without, it pings nobody (a repeated post)."""
        game = await self.games.load(game_id)
        told = Told()
        if mention:
            awaited = game.people(game.position.awaited)
            told = await self.answers.turn_notices(game, awaited, game.position, BEGINS)
        return await self._begins(game, game.position, game.row.version, told)

    async def join(self, table: Table, caller: Caller) -> Reply:
        game = await self.games.live(table)
        if game.row.status != "lobby":
            raise Refused("This game has already started; wait for the next one.")
        if game.seat_of(caller.user_id) is not None:
            raise Refused("You are already in this game.")
        if len(game.seats) >= game.rules.info.max_players:
            raise Refused(f"The game is full ({game.rules.info.max_players} players).")
        check_text(caller.name, "Your name")
        try:
            await self.store.join(game.row.id, game.row.version, caller.user_id, caller.name)
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        names = [*game.names, caller.name]
        return Reply(text=f"{caller.name} joined. Players: {', '.join(names)}.")

    async def leave(self, table: Table, caller: Caller) -> Reply:
        game = await self.games.live(table)
        if game.row.status != "lobby":
            raise Refused("The game has started: use `/game resign` to leave it.")
        if game.seat_of(caller.user_id) is None:
            raise Refused("You are not in this game.")
        if caller.user_id == game.row.creator_id:
            raise Refused("You opened this game: call it off with `/game abandon` instead.")
        try:
            await self.store.leave(game.row.id, game.row.version, caller.user_id)
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        names = [
            n for s, n in zip(game.seats, game.names, strict=True) if s.user_id != caller.user_id
        ]
        return Reply(text=f"{caller.name} left. Players: {', '.join(names)}.")

    async def start(self, table: Table, caller: Caller) -> Reply:
        game = await self.games.live(table)
        if game.row.status != "lobby":
            raise Refused("The game has already started.")
        manager_of(game, caller, "start it")
        info = game.rules.info
        if len(game.seats) < info.min_players:
            raise Refused(
                f"{info.name} needs at least {info.min_players} players; "
                f"{len(game.seats)} joined so far."
            )
        try:
            state = game.rules.new(len(game.seats), game.row.options, game.row.seed)
        except BadOptions as exc:
            raise Refused(str(exc)) from None
        started = Loaded(game.row, game.seats, game.rules, state)
        opening = game.rules.step(None, state, ())
        told = await self.answers.turn_notices(
            started, started.people(opening.awaited), opening, BEGINS
        )
        next_up = await heads_ups(
            started, opening, (), None, self.context.settings_of, self.store.clock(), None, told
        )
        try:
            await self.store.start(
                game.row.id,
                game.row.version,
                self.context.states.stored(game.row.id, game.row.game_key, state),
                tuple(opening.awaited),
                next_up,
                told.dms,
            )
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        return await self._begins(started, opening, game.row.version + 1, told)

    async def _begins(self, game: Loaded, step: Step, version: int, told: Told) -> Reply:
        """The public post of a game beginning: its seats in order, then its position."""
        labels = [game.rules.seat_label(step.state, s) for s in range(len(game.names))]
        order = ", ".join(
            f"{s + 1}. {n}" + (f" ({label})" if label else "")
            for s, (n, label) in enumerate(zip(game.names, labels, strict=True))
        )
        begins = f"**{game.rules.info.name}** begins. Seats: {order}."
        return await self.answers.position(game, step, version, [begins], told=told)

    async def abandon(self, table: Table, caller: Caller) -> Reply:
        game = await self.games.live(
            table, damaged=True
        )  # calling off is what a damaged game is for
        league_game = await self.store.league_match_of(game.row.id) is not None
        if league_game and (game.seat_of(caller.user_id) is not None or not caller.manager):
            # abandoning settles the match as a forfeit by every seat: not a player's call
            raise Refused(
                "This is a league match, so it can't be abandoned. To concede, use "
                "`/game resign`: a loss for you alone. A match nobody finishes is settled "
                "at the round's deadline as a forfeit by whoever holds it up."
            )
        if not referee(game, caller) and await at_stake(self.store, game):
            # calling it off would erase a result: a player losing it must not have that way out
            raise Refused(
                "This rated game is under way (every player has moved), so calling it off "
                "would erase its result. To stop, use `/game resign` (a loss for you alone), "
                "or ask a server manager who is not playing in it to call it off."
            )
        manager_of(game, caller, "abandon it")
        async with self.context.lock(table):
            if game.state is not None:
                attempt = solo_attempt(game, game.state, abandoned=True)
            elif game.damage is not None and len(game.seats) == 1:  # its state held the totals
                attempt = Attempt("lost", None, None)
            else:  # a lobby
                attempt = None
            try:
                await self.store.abandon(game.row.id, game.row.version, attempt)
            except StaleGame:
                raise Refused("The game changed at that moment; please try again.") from None
        return Reply(
            text=f"{caller.name} abandoned the game of {game.rules.info.name}.",
            changed=(game.row.id,),
        )
