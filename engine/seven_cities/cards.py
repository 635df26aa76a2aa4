"""The action cards and the clock cards.

A card in the state is its short name (``burn``), which is also how moves name it.
The deck is filtered by the player-count mark on each card (RULINGS §4.2 [P]: the
counts per mark are our reconstruction, 67 cards in all).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    slug: str
    name: str
    points: int
    #: copies carrying each player-count mark: {2: 6} means six cards marked "2+"
    marks: dict[int, int]
    #: played out of turn only (Defend City, Sands of Time): no special action on your turn
    reaction_only: bool = False
    #: has no special action at all (Just Action Points)
    plain: bool = False


CARDS: tuple[Card, ...] = (
    Card("points2", "Just Action Points (2)", 2, {2: 6, 4: 1, 6: 1}, plain=True),
    Card("points3", "Just Action Points (3)", 3, {2: 6, 3: 2, 5: 1}, plain=True),
    Card("points4", "Just Action Points (4)", 4, {2: 4, 4: 1}, plain=True),
    Card("expedition", "Expedition", 2, {2: 6, 4: 1, 6: 1}),
    Card("burn", "Burn City", 2, {2: 3, 4: 1}),
    Card("takeover", "Hostile Takeover", 3, {2: 3, 3: 1, 6: 1}),
    Card("defend", "Defend City", 3, {2: 3, 3: 1, 6: 1}, reaction_only=True),
    Card("remote", "Remote Construction", 3, {2: 3, 4: 1}),
    Card("army", "Standing Army", 3, {2: 2, 5: 1}),
    Card("atlantis", "Build Atlantis", 3, {2: 2, 6: 1}),
    Card("sands", "Sands of Time", 2, {2: 2, 5: 1}, reaction_only=True),
    Card("metropolis", "Metropolis", 2, {2: 2, 5: 1}),
    Card("railway", "Build Railway", 2, {2: 1}),
    Card("wall", "Build Wall", 2, {2: 1}),
    Card("embassy", "Embassy", 2, {2: 1, 3: 1}),
    Card("enemy", "The Enemy of my Enemy", 2, {3: 2, 5: 1}),
)
BY_SLUG: dict[str, Card] = {c.slug: c for c in CARDS}
#: canonical order of cards in a hand and in move lists
RANK: dict[str, int] = {c.slug: i for i, c in enumerate(CARDS)}


def deck_for(players: int) -> tuple[str, ...]:
    """The unshuffled deck for ``players``: every card whose mark is at most that count."""
    return tuple(
        card.slug
        for card in CARDS
        for mark, copies in sorted(card.marks.items())
        if mark <= players
        for _ in range(copies)
    )


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """A hand in canonical order, so it reveals nothing about when each card came."""
    return tuple(sorted(cards, key=RANK.__getitem__))


def not_held(hand: tuple[str, ...], card: str) -> str | None:
    """Why ``card`` cannot leave ``hand``: it is no card, or not in the hand."""
    if card not in BY_SLUG:
        return f"'{card}' is not a card."
    if card not in hand:
        return f"You hold no {BY_SLUG[card].name} card."
    return None


def without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` less one copy of ``card``, still in canonical order."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def count(n: int) -> str:
    """``n`` cards, in words: "1 card", "3 cards"."""
    return f"{n} card" + ("" if n == 1 else "s")


def name(slug: str) -> str:
    return BY_SLUG[slug].name


#: RULINGS §4.2 [P]: six clock cards on a 12-hour dial, in minutes after 12:00
CLOCKS: tuple[int, ...] = (0, 120, 240, 360, 480, 600)
DIAL = 12 * 60


def clock_text(minutes: int) -> str:
    """``minutes`` after 12:00 on a 12-hour dial, as a clock face reads it: 0 -> 12:00."""
    hours, mins = divmod(minutes % DIAL, 60)
    return f"{hours or 12}:{mins:02d}"


def first_player(cards: tuple[int, ...], now: int) -> int:
    """The seat whose clock is nearest to ``now`` without being after it (wrapping the dial).

    This is the rule text's "nearest to the current time without being past" (§4.2).
    """
    return min(range(len(cards)), key=lambda s: ((now - cards[s]) % DIAL, s))
