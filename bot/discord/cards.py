"""A public board as one Discord card: its words, the picture and the buttons together.

A card is a Components v2 message (``discord.ui.LayoutView``): one container, with the
accent colour of the seat the post is about, holding the text, the board as a media
gallery of the uploaded picture (with its alt text) and a row of buttons. Discord then
keeps all three in one frame, where a classic message shows the text above, the
picture as a loose attachment and the buttons under it. Discord's rules for such a
message: no ``content`` (the text goes in a text display), at most 4,000 characters of
text and 40 components in all, the picture referenced as ``attachment://<name>``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

CARD_TEXT_LIMIT = 4000  # characters in all of a card's text displays
PER_ROW = 5  # buttons in one action row
BOARD_FILE = "board.png"  # the name a board is uploaded as, and referenced by


def card(
    text: str,
    alt: str | None,
    controls: Sequence[discord.ui.Item] = (),
    accent: int | None = None,
) -> discord.ui.LayoutView:
    """Text, then the board uploaded as :data:`BOARD_FILE` (``alt`` in words), then the
    buttons, in one container with an ``accent`` bar (``0xRRGGBB``, or none)."""
    frame: discord.ui.Container = discord.ui.Container(accent_colour=accent)
    if text.strip():  # Discord refuses an empty text display
        frame.add_item(discord.ui.TextDisplay(text))
    picture = discord.MediaGalleryItem(f"attachment://{BOARD_FILE}", description=alt)
    frame.add_item(discord.ui.MediaGallery(picture))
    for start in range(0, len(controls), PER_ROW):
        frame.add_item(discord.ui.ActionRow(*controls[start : start + PER_ROW]))
    layout = discord.ui.LayoutView(timeout=None)  # its buttons are matched by custom id
    layout.add_item(frame)
    return layout
