"""Resigning Seven Bridges (the core's ``resign``, then ``flow.resigned``, RULINGS-style
[P] in docs/rules/seven-bridges.md): alone against Euler it is a loss; with others the
player draws no more, their place at the table is played as Euler plays his, and they
finish behind everyone who did not resign."""

from __future__ import annotations

from engine.core import IllegalMove
from engine.seven_bridges.state import roller
from tests.engine.seven_bridges.conftest import (
    NORTH,
    arms,
    g,
    play,
    position,
    random_game,
    refusal,
    with_seat,
)


def test_alone_against_euler_resigning_is_a_loss_at_once():
    state = play(g.new(1, {"start": "ii-2-3"}, 5), 0, "roll")
    step = g.play(state, 0, "resign")
    assert step.over and g.to_play(step.state) == ()
    assert step.result.places == (2,), "a loss against Euler, whatever the scores"
    assert step.result.detail.endswith("you resigned.")
    assert [e.text for e in step.events if e.kind == "resign"] == ["{seat0} resigned."]
    assert refusal(step.state, 0, "roll") == "The game is over."
    view = g.view(step.state, 0)
    assert view.over and view.resigned == {0} and view.round == 1


def test_with_others_the_player_who_resigned_is_passed_over_and_finishes_last():
    state = g.new(3, {"start": "ii-2-3"}, 9)
    first = roller(state)
    quitter = (first + 2) % 3  # holds picks 3 and 6 of this turn; never rolls round 2 first
    state = play(state, first, "roll")
    state = play(state, quitter, "resign")  # out of turn: the roller is still to pick
    assert refusal(state, quitter, "roll") == "You have already resigned."
    assert g.legal(state, quitter) == []
    picks = dict.fromkeys(range(3), 0)
    aside = 0
    while state.round == 0:
        (seat,) = g.to_play(state)
        assert seat != quitter, "a player who resigned is never awaited"
        drafting = g.awaited(state)[seat].name in ("pick", "stuck")
        action = next(a for a in g.legal(state, seat) if type(a).__name__ != "Reroll")
        picks[seat] += drafting and type(action).__name__ in ("Pick", "Downgrade", "Discard")
        step = g.apply(state, seat, action)
        aside += sum(e.kind == "aside" for e in step.events)
        state = step.state
    assert picks[first] == picks[(first + 1) % 3] == 6, "everyone else drafts as before"
    assert picks[quitter] == 0 and aside == 6, "the lowest die is set aside at their picks"


def test_a_whole_game_with_a_resignation_plays_to_the_end_and_replays():
    state, log, _ = random_game(3, 4)
    assert not state.resigned
    # resign seat 2 a third of the way in, then play the rest at random, and replay
    cut = len(log) // 3
    replayed = g.replay(3, None, 4, log[:cut])
    replayed = play(replayed, 2, "resign")
    moves = [*log[:cut], (2, "resign")]
    while not g.is_over(replayed):
        (seat,) = list(g.awaited(replayed))[:1]
        text = g.format(g.legal(replayed, seat)[0])
        replayed = play(replayed, seat, text)
        moves.append((seat, text))
    result = g.result(replayed)
    assert result.places[2] == 3 and sorted(result.places[:2]) in ([1, 2], [1, 1])
    assert g.to_json(g.replay(3, None, 4, moves)) == g.to_json(replayed)
    assert '"resigned":[2]' in g.to_json(replayed)
    assert g.from_json(g.to_json(replayed)) == replayed


def test_two_players_one_resigns_the_other_wins_even_when_behind():
    ahead = with_seat(g.new(2, {"start": "ii-2-3"}, 3), 1, drawn=NORTH)
    assert g.result(ahead).places == (2, 1)
    step = g.play(ahead, 1, "resign")
    assert step.over and step.result.scores == g.result(ahead).scores
    assert step.result.places == (1, 2)


def test_resigning_with_a_bonus_to_choose_or_a_die_to_draw_holds_nobody_up():
    # a landmark on the start square: everyone chooses a bonus at once
    state = g.new(3, {"start": "r2c4"}, 2)
    assert set(g.awaited(state)) == {0, 1, 2}
    state = play(state, 1, "resign")
    assert set(g.awaited(state)) == {0, 2}
    # a downgraded die the seat must draw is set aside with its pick
    stuck = position(arms("r2c9:W", "r2c8:E"), dice=(1, 1, 2, 1, 2, 1), players=3)
    drawing = play(stuck, 0, "downgrade cross2")
    assert g.awaited(drawing)[0].name == "draw"
    after = play(drawing, 0, "resign")
    assert after.committed == -1 and 0 not in g.awaited(after)
    assert after.dice.count(0) >= 1


def test_the_stored_form_of_a_game_nobody_resigned_is_unchanged():
    state = g.new(2, {"start": "ii-2-3"}, 1)
    assert '"resigned"' not in g.to_json(state)
    resigned = play(g.new(3, {"start": "ii-2-3"}, 1), 0, "resign")
    assert g.from_json(g.to_json(resigned)).resigned == {0}


def test_resign_is_read_in_any_case_and_never_listed():
    state = g.new(2, {"start": "ii-2-3"}, 1)
    assert g.format(g.parse("  RESIGN ")) == "resign"
    assert all(g.format(a) != "resign" for s in (0, 1) for a in g.legal(state, s))
    try:
        g.parse("resign now")
    except IllegalMove as exc:
        assert "Seven Bridges move" in exc.reason
