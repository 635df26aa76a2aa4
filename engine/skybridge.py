"""Skybridge: towers, bridges and roofs on a 3x3 board (Gigamic, 2006).

The rulebook's text plus RULINGS §3 is the spec. Pieces are stacked on nine
foundations; a piece *touches* only what it rests on, and two pieces of one colour
may never touch. Blocks must go on the lowest tower they may touch; bridges join two
orthogonally adjacent towers of equal height and cover both tops; roofs close a tower
and give it to their colour. [P] rulings (bridge footprint, automatic passing, the
2-player turn, tie-breaks) are Bridgekeeper's reconstruction and say so in the docs.

Squares are named like chess: columns a–c from the left, rows 1–3 from the bottom.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import BadOptions, Event, Game, GameInfo, IllegalMove, Result, Rng, seat_ref

COLOURS = ("red", "blue", "yellow", "green")
KINDS = ("tall", "cube", "bridge", "roof")
STORIES = {"tall": 3, "cube": 2, "bridge": 1, "roof": 0}
PER_COLOUR = {"tall": 4, "cube": 4, "bridge": 1, "roof": 2}
NEUTRAL = 3  # the 4th colour in a 3-player game: each player holds one tall and one cube
SQUARES = tuple(f"{col}{row}" for row in (1, 2, 3) for col in "abc")
ADJACENT = tuple(
    (a, b)
    for a in range(9)
    for b in range(a + 1, 9)
    if (a // 3 == b // 3 and b - a == 1) or (a % 3 == b % 3 and b - a == 3)
)


@dataclass(frozen=True, order=True)
class Piece:
    colour: int
    kind: str

    @property
    def code(self) -> str:
        return COLOURS[self.colour][0].upper() + self.kind[0].upper()

    @classmethod
    def from_code(cls, code: str) -> Piece:
        colour = next(i for i, name in enumerate(COLOURS) if name[0].upper() == code[0])
        kind = next(k for k in KINDS if k[0].upper() == code[1])
        return cls(colour, kind)


@dataclass(frozen=True, order=True)
class Place:
    """Put one piece: ``squares`` holds one square, or two (ascending) for a bridge."""

    colour: int
    kind: str
    squares: tuple[int, ...]


@dataclass(frozen=True)
class Resign:
    """Leave the game: the seat places nothing more and finishes last."""


Action = Place | Resign
Stack = tuple[Piece, ...]


@dataclass(frozen=True)
class State:
    players: int
    board: tuple[Stack, ...]  # nine stacks, bottom piece first, indexed like SQUARES
    stock: tuple[tuple[int, ...], ...]  # per seat: count per (colour, kind), see slot
    turn: int  # the seat to move; -1 once the game is over
    out: frozenset[int]  # seats that could not place when their turn came
    resigned: frozenset[int]
    first: int
    last: Place | None
    placed: int
    rng: Rng


@dataclass(frozen=True)
class View:
    """Everything a player sees; Skybridge has no hidden information."""

    players: int
    seat: int | None
    seat_colours: tuple[tuple[int, ...], ...]
    board: tuple[Stack, ...]
    heights: tuple[int, ...]
    roof_owner: tuple[int | None, ...]  # colour of each tower's roof
    bridges: Mapping[int, tuple[int, int]]  # colour -> the two squares it joins
    stock: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turn: int
    out: frozenset[int]
    resigned: frozenset[int]
    last: Place | None
    over: bool
    places: tuple[int, ...] | None


def slot(colour: int, kind: str) -> int:
    return colour * len(KINDS) + KINDS.index(kind)


def seat_colours(players: int) -> tuple[tuple[int, ...], ...]:
    """The colours each seat may play, the neutral one included in a 3-player game."""
    if players == 2:
        return ((0, 2), (1, 3))
    if players == 3:
        return tuple((seat, NEUTRAL) for seat in range(3))
    return tuple((seat,) for seat in range(players))


def scoring_colours(players: int) -> tuple[tuple[int, ...], ...]:
    """The colours whose towers score for each seat: neutral pieces own nothing."""
    return tuple(
        tuple(c for c in cs if players != 3 or c != NEUTRAL) for cs in seat_colours(players)
    )


def initial_stock(players: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's pieces at the start, as counts indexed by :func:`slot`."""
    stocks = []
    for colours in seat_colours(players):
        counts = [0] * (len(COLOURS) * len(KINDS))
        for colour in colours:
            for kind, n in PER_COLOUR.items():
                counts[slot(colour, kind)] = n
        if players == 3:
            counts[slot(NEUTRAL, "tall")] = 1
            counts[slot(NEUTRAL, "cube")] = 1
            counts[slot(NEUTRAL, "bridge")] = 0
            counts[slot(NEUTRAL, "roof")] = 0
        stocks.append(tuple(counts))
    return tuple(stocks)


