"""Where the terminal keeps the pictures it is shown: what a player would keep, each file
named for what it shows, so that nothing they would want back is overwritten.

* ``game12.png``: game 12's board as it stands, rewritten after every move (open it once
  and reload it), and so, once the game is over, its final board;
* ``game12-ada.png``: what only ada sees of game 12 (her hand, her own sheet), as it stands;
* ``game12-move007.png``: game 12 as it stood after move 7 (``/board move=7``);
* ``spring-cup-standings-after-round-2-of-3.png``: a picture that is no game's board (a
  league's standings) is named for what it shows.

A whole game leaves one file, and one more for each person at the keyboard in a game with
secrets; every earlier board can be drawn again from the database (``/board move=N``).
Games are numbered by the database, so a later session goes on with the same files; the
default folder is one per database (``boards/<database>/``), so two databases never write
to the same name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from bot.service import Reply
from bot.store.backends import backend
from bot.store.targets import Target

#: where pictures go when ``--images`` does not say
BOARDS = Path("boards")


def folder_for(database: Target) -> Path:
    """The default folder for a database's pictures: ``boards/bridgekeeper/``, say."""
    return BOARDS / slug(backend(database).database_name(database), "database")


def slug(text: str, empty: str) -> str:
    """``text`` as a safe file name: lower case letters, digits and dashes (a name typed at
    the keyboard may hold ``/`` or ``..``); ``empty`` if nothing of it is left."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or empty


def board_name(reply: Reply) -> str:
    """A picture's file name when nothing more is known: its game's board as it stands,
    or, for no game's picture, its first line of words."""
    if reply.game_id is not None:
        return f"game{reply.game_id}.png"
    title = (reply.alt or reply.text).split("\n", 1)[0]
    return f"{slug(title, 'picture')}.png"


def own_name(game_id: int | None, person: str) -> str:
    """The file of what only ``person`` sees of a game."""
    return f"game{game_id}-{slug(person, 'player')}.png"


def past_name(game_id: int | None, move: int) -> str:
    """The file of a game's board as it stood after ``move``."""
    return f"game{game_id}-move{move:03d}.png"


def keep(folder: Path, name: str, picture: bytes) -> Path:
    """Write ``picture`` as ``folder/name`` in one step: a viewer reloading the file never
    reads half of it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    staged = folder / f".{name}.part"
    staged.write_bytes(picture)
    os.replace(staged, path)
    return path
