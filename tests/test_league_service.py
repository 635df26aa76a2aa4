"""Whole leagues run through the service: real games in their own channels, rounds that
follow on by themselves, forfeits at a round's deadline, standings and ratings."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from bot.organiser import Organiser
from bot.service import Caller, Refused, Service, Table
from bot.store import Store

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
HOME = Table(channel_id=4242, guild_id=77)
MOD = Caller(1, "Mod", manager=True)
PLAYERS = [
    Caller(100 + i, name) for i, name in enumerate(["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"])
]


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def league(tmp_path):
    clock = Clock()
    store = await Store.open(tmp_path / "league.db", clock=clock)
    service = Service(store, images=False)
    yield service, Organiser(service), clock
    await store.close()


async def finish(service: Service, table: Table, rng: random.Random) -> None:
    """Play the game at ``table`` to its end with random legal moves."""
    while (row := await service.store.live_game(table.channel_id)) is not None:
        seats = [s for s in await service.store.seats(row.id) if s.awaiting]
        seat = rng.choice(seats)
        who = Caller(seat.user_id, seat.name)
        await service.move(table, who, rng.choice(await service.legal_moves(table, who)))


def games_in(posted) -> list[Table]:
    return [p.table for p in posted if p.reply.playable]


async def test_a_six_player_rotating_league_runs_to_the_end(league):
    service, organiser, clock = league
    with pytest.raises(Refused, match="Only a server manager"):
        await organiser.create(HOME, PLAYERS[0], "Spring", "skybridge", "rotating", table_size=3)
    made = await organiser.create(
        HOME, MOD, "Spring", "skybridge", "rotating", table_size=3, rounds=6
    )
    assert "6/3/0" in made.text or "4/2/0" in made.text
    for p in PLAYERS:
        await organiser.join(HOME.guild_id, p, "spring")
    with pytest.raises(Refused, match="already in"):
        await organiser.join(HOME.guild_id, PLAYERS[0], "Spring")
    with pytest.raises(Refused, match="organiser or a server manager"):
        await organiser.start(HOME.guild_id, PLAYERS[1], "Spring")
    posted = await organiser.start(HOME.guild_id, MOD, "Spring")
    assert posted[0].table == HOME and "round 1 of 6" in posted[0].reply.text
    rng = random.Random(3)
    met: Counter = Counter()
    rounds = 0
    while posted:
        tables = games_in(posted)
        assert len(tables) == 2, "six players, two tables of three each round"
        for table in tables:
            row = await service.store.live_game(table.channel_id)
            seats = await service.store.seats(row.id)
            assert len(seats) == 3
            for a, b in itertools.combinations(sorted(s.user_id for s in seats), 2):
                met[a, b] += 1
            await finish(service, table, rng)
        rounds += 1
        posted = await organiser.tick()
        if posted and not games_in(posted):
            assert "Spring is over" in posted[-1].reply.text
            final = posted[-1].reply.text
            break
    assert rounds == 6
    # six players at tables of three over six rounds: every pair meets 2 to 4 times, the
    # best spread possible (see tests/test_league_pairing.py for the proof)
    assert len(met) == 15 and min(met.values()) >= 2 and max(met.values()) <= 4
    lines = final.splitlines()
    assert lines[1].startswith("**Spring** standings after round 6 of 6")
    assert len([ln for ln in lines if " pts, 6 games" in ln]) == 6
    ratings = await service.store.ratings(HOME.guild_id, "skybridge")
    assert len(ratings) == 6 and all(r.games == 6 for _u, _n, r in ratings)
    assert await organiser.tick() == [], "a finished league stays finished"


async def test_a_five_player_swiss_with_byes_a_forfeit_and_a_late_joiner(league):
    service, organiser, clock = league
    await organiser.create(HOME, MOD, "Duel Cup", "skybridge", "swiss", rounds=3, round_time="2d")
    for p in PLAYERS[:5]:
        await organiser.join(HOME.guild_id, p, "Duel Cup")
    posted = await organiser.start(HOME.guild_id, MOD, "Duel Cup")
    assert "Bye:" in posted[0].reply.text
    rng = random.Random(5)
    pairs: list[frozenset] = []
    byes: list[str] = []

    async def note_round(posted) -> list[Table]:
        byes.extend(
            ln.split(": ")[1] for ln in posted[0].reply.text.splitlines() if ln.startswith("Bye:")
        )
        tables = games_in(posted)
        for table in tables:
            row = await service.store.live_game(table.channel_id)
            pairs.append(frozenset(s.user_id for s in await service.store.seats(row.id)))
        return tables

    for table in await note_round(posted):
        await finish(service, table, rng)
    await organiser.join(HOME.guild_id, PLAYERS[5], "Duel Cup")  # a late joiner: from round 2
    posted = await organiser.tick()
    assert "round 2 of 3" in posted[0].reply.text
    tables = await note_round(posted)
    assert len(tables) == 3 and not any("Bye" in ln for ln in posted[0].reply.text.splitlines())
    await finish(service, tables[0], rng)
    await finish(service, tables[1], rng)
    clock.now = T0 + timedelta(days=2, minutes=1)  # the third match is never played
    posted = await organiser.tick()
    forfeits = [p for p in posted if "settled as a forfeit" in p.reply.text]
    assert [p.table for p in forfeits] == [tables[2]]
    assert "round 3 of 3" in posted[-len(games_in(posted)) - 1].reply.text
    for table in await note_round([p for p in posted if p not in forfeits]):
        await finish(service, table, rng)
    final = (await organiser.tick())[-1].reply.text
    assert "Duel Cup is over" in final
    assert len(pairs) == len(set(pairs)), "no pairing repeated"
    assert len(byes) == 1, "five players in round 1: one bye; six after the late joiner"
    results = (await organiser.results(HOME.guild_id, "Duel Cup")).text
    assert "forfeit by" in results and "bye" in results
    standing = await organiser.standings(HOME.guild_id, "Duel Cup")
    assert "Fay" in standing.text and "2 games" in standing.text


async def test_leaving_and_bad_settings_are_refused_clearly(league):
    service, organiser, _ = league
    with pytest.raises(Refused, match="needs a two-player game"):
        await organiser.create(HOME, MOD, "X", "skybridge", "swiss", table_size=3)
    with pytest.raises(Refused, match="no league format"):
        await organiser.create(HOME, MOD, "X", "skybridge", "ladder")
    with pytest.raises(Refused, match="not a list of points"):
        await organiser.create(HOME, MOD, "X", "skybridge", "swiss", points="lots")
    await organiser.create(HOME, MOD, "RR", "skybridge", "round-robin")
    with pytest.raises(Refused, match="already has a league called"):
        await organiser.create(HOME, MOD, "RR", "skybridge", "swiss")
    await organiser.join(HOME.guild_id, PLAYERS[0], "RR")
    await organiser.leave(HOME.guild_id, PLAYERS[0], "RR")
    with pytest.raises(Refused, match="not in the RR league"):
        await organiser.leave(HOME.guild_id, PLAYERS[0], "RR")
    with pytest.raises(Refused, match="at least two players"):
        await organiser.start(HOME.guild_id, MOD, "RR")
    with pytest.raises(Refused, match="no league called 'Nope'"):
        await organiser.standings(HOME.guild_id, "Nope")


async def test_standings_come_as_an_image_too_and_round_robins_show_their_schedule(league):
    import io

    from PIL import Image

    service, organiser, _ = league
    await organiser.create(HOME, MOD, "RR", "skybridge", "round-robin")
    early = await organiser.schedule(HOME.guild_id, "RR")
    assert "drawn when the league starts" in early.text
    for p in PLAYERS[:4]:
        await organiser.join(HOME.guild_id, p, "RR")
    posted = await organiser.start(HOME.guild_id, MOD, "RR")
    plan = (await organiser.schedule(HOME.guild_id, "RR")).text.splitlines()
    assert [line[:3] for line in plan[1:]] == ["R1:", "R2:", "R3:"]
    rng = random.Random(2)
    for table in games_in(posted):
        await finish(service, table, rng)
    await organiser.tick()
    standing = await organiser.standings(HOME.guild_id, "RR")
    picture = Image.open(io.BytesIO(standing.image)).convert("RGB")
    assert picture.width == 900 and picture.height >= 110 + 56 * 5
    assert picture.getpixel((30, 120)) == (0, 114, 178), "the header row"
    assert len(standing.image) < 60_000


async def test_an_organiser_role_and_a_start_date(league):
    service, organiser, clock = league
    helper = Caller(7, "Helper", roles=(555,))
    with pytest.raises(Refused, match="organiser role can create"):
        await organiser.create(HOME, helper, "Autumn", "skybridge", "swiss")
    with pytest.raises(Refused, match="Only a server manager can choose"):
        await organiser.set_role(HOME.guild_id, helper, 555)
    await organiser.set_role(HOME.guild_id, MOD, 555)
    with pytest.raises(Refused, match="must be in the future"):
        await organiser.create(HOME, helper, "Autumn", "skybridge", "swiss", starts="2020-01-01")
    made = await organiser.create(HOME, helper, "Autumn", "skybridge", "swiss", starts="2d")
    assert "starts by itself at 2026-11-04 12:00 UTC" in made.text
    await organiser.create(HOME, helper, "Lonely", "skybridge", "swiss", starts="1d")
    for p in PLAYERS[:4]:
        await organiser.join(HOME.guild_id, p, "Autumn")
    await organiser.join(HOME.guild_id, PLAYERS[0], "Lonely")
    clock.now = T0 + timedelta(days=1)
    (notice,) = await organiser.tick()
    assert "Lonely league could not start" in notice.reply.text
    assert "/league start" in notice.reply.text
    assert await organiser.tick() == [], "said once"
    clock.now = T0 + timedelta(days=2)
    posted = await organiser.tick()
    assert "**Autumn** — round 1 of 2" in posted[0].reply.text
    assert len(games_in(posted)) == 2
