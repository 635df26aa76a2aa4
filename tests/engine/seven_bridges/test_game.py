"""Seven Bridges game flow (RULINGS §1.3, §1.7): rounds, drafting order, set-up, bonuses,
re-roll and distribute, the advanced rule, whole games and replays.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

from bot.service import Table
from bot.tools.selfplay import play_random
from engine.core import BadOptions, IllegalMove, Rng
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import RESERVED, USED, Bonuses
from engine.seven_bridges.flow import roll_start
from engine.seven_bridges.game import SevenBridges
from engine.seven_bridges.lines import SQUARE_ARM, bits
from engine.seven_bridges.map import CITY, format_square, parse_square
from engine.seven_bridges.notation import Distribute, Reroll
from engine.seven_bridges.state import State, owner, roller

g = SevenBridges()


def sq(name: str) -> int:
    return parse_square(name)


def arms(*specs: str) -> int:
    out = 0
    for spec in specs:
        where, dirs = spec.split(":")
        for ch in dirs:
            out |= 1 << SQUARE_ARM[sq(where)]["NESW".index(ch)]
    return out


def with_seat(state: State, seat: int, **changes) -> State:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def play(state: State, seat: int, text: str) -> State:
    return g.apply(state, seat, g.parse(text)).state


def refusal(state: State, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    return caught.value.reason


def random_game(players: int, seed: int, options=None):
    """A whole game of random legal moves: (final state, log, every event)."""
    rnd = random.Random(seed)
    state = g.new(players, options, seed)
    log, events = [], []
    while not g.is_over(state):
        seat = rnd.choice(g.to_play(state))
        action = rnd.choice(g.legal(state, seat))
        step = g.apply(state, seat, action)
        state, evs = step.state, step.events
        log.append((seat, g.format(action)))
        events += evs
    return state, log, events


# -- options and set-up -------------------------------------------------------------------------


def test_options_start_square_and_advanced():
    state = g.new(2, {"start": "ii-2-3", "advanced": "on"}, 5)
    assert format_square(state.start) == "ii-2-3" and state.advanced
    assert state.seats[0].drawn == arms("r2c9:NW") == state.seats[1].drawn
    with pytest.raises(BadOptions, match="water"):
        g.new(2, {"start": "r7c1"}, 5)
    with pytest.raises(BadOptions, match="not a square"):
        g.new(2, {"start": "z9"}, 5)
    with pytest.raises(BadOptions, match="no option"):
        g.new(2, {"colour": "red"}, 5)
    with pytest.raises(BadOptions):
        g.new(2, {"advanced": "maybe"}, 5)
    with pytest.raises(BadOptions):
        g.new(7, None, 5)


def test_rolled_start_quadrant_row_column_and_a_neighbour_for_an_empty_square():
    blanks_seen = 0
    for seed in range(400):
        rng = Rng.from_seed(seed)
        # the same three rolls by hand: quadrant (re-roll 5 and 6), row, column
        while True:
            q, rng = rng.below(6)
            if q < 4:
                break
        r, rng = rng.below(6)
        c, rng = rng.below(6)
        rolled = (6 * (q // 2) + r) * 12 + 6 * (q % 2) + c
        square, _ = roll_start(Rng.from_seed(seed))
        assert CITY.arms[square]
        if CITY.arms[rolled]:
            assert square == rolled
        else:
            blanks_seen += 1
            assert abs(square - rolled) in (1, 12)
    assert blanks_seen > 10


@pytest.mark.parametrize(
    ("seed", "square"),
    [
        # dice 2, 1, 2: quadrant ii, row 1, column 2 = r1c8, a street square
        (0, "ii-1-2"),
        # 6, 6 re-rolled, then 5 re-rolled; 2, 2, 3: ii-2-3 = r2c9, the rulebook's example
        (48, "ii-2-3"),
        # 5, 5 re-rolled; 4, 1, 2: iv-1-2 = r7c8, the southern river; north of it r6c8
        (4, "ii-6-2"),
        # 6 re-rolled; 2, 1, 6: ii-1-6 = r1c12, water in the corner; north and east are off
        # the map, south (r2c12) is water too, so west: r1c11
        (1, "ii-1-5"),
    ],
)
def test_a_rolled_start_square_by_the_dice_of_a_fixed_seed(seed, square):
    state = g.new(2, None, seed)
    assert format_square(state.start) == square
    assert state.seats[0].drawn == sum(1 << a for a in SQUARE_ARM[sq(square)] if a >= 0)


def test_a_landmark_in_the_start_square_gives_everyone_a_bonus_before_the_first_roll():
    state = g.new(3, {"start": "r2c4"}, 2)  # landmark A's letter is on r2c4's east street
    assert state.setup and state.dice == (0,) * 6
    assert g.to_play(state) == (0, 1, 2)
    state = play(state, 1, "reserve footpaths")
    assert g.to_play(state) == (0, 2) and state.dice == (0,) * 6
    state = play(state, 0, "reserve reroll")
    state = play(state, 2, "bonus half r2c3 e")
    assert not state.setup and state.rolling and state.dice == (0,) * 6
    assert g.to_play(state) == (roller(state),)
    assert g.legal(state, roller(state)) == [g.parse("roll")]
    assert "Roll the dice first" in refusal(state, roller(state), "reroll")
    state = play(state, roller(state), "roll")
    assert not state.rolling and all(state.dice)
    assert g.to_play(state) == (roller(state),), "the roller picks first"
    assert "already rolled" in refusal(state, roller(state), "roll")


def test_a_footpath_in_the_start_square_gives_everyone_footpaths_used():
    state = g.new(2, {"start": "i-2-6"}, 3)  # r2c6: a street east, footpaths north and west
    for seat in state.seats:
        assert seat.bonuses.footpaths == USED
        assert seat.bonuses.drafting_score() == 7
        assert seat.drawn == arms("r2c6:NEW")


# -- rounds, turns and the drafting order ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "order"),
    [
        (2, [0, 1, 0, 1, 0, 1]),
        (3, [0, 1, 2, 0, 1, 2]),
        (4, [0, 1, 2, 3, 0, 1]),  # roller picks 1 and 5, left neighbour 2 and 6
        (5, [0, 1, 2, 3, 4, 0]),  # roller picks 1 and 6
        (6, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_picks_go_clockwise_from_the_roller(players, order):
    state = g.new(players, {"start": "ii-2-3"}, 9)
    r = roller(state)
    assert [owner(state, k) for k in range(6)] == [(r + k) % players for k in order]
    assert g.view(state, None).pick_owners == tuple((r + k) % players for k in order)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_five_rounds_six_dice_each_per_round_and_the_marker_passes_clockwise(players):
    rnd = random.Random(players)
    state = g.new(players, None, 21 + players)
    first = state.first
    drafted: Counter[tuple[int, str]] = Counter()
    rolls = []
    while not g.is_over(state):
        seat = rnd.choice(g.to_play(state))
        round_before = state.round
        step = g.apply(state, seat, rnd.choice(g.legal(state, seat)))
        state, events = step.state, step.events
        for e in events:
            if e.kind in ("draw", "waste"):
                drafted[(round_before, e.text.split()[0])] += 1
            if e.kind == "roll":
                rolls.append(e.text)
    assert all(drafted[(r, f"{{seat{s}}}")] == 6 for r in range(5) for s in range(players))
    seen = set()
    for text in rolls:  # "Round 2, turn 3: {seat4} rolls ..."
        rnd_no, turn_no = (int(w.strip(",:")) for w in text.split()[1:4:2])
        assert f"{{seat{(first + rnd_no - 1 + turn_no - 1) % players}}} rolls" in text
        seen.add((rnd_no, turn_no))
    # the first roll may happen inside new(), when no landmark bonus comes first
    everything = {(r, t) for r in range(1, 6) for t in range(1, players + 1)}
    assert everything - seen <= {(1, 1)}


def test_solo_euler_is_player_two_rolling_first_in_rounds_two_and_four():
    assert roller(g.new(1, {"start": "ii-2-3"}, 4)) == 0
    state, _, events = random_game(1, 4)
    rolls = [e.text for e in events if e.kind == "roll"]
    starts = {text.split(":")[0]: text.split(": ")[1].split()[0] for text in rolls}
    assert len(starts) >= 9
    assert starts["Round 2, turn 1"] == "Euler"
    assert starts["Round 3, turn 1"] == "{seat0}"
    assert starts["Round 4, turn 1"] == "Euler"
    assert sum(1 for e in events if e.kind == "euler") == 30


def test_euler_drafts_the_lowest_value_and_prefers_the_three_horse_type():
    dice = (2, 1, 3, 1, 6, 5)  # dice 0-2 have a 2-horse, 3-5 a 3-horse
    assert euler.pick(dice, (0, 1, 2, 3, 4, 5)) == 3  # the cross on the 3-horse die
    assert euler.pick(dice, (0, 1, 2, 4, 5)) == 1
    assert euler.pick(dice, (0, 2, 4, 5)) == 0
    assert euler.pick((0, 0, 6, 0, 0, 6), (2, 5)) == 5


# -- bonuses ---------------------------------------------------------------------------------


def bonus_position(players: int = 2) -> State:
    """Seat 0 to choose a landmark bonus, drawing from the start square ii-1-1 (r1c7)."""
    state = g.new(players, {"start": "ii-1-1"}, 4)
    state = replace(state, first=0)
    return with_seat(state, 0, pending=1)


def test_a_visit_offers_unused_immediate_shapes_and_reserves_before_anything_else():
    state = bonus_position()
    texts = [g.format(a) for a in g.legal(state, 0)]
    assert "reserve reroll" in texts and "reserve footpaths" in texts
    assert any(t.startswith("bonus horse") for t in texts)
    assert "first choose its bonus" in refusal(state, 0, "tee2 ii-1-1 sw")
    calm = with_seat(state, 0, pending=0)
    assert "Bonuses come from landmarks" in refusal(calm, 0, "reserve reroll")


def test_bonus_chain_a_bonus_that_passes_a_letter_gives_another_choice():
    state = bonus_position()
    step = g.apply(state, 0, g.parse("bonus straight r1c6 ew"))
    after, events = step.state, step.events
    assert "C" in [e.text.split()[-1].rstrip(".") for e in events if e.kind == "landmark"]
    assert after.seats[0].pending == 1  # one used, one gained
    assert after.seats[0].bonuses.immediate == 1 << 4
    assert g.to_play(after) == (0,)
    assert "already used" in refusal(after, 0, "bonus straight r1c5 ew")
    after = play(after, 0, "reserve reroll")
    assert after.seats[0].pending == 0


def test_reserved_bonuses_are_taken_top_to_bottom_and_footpaths_once():
    state = bonus_position()
    for n in (1, 2, 3):
        state = with_seat(play(state, 0, "reserve reroll"), 0, pending=1)
        assert state.seats[0].bonuses.reserved == n
    assert "all three" in refusal(state, 0, "reserve reroll")
    state = with_seat(play(state, 0, "reserve footpaths"), 0, pending=1)
    assert state.seats[0].bonuses.footpaths == RESERVED
    assert "already" in refusal(state, 0, "reserve footpaths")


def test_a_visit_with_nothing_left_to_take_gives_nothing():
    spent = Bonuses(immediate=0b1111110, reserved=3, spent=3, footpaths=USED)
    state = g.new(2, {"start": "ii-1-1"}, 4)
    state = replace(state, first=0, dice=(4, 5, 5, 5, 5, 5), rolling=False)
    state = with_seat(state, 0, bonuses=spent)
    step = g.apply(state, 0, g.parse("straight2 r1c6 ew"))  # passes C's letter
    after, events = step.state, step.events
    assert after.seats[0].pending == 0
    assert any("no landmark bonus left" in e.text for e in events)
    assert g.to_play(after) == (1,)


# -- re-roll and distribute -----------------------------------------------------------------------


def turn_start(players: int, reserved: tuple[int, ...]) -> State:
    state = g.new(players, {"start": "ii-2-3"}, 11)
    state = replace(state, first=0, dice=(1, 2, 3, 4, 5, 6), slot=0, turn=0, round=0)
    state = replace(state, rolling=False)
    for seat, n in enumerate(reserved):
        state = with_seat(state, seat, bonuses=Bonuses(reserved=n))
    return state


def next_faces(rng: Rng, count: int) -> tuple[int, ...]:
    """The next ``count`` die faces the game's generator gives: 1 + a draw below 6."""
    faces = []
    for _ in range(count):
        v, rng = rng.below(6)
        faces.append(v + 1)
    return tuple(faces)


