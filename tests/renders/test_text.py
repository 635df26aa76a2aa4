"""Every board in words: from whole random games of every game at every seat count, the
description names the game, whose turn it is (or the result), every score and the last
move, then reads the position; and the words differ for a seat only where its view does.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pytest

import engine
from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.state import ATTACKER, DEFENDER
from engine.seven_cities.cards import BY_SLUG
from renders import LOOKS
from renders.seven_bridges.sheet import ITEM_LABELS
from tests.engine.bridges_and_boats.conftest import random_game
from tests.engine.test_contract import play_random
from tests.renders.test_bridges_and_boats import swap_hidden

NAMES = ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay")
KEYS = sorted(engine.GAMES)


def describe(key: str, view: object, names: tuple[str, ...]) -> str:
    return LOOKS[key].describe(view, names)


@cache
def positions(key: str) -> tuple[tuple[int, tuple, object], ...]:
    """(players, moves so far, state): the start, a third, two thirds and the end of a
    random game at every seat count, two seeds each."""
    g = engine.get(key)
    found = []
    for players in range(g.info.min_players, g.info.max_players + 1):
        for seed in (1, 2):
            _, log = play_random(g, players, seed)
            for k in sorted({0, len(log) // 3, 2 * len(log) // 3, len(log)}):
                found.append((players, tuple(log[:k]), g.replay(players, None, seed, log[:k])))
    return tuple(found)


def views(key: str):
    """Every position's text for the spectator and for each seat: (state, log, seat, lines)."""
    g = engine.get(key)
    for players, log, state in positions(key):
        names = NAMES[:players]
        for seat in (None, *range(players)):
            text = describe(key, g.view(state, seat), names)
            yield state, log, seat, text.split("\n")


@pytest.mark.parametrize("key", KEYS)
def test_the_first_lines_say_the_game_the_turn_the_scores_and_the_last_move(key):
    g = engine.get(key)
    seen_over = 0
    for state, log, seat, lines in views(key):
        heading, turn, scores, last = lines[:4]
        assert heading.startswith(g.info.name), heading
        if seat is None:
            assert "sees it" not in heading
        else:
            assert f"as {NAMES[seat]} sees it (only they see this)" in heading
        if g.is_over(state):
            seen_over += 1
            assert turn.startswith("Game over"), turn
        else:
            for waiting in g.to_play(state):
                assert NAMES[waiting] in turn, (turn, waiting)
        for s, score in enumerate(g.result(state).scores):
            assert re.search(rf"\b{NAMES[s]} {score}\b", scores), (scores, s, score)
        if log:
            assert last.startswith("Last move:") and log[-1][1] in last, (last, log[-1])
        else:
            assert last.startswith(("No move yet", "New game")), last
        assert all(line.endswith((".", ":", "!", "?")) for line in lines), lines
    assert seen_over, "finished games were described"


