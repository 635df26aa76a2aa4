"""League results and standings: placement points, forfeits, byes, and each tie-break."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.domain.leagues.formats import ROTATING, ROUND_ROBIN, SWISS, Format, next_round
from bot.domain.leagues.results import Scoring, bye, forfeit, played, show
from bot.domain.leagues.standings import AVERAGE_PLACE, GAME_SCORE, HEAD_TO_HEAD, explain, standings
from renders.palette import BACKGROUND
from renders.standings import MARGIN, ROW, TOP, WIDTH, layout, printable, render_table

ADA, BOB, CY, DEE, EVE, FAY = 1, 2, 3, 4, 5, 6
NAMES = {ADA: "Ada", BOB: "Bob", CY: "Cy", DEE: "Dee", EVE: "Eve", FAY: "Fay"}
DUEL = Scoring()
TABLE = Scoring((6, 4, 2, 0))
SWISS_TIEBREAKS = Format(SWISS, 2, 2).tiebreaks
ROUND_ROBIN_TIEBREAKS = Format(ROUND_ROBIN, 2, 2).tiebreaks
ROTATING_TIEBREAKS = Format(ROTATING, 3, 4, table_size=4).tiebreaks


def win(round: int, winner: int, loser: int, scores: tuple[int, int] = (0, 0)):
    return played(round, (winner, loser), (1, 2), scores, DUEL)


def draw(round: int, a: int, b: int):
    return played(round, (a, b), (1, 1), (0, 0), DUEL)


def order(rows) -> list[int]:
    return [row.player for row in rows]


# --- points ------------------------------------------------------------------------------


def test_two_player_places_give_win_draw_and_loss_points():
    assert played(1, (ADA, BOB), (1, 2), (30, 12), DUEL).points == (2, 0)
    assert played(1, (ADA, BOB), (2, 1), (12, 30), DUEL).points == (0, 2)
    assert played(1, (ADA, BOB), (1, 1), (20, 20), DUEL).points == (1, 1)


def test_tied_places_share_the_points_they_span():
    players = (ADA, BOB, CY, DEE)
    assert played(1, players, (1, 2, 2, 4), (0,) * 4, TABLE).points == (6, 3, 3, 0)
    assert played(1, players, (1, 1, 3, 4), (0,) * 4, TABLE).points == (5, 5, 2, 0)
    assert played(1, players, (2, 1, 3, 3), (0,) * 4, TABLE).points == (4, 6, 1, 1)
    assert played(1, players, (1, 1, 1, 1), (0,) * 4, TABLE).points == (3, 3, 3, 3)
    three_way = played(1, players, (1, 1, 1, 4), (0,) * 4, Scoring((7, 3, 1, 0))).points
    assert three_way == (Fraction(11, 3),) * 3 + (0,)
    assert show(three_way[0]) == "3.67" and show(Fraction(3, 2)) == "1.5" and show(6) == "6"


def test_a_smaller_or_larger_table_spreads_the_same_range_of_points():
    assert Scoring.for_tables(4) == TABLE
    assert TABLE.table(3) == (6, 3, 0), "not 6/4/2, which would favour the smaller table"
    assert TABLE.table(5) == (6, Fraction(9, 2), 3, Fraction(3, 2), 0)
    assert played(1, (ADA, BOB, CY), (2, 1, 3), (0, 0, 0), TABLE).points == (3, 6, 0)


def test_a_forfeit_gives_the_forfeiter_last_place_and_nothing_and_the_others_the_win():
    duel = forfeit(2, (ADA, BOB), [BOB], DUEL)
    assert (duel.kind, duel.places, duel.points) == ("forfeit", (1, 2), (2, 0))
    table = forfeit(2, (ADA, BOB, CY, DEE), [CY], Scoring((6, 4, 2, 1)))
    assert table.places == (1, 1, 4, 1) and table.points == (6, 6, 0, 6)
    both = forfeit(2, (ADA, BOB), [ADA, BOB], DUEL)
    assert both.points == (0, 0), "nobody wins a game nobody turned up for"
    with pytest.raises(ValueError, match="forfeit"):
        forfeit(2, (ADA, BOB), [CY], DUEL)


def test_a_bye_is_worth_a_win_unless_the_organiser_says_otherwise():
    assert bye(3, ADA, DUEL).points == (2,)
    assert bye(3, ADA, TABLE).points == (6,)
    assert bye(3, ADA, Scoring((2, 0), bye=1)).points == (1,)
    assert not bye(3, ADA, DUEL).is_game


def test_scoring_and_results_refuse_nonsense():
    with pytest.raises(ValueError, match="must not rise"):
        Scoring((0, 2))
    with pytest.raises(ValueError, match="at least"):
        Scoring((2,))
    with pytest.raises(ValueError, match="one place and one score"):
        played(1, (ADA, BOB), (1,), (0, 0), DUEL)
    with pytest.raises(ValueError, match="two different players"):
        played(1, (ADA, ADA), (1, 2), (0, 0), DUEL)


# --- tie-breaks --------------------------------------------------------------------------


def test_round_robin_ties_go_to_head_to_head_before_anything_else():
    results = [
        win(1, ADA, BOB, (10, 9)),
        draw(1, CY, DEE),
        win(2, CY, ADA),
        win(2, BOB, DEE, (30, 0)),
        win(3, ADA, DEE),
        win(3, BOB, CY, (30, 0)),
    ]
    rows = standings([ADA, BOB, CY, DEE], results, ROUND_ROBIN_TIEBREAKS)
    assert order(rows) == [ADA, BOB, CY, DEE] and [r.rank for r in rows] == [1, 2, 3, 4]
    assert [r.points for r in rows] == [4, 4, 3, 1]
    assert rows[0].game_score < rows[1].game_score, "Bob's bigger scores come too late"
    assert (rows[0].head_to_head, rows[1].head_to_head) == (2, 0)
    assert rows[0].buchholz is None, "no Buchholz outside Swiss"
    assert explain(rows, ROUND_ROBIN_TIEBREAKS, NAMES) == (
        "Ada is ahead of Bob on head to head (2 to 0)."
    )


def test_a_five_player_swiss_uses_head_to_head_then_buchholz():
    """Four rounds, no rematch, a different bye each round; two pairs level on points.

    Ada and Cy (6 points) met: Ada won. Dee and Bob (5) drew their game, so head to
    head cannot split them, and Buchholz does: Dee's opponents scored 6+5+6, Bob's
    6+2+5.
    """
    results = [
        win(1, ADA, BOB),
        win(1, CY, DEE),
        bye(1, EVE, DUEL),
        win(2, ADA, CY),
        win(2, BOB, EVE),
        bye(2, DEE, DUEL),
        win(3, ADA, EVE),
        draw(3, DEE, BOB),
        bye(3, CY, DUEL),
        win(4, CY, EVE),
        win(4, DEE, ADA),
        bye(4, BOB, DUEL),
    ]
    rows = standings([ADA, BOB, CY, DEE, EVE], results, SWISS_TIEBREAKS)
    assert order(rows) == [ADA, CY, DEE, BOB, EVE]
    assert [r.points for r in rows] == [6, 6, 5, 5, 2]
    assert [(r.head_to_head, r.buchholz) for r in rows[2:4]] == [(1, 17), (1, 13)]
    assert [r.byes for r in rows] == [0, 1, 1, 1, 1]
    assert [r.games for r in rows] == [4, 3, 3, 3, 3]
    assert explain(rows, SWISS_TIEBREAKS, NAMES) == (
        "Ada is ahead of Cy on head to head (2 to 0).\nDee is ahead of Bob on Buchholz (17 to 13)."
    )


def test_buchholz_cut_one_drops_the_weakest_opponent():
    """Cy and Eve drew and their opponents scored 9 in all; Eve's weakest scored 2, Cy's 0."""
    results = [
        win(1, ADA, BOB),
        win(1, CY, DEE),
        win(1, EVE, FAY),
        win(2, ADA, CY),
        win(2, BOB, EVE),
        win(2, FAY, DEE),
        win(3, ADA, DEE),
        win(3, BOB, FAY),
        draw(3, CY, EVE),
    ]
    rows = standings(list(NAMES), results, SWISS_TIEBREAKS)
    assert order(rows) == [ADA, BOB, CY, EVE, FAY, DEE]
    cy, eve = rows[2], rows[3]
    assert (cy.buchholz, cy.buchholz_cut1) == (9, 9)
    assert (eve.buchholz, eve.buchholz_cut1) == (9, 7)
    assert explain(rows, SWISS_TIEBREAKS, NAMES) == (
        "Cy is ahead of Eve on Buchholz cut-1 (9 to 7)."
    )


def test_head_to_head_counts_only_when_all_the_tied_players_have_met():
    """Midway through a round robin Ada, Bob and Cy have 2 points; only Bob and Ada
    have met. Counting Bob's win over Ada would rank him above Cy for having met the
    right opponent, so head to head stays out and game score decides."""
    results = [
        win(1, BOB, ADA, (11, 10)),
        win(1, CY, DEE, (20, 0)),
        draw(1, EVE, FAY),
        win(2, ADA, DEE, (30, 0)),
        win(2, FAY, BOB, (2, 1)),
        win(2, EVE, CY, (6, 5)),
    ]
    rows = standings(list(NAMES), results, ROUND_ROBIN_TIEBREAKS)
    tied = [r for r in rows if r.points == 2]
    assert order(tied) == [ADA, CY, BOB]
    assert all(r.head_to_head is None and r.average_place == Fraction(3, 2) for r in tied)
    assert explain(rows, ROUND_ROBIN_TIEBREAKS, NAMES) == (
        "Eve is ahead of Fay on game score (6 to 2).\n"
        "Ada is ahead of Cy on game score (40 to 25).\n"
        "Cy is ahead of Bob on game score (25 to 12)."
    )


def test_rotating_tables_break_ties_on_average_placement_then_game_score():
    """Five players end on 6 points, from 4-tables (6/4/2/0) and 3-tables (6/3/0).

    Bob came second at two 3-tables (average place 2); the others average 2.5, so
    their game scores decide.
    """
    gus = 7
    results = [
        played(1, (ADA, CY, DEE, EVE), (1, 2, 3, 4), (50, 40, 45, 10), TABLE),
        played(1, (BOB, FAY, gus), (2, 1, 3), (30, 35, 0), TABLE),
        played(2, (DEE, CY, ADA, FAY), (2, 3, 4, 1), (40, 20, 5, 60), TABLE),
        played(2, (BOB, EVE, gus), (2, 1, 3), (30, 31, 5), TABLE),
    ]
    rows = standings([ADA, BOB, CY, DEE, EVE, FAY, gus], results, ROTATING_TIEBREAKS)
    assert order(rows) == [FAY, BOB, DEE, CY, ADA, EVE, gus]
    assert [r.points for r in rows] == [12, 6, 6, 6, 6, 6, 0]
    assert [r.average_place for r in rows[1:5]] == [2] + [Fraction(5, 2)] * 3
    assert [r.game_score for r in rows[2:6]] == [85, 60, 55, 41]
    assert all(r.head_to_head is None and r.buchholz is None for r in rows)
    assert explain(rows, ROTATING_TIEBREAKS, NAMES | {gus: "Gus"}) == (
        "Bob is ahead of Dee on average placement (2 to 2.5).\n"
        "Dee is ahead of Cy on game score (85 to 60).\n"
        "Cy is ahead of Ada on game score (60 to 55).\n"
        "Ada is ahead of Eve on game score (55 to 41)."
    )


def test_players_level_on_everything_share_a_rank():
    results = [draw(1, ADA, BOB), draw(1, CY, DEE), win(2, ADA, CY), win(2, BOB, DEE)]
    rows = standings([ADA, BOB, CY, DEE], results, ROUND_ROBIN_TIEBREAKS)
    assert [(r.player, r.rank) for r in rows] == [(ADA, 1), (BOB, 1), (CY, 3), (DEE, 3)]
    assert explain(rows, ROUND_ROBIN_TIEBREAKS, NAMES) == (
        "Ada and Bob share rank 1: level on every tie-break.\n"
        "Cy and Dee share rank 3: level on every tie-break."
    )
    assert explain(rows[:1], ROUND_ROBIN_TIEBREAKS, NAMES) == ""


def test_a_round_robin_drop_out_forfeits_the_rest_and_the_standings_show_it():
    fmt = Format(ROUND_ROBIN, 2, 2)
    players = [ADA, BOB, CY, DEE]
    rnd = next_round(fmt, [], players, {DEE}, 1, seed=5)
    assert len(rnd.forfeits) == 1 and len(rnd.tables) == 1
    results = [forfeit(1, t, [DEE], DUEL) for t in rnd.forfeits]
    results += [played(1, t, (1, 2), (3, 1), DUEL) for t in rnd.tables]
    rows = standings(players, results, fmt.tiebreaks)
    by_player = {r.player: r for r in rows}
    opponent = next(p for p in rnd.forfeits[0] if p != DEE)
    assert by_player[opponent].points == 2 and by_player[opponent].average_place == 1
    assert by_player[DEE].points == 0 and by_player[DEE].average_place == 2
    assert rows[-1].player == DEE


def test_tiebreak_order_is_published_per_format():
    assert SWISS_TIEBREAKS[0] == HEAD_TO_HEAD and SWISS_TIEBREAKS[-1] == GAME_SCORE
    assert ROTATING_TIEBREAKS == (AVERAGE_PLACE, GAME_SCORE)


# -- the standings picture -------------------------------------------------------------------

SWISS_COLUMNS = ["#", "Player", "Pts", "GP", "H2H", "Buch", "Cut1", "Avg", "Score"]


def test_names_lose_only_what_the_font_cannot_draw():
    assert printable("🐉 Drake") == "Drake", "no box where the dragon was"
    assert printable("Zoë Åström ❤️") == "Zoë Åström ❤", "accents kept; the heart DejaVu has"
    assert printable("👨‍👩‍👧") == "?", "a name of emoji alone still shows something"


def test_a_nine_column_swiss_table_still_gives_names_room_on_a_phone():
    rows = [
        ["1", "Bartholomew Featherstonehaugh", "6", "3", "2", "10.5", "8", "1.33", "147"],
        ["2", "Cy", "4", "3", "0", "12", "9", "1.67", "120"],
    ]
    plan = layout("Winter Cup standings", SWISS_COLUMNS, rows, "after round 2 of 3")
    assert plan.widths[1] >= 0.4 * WIDTH and sum(plan.widths) <= WIDTH - 2 * MARGIN
    assert [row[1] for row in plan.rows] == ["Bartholomew Featherstonehaugh", "Cy"]
    assert plan.header == tuple(SWISS_COLUMNS), "no header cut short"
    assert plan.rows[0][2:] == tuple(rows[0][2:]), "every figure whole"
    # a name too long for any layout is cut, with an ellipsis, and nothing else gives way
    huge = [["1", "W" * 60, "6", "3", "2", "10.5", "8", "1.33", "147"]]
    squeezed = layout("Cup", SWISS_COLUMNS, huge)
    assert squeezed.rows[0][1].endswith("…") and squeezed.rows[0][1].startswith("WWWW")
    assert squeezed.widths[1] >= 0.4 * WIDTH


def test_the_picture_has_the_round_on_its_own_line_and_a_row_per_player():
    rows = [[str(i), f"Player {i}", "0", "0", "1", "0"] for i in range(1, 7)]
    columns = ["#", "Player", "Pts", "GP", "Avg", "Score"]
    png = render_table("A league name long enough to fill the line", columns, rows, "round 2 of 5")
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    assert picture.size == (WIDTH, TOP + ROW * 7 + 20)
    subtitle_ink = [x for x in range(WIDTH) if picture.getpixel((x, 95)) != BACKGROUND]
    assert subtitle_ink and max(subtitle_ink) < WIDTH / 2, "the short subtitle, whole, on line 2"