def height(stack: Stack) -> int:
    return sum(STORIES[p.kind] for p in stack)


def _top(stack: Stack) -> Piece | None:
    return stack[-1] if stack else None


def _roofed(stack: Stack) -> bool:
    return bool(stack) and stack[-1].kind == "roof"


def bridge_spans(board: tuple[Stack, ...]) -> dict[int, tuple[int, int]]:
    """Where each colour's bridge lies (each colour has one bridge)."""
    found: dict[int, list[int]] = {}
    for sq, stack in enumerate(board):
        for piece in stack:
            if piece.kind == "bridge":
                found.setdefault(piece.colour, []).append(sq)
    return {colour: (sqs[0], sqs[1]) for colour, sqs in found.items()}


def colour_score(board: tuple[Stack, ...], colour: int) -> int:
    """RULINGS §3.2: own roofed towers, plus each tower your bridge joins to one of them."""
    heights = [height(s) for s in board]
    owner = [s[-1].colour if _roofed(s) else None for s in board]
    score = sum(h for h, o in zip(heights, owner, strict=True) if o == colour)
    span = bridge_spans(board).get(colour)
    if span:
        a, b = span
        score += (owner[a] == colour) * heights[b] + (owner[b] == colour) * heights[a]
    return score


def _block_targets(board: tuple[Stack, ...], colour: int) -> list[int]:
    """Lowest-tower rule: among towers the block may touch, only the lowest ones."""
    allowed = [
        sq for sq, s in enumerate(board) if not _roofed(s) and (not s or s[-1].colour != colour)
    ]
    if not allowed:
        return []
    lowest = min(height(board[sq]) for sq in allowed)
    return [sq for sq in allowed if height(board[sq]) == lowest]


def _bridge_targets(board: tuple[Stack, ...], colour: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in ADJACENT if _bridge_refusal(board, colour, a, b) is None]


def _bridge_refusal(board: tuple[Stack, ...], colour: int, a: int, b: int) -> str | None:
    name = COLOURS[colour]
    if (a, b) not in ADJACENT:
        return (
            f"A bridge joins two towers side by side, not diagonally or apart; "
            f"{SQUARES[a]} and {SQUARES[b]} are not neighbours."
        )
    for sq in (a, b):
        if not board[sq]:
            return f"A bridge rests on two towers, and {SQUARES[sq]} is an empty foundation."
        if _roofed(board[sq]):
            return f"{SQUARES[sq]} has a roof: nothing more can be built on it."
    ha, hb = height(board[a]), height(board[b])
    if ha != hb:
        return (
            f"A bridge needs two towers of the same height; "
            f"{SQUARES[a]} is {ha} high and {SQUARES[b]} is {hb}."
        )
    for sq in (a, b):
        if board[sq][-1].colour == colour:
            return f"Touch rule: your {name} bridge would rest on a {name} piece on {SQUARES[sq]}."
    ta, tb = board[a][-1], board[b][-1]
    if ta.kind == "bridge" and ta == tb:
        return (
            f"A bridge may not lie completely on another bridge, and the "
            f"{COLOURS[ta.colour]} bridge already joins {SQUARES[a]} and {SQUARES[b]}."
        )
    return None


def _roof_targets(board: tuple[Stack, ...], colour: int) -> list[int]:
    return [sq for sq, s in enumerate(board) if s and not _roofed(s) and s[-1].colour != colour]