def test_skybridge_reads_every_tower_from_the_ground_up():
    g = engine.get("skybridge")
    for state, _, seat, lines in views("skybridge"):
        view = g.view(state, seat)
        text = "\n".join(lines)
        for sq, stack in enumerate(view.board):
            name = "abc"[sq % 3] + str(sq // 3 + 1)
            if stack:
                tower = next(line for line in lines if line.startswith(f"Tower {name},"))
                assert f"{view.heights[sq]} high" in tower
                roofed = view.roof_owner[sq] is not None
                assert ("roofed by" in tower) == roofed, tower
            else:
                assert re.search(rf"Empty squares: .*\b{name}\b", text)


def test_bridge_wars_counts_every_topped_rod_once_by_region():
    g = engine.get("bridge-wars")
    for state, _, seat, lines in views("bridge-wars"):
        view = g.view(state, seat)
        counted = sum(
            int(n)
            for line in lines
            if ": rods topped by " in line
            for n in re.findall(r"(?:red|blue|yellow|green) (\d+)", line)
        )
        assert counted == sum(1 for owner in view.owner if owner >= 0)


def test_bridges_and_boats_reads_each_section_and_boat():
    g = engine.get("bridges-and-boats")
    for state, _, seat, lines in views("bridges-and-boats"):
        view = g.view(state, seat)
        text = "\n".join(lines)
        for number, status in enumerate(view.sections, start=1):
            word = {"built": "standing", "destroyed": "bombed out", "missing": "not built"}
            assert f"section {number} {word[status]}" in text
        for boat in view.boats:
            assert re.search(rf"\bboat {boat.number}\b", text)
        assert f"pool {view.pool}," in text


def test_seven_cities_names_every_city_and_the_public_counts():
    g = engine.get("seven-cities")
    for state, _, seat, lines in views("seven-cities"):
        view = g.view(state, seat)
        text = "\n".join(lines)
        names = {t.tile: t.name for t in view.tiles}
        for city in view.cities:
            assert re.search(rf"\b{names[city.tile]}\b", text), names[city.tile]
        assert f"Draw pile {view.deck}," in text
        for s in range(view.players):
            cards = "1 card" if view.hand_counts[s] == 1 else f"{view.hand_counts[s]} cards"
            assert f"{cards} in hand" in lines[-view.players + s]


def test_seven_bridges_gives_the_dice_and_trackers_and_a_player_their_own_map():
    g = engine.get("seven-bridges")
    for state, _, seat, lines in views("seven-bridges"):
        view = g.view(state, seat)
        text = "\n".join(lines)
        assert text.count("Dice, ") == 1
        assert sum(line.startswith("Your ") for line in lines) == (0 if seat is None else 2)
        if seat is not None:
            assert f"Your score {view.seats[seat].card.total}, " in text
        for number in range(1, 7):
            die = view.dice[number - 1]
            if die[1]:
                assert re.search(r"(cross|tee|corner|straight|half|horse)" + str(die[0]), text)


SCORE_LINE = re.compile(r"^(Your|\w+'s) score (\d+), ([^:]+): (.*)\.$")
ITEM = re.compile(r"^([A-Z][a-z]+(?: [a-z]+)?) (\d+)(?: \((.*)\))?$")


def score_items(line: str) -> tuple[str, int, str, list[tuple[str, int, bool]]]:
    """A score line read back: whose, the total, which items count, and each item's
    label, points and whether it is marked counted."""
    whose, total, rule, listed = SCORE_LINE.match(line).groups()
    items = []
    for part in re.split(r", (?=[A-Z])", listed):
        label, points, detail = ITEM.match(part).groups()
        items.append((label, int(points), (detail or "").endswith("counted")))
    return whose, int(total), rule, items


def test_seven_bridges_tells_every_players_seven_score_items_as_their_sheet_does():
    """The 7-item breakdown each score sheet draws, in words: for every player in the
    public words (nothing is hidden), the viewer's own with their sheet, Euler's beside
    it in a solo game; each item's points, the counted ones marked, adding up to the total."""
    g = engine.get("seven-bridges")
    for state, _, seat, lines in views("seven-bridges"):
        view = g.view(state, seat)
        scores = [score_items(line) for line in lines if SCORE_LINE.match(line)]
        people = {whose: rest for whose, *rest in scores}
        assert len(scores) == view.players + view.solo, lines
        for s, player in enumerate(view.seats):
            whose = "Your" if s == seat else f"{NAMES[s]}'s"
            total, rule, items = people[whose]
            card = player.card
            assert total == card.total
            assert [(label, points) for label, points, _ in items] == list(
                zip(ITEM_LABELS, card.items, strict=True)
            )
            assert [i for i, (_, _, counted) in enumerate(items) if counted] == list(card.counted)
            assert sum(p for _, p, counted in items if counted) == total
            best = f"best {card.crossed} of 7 count" if card.crossed else "cross a bridge to count"
            assert rule == best, "the basic game: as many items as bridges crossed"
        if view.solo:
            total, rule, items = people["Euler's"]
            assert total == view.euler_total and rule == "items 2 to 7 count"
            assert [p for _, p, _ in items] == list(view.euler_items)


# -- nothing hidden is told --------------------------------------------------------------

#: card names the public words say for their own reasons: a stage ("placing the
#: Expedition's free city"), a reaction window ("Defend City or pass"), a city's size
NAMED_IN_PUBLIC = {"Expedition", "Defend City", "Sands of Time", "Metropolis"}


def test_seven_cities_words_never_name_a_card_the_view_hides():
    """Against the state's secrets: no card in another seat's hand or in the draw pile is
    named, unless the viewer holds one too; the public words name no card at all."""
    checked = 0
    for state, _, seat, lines in views("seven-cities"):
        text = "\n".join(lines)
        own = set() if seat is None else {BY_SLUG[c].name for c in state.hands[seat]}
        others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        for slug in (*others, *state.deck):
            card = BY_SLUG[slug]
            if card.plain or card.name in own or card.name in NAMED_IN_PUBLIC:
                continue
            assert card.name not in text, (seat, card.name)
            checked += 1
        if seat is None:
            assert "Your hand" not in text and "only you" not in text
            assert "Action Points" not in text and not re.search(r"\(\d AP\)", text)
        elif state.hands[seat]:
            assert "Your hand (only you see it): " in text
    assert checked > 100


def test_seven_cities_words_are_the_same_whatever_the_hidden_cards_are():
    """The hands the viewer may not see and the draw pile dealt again, counts kept: the
    words do not change by a character. The viewer's own hand does show."""
    g = engine.get("seven-cities")
    own_differs = 0
    for players, _, state in positions("seven-cities"):
        for seat in (None, *range(players)):
            hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h]
            dealt = list(reversed([*hidden, *state.deck]))
            hands = []
            for s, hand in enumerate(state.hands):
                if s == seat:
                    hands.append(hand)
                else:
                    hands.append(tuple(dealt[: len(hand)]))
                    del dealt[: len(hand)]
            other = replace(state, hands=tuple(hands), deck=tuple(dealt))
            words = describe("seven-cities", g.view(state, seat), NAMES[:players])
            assert describe("seven-cities", g.view(other, seat), NAMES[:players]) == words
        if state.hands[0] and players > 1:
            swapped = replace(state, hands=(state.hands[1], state.hands[0], *state.hands[2:]))
            mine = describe("seven-cities", g.view(state, 0), NAMES[:players])
            own_differs += mine != describe("seven-cities", g.view(swapped, 0), NAMES[:players])
    assert own_differs, "a seat's own words tell its own hand"


