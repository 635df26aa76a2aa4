"""What a game looks like to its players, as one object: :class:`Looks`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from renders.palette import RGB


@dataclass(frozen=True)
class Looks:
    """One game's board as a picture and in words, from the same view, and what goes with
    them: a seat's colour, and what to prepare before the first board.

    Every part gets a *view*, never a state, so a public picture or description cannot
    tell a hidden value; a view carries its last move as text, so none asks the rules.
    """

    #: the board as PNG bytes; ``names[seat]`` labels each seat
    draw: Callable[[Any, Sequence[str]], bytes]
    #: the board in words (alt text, the terminal), a sentence or two a line, the most
    #: important first (:mod:`renders.text`)
    describe: Callable[[Any, Sequence[str]], str]
    #: the fill ``seat``'s pieces are drawn in, to frame a post about that seat; None
    #: where it has no colour (yet)
    accent: Callable[[Any, int], RGB | None]
    #: palettes and blank boards drawn before the first board, so no move waits for them
    warm: Callable[[], None]
    #: what a seat's own picture shows beyond the public board, in words, where the game
    #: has more than a hand to tell (a player's own sheet); None where it has not
    describe_own: Callable[[Any, Sequence[str]], str] | None = None
