"""Layer 2: a public board is one Components v2 card; everything else stays a message.

A card (``bot.discord.cards``) holds, in one container framed in the colour of the seat it is
about: the text, the board (a media gallery of the uploaded picture, with its alt
text), and the buttons. The fake Discord refuses what Discord refuses for such a message
(``discord_limits``): content or embeds beside the flag, over 4,000 characters of text,
over 40 components, a gallery of 0 or over 10 pictures, a reference to a file not
uploaded, over 5 buttons in a row. These tests look at the cards a player gets, and
check that the fake refuses each broken card.
"""

from __future__ import annotations

import copy
import io

import aiohttp
import pytest
from PIL import Image

from bot.config import Web
from bot.discord.cards import CARD_TEXT_LIMIT
from bot.discord.messages import parts_of
from bot.service import Caller, Table
from bot.service import Reply as ServiceReply
from bot.web.serving import serving
from renders.palette import PLAYER_COLOURS
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, Harness, Replies, Reply, pinged
from tests.bot.discord.discord_limits import ALT_TEXT, COMPONENTS_V2, CONTENT, message_problems

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
TABLE = Table(CHANNEL_ID, GUILD_ID)
RED, BLUE = (s.fill[0] << 16 | s.fill[1] << 8 | s.fill[2] for s in PLAYER_COLOURS[:2])


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


async def started(h: Harness) -> Replies:
    """Ada's game of Skybridge with Bob: Ada sits first (red and yellow), Bob second. The
    start's messages: the ping of the player to move, then the card."""
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    return await h.slash("game", "start", user=ADA)


def assert_card(board: Reply, buttons: str) -> None:
    """One card: text, then the board with its alt text, then ``buttons``; no content."""
    assert board.payload["flags"] & COMPONENTS_V2 and board.payload.get("content") is None
    assert board.layout == ["text", "gallery attachment://board.png", f"buttons {buttons}"]
    (upload,) = board.files
    assert upload.filename == "board.png" and upload.image().size[0] > 0
    (gallery,) = [c for c in board.card["components"] if c["type"] == 12]
    (item,) = gallery["items"]
    (attachment,) = board.payload["attachments"]
    assert item["description"] == attachment["description"], "the same words twice"
    assert item["description"].startswith("Skybridge board.") and len(item["description"]) <= 1024


async def test_a_game_starts_with_a_card_framed_in_the_colour_of_the_seat_to_play(h):
    start = await started(h)
    board, ping = start.board, start.ping
    assert_card(board, "Play")
    (first,) = ping.pinged
    assert board.accent == (RED if first == ADA.user_id else BLUE)
    assert board.text.startswith("**Skybridge** begins. Seats: 1. Ada (red and yellow)")
    assert board.pinged == set() and "<@" not in board.text, "a card pings nobody"
    assert start.public == [ping, board], "the ping, in words of its own, then the card"
    assert ping.text == f"<@{first}>, your move in **Skybridge #1** — the game begins."
    assert start.pinged == {first}, "the player to move, nobody else"


async def test_each_move_answers_with_a_card_for_the_next_player(h):
    (first,) = (await started(h)).pinged
    mover, waiting = (ADA, BOB) if first == ADA.user_id else (BOB, ADA)
    notation = (await h.service.play.legal_moves(TABLE, mover))[0]
    answer = await h.slash("move", notation=notation, user=mover)
    moved = answer.board
    assert_card(moved, "Play")
    assert answer.ping.pinged == answer.pinged == {waiting.user_id}
    assert moved.accent == (RED if waiting is ADA else BLUE)
    assert f"To play: {waiting.name}." in moved.text


async def test_the_play_button_on_a_card_opens_the_picker_after_a_restart_too(h):
    start = await started(h)
    board = start.board
    (first,) = start.pinged
    mover = ADA if first == ADA.user_id else BOB
    (play,) = board.custom_ids
    message = h.find_message(play)
    assert message["flags"] & COMPONENTS_V2, "the button Discord sends back sits in a card"
    await h.restart()
    picker = (await h.click(play, user=mover)).one
    assert picker.ephemeral and picker.text == "Your move — choose:"
    assert picker.card is None and picker.payload.get("content"), "a private message stays one"


async def test_the_final_board_is_a_card_with_rematch_in_the_winners_colour(h):
    await started(h)
    over = (await h.slash("game", "resign", user=BOB)).board
    assert_card(over, "Rematch")
    assert over.accent == RED, "Ada won: her colour"
    assert "**Game over.**" in over.text and over.pinged == set()
    (again,) = over.custom_ids
    await h.click(again, user=ADA)
    rematch = (await h.click(again, user=BOB)).board
    assert_card(rematch, "Play")
    assert rematch.text.startswith("**Rematch!** **Skybridge** begins.")


