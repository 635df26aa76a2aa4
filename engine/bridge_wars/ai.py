"""Bridge Wars' settings for the computer players' search (``engine.ai``)."""

from __future__ import annotations

from engine.ai.hard import Search

#: the search within a move's CPU budget (docs/ai.md): hundreds of placements a turn,
#: each costly to list, so a narrow, shallow look; no chance, so one world
SEARCH = Search(iterations=40, worlds=1, width=6, depth=4, greed=2)
