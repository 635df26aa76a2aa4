"""The notation: every way of writing a move reads back as one canonical text."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove, Resign
from engine.skybridge.actions import Place
from tests.engine.skybridge.conftest import (
    BLUE,
    RED,
    g,
    sq,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("red tall b2", "red tall b2"),
        ("rt b2", "red tall b2"),
        ("RT B2", "red tall b2"),
        ("  Red   TALL   b2 ", "red tall b2"),
        ("blue bridge a1-a2", "blue bridge a1-a2"),
        ("blue bridge a2-a1", "blue bridge a1-a2"),
        ("blue bridge a2 a1", "blue bridge a1-a2"),
        ("bb a2-a1", "blue bridge a1-a2"),
        ("yc c3", "yellow cube c3"),
        ("green roof a3", "green roof a3"),
        ("gr a3", "green roof a3"),
        ("resign", "resign"),
    ],
)
def test_parse_and_format(text, canonical):
    action = g.parse(text)
    assert g.format(action) == canonical
    assert g.parse(canonical) == action


def test_compact_notation_is_the_same_action():
    assert g.parse("rt b2") == g.parse("red tall b2") == Place(RED, "tall", (sq("b2"),))
    assert g.parse("bb a1a2") == Place(BLUE, "bridge", (sq("a1"), sq("a2")))
    assert g.parse("resign") == Resign()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello", "can't read"),
        ("", "can't read"),
        ("red tall d4", "can't read"),
        ("purple tall a1", "not a colour"),
        ("red spire a1", "not a piece"),
        ("blue bridge a1", "bridge joins two squares"),
        ("red roof a1-a2", "one square"),
        ("red tall a1 a2", "one square"),
        ("blue bridge a1-a1", "two different towers"),
    ],
)
def test_unreadable_moves_raise_illegal_move_with_a_clear_message(text, words):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert words in caught.value.reason
