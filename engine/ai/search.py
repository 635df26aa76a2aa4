"""Level hard's settings, and the count of the work a search did.

A game's AI module may set its own settings (``SEARCH``), tuned so a move stays within
its CPU budget (docs/ai.md). The work is counted in actions tried, and capped by the
settings: a bound on a move's CPU time that depends on the view and the seed alone. It
is checked between rollouts and between candidates, so one candidate's answers may go
past it, and listing the legal actions is not counted: an approximate bound, but one
that follows from the view and the seed, never from a secret.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Search:
    """How far the search looks."""

    iterations: int = 200  # rollouts in all; in the reply search, the most candidates judged
    worlds: int = 8  # hidden states sampled, taken in turn by the iterations
    width: int = 8  # candidates kept from the greedy ranking of the legal actions
    depth: int = 10  # actions a rollout plays before judging the position
    greed: int = 3  # a rollout's move: the best of this many random legal actions (0: of all)
    #: a rollout ends once the turn has passed this many times (0: only ``depth`` ends it)
    turns: int = 0
    explore: float = 0.5  # UCB1's constant, times the spread of the values seen
    #: judge each candidate by the best answer to it (``engine.ai.reply``), not by rollouts
    reply: bool = False
    #: stop once this many actions have been tried (0: no cap): the CPU bound
    work: int = 0


@dataclass
class Work:
    """What the search did: the same for every secret behind one view."""

    worlds: int = 0
    applied: int = 0

    def spent(self, search: Search) -> bool:
        """Whether the settings' cap on actions tried is reached."""
        return 0 < search.work <= self.applied