async def test_a_deadline_move_posted_by_the_timers_is_a_card(h):
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    (first,) = (await h.slash("game", "start", user=ADA)).pinged
    async with h.store.transaction() as db:
        await db.execute(
            "UPDATE seats SET deadline = '2000-01-01T00:00:00.000000+00:00', warned = 1 "
            "WHERE awaiting = 1"
        )
    before = len(h.calls)
    await h.bot.get_cog("Postal").run_once()
    ping, post = [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]
    assert post.message["flags"] & COMPONENTS_V2 and post.message.get("content") is None
    assert "ran out of time" in post.text and [f.filename for f in post.files] == ["board.png"]
    assert post.custom_ids[0].startswith("bk:play:")
    (waiting,) = pinged(ping.message)
    assert waiting != first, "the next player is pinged, in a message before the card"
    assert pinged(post.message) == set()


async def test_a_card_links_to_the_games_page_where_players_can_follow_it(h):
    public = Web("127.0.0.1", 0, public_url="https://games.example.org")
    async with serving(h.service, public) as served, aiohttp.ClientSession() as http:
        start = await started(h)
        board = start.board
        assert_card(board, "Play, Game page")
        link = board.button("Game page")
        assert link.style == 5 and link.custom_id is None, "a link: Discord opens it"
        path = await h.service.pages.path(1)
        assert link.url == f"https://games.example.org{path}", "the game's, not a seat's"
        async with http.get(served.listening + path) as page:  # behind the public address
            assert page.status == 200 and "Skybridge #1" in await page.text()
        over = (await h.slash("game", "resign", user=BOB)).board
        assert_card(over, "Rematch, Game page")
        assert over.button("Game page").url == link.url


async def test_a_card_has_no_link_players_elsewhere_could_not_follow(h):
    async with serving(h.service, Web("127.0.0.1", 0)):  # this machine's alone
        assert_card((await started(h)).board, "Play")
    assert h.service.pages.site is not None and h.service.pages.shared is None


async def test_private_replies_and_refusals_stay_plain_messages(h):
    await started(h)
    (mine,) = (await h.slash("game", "board", user=ADA)).messages
    assert mine.ephemeral and mine.card is None and mine.files, "a picture, privately"
    assert mine.payload["content"].startswith("**Skybridge**")
    (refused,) = await h.slash("move", notation="red tall z9", user=ADA)
    assert refused.ephemeral and refused.card is None and refused.payload["content"]


def with_lines(board, lines: list[str]):
    """The service's board drawing, with ``lines`` put before the text it goes with."""

    async def drawn(game, state, text, seat=None, view=None):
        return await board(game, state, "\n".join([*lines, text]), seat, view)

    return drawn


async def test_a_text_too_long_for_a_card_goes_before_it_and_arrives_whole(h, monkeypatch):
    mover = ADA if (await started(h)).pinged == {ADA.user_id} else BOB
    lines = [f"Line {i:03d}: " + "word " * 20 for i in range(60)]  # about 6,800 characters
    monkeypatch.setattr(h.service.answers, "board", with_lines(h.service.answers.board, lines))
    notation = (await h.service.play.legal_moves(TABLE, mover))[0]
    *before, ping, card = (await h.slash("move", notation=notation, user=mover)).public
    assert before and all(r.card is None and len(r.text) <= CONTENT for r in before)
    assert all(r.pinged == set() for r in before) and ping.pinged, "the ping, right before"
    assert card.card is not None and len(card.text) <= CARD_TEXT_LIMIT
    waiting = BOB if mover is ADA else ADA
    assert card.text.rstrip().endswith(f"To play: {waiting.name}."), "the turn ends the card"
    whole = "\n".join(r.text for r in [*before, card])
    assert all(line in whole for line in lines), "every line arrives, in order"
    assert [whole.index(line) for line in lines] == sorted(whole.index(line) for line in lines)


async def test_the_fake_refuses_a_card_with_more_text_than_discord_takes(h, monkeypatch):
    mover = ADA if (await started(h)).pinged == {ADA.user_id} else BOB
    lines = [f"Line {i:03d}: " + "word " * 20 for i in range(60)]
    monkeypatch.setattr(h.service.answers, "board", with_lines(h.service.answers.board, lines))
    monkeypatch.setattr("bot.discord.messages.CARD_TEXT_LIMIT", 8000)  # as if nothing cut it
    notation = (await h.service.play.legal_moves(TABLE, mover))[0]
    with pytest.raises(AssertionError, match="text displays hold .* characters"):
        await h.slash("move", notation=notation, user=mover)


