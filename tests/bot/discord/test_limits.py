"""Layer 2: every message fits Discord, however long what it has to say.

The harness refuses whatever Discord refuses (``discord_limits``: content over 2,000
characters, oversized selects and embeds, options without descriptions …), so each test
here only has to make the bot say something long and check that all of it arrived,
in order, each piece readable on its own.
"""

from __future__ import annotations

import random
import re

import pytest

import engine
from bot.discord.messages import split_text
from bot.service import Caller, Table
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, Harness, Replies
from tests.bot.discord.discord_limits import CONTENT

ADA = Caller(1001, "Ada")
LONG_NAMES = [  # Discord display names run to 32 characters
    Caller(2001, "Bartholomew the Magnificent III"),
    Caller(2002, "Wilhelmina Featherstonehaugh-Le"),
    Caller(2003, "Maximilian von Bridgebuilderton"),
    Caller(2004, "Anastasia Konstantinopolskaya"),
]


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def read_whole(replies: Replies) -> str:
    """What the asker reads, the pieces put back together (a cut code block rejoined)."""
    pieces = [r.text for r in replies.messages]
    assert all(len(p) <= CONTENT for p in pieces)
    return re.sub(r"\n```\n```[\w-]*\n", "\n", "\n".join(pieces))


def fences_balanced(replies: Replies) -> bool:
    return all(len(re.findall(r"^```", r.text, flags=re.M)) % 2 == 0 for r in replies.messages)


@pytest.mark.parametrize("key", list(engine.GAMES))
async def test_every_rules_page_arrives_whole_in_messages_that_fit(h, key):
    replies = await h.slash("game", "rules", game=key, user=ADA)
    assert all(r.ephemeral for r in replies.messages), "the rules are for the asker"
    assert fences_balanced(replies)
    clickable = h.service.lobby.rules_text(
        key
    )  # the commands it names are ones to click on Discord
    for command in ("game new", "solo", "settings"):
        clickable = clickable.replace(f"`/{command}`", h.mention(command))
    assert read_whole(replies) == clickable


async def play_to_the_end(h: Harness, table: Table, players: list[Caller]) -> None:
    """A whole game played through the service, each move a legal one at random."""
    h.service.context.images = False  # no boards needed, only the moves
    await h.service.lobby.create(table, players[0], "skybridge")
    for p in players[1:]:
        await h.service.lobby.join(table, p)
    await h.service.lobby.start(table, players[0])
    rng = random.Random(7)
    by_id = {p.user_id: p for p in players}
    while True:
        row = await h.store.latest_game(table.channel_id)
        if row.status != "active":
            h.service.context.images = True
            return
        game = await h.service.games.live(table)
        mover = by_id[game.awaited_users()[0]]
        moves = await h.service.play.legal_moves(table, mover)
        await h.service.play.move(table, mover, rng.choice(moves))


async def test_a_long_history_arrives_complete_and_in_order(h):
    table = Table(CHANNEL_ID, GUILD_ID)
    await play_to_the_end(h, table, LONG_NAMES)
    row = await h.store.latest_game(CHANNEL_ID)
    log = await h.store.moves(row.id)
    replies = await h.slash("game", "history", user=ADA)
    assert len(replies.messages) >= 2, "long enough to need more than one message"
    lines = read_whole(replies).split("\n")
    assert [int(line.split(".")[0]) for line in lines] == [m.seq for m in log]
    assert lines[-1].endswith(log[-1].action), "the last move is there, not cut off"


async def test_turns_in_sixty_games_are_all_listed(h):
    opponent = LONG_NAMES[0]
    for i in range(60):
        table = Table(CHANNEL_ID + 100 + i, GUILD_ID)
        await h.service.lobby.create(table, ADA, "skybridge")
        await h.service.lobby.join(table, opponent)
        await h.service.lobby.start(table, ADA)
    waiting = len(await h.store.awaiting(ADA.user_id))
    assert waiting >= 20, "plenty of games wait for Ada"
    replies = await h.slash("turns", user=ADA)
    whole = read_whole(replies)
    assert len(replies.messages) >= 2
    links = re.findall(r"/channels/\d+/(\d+)", whole)
    assert len(links) == len(set(links)) == waiting, "each waiting game once"


async def test_standings_of_a_sixty_four_player_league_fit(h):
    manager = Caller(1009, "Mo", manager=True)
    await h.slash(
        "league", "create", name="Grand", game="skybridge", format="swiss", rounds=3, user=manager
    )
    players = [Caller(3000 + i, f"Contender number {i:02d} of many") for i in range(64)]
    for player in players:
        await h.slash("league", "join", name="Grand", user=player)
    await h.slash("league", "start", name="Grand", user=manager)
    replies = await h.slash("league", "standings", name="Grand", user=ADA)
    whole = read_whole(replies)
    assert len(replies.messages) >= 2
    for player in players:
        assert player.name in whole
    assert [len(r.images) for r in replies.messages][-1] == 1, "the table, under the last words"
    assert sum(len(r.images) for r in replies.messages) == 1, "and only once"


def test_split_text_keeps_every_line_and_code_block():
    text = "\n".join(["intro"] + ["```text"] + [f"row {i:04d} " + "x" * 60 for i in range(200)])
    text += "\n```\nthe end"
    pieces = split_text(text)
    assert len(pieces) > 1 and all(len(p) <= CONTENT for p in pieces)
    assert all(p.count("```") % 2 == 0 for p in pieces), "each piece renders on its own"
    joined = re.sub(r"\n```\n```text\n", "\n", "\n".join(pieces))
    assert joined == text
    one_line = "y" * 5000
    assert "".join(split_text(one_line)) == one_line
