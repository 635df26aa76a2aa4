"""What every board's words share: the opening lines and how lists are read aloud.

A description is lines, most important first, because alt text is cut to Discord's
limit from the end: the game and whose view it is, whose turn it is (or the result),
the scores and the last move come before the reading of the position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def listing(items: Iterable[str], empty: str = "none") -> str:
    """``a, b and c`` as a sentence says it; ``empty`` when there is nothing."""
    words = list(items)
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, word: str, words: str = "") -> str:
    """``1 soldier``, ``3 soldiers`` (``words`` where adding an s is wrong)."""
    return f"{count} {word}" if count == 1 else f"{count} {words or word + 's'}"


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def heading(game: str, seat: int | None, names: Sequence[str]) -> str:
    """Whose view the words describe: a private board says so, as a public one must not."""
    if seat is None:
        return f"{game} board."
    return f"{game} board as {names[seat]} sees it (only they see this)."


def scores(
    names: Sequence[str], values: Sequence[int], notes: Sequence[str] = (), label: str = "Scores"
) -> str:
    """``Scores: Ada 3, Bob 5 (resigned).``; ``notes[seat]``, where given, follows a name,
    and ``label`` says what the game counts where "Scores" would not."""
    parts = []
    for seat, (name, value) in enumerate(zip(names, values, strict=True)):
        note = notes[seat] if seat < len(notes) else ""
        parts.append(f"{name} {value}" + (f" ({note})" if note else ""))
    return f"{label}: {', '.join(parts)}."


def sentence(text: str) -> str:
    """``text`` ending in a full stop, so a screen reader pauses between lines."""
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else text + "."


def lines(*parts: str | None) -> str:
    """The description: each non-empty part a sentence on its own line."""
    return "\n".join(sentence(p) for p in parts if p)
