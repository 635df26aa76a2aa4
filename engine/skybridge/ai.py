"""Skybridge's settings for the computer players' search (``engine.ai``)."""

from __future__ import annotations

from engine.ai.hard import Search

#: the search within a move's CPU budget (docs/ai.md): no chance, so one world; every
#: legal placement a candidate (a narrower list keeps the scoring ones and drops most
#: quiet ones at random), and rollouts nearly to the end of a 40-move game
SEARCH = Search(iterations=60, worlds=1, width=40, depth=16)
