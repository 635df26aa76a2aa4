"""A game's page on the web: its unguessable address, what it shows, its boards and its
exports, all from the public view (``rules.view(state, None)``): what anyone in the
game's channel may see, and nothing a seat keeps to itself.

The address is ``/g/<game id>-<token>``, the token a short HMAC of the id under a
secret kept in the database (the ``pages`` secret, made once, as the daily challenge's
is): whoever is given a game's link can read it, and guessing another game's finds
nothing. Boards are drawn once per position and kept (:class:`Boards`): a position is
named by its game and the log entry that led to it, so a taken-back move's board is
never shown for the move played in its place.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.answers import Answers, turn_text
from bot.service.context import Context
from bot.service.games import Games, Loaded, effective_moves, rebuild
from bot.service.inputs import Refused
from bot.store import MoveRow

#: the database secret the tokens are made with
SECRET = "pages"
#: bytes of HMAC in a token: 80 bits, 16 characters of base32
TOKEN_BYTES = 10
#: boards kept in memory (20-170 KB each, 10-40 MB in all): enough for the replays of
#: the games being read at once
BOARDS_KEPT = 256


def token_of(secret: bytes, game_id: int) -> str:
    """Game ``game_id``'s token: base32 in lower case (no ``=``), safe in any address."""
    digest = hmac.new(secret, f"game {game_id}".encode(), hashlib.sha256).digest()
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


class Boards:
    """Pictures of positions, each drawn once: by key, the most recently used kept, and
    a picture asked for again while it is being drawn waits for that drawing."""

    def __init__(self, kept: int = BOARDS_KEPT) -> None:
        self.kept = kept
        self._done: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        self._drawing: dict[tuple[int, int], asyncio.Future[bytes | None]] = {}
        self.drawn = 0  # pictures drawn so far (the rest were kept ones)

    async def get(
        self, key: tuple[int, int], draw: Callable[[], Awaitable[bytes | None]]
    ) -> bytes | None:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        future = self._drawing[key] = asyncio.get_running_loop().create_future()
        try:
            picture = await draw()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # read: nobody else may be waiting for it
            raise
        finally:
            del self._drawing[key]
        self.drawn += 1
        future.set_result(picture)
        if picture is None:  # lost with its drawing worker: drawn again when asked again
            return None
        self._done[key] = picture
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        return picture


@dataclass(frozen=True)
class Board:
    """A position's picture, and the name of the position: the same name, the same picture."""

    png: bytes
    tag: str


class Pages:
    """Games' pages: addresses, what they show, boards, exports; all public."""

    def __init__(self, context: Context, games: Games, answers: Answers) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers
        self.boards = Boards()
        self._secret: bytes | None = None

    async def token(self, game_id: int) -> str:
        if self._secret is None:
            self._secret = await self.store.secret(SECRET)
        return token_of(self._secret, game_id)

    async def path(self, game_id: int) -> str:
        """Where game ``game_id``'s page is, below the site's address."""
        return f"/g/{game_id}-{await self.token(game_id)}"

    async def opened(self, game_id: int, token: str) -> Loaded | None:
        """The game ``token`` opens, or None: a wrong token and a game that does not
        exist look the same, so no address tells whether a game is there."""
        right = await self.token(game_id)
        if not hmac.compare_digest(right, token):
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
        players = tuple(
            Player(
                seat=s.seat,
                name=s.name,
                colour=_hex(self.answers.colour(game, view, s.seat)) if view is not None else None,
                score=result.scores[s.seat] if result is not None else None,
                place=s.place,
                to_play=s.seat in awaited,
                ai=s.ai,
            )
            for s in game.seats
        )
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


def _ply(number: int, entry: MoveRow, names: Sequence[str]) -> Ply:
    notation = None if entry.kind == "skip" else entry.action
    return Ply(number, entry.seat, names[entry.seat], notation, entry.created_at)


def _hex(rgb: tuple[int, int, int] | None) -> str | None:
    return None if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)
