"""Skybridge's settings for the computer players' search (``engine.ai``)."""

from __future__ import annotations

from engine.ai.search import Search

#: no chance, so one world; every legal placement a candidate (a narrower list keeps the
#: scoring ones and drops most quiet ones at random); random rollouts to the end of the
#: 40-move game, since one greedy step roofs too soon (docs/ai.md); the work capped to
#: stay within a move's CPU budget
SEARCH = Search(iterations=300, worlds=1, width=40, depth=40, greed=1, work=3600)
