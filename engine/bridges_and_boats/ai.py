"""Bridges and Boats' search settings for the computer players (``engine.ai``)."""

from __future__ import annotations

from engine.ai.search import Search

#: the default search, its work capped to stay within a move's CPU budget (docs/ai.md)
SEARCH = Search(work=1500)