def _dominoes(text: str) -> set[str]:
    return set(re.findall(r"(?<![\d-])[0-6]-[0-6](?![\d-])", text))


def test_bridges_and_boats_words_never_tell_a_face_down_domino():
    """Against the state's secrets: a domino face down to the viewer (the other side's
    reserve, a boat nobody boarded, the pool, the bridge's sections, the cannons, the
    discard pile) is never written, unless the view shows it face up somewhere."""
    g = engine.get("bridges-and-boats")
    checked = 0
    for seed in range(3):
        for n, (_, _, _, state, _) in enumerate(random_game(seed)):
            if n % 7:
                continue
            for seat in (None, ATTACKER, DEFENDER):
                view = g.view(state, seat)
                text = describe("bridges-and-boats", view, NAMES[:2])
                # face up by the rules, from the state: never from the view under test
                mine = () if seat is None else state.hands[seat]
                shown = {str(d) for d in (*state.planes, *state.declared, *mine)}
                shown |= {str(b.domino) for b in state.boats if b.soldiers or seat == ATTACKER}
                shown |= _dominoes(" ".join(r.who for r in state.dice))
                shown |= _dominoes(state.last[1] if state.last else "")
                if state.run is not None:
                    shown.add(str(state.run.plane))
                secret = {
                    *(d for s, h in enumerate(state.hands) if s != seat for d in h),
                    *(b.domino for b in state.boats if not b.soldiers and seat != ATTACKER),
                    *state.pool,
                    *(d for d in state.bridge if d is not None),
                    *state.cannons,
                    *state.discard,
                }
                for domino in {str(d) for d in secret} - shown:
                    assert domino not in _dominoes(text), (seat, domino, text)
                    checked += 1
    assert checked > 1000


def test_bridges_and_boats_words_are_the_same_whatever_the_face_down_dominoes_are():
    """Every domino no one sees swapped for another: the public words do not change; a
    seat's own words tell its own reserve."""
    g = engine.get("bridges-and-boats")
    own_differs = 0
    for seed in range(3):
        for n, (_, _, _, state, _) in enumerate(random_game(seed)):
            if n % 5:
                continue
            seen = set(state.planes) | {b.domino for b in state.boats if b.soldiers}
            swapped = swap_hidden(state, set(DOUBLE_SIX) - seen)
            assert g.view(swapped, None) == g.view(state, None)
            words = describe("bridges-and-boats", g.view(state, None), NAMES[:2])
            assert describe("bridges-and-boats", g.view(swapped, None), NAMES[:2]) == words
            if state.hands[ATTACKER]:
                mine = describe("bridges-and-boats", g.view(state, ATTACKER), NAMES[:2])
                theirs = describe("bridges-and-boats", g.view(swapped, ATTACKER), NAMES[:2])
                own_differs += mine != theirs
    assert own_differs, "a seat's own words tell its own dominoes"
