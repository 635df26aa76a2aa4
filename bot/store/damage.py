"""A game's stored values, written with a checksum and read without trusting them.

A byte damaged inside a value (a bad sector, a flipped bit) passes the database's own
integrity check, which looks at pages and indexes, never at what a text says. So a game's
state is stored with the CRC-32 of its UTF-8 text (:func:`state_columns`), and a row is
read (:func:`game_row`) into a :class:`~bot.store.rows.GameRow` whose ``damage`` says
what does not hold: a state that is not UTF-8 text or does not match its checksum, options
that are not JSON. The row still comes back, so the service can rebuild the state from the
move log or, failing that, let the game be called off; never a reader's exception, whose
message could quote a hidden hand.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

from bot.store.rows import GameRow

#: the columns of ``games`` a row is read from, in :func:`game_row`'s order
GAME_FIELDS = (
    "id", "guild_id", "channel_id", "game_key", "status", "options", "seed", "state",
    "version", "creator_id", "created_at", "updated_at", "status_message_id", "state_crc",
)  # fmt: skip
#: the columns the start-up check reads (:func:`damaged`): only what can be damaged
CHECKED_FIELDS = ("id", "options", "state", "state_crc")
#: the damage that leaves a game nothing to be rebuilt from: its log starts from its options
OPTIONS_DAMAGED = "its stored options are not JSON"


def state_columns(state: str) -> dict[str, object]:
    """The columns that store ``state``: its text and its checksum, always written together."""
    return {"state": state, "state_crc": zlib.crc32(state.encode())}


def game_row(values: Sequence) -> GameRow:
    """A ``games`` row read as :data:`GAME_FIELDS`, the state and options as text or as
    the bytes they are stored as (SQLite's, which a damaged byte may leave not UTF-8):
    what is damaged is said in ``damage``, the rest is as stored."""
    *columns, crc = values
    columns[5], columns[7], damage = _checked(columns[5], columns[7], crc)
    return GameRow(*[*columns, damage])  # damage is the field after the columns


def damaged(values: Sequence) -> bool:
    """Whether a row read as :data:`CHECKED_FIELDS` is damaged (:func:`game_row`); a
    state stored before checksums were (it has none) is damaged if it is not even JSON."""
    _id, options, state, crc = values
    _options, state, damage = _checked(options, state, crc)
    if damage:
        return True
    if state is None or crc is not None:
        return False
    try:
        json.loads(state)
    except ValueError:
        return True
    return False


def _checked(
    options: str | bytes, state: str | bytes | None, crc: int | None
) -> tuple[dict, str | None, tuple[str, ...]]:
    """The options parsed and the state as text, as far as they read, and what of them
    is damaged."""
    damage = []
    raw = state.encode() if isinstance(state, str) else state
    if isinstance(state, bytes):
        stored = state
        try:
            state = stored.decode()
        except UnicodeDecodeError:
            state = stored.decode(errors="replace")
            damage.append("its stored state is not UTF-8 text")
    if raw is not None and crc is not None and not damage and zlib.crc32(raw) != crc:
        damage.append("its stored state does not match the checksum stored with it")
    try:
        parsed = json.loads(options)  # text or bytes
    except ValueError:  # not UTF-8, or not JSON
        parsed = {}
        damage.append(OPTIONS_DAMAGED)
    return parsed, state, tuple(damage)