def _placements(state: State, seat: int) -> list[Place]:
    moves: list[Place] = []
    stock = state.stock[seat]
    for colour in seat_colours(state.players)[seat]:
        for kind in KINDS:
            if not stock[slot(colour, kind)]:
                continue
            if kind == "bridge":
                moves += [Place(colour, kind, ab) for ab in _bridge_targets(state.board, colour)]
            elif kind == "roof":
                moves += [Place(colour, kind, (sq,)) for sq in _roof_targets(state.board, colour)]
            else:
                moves += [Place(colour, kind, (sq,)) for sq in _block_targets(state.board, colour)]
    return moves


def _can_place(state: State, seat: int) -> bool:
    stock = state.stock[seat]
    for colour in seat_colours(state.players)[seat]:
        if (stock[slot(colour, "tall")] or stock[slot(colour, "cube")]) and _block_targets(
            state.board, colour
        ):
            return True
        if stock[slot(colour, "roof")] and _roof_targets(state.board, colour):
            return True
        if stock[slot(colour, "bridge")] and _bridge_targets(state.board, colour):
            return True
    return False


def _shape_refusal(move: Place) -> str | None:
    """Actions come from parse, buttons or code: apply checks their shape itself."""
    if move.colour not in range(len(COLOURS)) or move.kind not in KINDS:
        return "That is not a Skybridge piece."
    squares = move.squares
    if any(sq not in range(len(SQUARES)) for sq in squares):
        return "That square is not on the board (columns a–c, rows 1–3)."
    if move.kind == "bridge":
        if len(squares) != 2 or squares[0] >= squares[1]:
            return "A bridge joins two different squares, e.g. `blue bridge a1-a2`."
    elif len(squares) != 1:
        return f"A {move.kind} goes on one square, e.g. `{COLOURS[move.colour]} {move.kind} b2`."
    return None


def _refusal(state: State, seat: int, move: Place) -> str | None:
    """Why ``move`` is illegal for ``seat`` now, or ``None`` if it is legal."""
    shape = _shape_refusal(move)
    if shape:
        return shape
    name = f"{COLOURS[move.colour]} {move.kind}"
    if move.colour not in seat_colours(state.players)[seat]:
        return f"You don't play {COLOURS[move.colour]} pieces."
    if not state.stock[seat][slot(move.colour, move.kind)]:
        return f"You have no {name} left."
    if move.kind == "bridge":
        return _bridge_refusal(state.board, move.colour, *move.squares)
    sq = move.squares[0]
    stack = state.board[sq]
    where = SQUARES[sq]
    if _roofed(stack):
        return f"{where} has a roof: nothing more can be built on it."
    if stack and stack[-1].colour == move.colour:
        colour = COLOURS[move.colour]
        return f"Touch rule: your {name} would rest on a {colour} piece on {where}."
    if move.kind == "roof":
        if not stack:
            return f"A roof goes on a tower, and {where} is an empty foundation."
        return None
    targets = _block_targets(state.board, move.colour)
    if sq not in targets:
        lowest = height(state.board[targets[0]])
        options = ", ".join(SQUARES[t] for t in targets)
        return (
            f"Lowest-tower rule: a block goes on the lowest tower it may touch "
            f"({options}, {lowest} high); {where} is {height(stack)} high."
        )
    return None


_COMPACT = re.compile(r"([a-z])([a-z])\s*([a-c][1-3])(?:\s*-?\s*([a-c][1-3]))?")
_WORDS = re.compile(r"([a-z]+)\s+([a-z]+)\s+([a-c][1-3])(?:\s*-\s*([a-c][1-3])|\s+([a-c][1-3]))?")
_HOWTO = "Write a move as colour, piece and square, e.g. `red tall b2`, `blue bridge a1-a2`."


def _word(token: str, words: tuple[str, ...], what: str) -> int:
    for i, word in enumerate(words):
        if token in (word, word[0]):
            return i
    raise IllegalMove(f"'{token}' is not a {what} (one of {', '.join(words)}). {_HOWTO}")


