"""A game's page on the web: its unguessable address, what it shows, its boards and its
exports, all from the public view (``rules.view(state, None)``): what anyone in the
game's channel may see, and nothing a seat keeps to itself. The one exception is
:meth:`Pages.hand`: a player logged in (:mod:`bot.service.sessions`) is shown their own
seat's view, exactly what ``/hand`` shows them, on their page only.

The address is ``/g/<game id>-<token>``, the token a short HMAC of the id under a
secret kept in the database (the ``pages`` secret, made once, as the daily challenge's
is): whoever is given a game's link can read it, and guessing another game's finds
nothing. Boards are drawn once per position and kept
(:class:`~bot.service.pictures.Boards`): a position is named by its game and the log
entry that led to it, so a taken-back move's board is never shown for the move played
in its place.
"""

from __future__ import annotations

import asyncio
import base64
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.answers import Answers, turn_text
from bot.service.context import Context
from bot.service.games import Games, Loaded, effective_moves, rebuild, walked
from bot.service.inputs import Refused
from bot.service.marks import link
from bot.service.pictures import Board, Boards
from bot.service.play import Play
from bot.service.replies import Caller, Reply, Table
from bot.service.signing import Signer, digest_of
from bot.store import MoveRow
from renders import looks
from renders.animation import animate

#: the database secret the tokens are made with
SECRET = "pages"
#: bytes of HMAC in a token: 80 bits, 16 characters of base32
TOKEN_BYTES = 10
#: whole games' GIFs kept in memory (1-4 MB each): the latest version of the games whose
#: GIF is being fetched at once
ANIMATIONS_KEPT = 8


#: each kind of page, by the first part of its address: a token is made for one kind
#: (its purpose is in what is signed), so one kind's token opens no other's
KINDS = {"game": "g", "league": "l", "player": "p", "server": "s", "daily": "d"}


def token_of(secret: bytes, number: int, kind: str = "game") -> str:
    """The token of page ``number`` of ``kind`` (a game's by default): base32 in lower
    case (no ``=``), safe in any address."""
    digest = digest_of(secret, kind, str(number))
    return base64.b32encode(digest[:TOKEN_BYTES]).decode().lower().rstrip("=")


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    colour: str | None  # "#rrggbb", the colour of the seat's pieces on the board
    score: int | None
    place: int | None  # once the game is over
    to_play: bool
    ai: str | None  # an AI player's level
    page: str | None = None  # a person's own page, below the site's address


@dataclass(frozen=True)
class Ply:
    """One standing entry of the game's log: ``notation`` None for a skipped turn."""

    number: int
    seat: int
    name: str
    notation: str | None
    at: str  # when, ISO 8601 in UTC


@dataclass(frozen=True)
class GamePage:
    """What a game's page shows, as anyone may see it."""

    id: int
    game_key: str
    name: str  # the game's, e.g. Skybridge
    status: str  # lobby, active, finished, abandoned
    version: int
    options: dict
    players: tuple[Player, ...]
    turn: str  # whose turn, or how the game ended, in words
    since: str | None  # when the position was reached
    deadline: str | None  # the earliest deadline of the seats awaited
    words: str | None  # the board in words
    plies: tuple[Ply, ...]
    board: bool  # whether the game has a board to show (started, with pictures)
    league: tuple[str, str] | None = None  # the league it is a match of: name, page

    @property
    def title(self) -> str:
        return f"{self.name} #{self.id}"


def record_text(page: GamePage) -> str:
    """The game record: a few ``#`` lines naming the game and its players, then one
    standing move a line, ``<number>. <player>: <notation>`` (a skipped turn is
    ``<player>: -``): played from the start with the game's seed, it reaches the
    position the page shows."""
    lines = [f"# {page.title}: {page.status}"]
    lines.append("# players: " + ", ".join(f"{p.seat + 1}. {p.name}" for p in page.players))
    if page.options:
        lines.append("# options: " + " ".join(f"{k}={v}" for k, v in sorted(page.options.items())))
    lines += [f"{p.number}. {p.name}: {p.notation or '-'}" for p in page.plies]
    return "\n".join(lines) + "\n"


def record_json(page: GamePage) -> dict[str, Any]:
    """The game as JSON: what its page shows, nothing more."""
    return {
        "id": page.id,
        "game": page.game_key,
        "name": page.name,
        "status": page.status,
        "version": page.version,
        "options": page.options,
        "seats": [
            {
                "seat": p.seat,
                "name": p.name,
                "colour": p.colour,
                "score": p.score,
                "place": p.place,
                "to_play": p.to_play,
                "ai": p.ai,
            }
            for p in page.players
        ],
        "turn": page.turn,
        "since": page.since,
        "deadline": page.deadline,
        "words": page.words,
        "moves": [
            {"number": p.number, "seat": p.seat, "move": p.notation, "at": p.at} for p in page.plies
        ],
    }


