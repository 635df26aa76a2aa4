"""Seven Bridges in words: the round and pick, the dice pool and who holds which die,
each player's bridges crossed, landmarks visited and score so far (the public card's
trackers), and on a player's own sheet a summary of their map, score items and bonuses.

Seven Bridges hides nothing, so a public description tells every player's progress; a
seat's view adds that player's map, which the public card does not draw either.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_bridges.board import CITY, format_square
from engine.seven_bridges.dice import die_token, face_name
from engine.seven_bridges.lines import ARM_SQUARE
from engine.seven_bridges.view import View
from renders.seven_bridges.pieces import caption, dice_note, hand_owners, position_name, positions
from renders.seven_bridges.public import progress
from renders.seven_bridges.sheet import (
    ITEM_LABELS,
    RESERVED_NAMES,
    bonus_states,
    counting,
    item_details,
)
from renders.text.common import heading, lines, listing, plural


def _dice(view: View, names: Sequence[str]) -> str:
    """``Dice, Ada rolled · Bob picks next: tee3, taken, horse2 (Bob's)``."""
    owners = hand_owners(view)
    dice = []
    for d, (kind, value) in enumerate(view.dice):
        if not value:
            dice.append("not rolled" if view.rolling else "taken")
            continue
        word = die_token(kind, value)
        if view.committed == d:
            word += " (downgraded, to be drawn now)"
        elif d in owners:
            word += f" ({position_name(view, names, owners[d])}'s)"
        dice.append(word)
    return f"{dice_note(view, names).replace('Dice — ', 'Dice, ')}: {', '.join(dice)}"


def _tracker(view: View, names: Sequence[str], position: int) -> str:
    """One drafting position's row of the public card."""
    bridges, letters, total = progress(view, position)
    name = position_name(view, names, position)
    if view.solo and position == 1:
        return f"{name} {total} (scores what you leave)"
    crossed = listing((str(b) for b in sorted(bridges)), "none")
    seen = listing(sorted(letters), "none")
    return (
        f"{name} {total}: bridges crossed {crossed} ({len(bridges)} of {len(CITY.bridges)}); "
        f"landmarks visited {seen} ({len(letters)} of {len(CITY.landmarks)})"
    )


def _score(view: View, names: Sequence[str], position: int) -> str:
    """A drafting position's seven score items, as its score sheet lists them: each with
    what it counted, the ones that make the total marked; Euler's, in a solo game, are
    his column beside the player's."""
    if view.solo and position == 1:
        assert view.euler_items is not None
        items = (f"{label} {v}" for label, v in zip(ITEM_LABELS, view.euler_items, strict=True))
        return f"Euler's score {view.euler_total}, items 2 to 7 count: {', '.join(items)}"
    card = view.seats[position].card
    items = (
        f"{label} {card.items[i]} ({detail}{', counted' if i in card.counted else ''})"
        for i, (label, detail) in enumerate(zip(ITEM_LABELS, item_details(card), strict=True))
    )
    whose = "Your" if position == view.seat else f"{position_name(view, names, position)}'s"
    return f"{whose} score {card.total}, {counting(card, view.advanced)}: {', '.join(items)}"


def _sheet(view: View, names: Sequence[str]) -> list[str]:
    """The viewer's own map and score sheet: what only their sheet draws."""
    assert view.seat is not None
    player = view.seats[view.seat]
    card = player.card
    squares = {ARM_SQUARE[a] for a in player.drawn}
    last = {ARM_SQUARE[a] for a in view.last_arms} if view.last_seat == view.seat else set()
    immediate, reserved = bonus_states(player.bonuses)
    used = [face_name(v) for v in range(1, 7) if immediate[v - 1] == "used"]
    kept = [
        f"{name} {state}" for name, state in zip(RESERVED_NAMES, reserved, strict=True) if state
    ]
    loop = card.loop
    where = f"; your last move on {listing(format_square(s) for s in sorted(last))}" if last else ""
    return [
        f"Your map: started on {format_square(view.start)}; lines on "
        f"{plural(len(squares), 'square')}{where}",
        f"Best loop: {loop.corners} corners and {plural(loop.bridges, 'bridge')}, scoring "
        f"{loop.score}"
        if loop.score
        else "No closed loop yet",
        _score(view, names, view.seat),
        f"Bonuses: immediate shapes used {listing(used)}; reserved {listing(kept)}"
        + (f"; {plural(player.pending, 'bonus', 'bonuses')} to choose" if player.pending else ""),
    ]


def describe(view: View, names: Sequence[str]) -> str:
    title, status = caption(view, names)
    totals = (
        f"{position_name(view, names, p)} {progress(view, p)[2]}" for p in range(positions(view))
    )
    turn, _, last = status.partition(" · last: ")
    return lines(
        heading("Seven Bridges", view.seat, names),
        turn,
        ("Scores: " if view.over else "Scores so far: ") + ", ".join(totals),
        f"Last move: {last}" if last else "No move yet",
        None if view.over else title.split(" — ", 1)[1],
        _dice(view, names),
        *(_sheet(view, names) if view.seat is not None else ()),
        *(line for p in range(positions(view)) for line in _position(view, names, p)),
    )


def _position(view: View, names: Sequence[str], position: int) -> tuple[str, str | None]:
    """A drafting position's tracker, then its score item by item (the viewer's own is
    with their sheet)."""
    score = None if position == view.seat else _score(view, names, position)
    return _tracker(view, names, position), score


def describe_own(view: View, names: Sequence[str]) -> str:
    """What a player's own sheet shows beyond the public card, in words: their map, loop,
    seven score items and bonuses, and Euler's items beside theirs in a solo game."""
    return lines(*_sheet(view, names), _score(view, names, 1) if view.solo else None)