class Skybridge(Game[State, Action]):
    info = GameInfo(
        key="skybridge",
        name="Skybridge",
        min_players=2,
        max_players=4,
        summary="Build towers on a 3x3 city, link them with bridges, roof them to own them.",
        help=(
            "**Skybridge** — 2 to 4 players, one piece per turn.\n"
            "Each colour has 4 tall blocks (3 stories), 4 cubes (2), 1 bridge (1) and 2 roofs.\n"
            "• Two pieces of one colour never touch (rest one on the other).\n"
            "• A block goes on the lowest tower it may touch.\n"
            "• A bridge joins two side-by-side towers of equal height and covers both tops.\n"
            "• A roof closes a tower and makes it yours.\n"
            "Score: the stories of your roofed towers, plus the tower your bridge joins to "
            "one of them (both doubled when you own both).\n"
            "**Moves:** colour, piece, square — `red tall b2`, `blue cube a1`, "
            "`yellow bridge a1-a2`, `green roof c3` (or short: `rt b2`). Columns a–c, rows 1–3.\n"
            "*Bridgekeeper's reconstruction [P]:* a bridge covers both tops completely; a player "
            "who cannot place is out for the rest of the game; with 2 players each plays two "
            "colours, one piece of either per turn; ties go to most roofed towers. "
            "Full rules: docs/rules/skybridge.md."
        ),
    )

    def seat_label(self, state: State, seat: int) -> str:
        colours = [COLOURS[c] for c in seat_colours(state.players)[seat]]
        if state.players == 3:
            return f"{colours[0]}, with neutral {colours[1]}"
        return " and ".join(colours)

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        if not self.info.min_players <= players <= self.info.max_players:
            raise BadOptions(f"Skybridge is for 2 to 4 players, not {players}.")
        if options:
            raise BadOptions(f"Skybridge has no options (got {', '.join(sorted(options))}).")
        first, rng = Rng.from_seed(seed).below(players)
        return State(
            players=players,
            board=((),) * 9,
            stock=initial_stock(players),
            turn=first,
            out=frozenset(),
            resigned=frozenset(),
            first=first,
            last=None,
            placed=0,
            rng=rng,
        )

    def legal(self, state: State, seat: int) -> list[Action]:
        if state.turn != seat:
            return []
        return list(_placements(state, seat))

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.turn < 0:
            raise IllegalMove("The game is over.")
        if not 0 <= seat < state.players:
            raise IllegalMove("You are not playing in this game.")
        if isinstance(action, Resign):
            return self._resign(state, seat)
        if not isinstance(action, Place):
            raise IllegalMove("That is not a Skybridge move.")
        if seat != state.turn:
            raise IllegalMove(f"It is not your turn: it is {seat_ref(state.turn)}'s.")
        reason = _refusal(state, seat, action)
        if reason:
            raise IllegalMove(reason)
        board = list(state.board)
        for sq in action.squares:
            board[sq] = board[sq] + (Piece(action.colour, action.kind),)
        stock = list(state.stock)
        counts = list(stock[seat])
        counts[slot(action.colour, action.kind)] -= 1
        stock[seat] = tuple(counts)
        placed = replace(
            state, board=tuple(board), stock=tuple(stock), last=action, placed=state.placed + 1
        )
        events = [Event("place", f"{seat_ref(seat)} placed {self.format(action)}.")]
        return self._advance(placed, seat, events)

    can_skip = True

    def skip(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """The seat places nothing this turn; play goes on as after a placement."""
        if state.turn < 0:
            raise IllegalMove("The game is over.")
        if seat != state.turn:
            raise IllegalMove(f"It is not {seat_ref(seat)}'s turn.")
        return self._advance(state, seat, [Event("skip", f"{seat_ref(seat)}'s turn was skipped.")])

    def _resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        if seat in state.resigned:
            raise IllegalMove("You have already resigned.")
        resigned = replace(state, resigned=state.resigned | {seat}, out=state.out | {seat})
        events = [Event("resign", f"{seat_ref(seat)} resigned.")]
        if state.players - len(resigned.resigned) < 2:
            return replace(resigned, turn=-1), [*events, Event("end", "Game over.")]
        if state.turn != seat:
            return resigned, events
        return self._advance(resigned, seat, events)

    def _advance(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        """Pass the turn on; a seat that cannot place when its turn comes is out for good."""
        out = set(state.out)
        for step in range(1, state.players + 1):
            candidate = (seat + step) % state.players
            if candidate in out:
                continue
            if _can_place(state, candidate):
                return replace(state, turn=candidate, out=frozenset(out)), events
            out.add(candidate)
            if any(state.stock[candidate]):
                events.append(
                    Event("out", f"{seat_ref(candidate)} cannot place any piece and is out.")
                )
        return replace(state, turn=-1, out=frozenset(out)), [*events, Event("end", "Game over.")]

    def parse(self, text: str) -> Action:
        clean = " ".join(text.lower().split())
        if clean == "resign":
            return Resign()
        m = _WORDS.fullmatch(clean) or _COMPACT.fullmatch(clean)
        if not m:
            raise IllegalMove(f"I can't read '{text.strip()[:40]}' as a Skybridge move. {_HOWTO}")
        colour = _word(m.group(1), COLOURS, "colour")
        kind = KINDS[_word(m.group(2), KINDS, "piece")]
        squares = tuple(sorted(SQUARES.index(s) for s in m.groups()[2:] if s))
        if kind == "bridge" and len(squares) != 2:
            raise IllegalMove("A bridge joins two squares, e.g. `blue bridge a1-a2`.")
        if kind != "bridge" and len(squares) != 1:
            raise IllegalMove(f"A {kind} goes on one square, e.g. `{COLOURS[colour]} {kind} b2`.")
        if len(set(squares)) != len(squares):
            raise IllegalMove("A bridge joins two different towers.")
        return Place(colour, kind, squares)

    def format(self, action: Action) -> str:
        if isinstance(action, Resign):
            return "resign"
        where = "-".join(SQUARES[sq] for sq in action.squares)
        return f"{COLOURS[action.colour]} {action.kind} {where}"

    def view(self, state: State, seat: int | None) -> View:
        over = self.is_over(state)
        return View(
            players=state.players,
            seat=seat,
            seat_colours=seat_colours(state.players),
            board=state.board,
            heights=tuple(height(s) for s in state.board),
            roof_owner=tuple(s[-1].colour if _roofed(s) else None for s in state.board),
            bridges=bridge_spans(state.board),
            stock=state.stock,
            scores=self._scores(state),
            turn=state.turn,
            out=state.out,
            resigned=state.resigned,
            last=state.last,
            over=over,
            places=self.result(state).places if over else None,
        )

    def to_play(self, state: State) -> tuple[int, ...]:
        return () if state.turn < 0 else (state.turn,)

    def is_over(self, state: State) -> bool:
        return state.turn < 0

    def _scores(self, state: State) -> tuple[int, ...]:
        return tuple(
            sum(colour_score(state.board, c) for c in colours)
            for colours in scoring_colours(state.players)
        )

    def _roofs(self, state: State, seat: int) -> int:
        colours = scoring_colours(state.players)[seat]
        return sum(1 for s in state.board if _roofed(s) and s[-1].colour in colours)

    def result(self, state: State) -> Result:
        """Most stories wins; [P] ties go to most roofed towers, then are shared.

        A seat that resigned finishes behind every seat that did not.
        """
        scores = self._scores(state)
        keys = [
            (seat not in state.resigned, scores[seat], self._roofs(state, seat))
            for seat in range(state.players)
        ]
        places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
        tied_on_score = any(
            keys[a][:2] == keys[b][:2] and keys[a] != keys[b]
            for a in range(state.players)
            for b in range(a)
        )
        detail = "Ties on stories broken by most roofed towers." if tied_on_score else ""
        return Result(scores=scores, places=places, detail=detail)

    def state_to_dict(self, state: State) -> dict[str, Any]:
        return {
            "players": state.players,
            "board": [[p.code for p in stack] for stack in state.board],
            "stock": [list(s) for s in state.stock],
            "turn": state.turn,
            "out": sorted(state.out),
            "resigned": sorted(state.resigned),
            "first": state.first,
            "last": None if state.last is None else self.format(state.last),
            "placed": state.placed,
            "rng": state.rng.state,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        last = data["last"]
        return State(
            players=data["players"],
            board=tuple(tuple(Piece.from_code(c) for c in stack) for stack in data["board"]),
            stock=tuple(tuple(s) for s in data["stock"]),
            turn=data["turn"],
            out=frozenset(data["out"]),
            resigned=frozenset(data["resigned"]),
            first=data["first"],
            last=None if last is None else self.parse(last),
            placed=data["placed"],
            rng=Rng(data["rng"]),
        )