class Pages:
    """Games' pages: addresses, what they show, boards, exports; all public."""

    def __init__(self, context: Context, games: Games, answers: Answers, play: Play) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers
        self.play = play
        self.boards: Boards[bytes] = Boards()
        self.animations: Boards[bytes] = Boards(ANIMATIONS_KEPT)
        #: players' own views, each worked out once per version of its game
        self.hands: Boards[Reply] = Boards()
        self.signer = Signer(self.store, SECRET)
        #: where the pages are read, their links' beginning; None while nothing serves
        #: them (set by :func:`bot.web.serving.serving`)
        self.site: str | None = None
        #: the same, when people on other machines can follow the links (``Web.shared``):
        #: what the bot's posts link to; None when the pages are this machine's alone
        self.shared: str | None = None

    async def token(self, number: int, kind: str = "game") -> str:
        return token_of(await self.signer.secret(), number, kind)

    async def path(self, number: int, kind: str = "game") -> str:
        """Where page ``number`` of ``kind`` (game ``number``'s by default) is, below the
        site's address; the daily challenge's one page has no number."""
        token = await self.token(number, kind)
        return f"/{KINDS[kind]}/{token}" if kind == "daily" else f"/{KINDS[kind]}/{number}-{token}"

    async def link(self, number: int, kind: str = "game") -> str | None:
        """The whole address of page ``number`` of ``kind`` for the bot's posts, or None
        when no one elsewhere could follow it (not served, or served to this machine only)."""
        return None if self.shared is None else self.shared + await self.path(number, kind)

    async def under(self, text: str, label: str, number: int, kind: str) -> str:
        """``text`` (a league's or the daily challenge's post) with a link named ``label``
        to page ``number`` of ``kind`` on a line under it, where people can follow it."""
        url = await self.link(number, kind)
        return text if url is None else f"{text}\n{link(label, url)}"

    async def address(self, table: Table) -> Reply:
        """``/game link``: where the newest game of ``table`` is read, and its league's
        page when it is a match of one, for the asker alone. Served to this machine only,
        the addresses are given all the same (for whoever is at it), saying so."""
        game = await self.games.latest(table)
        if self.site is None:
            raise Refused(
                "The games' pages are not served here (BRIDGEKEEPER_WEB is off, or its "
                "address was taken), so this game has no page to open."
            )
        site, number = self.shared or self.site, game.row.id
        lines = [f"**{game.rules.info.name} #{number}**: {site}{await self.path(number)}"]
        league = await self.store.league_of_game(number)
        if league is not None:
            page = await self.path(league.id, "league")
            lines.append(f"Its league, **{league.name}**: {site}{page}")
        if self.shared is None:
            lines.append(
                "(Served to this machine only: players elsewhere can open these once the "
                "bot's host sets BRIDGEKEEPER_PUBLIC_URL.)"
            )
        return Reply("\n".join(lines), private=True)

    async def signed(self, number: int, token: str, kind: str = "game") -> bool:
        """Whether ``token`` is the one of page ``number`` of ``kind``."""
        return hmac.compare_digest(await self.token(number, kind), token)

    async def opened(self, game_id: int, token: str) -> Loaded | None:
        """The game ``token`` opens, or None: a wrong token and a game that does not
        exist look the same, so no address tells whether a game is there."""
        if not await self.signed(game_id, token):
            return None
        try:
            return await self.games.load(game_id, damaged=True)
        except Refused:  # gone
            return None

    async def page(self, game: Loaded) -> GamePage:
        row, rules = game.row, game.rules
        log = await self.store.moves(row.id)
        standing = effective_moves(log)
        view = rules.view(game.state, None) if game.state is not None else None
        result = rules.result(game.state) if game.state is not None else None
        playing = game.state is not None and row.status == "active"
        awaited = set(game.position.awaited) if playing else set()
        pages = [None if s.ai else await self.path(s.user_id, "player") for s in game.seats]
        players = tuple(
            Player(
                seat=s.seat,
                name=s.name,
                colour=_hex(self.answers.colour(game, view, s.seat)) if view is not None else None,
                score=result.scores[s.seat] if result is not None else None,
                place=s.place,
                to_play=s.seat in awaited,
                ai=s.ai,
                page=page,
            )
            for s, page in zip(game.seats, pages, strict=True)
        )
        league = await self.store.league_of_game(row.id)
        deadlines = [s.deadline for s in game.seats if s.awaiting and s.deadline]
        return GamePage(
            id=row.id,
            game_key=row.game_key,
            name=rules.info.name,
            status=row.status,
            version=row.version,
            options=dict(row.options),
            players=players,
            turn=self._turn(game),
            since=log[-1].created_at if log else row.updated_at,
            deadline=min(deadlines) if deadlines and row.status == "active" else None,
            words=self.answers.words(game, view) if view is not None else None,
            plies=tuple(_ply(n, m, game.names) for n, m in enumerate(standing, 1)),
            board=view is not None and self.context.images,
            league=None if league is None else (league.name, await self.path(league.id, "league")),
        )

    @staticmethod
    def _turn(game: Loaded) -> str:
        if game.row.status == "lobby":
            return "Waiting for players: the game has not started yet."
        if game.state is None:
            return "This game's stored state is damaged, so it cannot be shown."
        text = turn_text(game, game.position).replace("**", "")
        if game.row.status == "abandoned":
            return "The game was called off."
        return text

    async def board(self, game: Loaded, ply: int | None = None) -> Board | None:
        """The public board after ``ply`` standing moves (None: as it stands now), or
        None when there is none (not started, a ply the game has not reached, no picture)."""
        if game.state is None or not self.context.images:
            return None
        standing = effective_moves(await self.store.moves(game.row.id))
        last = len(standing)
        if ply is None:
            ply = last
        if not 0 <= ply <= last:
            return None
        # the log entry that led to the position names it (0: the start)
        key = (game.row.id, standing[ply - 1].seq if ply else 0)

        async def draw() -> bytes | None:
            state = game.state if ply == last else rebuild(game, standing[:ply])
            _, image, _ = await self.answers.board(game, state, "")
            return image

        png = await self.boards.get(key, draw)
        return None if png is None else Board(png, f"{key[0]}-{key[1]}")

    async def animation(self, game: Loaded) -> Board | None:
        """The whole game as an animated GIF, one frame a position, the public view
        only; drawn once per version of the game (every request for it after that gets
        the same bytes), or None when the game has no board to show."""
        drawn = looks(game.row.game_key)
        if game.state is None or not self.context.images or drawn is None:
            return None
        key = (game.row.id, game.row.version)

        async def draw() -> bytes:
            standing = effective_moves(await self.store.moves(game.row.id))
            return await asyncio.to_thread(animated, game, standing)

        gif = await self.animations.get(key, draw)
        return None if gif is None else Board(gif, f"{key[0]}-v{key[1]}")

    async def hand(self, game: Loaded, user_id: int) -> Hand | None:
        """What ``/hand`` shows user ``user_id`` in ``game`` (the same answer, drawn by
        the same renderer), or None when they have no seat or the game is not being
        played: for that player's eyes only, never in a public page, board or export."""
        seat = game.seat_of(user_id)
        if seat is None or game.row.status != "active" or game.state is None:
            return None
        key = (game.row.id, game.row.version, seat)

        async def answer() -> Reply:
            return await self.play.own(game, Caller(user_id, game.names[seat]))

        reply = await self.hands.get(key, answer)
        if reply is None:
            return None
        return Hand(text=reply.text.replace("**", ""), png=reply.image, alt=reply.alt)


@dataclass(frozen=True)
class Hand:
    """A player's own view of a game, as ``/hand`` gives it: its words, and its picture
    (None where the game has none) with the picture in words."""

    text: str
    png: bytes | None
    alt: str | None


def animated(game: Loaded, standing: Sequence[MoveRow]) -> bytes:
    """The GIF of the positions ``standing`` (a game's standing moves) lead through,
    each drawn from the spectator's view: played once from the start, not once a frame."""
    rules, names = game.rules, game.names
    drawn = looks(game.row.game_key)
    assert drawn is not None, "only games with pictures are animated"
    rows = game.row
    walk = walked(rules, len(game.seats), rows.options, rows.seed, standing)
    frames = [drawn.draw(rules.view(state, None), names) for state in walk]
    return animate(frames)


def _ply(number: int, entry: MoveRow, names: Sequence[str]) -> Ply:
    notation = None if entry.kind == "skip" else entry.action
    return Ply(number, entry.seat, names[entry.seat], notation, entry.created_at)


def _hex(rgb: tuple[int, int, int] | None) -> str | None:
    return None if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)
