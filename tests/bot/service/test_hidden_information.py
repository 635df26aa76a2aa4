"""The service keeps each seat's secrets private, whatever the game.

A tiny game with a secret per seat stands in for the real ones (Bridges and Boats,
Battle for Seven Cities), so the plumbing is tested on its own: public replies and
images use the spectator's view, the mover gets their own view privately, ``/hand``
shows it on request, and a game without secrets says there is nothing to show.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest
from PIL import Image, ImageDraw

import engine
import renders
from bot.service import Refused
from engine.core import TURN, Event, Game, GameInfo, IllegalMove, Result, Rng, Rule, seat_ref
from renders.looks import Looks
from tests.conftest import ADA, BOB, CY, TABLE


@dataclass(frozen=True)
class SecretState:
    secrets: tuple[int, ...]
    turn: int
    picks: tuple[int, ...]
    rng: Rng
    players: int = 2
    resigned: frozenset[int] = frozenset()


@dataclass(frozen=True)
class SecretView:
    seat: int | None
    secrets: tuple[int | None, ...]
    picks: tuple[int, ...]


def _pick(state, seat, action):
    new = replace(state, picks=(*state.picks, action), turn=1 - state.turn)
    return new, [
        Event("pick", f"{seat_ref(seat)} picked {action}."),
        Event("secret", f"Your secret is {state.secrets[seat]}.", seat=seat),
    ]


class Secrets(Game):
    """Each seat draws a secret 100..999; on its turn it picks 1, 2 or 3. Three picks each."""

    info = GameInfo("secrets", "Secrets", 2, 2, "test game", hidden_information=True)
    rules = (
        Rule(
            int,
            lambda state, seat, n: None if n in (1, 2, 3) else "Pick 1, 2 or 3.",
            _pick,
            lambda state, seat: [1, 2, 3],
        ),
    )

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> SecretState:
        rng = Rng.from_seed(seed)
        secrets = []
        for _ in range(players):
            value, rng = rng.below(900)
            secrets.append(100 + value)
        return SecretState(tuple(secrets), 0, (), rng)

    def awaited(self, state):
        return {} if self.is_over(state) else {state.turn: TURN}

    def parse_move(self, text):
        if text.strip() not in ("1", "2", "3"):
            raise IllegalMove("Pick 1, 2 or 3.")
        return int(text)

    def format_move(self, action):
        return str(action)

    def view(self, state, seat):
        return SecretView(
            seat,
            tuple(v if s == seat else None for s, v in enumerate(state.secrets)),
            state.picks,
        )

    def sample(self, view, rng):
        """The seat's own secret, the others drawn afresh; seats pick in turn from 0."""
        secrets = []
        for value in view.secrets:
            if value is None:
                drawn, rng = rng.below(900)
                value = 100 + drawn
            secrets.append(value)
        return SecretState(tuple(secrets), len(view.picks) % 2, view.picks, rng)

    def is_over(self, state):
        return len(state.picks) >= 6

    def result(self, state):
        scores = tuple(sum(state.picks[s::2]) for s in range(2))
        return Result(scores, tuple(1 + (scores[s] < scores[1 - s]) for s in range(2)))

    def state_to_dict(self, state):
        return {
            "secrets": list(state.secrets),
            "turn": state.turn,
            "picks": list(state.picks),
            "rng": state.rng.state,
        }

    def state_from_dict(self, data):
        return SecretState(
            tuple(data["secrets"]), data["turn"], tuple(data["picks"]), Rng(data["rng"])
        )


def draw(view: SecretView, names) -> bytes:
    """Writes every value the view holds into the picture, secrets included if present."""
    image = Image.new("RGB", (300, 60), "white")
    ImageDraw.Draw(image).text((5, 5), repr(view), fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def secrets_game(monkeypatch, service):
    monkeypatch.setitem(engine.GAMES, "secrets", Secrets())
    looks = Looks(draw, lambda view, names: "Secrets board.", lambda view, seat: None, lambda: None)
    monkeypatch.setitem(renders.LOOKS, "secrets", looks)
    service.context.images = True
    return service


async def test_public_replies_use_the_spectator_view_and_the_mover_gets_their_own(secrets_game):
    service = secrets_game
    await service.lobby.create(TABLE, ADA, "secrets")
    await service.lobby.join(TABLE, BOB)
    start = await service.lobby.start(TABLE, ADA)
    state = Secrets().new(2, None, 12345)
    ada_secret, bob_secret = state.secrets
    public_png = Image.open(io.BytesIO(start.image))
    spectator = Image.open(io.BytesIO(draw(Secrets().view(state, None), [])))
    assert public_png.tobytes() == spectator.tobytes(), "public image = spectator view"

    moved = await service.play.move(TABLE, ADA, "2")
    assert str(ada_secret) not in moved.text and str(bob_secret) not in moved.text
    assert not moved.private
    mine = moved.followup
    assert mine is not None and mine.private
    assert f"Your secret is {ada_secret}." in mine.text
    own = Image.open(io.BytesIO(mine.image))
    expected = Image.open(
        io.BytesIO(draw(Secrets().view(replace(state, picks=(2,), turn=1), 0), []))
    )
    assert own.tobytes() == expected.tobytes(), "the follow-up is Ada's own view"

    hand = await service.play.hand(TABLE, BOB)
    assert hand.private and str(ada_secret) not in hand.text
    bob_view = Image.open(io.BytesIO(hand.image))
    assert bob_view.tobytes() != own.tobytes()

    history = await service.looking.history(TABLE)
    assert str(ada_secret) not in history.text and str(bob_secret) not in history.text


async def test_hand_shows_the_public_board_where_nothing_is_hidden_and_refuses_non_players(
    secrets_game,
):
    service = secrets_game
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    shown = await service.play.hand(TABLE, ADA)
    assert shown.private and "Nothing is hidden in Skybridge" in shown.text
    assert shown.image == (await service.looking.board(TABLE)).image, "the board everyone sees"
    await service.lobby.abandon(TABLE, ADA)
    await service.lobby.create(TABLE, ADA, "secrets")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    with pytest.raises(Refused, match="not playing"):
        await service.play.hand(TABLE, CY)


async def test_a_game_without_a_renderer_yet_is_played_without_images(secrets_game, monkeypatch):
    monkeypatch.delitem(renders.LOOKS, "secrets")
    service = secrets_game
    await service.lobby.create(TABLE, ADA, "secrets")
    await service.lobby.join(TABLE, BOB)
    start = await service.lobby.start(TABLE, ADA)
    assert start.image is None and start.playable
    moved = await service.play.move(TABLE, ADA, "1")
    assert moved.image is None and moved.followup.image is None


async def test_a_game_with_personal_sheets_sends_the_mover_theirs(service):
    """Seven Bridges hides nothing, but each player draws on their own sheet: it comes
    to the mover privately after each move and on request."""
    await service.lobby.create(TABLE, ADA, "seven-bridges")
    await service.lobby.join(TABLE, BOB)
    start = await service.lobby.start(TABLE, ADA)
    mover = ADA if start.awaiting == (ADA.user_id,) else BOB
    moved = await service.play.move(TABLE, mover, (await service.play.legal_moves(TABLE, mover))[0])
    assert moved.followup is not None and moved.followup.private
    assert (await service.play.hand(TABLE, mover)).private