def test_reroll_rerolls_every_available_die_once_per_turn():
    # dice 0 and 2 were drafted by the first two picks; seat 0 has the third pick
    state = replace(turn_start(2, (2, 0)), dice=(0, 2, 0, 4, 5, 6), slot=2)
    assert g.to_play(state) == (0,)
    step = g.apply(state, 0, Reroll())
    after, events = step.state, step.events
    # the four dice still out take the generator's next four faces, in die order
    new = next_faces(state.rng, 4)
    assert after.dice == (0, new[0], 0, new[1], new[2], new[3])
    assert after.dice != state.dice
    assert after.seats[0].bonuses.spent == 1
    assert 0 in after.rerolled and g.to_play(after) == (0,)
    assert any("re-roll #1" in e.text for e in events)
    assert "one re-roll/distribute bonus per turn" in refusal(after, 0, "reroll")
    nothing = turn_start(2, (0, 0))
    assert "no reserved" in refusal(nothing, 0, "reroll")


def test_distribute_hands_out_the_dice_and_recipients_draw_them_in_any_order():
    state = turn_start(3, (1, 1, 0))  # picks go 0,1,2,0,1,2
    texts = [g.format(a) for a in g.legal(state, 0) if isinstance(a, Distribute)]
    assert len(texts) == len(set(texts)) == 90  # 6! / (2! 2! 2!) ways for distinct dice
    for text in texts:
        g.apply(state, 0, g.parse(text))  # every listed way is accepted
    # with equal dice, each way of sharing them out is still listed once
    twins = replace(state, dice=(1, 1, 2, 4, 4, 6))  # cross2 x2, tee2, straight3 x2, horse3
    listed = [a for a in g.legal(twins, 0) if isinstance(a, Distribute)]
    dice = [(2, 1), (2, 1), (2, 2), (3, 4), (3, 4), (3, 6)]
    shares = {tuple(tuple(sorted(p[k::3])) for k in range(3)) for p in itertools.permutations(dice)}
    assert len(listed) == len(shares)
    assert {tuple(tuple(sorted(a.dice[k::3])) for k in range(3)) for a in listed} == shares
    after = play(state, 0, "distribute cross2 tee2 corner2 straight3 half3 horse3")
    hands = [tuple(after.dice[d] for d in hand) for hand in after.hands]
    assert hands == [(1, 4), (2, 5), (3, 6)]
    assert after.seats[0].bonuses.spent == 1
    # seat 0 may draw its later die first: Continuity is waived after a distribute
    after = play(after, 0, "straight3 r2c8 ew")
    # seat 1 re-rolls only its own two dice, with its own bonus
    kept = {d: after.dice[d] for d in after.hands[0] + after.hands[2]}
    rolled = play(after, 1, "reroll")
    assert {d: rolled.dice[d] for d in kept} == kept
    assert "already been handed out" in refusal(
        with_seat(after, 1, bonuses=Bonuses(reserved=2)), 1, "distribute tee2 half3 corner2 horse3"
    )


