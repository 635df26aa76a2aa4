"""The move picker walks legal moves token by token and always ends on a legal move."""

from __future__ import annotations

import random

import discord
import pytest

import engine
from bot.service.picker import FINISH, StalePath, page, walk

SKY = engine.get("skybridge")


def test_four_player_skybridge_skips_the_colour_and_offers_pieces_then_squares():
    state = SKY.new(4, None, 1)
    moves = [SKY.format(a) for a in SKY.legal(state, state.turn)]
    first = walk(moves, [])
    colour = first.prefix[0]
    assert first.prefix == (colour,), "one colour only: no step for it"
    assert first.options == ("tall", "cube")
    squares = walk(moves, [1])
    assert squares.prefix == (colour, "cube")
    assert squares.options == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    assert walk(moves, [1, 4]).move == f"{colour} cube b2"


def test_two_player_skybridge_asks_for_the_colour_first():
    state = SKY.new(2, None, 1)
    moves = [SKY.format(a) for a in SKY.legal(state, state.turn)]
    assert len(walk(moves, []).options) == 2


def test_every_path_ends_on_a_legal_move_and_every_legal_move_has_a_path():
    rng = random.Random(4)
    for players in (2, 3, 4):
        state = SKY.new(players, None, players)
        while not SKY.is_over(state):
            seat = state.turn
            moves = [SKY.format(a) for a in SKY.legal(state, seat)]
            reached = set()
            frontier = [[]]
            while frontier:
                path = frontier.pop()
                step = walk(moves, path)
                if step.move is not None:
                    reached.add(step.move)
                else:
                    frontier += [[*path, i] for i in range(len(step.options))]
            assert reached == set(moves)
            state = SKY.apply(state, seat, SKY.parse(rng.choice(moves))).state


def test_a_move_that_is_also_the_start_of_longer_moves_can_be_finished():
    moves = ["buy", "buy d1", "buy d2", "end"]
    assert walk(moves, []).options == ("buy", "end")
    assert walk(moves, [0]).options == (FINISH, "d1", "d2")
    assert walk(moves, [0, 0]).move == "buy"
    assert walk(moves, [0, 2]).move == "buy d2"
    assert walk(moves, [1]).move == "end"


def test_a_path_from_another_position_is_stale():
    with pytest.raises(StalePath):
        walk(["red tall a1", "red tall b1"], [5])
    with pytest.raises(StalePath):
        walk(["red tall a1"], [0])  # already complete: nothing to choose
    with pytest.raises(StalePath):
        walk([], [])


def test_pages_cover_every_option_once():
    options = [f"o{i}" for i in range(47)]
    seen = []
    number = 0
    while True:
        shown, before, after = page(options, number, 20)
        assert before == (number > 0)
        seen += list(shown)
        if not after:
            break
        number += 1
    assert seen == list(range(47))
    assert number == 2


def test_the_discord_picker_lists_many_choices_in_a_paged_select_within_discords_limits():
    """47 squares for one piece: a select of 25 a page, Previous / Next / Back, ids under 100;
    a choice's value is its index, so nothing of the move rides in the component."""
    from bot.discord.picking import SELECT_PAGE, picker_message

    squares = [f"s{i}" for i in range(47)]
    moves = [f"cube {s}" for s in squares] + ["roof a1"]
    seen = []
    for number in (0, 1):
        content, choices = picker_message(7, 3, moves, (0,), number)
        items = [item.item for item in choices]  # the components inside DynamicItems
        assert all(len(item.custom_id) <= 100 for item in items)
        (menu,) = [item for item in items if isinstance(item, discord.ui.Select)]
        assert len(menu.options) <= 25
        assert all(o.description == "plays this move" for o in menu.options)
        labels = [item.label for item in items if isinstance(item, discord.ui.Button)]
        assert "↩ Back" in labels
        assert labels.count("Next ▶") == (number == 0)
        assert labels.count("◀ Previous") == (number == 1)
        assert f"page {number + 1} of 2" in content and content.startswith("**cube**")
        seen += [(o.label, int(o.value)) for o in menu.options]
    assert seen == [(s, i) for i, s in enumerate(squares)]
    assert SELECT_PAGE == 25


def test_the_discord_picker_offers_a_few_choices_as_buttons():
    """Up to ten choices are one tap each: green when the tap plays, grey when it leads on."""
    from bot.discord.picking import picker_message

    moves = ["cube a1", "cube a2", "roof a1"]
    content, choices = picker_message(7, 3, moves, (), 0)
    buttons = [item.item for item in choices]
    assert all(isinstance(b, discord.ui.Button) for b in buttons)
    assert [(b.label, b.style) for b in buttons] == [
        ("cube", discord.ButtonStyle.secondary),
        ("roof a1", discord.ButtonStyle.success),
    ]
    assert content == "Your move — choose:"


def test_the_discord_picker_offers_a_lone_legal_move_as_one_button():
    from bot.discord.picking import picker_message

    content, choices = picker_message(7, 3, ["red roof c3"], (), 0)
    assert content == "Your only move:"
    (button,) = [item.item for item in choices]
    assert button.label == "red roof c3"
    assert button.custom_id == "bk:pick:7:3:"


def test_typed_text_finds_legal_moves_whatever_its_case():
    """A Bridge Wars player typing `i3` or `L4 NE` sees the placements written `I3 h f6`."""
    from bot.service.picker import suggest

    bw = engine.get("bridge-wars")
    state = bw.new(2, None, 3)
    while True:  # past the choice of colours and corners, to the first block
        seat = bw.to_play(state)[0]
        moves = [bw.format(a) for a in bw.legal(state, seat)]
        if any(m[0].isupper() for m in moves):
            break
        state = bw.apply(state, seat, bw.legal(state, seat)[0]).state
    block = moves[0].split()[0]
    found = suggest(moves, f"  {block.lower()} ")
    assert found and found[0].startswith(block + " "), "typed in lower case, found as written"
    assert set(found) <= set(moves) and len(found) == len(set(found))
    assert all(block in m for m in found)
    assert suggest(moves, "no such move") == []
    assert suggest(moves, "") == moves
