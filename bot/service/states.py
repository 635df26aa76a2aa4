"""Each game's newest state, parsed once: what the service context keeps of what it loads."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import engine

#: the games whose newest state is kept parsed: every game played at once in a busy
#: process (a thousand in the load bench), each a few kilobytes
GAMES_KEPT = 1024


class ParsedStates:
    """The newest state of each of the games lately loaded or stored, parsed. A request
    loads its game once, but the moves of a game come one request after another (the
    picker's clicks, then the move), each loading it: the state the bot has just stored
    is kept under its game (:meth:`stored`), so the next load parses nothing. States are
    immutable, so requests may share one; a game keeps only its newest, and at most
    ``size`` games are kept, the least lately used let go first."""

    def __init__(self, size: int = GAMES_KEPT) -> None:
        self._size = size
        self._games: OrderedDict[int, tuple[str, Any]] = OrderedDict()

    def get(self, game_id: int, game_key: str, text: str) -> Any:
        """Game ``game_id``'s state stored as ``text``, parsed unless it is the one kept."""
        kept = self._games.get(game_id)
        state = kept[1] if kept is not None and kept[0] == text else None
        if state is None:
            state = engine.get(game_key).from_json(text)
        self._keep(game_id, text, state)
        return state

    def stored(self, game_id: int, game_key: str, state: Any) -> str:
        """``state`` as stored text, kept as game ``game_id``'s newest."""
        text = engine.get(game_key).to_json(state)
        self._keep(game_id, text, state)
        return text

    def _keep(self, game_id: int, text: str, state: Any) -> None:
        self._games[game_id] = (text, state)
        self._games.move_to_end(game_id)
        if len(self._games) > self._size:
            self._games.popitem(last=False)
