"""Bridge Wars' settings for the computer players' search (``engine.ai``)."""

from __future__ import annotations

from engine.ai.search import Search

#: hundreds of placements a turn, most of them quiet, so a few random moves ahead say
#: little: the reply search instead (each of the 12 best placements by one greedy step,
#: judged by the rival's best answer to it); no chance, so one world (docs/ai.md)
SEARCH = Search(worlds=1, width=12, reply=True, work=2000)