@pytest.mark.parametrize(
    ("players", "hands", "recipient"),
    [
        # picks go 0,1,2,3,0,1: the roller and its left neighbour 2 dice, the others 1
        (4, [(1, 5), (2, 6), (3,), (4,)], 3),
        # picks go 0,1,2,3,4,0: the roller 2 dice, the others 1
        (5, [(1, 6), (2,), (3,), (4,), (5,)], 2),
    ],
)
def test_distribute_gives_uneven_hands_and_a_recipient_rerolls_with_its_own_bonus(
    players, hands, recipient
):
    bonus = tuple(1 if s in (0, recipient) else 0 for s in range(players))
    state = turn_start(players, bonus)
    state = play(state, 0, "distribute cross2 tee2 corner2 straight3 half3 horse3")
    assert [tuple(state.dice[d] for d in hand) for hand in state.hands] == hands
    # play the picks up to the recipient's; those before it have no bonus of their own
    # (seat 0 spent its bonus on the distribute)
    while g.to_play(state) != (recipient,):
        seat = g.to_play(state)[0]
        assert "Reserved use" in refusal(state, seat, "reroll")
        move = next(m for m in g.legal(state, seat) if not isinstance(m, Reroll | Distribute))
        state = play(state, seat, g.format(move))
    (die,) = state.hands[recipient]
    others = {d: state.dice[d] for d in range(6) if d != die}
    after = play(state, recipient, "reroll")
    assert after.dice[die] == next_faces(state.rng, 1)[0]
    assert {d: after.dice[d] for d in others} == others, "only the recipient's own die"
    assert after.seats[recipient].bonuses.spent == 1
    assert after.seats[0].bonuses.spent == 1


