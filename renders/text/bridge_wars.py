"""Bridge Wars in words: each player's colour, corner and blocks left, then the map from
above as it scores — which colour tops how many rods in each part of the board, and
how high — the brass rod, the tallest stacks, and how the game is ending."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.bridge_wars.blocks import COLOURS, STARTER
from engine.bridge_wars.board import BRASS, HOLES, MID, col_row, names
from engine.bridge_wars.view import View
from renders.bridge_wars import caption, status, stock_line
from renders.text.common import heading, lines, listing, scores

#: a hole's part of the board, by its side of the centre rows: (x sign, y sign)
REGIONS = {
    (-1, 1): "north-west",
    (0, 1): "north",
    (1, 1): "north-east",
    (-1, 0): "west",
    (1, 0): "east",
    (-1, -1): "south-west",
    (0, -1): "south",
    (1, -1): "south-east",
}


def _region(hole: int) -> str:
    col, row = col_row(hole)
    sign = ((col > MID) - (col < MID), (row > MID) - (row < MID))
    return REGIONS.get(sign, "centre")


def _last(view: View, names_: Sequence[str]) -> str:
    """The last block in the notation moves are written in, and where it came to rest."""
    last = view.last
    if last is None:
        return "New game: colours and corners are being chosen"
    if last.block == STARTER:
        return f"Last move: {names_[last.seat]} {view.last_move}"
    return f"Last move: {names_[last.seat]} {view.last_move}, coming to rest at level {last.level}"


def _regions(view: View) -> list[str]:
    """Per part of the board, read like a page from the north-west: the colours on top,
    how many rods each tops there, and the highest level reached."""
    tops: dict[str, Counter[int]] = {}
    high: dict[str, int] = {}
    for hole in range(HOLES):
        if view.owner[hole] >= 0:
            region = _region(hole)
            tops.setdefault(region, Counter())[view.owner[hole]] += 1
            high[region] = max(high.get(region, 0), view.tops[hole])
    out = []
    for region in (*REGIONS.values(), "centre"):
        if region in tops:
            counts = listing(f"{COLOURS[c]} {n}" for c, n in tops[region].most_common())
            top = f"up to level {high[region]}"
            out.append(f"{region.capitalize()}: rods topped by {counts}; {top}")
    return out


def describe(view: View, names_: Sequence[str]) -> str:
    players = []
    for seat in range(view.players):
        text, tag = status(view, seat)
        colour = COLOURS[view.colours[seat]] if view.colours[seat] >= 0 else "no colour yet"
        blocks = f", holding {stock_line(view, seat)}" if view.colours[seat] >= 0 else ""
        tag = f" ({tag.lower()})" if tag else ""
        players.append(f"{names_[seat]}: {colour}, {text}{blocks}{tag}")
    brass = "empty"
    if view.owner[BRASS] >= 0:
        brass = f"{COLOURS[view.owner[BRASS]]} on top at level {view.tops[BRASS]}"
    peak = max(view.tops)
    tallest = [h for h in range(HOLES) if view.tops[h] == peak]
    ending = ""
    if view.ending:
        ending = ("Ended: " if view.over else "Last round: ") + view.ending
    return lines(
        heading("Bridge Wars", view.seat, names_),
        caption(view, names_)[1],
        scores(names_, view.scores),
        _last(view, names_),
        ending,
        *players,
        f"Map from above (each rod scores 1 for the colour on top, the brass f6 scores 5; "
        f"rods {view.height} layers high). Brass rod f6: {brass}",
        *_regions(view),
        f"Highest: level {peak} at {names(tallest)}" if peak else "No block is in play yet",
    )
