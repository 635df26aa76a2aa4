"""Bridges and Boats in words: the bridge section by section with its soldiers, the
boats on each bank, the air base and cannons, both sides' stores and the last dice.

Only what the view holds is told: a face-down domino that is not the viewer's has no
value in the view, so it is "face down" here; the viewer's own reserve and (for the
attacker) its own face-down boats are told only in that seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bridges_and_boats.board import spaces_of_section
from engine.bridges_and_boats.state import ATTACKER, DEFENDER, Roll
from engine.bridges_and_boats.view import BoatView, View
from renders.bridges_and_boats import caption
from renders.text.common import heading, lines, listing, plural, scores


def _section(view: View, section: int) -> str:
    status = {"built": "standing", "destroyed": "bombed out", "missing": "not built"}
    soldiers = [str(s + 1) for s in spaces_of_section(section) if view.spaces[s]]
    spaces = "space" if len(soldiers) == 1 else "spaces"
    on = f", soldiers on {spaces} {listing(soldiers)}" if soldiers else ""
    face = view.faces[section]  # match bombing: the bridge lies face up
    shown = f" ({face})" if face else ""
    return f"section {section + 1} {status[view.sections[section]]}{shown}{on}"


def _boat(boat: BoatView) -> str:
    if boat.face_up:
        return f"boat {boat.number} ({boat.domino}) with {plural(boat.soldiers, 'soldier')}"
    if boat.domino is not None:
        return f"boat {boat.number} face down ({boat.domino}, only you see it)"
    return f"boat {boat.number} face down"


def _plane(view: View, place: int) -> str:
    """A plane as the viewer may know it: its ends, or its place while face down."""
    plane = view.planes[place]
    if view.planes_up[place]:
        return str(plane)
    return f"p{place + 1} face down" + (f" ({plane}, only you see it)" if plane else "")


def _roll(roll: Roll) -> str:
    ghost = ", one die re-rolled by the ghost pilot" if roll.rerolled else ""
    dice = listing(str(d) for d in roll.dice)
    return f"{roll.who} {roll.purpose} rolled {dice}: {roll.outcome}{ghost}"


def describe(view: View, names: Sequence[str]) -> str:
    last, turn, status = caption(view, names)
    last = "No move yet" if view.last is None else last.replace("Last:", "Last move:")
    waiting = [_boat(b) for b in view.boats if not b.launched]
    landed = [_boat(b) for b in view.boats if b.launched]
    reserve = None
    if view.hand is not None:
        reserve = f"Your reserve (only you see it): {listing(str(d) for d in view.hand)}"
    pending = None
    if view.pending is not None:
        p = view.pending
        pending = (
            f"Waiting on the ghost pilot: plane {p.name} ({p.stage}) rolled "
            f"{listing(str(d) for d in p.dice)}; re-roll one die or keep"
        )
    return lines(
        heading("Bridges and Boats", view.seat, names),
        status,
        scores(
            names,
            view.scores,
            ("attacker: soldiers across the river", "defender: coins"),
        ),
        f"{last} ({turn})",
        pending,
        f"Coins: {names[ATTACKER]} {view.coins[ATTACKER]}, {names[DEFENDER]} "
        f"{view.coins[DEFENDER]}",
        "Bridge, from the attacker's bank: "
        + "; ".join(_section(view, s) for s in range(len(view.sections))),
        f"Boats at {names[ATTACKER]}'s bank: {listing(waiting)}",
        f"Boats landed on {names[DEFENDER]}'s bank: {listing(landed)}",
        f"{names[DEFENDER]}'s air base: planes "
        f"{listing(_plane(view, i) for i in range(len(view.planes)))}; {view.cannons} cannons"
        + (
            f"; declared for today's run: {listing(_plane(view, i) for i in view.declared)}"
            if view.declared
            else ""
        ),
        f"Face-down reserves: {names[ATTACKER]} {view.hand_counts[ATTACKER]}, "
        f"{names[DEFENDER]} {view.hand_counts[DEFENDER]}; pool {view.pool}, "
        f"discard pile {view.discard}",
        reserve,
        f"Last dice: {'; '.join(_roll(r) for r in view.dice)}" if view.dice else None,
    )
