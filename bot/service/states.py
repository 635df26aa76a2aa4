"""Stored states, parsed once and shared: the service's cache of what it loads most."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import engine


class ParsedStates:
    """Stored states, each parsed once: a click loads its game up to three times (legal
    moves, the move, the pinned status). States are immutable, so the same text always
    gives an equal state that every request may share; and a state the bot has just
    stored is kept under its text (:meth:`stored`), so the next click parses nothing."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def get(self, game_key: str, text: str) -> Any:
        state = self._states.get((game_key, text))
        if state is None:
            state = engine.get(game_key).from_json(text)
        self._keep(game_key, text, state)
        return state

    def stored(self, game_key: str, state: Any) -> str:
        """``state`` as stored text, kept for the next load of it."""
        text = engine.get(game_key).to_json(state)
        self._keep(game_key, text, state)
        return text

    def _keep(self, game_key: str, text: str, state: Any) -> None:
        self._states[game_key, text] = state
        self._states.move_to_end((game_key, text))
        if len(self._states) > self._size:
            self._states.popitem(last=False)


STATES = ParsedStates(4096)