def test_distribute_must_hand_out_exactly_the_dice_left_in_pick_order():
    state = turn_start(2, (1, 0))
    assert "each of the 6" in refusal(state, 0, "distribute cross2 tee2")
    assert "exactly the dice left" in refusal(
        state, 0, "distribute cross2 cross2 corner2 straight3 half3 horse3"
    )


# -- the advanced rule ---------------------------------------------------------------------------


def test_advanced_rule_each_crossing_chooses_the_item_it_scores():
    state = g.new(2, {"start": "r3c5", "advanced": True}, 6)  # Smith's Bridge itself
    assert state.setup and g.to_play(state) == (0, 1)
    assert {g.format(a) for a in g.legal(state, 0)} == {
        "score loop",
        "score bridges",
        "score landmarks",
        "score buildings",
        "score trees",
        "score grid",
        "score drafting",
    }
    assert "choose the item" in refusal(state, 0, "reserve reroll")
    state = play(play(state, 0, "score trees"), 1, "score grid")
    assert state.seats[0].chosen == ("trees",)
    card = g.cards(state)[0]
    assert card.total == card.items[4]
    standard = g.new(2, {"start": "r3c5"}, 6)
    assert standard.seats[0].pending_items == 0


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4, 5, 6])
def test_whole_random_games_end_and_replay_exactly(players):
    final, log, _ = random_game(players, 30 + players)
    assert g.is_over(final) and g.to_play(final) == ()
    replayed = g.replay(players, None, 30 + players, log)
    assert g.to_json(replayed) == g.to_json(final)
    assert g.to_json(g.from_json(g.to_json(final))) == g.to_json(final)
    result = g.result(final)
    assert len(result.scores) == players
    if players == 1:
        them = euler.total(g.cards(final)[0])
        assert "Euler scores" in result.detail
        assert result.places == ((2,) if result.scores[0] < them else (1,))
    else:
        assert 1 in result.places
    view = g.view(final, None)
    assert view.over and view.places == result.places
    assert all(bits(final.seats[s].drawn) == list(view.seats[s].drawn) for s in range(players))