# -- what the fake refuses -----------------------------------------------------------------


def _card(*inside: dict) -> dict:
    return {"flags": COMPONENTS_V2, "components": [{"type": 17, "components": list(inside)}]}


TEXT = {"type": 10, "content": "Ada played. To play: Bob."}
GALLERY = {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}
ROW = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Play", "custom_id": "p"}]}


def test_the_fake_takes_a_well_formed_card():
    assert message_problems(_card(TEXT, GALLERY, ROW), ["board.png"]) == []


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda m: m.update(content="hi"), "content is not allowed"),
        (lambda m: m.update(embeds=[{"title": "x"}]), "embeds are not allowed"),
        (
            lambda m: m["components"][0]["components"].append({"type": 10, "content": "x" * 3990}),
            "text displays hold 4015 characters",
        ),
        (
            lambda m: m["components"][0]["components"].extend([TEXT] * 36),
            "41 components",
        ),
        (lambda m: m["components"][0]["components"][1].update(items=[]), "holds 0 items"),
        (
            lambda m: m["components"][0]["components"][1].update(items=GALLERY["items"] * 11),
            "holds 11 items",
        ),
        (
            lambda m: m["components"][0]["components"][1]["items"][0]["media"].update(
                url="attachment://other.png"
            ),
            "attachment://other.png names no uploaded file",
        ),
        (
            lambda m: m["components"][0]["components"][2].update(
                components=[
                    {"type": 2, "style": 1, "label": str(i), "custom_id": str(i)} for i in range(6)
                ]
            ),
            "a row must hold 1-5 components",
        ),
        (
            lambda m: m["components"][0]["components"][1]["items"][0].update(
                description="x" * (ALT_TEXT + 1)
            ),
            "alt text is over 1024",
        ),
        (lambda m: m.update(flags=0), "need IS_COMPONENTS_V2"),
        (
            lambda m: m["components"][0]["components"][2]["components"][0].update(style=5),
            "a link button has a url and no custom_id",
        ),
        (
            lambda m: m["components"][0]["components"][2]["components"].append(
                {"type": 2, "style": 5, "label": "Game page", "url": "https://x/" + "g" * 512}
            ),
            "a button's url over 512 characters",
        ),
    ],
)
def test_the_fake_refuses_what_discord_refuses_in_a_card(change, refusal):
    message = copy.deepcopy(_card(TEXT, GALLERY, ROW))
    change(message)
    assert any(refusal in p for p in message_problems(message, ["board.png"])), refusal


def test_an_edit_of_a_card_cannot_bring_content_back():
    edit = {"content": "plain again"}
    assert message_problems(edit, flags=COMPONENTS_V2) == [
        "content is not allowed with IS_COMPONENTS_V2"
    ]


# -- the frame's colour, and a card without buttons ------------------------------------------


@pytest.mark.parametrize(
    ("key", "players"),
    [("skybridge", 3), ("bridge-wars", 2), ("seven-bridges", 3), ("seven-cities", 4),
     ("bridges-and-boats", 2)],
)  # fmt: skip
async def test_the_frame_is_a_colour_the_player_to_move_has_on_the_board(h, key, players):
    seated = [ADA, BOB, Caller(1003, "Cy"), Caller(1004, "Dee")][:players]
    await h.slash("game", "new", game=key, user=ADA)
    for player in seated[1:]:
        await h.slash("game", "join", user=player)
    board = (await h.slash("game", "start", user=ADA)).board
    if key == "bridge-wars":  # colours are chosen first: no seat has one yet
        assert board.accent is None
        return
    accent = board.accent
    assert accent is not None
    rgb = (accent >> 16, accent >> 8 & 0xFF, accent & 0xFF)
    colours = {c for _, c in board.files[0].image().convert("RGB").getcolors(1 << 20)}
    assert rgb in colours, "drawn on the board, where the player's pieces or card are"


def test_a_public_picture_without_buttons_is_a_card_of_text_and_picture():
    picture = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(picture, "PNG")
    standings = ServiceReply(
        "**Cup is over.** Final standings:\n1. Ada", image=picture.getvalue(), alt="Cup standings"
    )
    (part,) = parts_of(standings)
    kwargs = part.kwargs()
    assert "content" not in kwargs and kwargs["file"].description == "Cup standings"
    payload = {"flags": COMPONENTS_V2, "components": kwargs["view"].to_components()}
    assert [c["type"] for c in payload["components"][0]["components"]] == [10, 12]
    assert message_problems(payload, ["board.png"]) == []
