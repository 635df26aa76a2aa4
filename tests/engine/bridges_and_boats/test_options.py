"""The designer's optional rules: each option changes what a move does, in a position where
it matters, and options that cannot be played together are refused naming both.

Each test plays the same move twice: in the rulebook's game and with the option, from
the same position, and checks what a player would see differ.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.options import BALANCED, RULEBOOK, Rules
from engine.bridges_and_boats.state import Boat
from engine.core import BadOptions
from tests.engine.bridges_and_boats.conftest import (
    A,
    D,
    airfield,
    bridge,
    dom,
    events_of,
    g,
    legal,
    play,
    position,
    public,
    refusal,
    rolling,
    spaces,
)


def ruled(state, **rules):
    """``state`` played by the rulebook changed by ``rules`` (``Rules`` fields)."""
    return replace(state, rules=replace(RULEBOOK, **rules))


def test_a_game_with_no_options_is_the_rulebooks_and_stores_no_rules():
    assert g.new(2, None, 4) == g.new(2, {"variant": "rulebook"}, 4)
    assert g.new(2, None, 4).rules == RULEBOOK
    assert '"rules"' not in g.to_json(g.new(2, None, 4))
    balanced = g.new(2, {"variant": "balanced"}, 4)
    assert '"rules"' in g.to_json(balanced) and g.from_json(g.to_json(balanced)) == balanced


def test_the_balanced_variant_is_written_out_and_any_option_given_as_well_wins():
    """A game opened with ``variant balanced`` stores every option the variant sets, so
    retuning it later changes no game already stored."""
    written = g.written_options({"variant": "Balanced"})
    assert written == {"variant": "balanced", **dict(BALANCED)}
    assert g.new(2, written, 1).rules == Rules(
        dominoes=9,
        attacker_income=int(dict(BALANCED)["attacker_income"]),
        defender_income=int(dict(BALANCED)["defender_income"]),
        price=int(dict(BALANCED)["domino_price"]),
        buying="look",
        match_bombing=True,
        speed=2,
    )
    # a game stored as the variant was written out before its domino price was retuned
    # keeps a domino at 2 coins
    before = {"variant": "balanced", **dict(BALANCED)}
    del before["domino_price"]
    assert g.new(2, before, 1).rules.price == 2
    given = g.new(2, g.written_options({"variant": "balanced", "bridge_speed": "1"}), 1).rules
    assert given.speed == 1 and given.defender_income == int(dict(BALANCED)["defender_income"])
    with pytest.raises(BadOptions, match="secret_pilots and match_bombing"):
        g.new(2, g.written_options({"variant": "balanced", "secret_pilots": "on"}), 1)


def test_a_balanced_game_stored_as_the_word_alone_keeps_what_the_word_meant():
    """Before the variant was written out, a game stored ``{"variant": "balanced"}`` and
    nothing else: it is played by the variant as it was then, not as retuned."""
    assert g.new(2, {"variant": "balanced"}, 1).rules == Rules(
        dominoes=9, attacker_income=7, defender_income=2, buying="look", match_bombing=True, speed=2
    )
    given = g.new(2, {"variant": "balanced", "bridge_speed": "1"}, 1).rules
    assert (given.defender_income, given.speed) == (2, 1)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            {"secret_pilots": "on", "match_bombing": "on"},
            "secret_pilots and match_bombing cannot be played together",
        ),
        ({"dominoes": "double-7"}, "dominoes is double-6 or double-9, not 'double-7'"),
        ({"buying": "later"}, "buying is reserve, declare or look, not 'later'"),
        ({"domino_price": "0"}, "domino_price must be 1 to 6 coins (default 2), not 0"),
        ({"bridge_speed": "5"}, "bridge_speed must be 1 to 4 spaces a turn (default 1), not 5"),
    ],
)
def test_options_it_cannot_play_are_refused_naming_them(options, said):
    with pytest.raises(BadOptions, match=re.escape(said)):
        g.new(2, options, 1)


def test_double_nine_dominoes_make_a_longer_pool_and_planes_that_cannot_hit():
    six, nine = g.new(2, None, 3), g.new(2, {"dominoes": "double-9"}, 3)
    assert len(six.pool) == 28 and len(nine.pool) == 55
    _, events = events_of(replace(six, pool=six.pool[-1:]), "buy")
    assert "the game ends at once" in public(events)
    _, events = events_of(replace(nine, pool=nine.pool[-2:]), "buy")
    assert "1 left in the pool" in public(events)
    # a pilot of 9-9 needs 18 on two dice: never
    state = ruled(airfield("9-9", rng=rolling(6, 6, 6, 6)), dominoes=9)
    state, events = events_of(play(state, "fly 9-9"), "bomb")
    assert "misses" in public(events) and state.bridge == bridge("111111")


def test_each_sides_income_is_its_own():
    state = position(coins=(0, 0))
    assert play(state, "end").coins == (0, 3)
    assert play(ruled(state, defender_income=2), "end").coins == (0, 2)
    defended = position(turn=D, coins=(0, 0))
    assert play(ruled(defended, attacker_income=5), "end").coins == (5, 0)
    assert g.new(2, {"attacker_income": "4"}, 1).coins == (4, 0), "the first income too"


def test_the_domino_price_is_what_a_purchase_costs():
    state = position(coins=(2, 0))
    assert play(state, "buy").coins[A] == 0
    assert "A domino costs 3 coins and you have 2 coins" in refusal(ruled(state, price=3), A, "buy")
    assert play(ruled(state, price=1), "buy", "buy").coins[A] == 0


def test_declaring_a_dominos_use_before_buying_builds_it_sight_unseen():
    state = ruled(position(coins=(6, 0)), buying="declare")
    assert "name the domino's use as you buy it, `buy bridge` or `buy boat`" in refusal(
        state, A, "buy"
    )
    assert legal(state)[:2] == ["buy bridge", "buy boat"]
    top = state.pool[0]
    after, events = events_of(state, "buy boat")
    assert after.boats == (Boat(1, top),) and after.hands == ((), ())
    assert "bought a domino for a boat" in public(events) and str(top) not in public(events)
    assert any(e.seat == A and str(top) in e.text for e in events), "the buyer sees it"
    assert "buy boat" in legal(after), "buying goes on: the build was part of the purchase"
    assert "just `buy`" in refusal(position(coins=(6, 0)), A, "buy boat")
    assert "Only the attacker builds" in refusal(
        ruled(position(turn=D), buying="declare"), D, "buy boat"
    )


def test_looking_first_puts_the_domino_to_use_before_anything_else():
    state = ruled(position(coins=(6, 0)), buying="look")
    bought = play(state, "buy")
    assert legal(bought) == ["bridge d1", "boat d1"]
    assert "Put the domino you have just bought to use first" in refusal(bought, A, "buy")
    assert "to use first" in refusal(bought, A, "end")
    built = play(bought, "boat d1")
    assert "buy" in legal(built), "then buying goes on"
    rulebook = play(position(coins=(6, 0)), "buy")
    assert "buy" in legal(rulebook) and "end" in legal(rulebook), "the rulebook keeps it"


def test_interchangeable_planes_and_cannons_change_their_use_in_step_three():
    state = airfield("3-5", cannons=(dom("2-4"),))
    assert "plane c1" not in legal(state)
    assert "not interchangeable" in refusal(state, D, "plane c1")
    state = ruled(state, interchangeable=True)
    assert {"plane c1", "cannon 3-5"} <= set(legal(state))
    turned, events = events_of(state, "plane c1")
    assert turned.planes == (dom("3-5"), dom("2-4")) and turned.cannons == ()
    assert "turned cannon c1 into plane 2-4" in public(events)
    assert "fly 2-4" in legal(turned)
    back = play(state, "cannon 3-5")
    assert back.planes == () and back.cannons == (dom("2-4"), dom("3-5"))
    assert "Step order" in refusal(play(state, "fly 3-5"), D, "plane c1")


def test_interchangeable_changes_one_use_a_turn_so_a_turn_always_ends():
    """Changes of use are free: were they unlimited, a turn could swap a plane and a
    cannon back and forth for ever (the computer players did, and never ended it)."""
    state = ruled(airfield("3-5", cannons=(dom("2-4"),)), interchangeable=True)
    turned = play(state, "plane c1")
    assert not any(move.startswith(("plane c", "cannon ")) for move in legal(turned))
    assert "one change of use a turn" in refusal(turned, D, "cannon 3-5")
    assert "cannon 2-4" in legal(play(turned, "end", "end")), "again the next turn"


def test_secret_pilots_fly_by_their_place_and_show_only_the_dice():
    state = ruled(airfield("3-5", "0-0", coins=(0, 5), rng=rolling(2, 6, 3, 4)), secret_pilots=True)
    assert {"fly p1", "fly p2"} <= set(legal(state)) and "fly 3-5" not in legal(state)
    assert "name a plane by its place" in refusal(state, D, "fly 3-5")
    assert g.view(state, A).planes == (None, None) and g.view(state, D).planes[0] == dom("3-5")
    after, events = events_of(play(state, "fly p1"), "bomb")
    text = public(events)
    assert "Plane p1 rolls 2 and 6 = 8 and hits" in text and "3-5" not in text
    assert after.bridge[3] is None, "it still bombs as its pilot's skill says"
    # building one: face down, named by its place
    built, events = events_of(
        ruled(position(turn=D, hands=((), (dom("4-6"),))), secret_pilots=True), "plane d1"
    )
    assert "built plane p1, face down" in public(events) and "4-6" not in public(events)


def test_a_secret_ghost_or_ace_shows_itself_when_it_flies():
    state = ruled(airfield("3-5", "0-1", coins=(0, 5), rng=rolling(5, 5, 3, 4)), secret_pilots=True)
    after, events = events_of(play(state, "fly p2"), "bomb")
    assert "Plane p2 is the ace, 0-1" in public(events)
    assert g.view(after, A).planes == (None, dom("0-1")), "the ace lies face up from now on"
    assert after.coins[D] == 3


def test_match_bombing_aims_at_a_section_sharing_a_number_with_no_roll_for_where():
    faces = (dom("1-1"), dom("2-2"), dom("3-6"), dom("4-4"), dom("5-5"), dom("0-6"))
    # 3-5 needs 8: 2 and 6 hit; the rulebook then rolls 3 and 4 = 7, section 4
    state = airfield("3-5", bridge=faces, spaces=spaces(5, 7), rng=rolling(2, 6, 3, 4))
    rulebook = play(state, "fly 3-5", "bomb")
    assert rulebook.bridge[3] is None and rulebook.bridge[2] is not None
    matched = ruled(state, match_bombing=True)
    assert [m for m in legal(matched) if m.startswith("fly")] == ["fly 3-5 s3", "fly 3-5 s5"]
    assert "only aim at a section sharing a number" in refusal(matched, D, "fly 3-5 s4")
    after, events = events_of(play(matched, "fly 3-5 s3"), "bomb")
    assert after.bridge[2] is None and after.bridge[3] is not None, "section 3, as named"
    assert after.spaces == spaces(7) and "strikes: section 3 is destroyed" in public(events)
    assert [r.purpose for r in after.dice] == ["to hit"], "no roll for where"
    assert g.view(matched, A).faces == faces, "the bridge lies face up"


def test_recycled_dominoes_go_back_into_the_pool():
    boat = Boat(1, dom("2-5"), 2, launched=True)
    state = position(turn=D, boats=(boat,), boats_built=1, pool=DOUBLE_SIX[:3])
    rulebook = play(state, "end")
    assert rulebook.discard == (dom("2-5"),) and len(rulebook.pool) == 3
    recycled = play(ruled(state, recycle=True), "end")
    assert recycled.discard == () and sorted(recycled.pool) == sorted((*DOUBLE_SIX[:3], dom("2-5")))
    assert recycled.crossed == 2


def test_a_faster_bridge_moves_each_soldier_further():
    state = position(bridge=bridge("111111"), spaces=spaces(1, 2, 11))
    assert play(state, "advance 3").spaces == spaces(2, 3, 12)
    fast = play(ruled(state, speed=2), "advance 3")
    assert fast.spaces == spaces(3, 4) and fast.crossed == 1, "11 steps off: crossed"
    gap = ruled(position(bridge=bridge("110111"), spaces=spaces(3)), speed=3)
    assert play(gap, "advance 1").spaces == spaces(4), "a missing section still stops him"


def test_a_faster_bridge_lets_as_many_soldiers_enter_as_they_move():
    state = position(bridge=bridge("111111"), coins=(5, 0))
    once = play(state, "enter")
    assert once.spaces == spaces(1) and "One soldier enters the bridge a turn" in refusal(
        once, A, "enter"
    )
    fast = ruled(state, speed=2)
    first, events = events_of(fast, "enter")
    assert first.spaces == spaces(2) and "as far as space 2" in public(events)
    twice = play(first, "enter")
    assert twice.spaces == spaces(1, 2) and twice.coins[A] == 3
    assert "2 soldiers enter the bridge a turn" in refusal(twice, A, "enter")