def test_advanced_whole_game_scores_the_chosen_items():
    final, _, _ = random_game(3, 8, {"advanced": "on"})
    for seat, card in zip(final.seats, g.cards(final), strict=True):
        assert len(seat.chosen) == card.crossed
        assert card.total == sum(card.items[i] for i in card.counted)


def test_moves_out_of_turn_and_nonsense_are_refused():
    state = g.new(2, {"start": "ii-2-3"}, 1)
    waiting = g.to_play(state)[0]
    other = 1 - waiting
    assert "not your turn" in refusal(state, other, "tee2 ii-2-2 new")
    with pytest.raises(IllegalMove):
        g.parse("fly to the moon")


# -- through the service, as `python -m bot selfplay` plays ---------------------------------------


async def test_whole_games_through_the_service_for_1_2_4_5_and_6_players(service):
    rnd = random.Random(7)
    for n, players in enumerate((1, 2, 4, 5, 6)):
        played = await play_random(
            service, Table(channel_id=7000 + n, guild_id=1), "seven-bridges", players, rnd, seed=n
        )
        assert not played.final.playable
        assert "Game over" in played.final.text
        assert played.moves >= 30
        if players == 1:  # random play loses to Euler, and the announcement says so
            assert "\n2nd P1 — " in played.final.text and "1st" not in played.final.text
            assert ": Euler wins by " in played.final.text


def test_each_pick_is_announced_with_the_die_and_where_it_was_drawn():
    state = replace(g.new(2, {"start": "ii-2-3"}, 11), first=0, rolling=False)
    state = replace(state, dice=(1, 2, 3, 4, 5, 6))
    move = next(m for m in g.legal(state, 0) if not isinstance(m, Distribute))
    events = g.apply(state, 0, move).events
    token, *where = g.format(move).split(" ")
    line = f"Ada took {token} and drew it at {' '.join(where)}."
    assert events[0].describe(["Ada", "Bob"]) == line


def test_euler_rolls_his_own_turns_and_the_player_rolls_theirs():
    state = g.new(1, {"start": "ii-2-3"}, 5)
    rolls = 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        assert seat == 0, "only the player is ever asked"
        if state.rolling:
            assert roller(state) == 0
            rolls += 1
        state = g.apply(state, 0, g.legal(state, 0)[0]).state
    assert rolls == 5, "one roll a round is the player's; Euler rolls the other by himself"
