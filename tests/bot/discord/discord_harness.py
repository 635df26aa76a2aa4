"""Layer 2 of TESTING.md: the real bot, command tree, views and interactions, in process.

:class:`Harness` builds :class:`~bot.discord.client.Bridgekeeper` exactly as production does (a
:class:`~bot.service.Service` over a real SQLite file, real Pillow renders), logs it in for
real (``await bot.login(...)`` runs ``setup_hook``: cog, dynamic items, ``tree.sync``) and
feeds raw gateway payloads to ``bot._connection.parsers``: ``READY``, ``GUILD_CREATE`` and
one ``INTERACTION_CREATE`` per slash command, autocomplete or button click.

Both REST paths of discord.py are patched into one recorder that answers like Discord:

* ``discord.http.HTTPClient.request`` — bot-token calls (login, command sync, channel sends);
* ``discord.webhook.async_.AsyncWebhookAdapter.request`` — every interaction reply
  (the ``?with_response=1`` callback, follow-ups, ``@original`` edits).

The fake enforces Discord's own rules and fails the test when the bot breaks one: each
interaction acknowledged exactly once (40060) and within 3 s (10062), follow-ups only after
the acknowledgement, content <= 2000 characters, <= 25 autocomplete choices, <= 5 rows of
<= 5 components, custom ids <= 100 characters and unique per message. It also fails the
test when discord.py logged an ERROR (it logs and swallows exceptions in commands and
views) and when an interaction was never answered (Discord shows "This interaction failed").

Direct messages go through the same doors (``GET /users/{id}``, ``POST /users/@me/channels``,
then a send to the DM channel): ``h.dms(user_id)`` lists what the bot sent someone by itself
(and did not delete since), ``h.closed_dms`` holds users whose DMs Discord refuses (403,
50007) and ``h.gone_channels`` channels deleted under the bot (404, 10003). A button on an
answer where only a user's install reaches (a server without the bot, a group DM) is pressed
through that install, as Discord sends it. A user option (``player=ADA``) is sent as Discord
does: the id as value, the user and member in ``resolved``.

Use it as ``async with Harness(tmp_path / "bot.db") as h:`` or through the ``harness``
fixture in the test module; then ``await h.slash("game", "new", game="skybridge", user=ADA)``,
``await h.autocomplete("move", "notation", "red", user=BOB)`` or ``await h.click(custom_id,
user=ADA)``, each returning the :class:`Reply` objects of that one interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import discord
import discord.http
import discord.webhook.async_
from discord.utils import time_snowflake
from PIL import Image

from bot.discord.callers import jump_link
from bot.discord.client import Bridgekeeper
from bot.discord.delivery import PLACEHOLDER
from bot.service import Caller, Service
from bot.store import SQLiteStore, Store, utcnow
from tests.bot.discord.discord_limits import (
    BUTTON,
    COMPONENTS_V2,
    CONTAINER,
    ROW,
    autocomplete_problems,
    command_problems,
    components_of,
    message_problems,
    text,
    text_of,
    undescribed,
)
from tests.bot.discord.fake_discord_server import user_payload

APP_ID = 4_242_424_242
BOT_NAME = "Bridgekeeper"
GUILD_ID = 9001  # the same table as tests/conftest.py: TABLE
CHANNEL_ID = 5001
OTHER_CHANNEL_ID = 5002
THREAD_ID = 5101  # a thread in #games, created after the bot started: not in its cache
DM_CHANNEL_ID = 7001  # a user's DM channel with the bot
GROUP_DM_ID = 7501  # a group DM of some users: the bot is no member, only a user's install
OTHER_GUILD_ID = 9002  # a server that never added the bot: only a user's install reaches it
OTHER_GUILD_CHANNEL_ID = 5901  # a channel of that server
#: where only a person's own install of the app can be used, and the bot cannot post
OUT_OF_REACH = {GROUP_DM_ID, OTHER_GUILD_CHANNEL_ID}
CHANNELS = {CHANNEL_ID: "games", OTHER_CHANNEL_ID: "more-games"}

EPHEMERAL = 64
MANAGE_GUILD = 0x20
ATTACHMENT_LIMIT = 10 * 1024 * 1024
# view channel, send messages, embed links, attach files, read history, use app commands
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
# + manage, create and send in threads, pin messages: what the invite asks for
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 34) | (1 << 35) | (1 << 38) | (1 << 51)
SEND, ATTACH, MANAGE_THREADS, CREATE_THREADS, SEND_IN_THREADS, PIN = (
    1 << 11, 1 << 15, 1 << 34, 1 << 35, 1 << 38, 1 << 51
)  # fmt: skip
#: what a user's install may do where the bot is no member: embed links and attach files
USER_APP_PERMISSIONS = (1 << 14) | ATTACH

ACK_DEADLINE = 3.0  # seconds Discord waits for the callback
FOLLOWUP_WINDOW = 15 * 60.0  # seconds an interaction's token takes follow-ups and edits
SETTLE_TIMEOUT = 10.0  # seconds the harness waits for the bot's tasks

# Discord's interaction callback types
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE = 8
MODAL = 9
CALLBACK_TYPES = {
    PONG,
    CHANNEL_MESSAGE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    AUTOCOMPLETE,
    MODAL,
}

_MENTION = re.compile(r"<@!?(\d+)>")


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def pinged(payload: dict) -> set[int]:
    """Whom a message created from ``payload`` notifies: the users written as ``<@id>``
    in its text (content or card) whom ``allowed_mentions`` lets through."""
    mentioned = {int(m) for m in _MENTION.findall(text(payload))}
    allowed = payload.get("allowed_mentions")
    if allowed is None or "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


# -- what the tests read ---------------------------------------------------------------------


@dataclass(frozen=True)
class SentFile:
    """An attachment as Discord received it: the bytes are kept so tests can decode them."""

    filename: str
    data: bytes

    def image(self) -> Image.Image:
        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img


@dataclass(frozen=True)
class Button:
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None = None  # a link button's address


@dataclass(frozen=True)
class Select:
    """A select menu as sent: its id and its options as (value, label, description)."""

    custom_id: str
    placeholder: str | None
    options: list[tuple[str, str, str | None]]

    def value(self, label: str) -> str:
        found = [v for v, shown, _ in self.options if shown == label]
        assert found, f"no option {label!r}; options: {[o[1] for o in self.options]}"
        return found[0]


@dataclass
class Reply:
    """One thing a user would see come back from one interaction.

    ``kind`` is ``"message"`` (a new message: callback type 4 or a follow-up), ``"update"``
    (the message the button was on was edited: callback type 7 or an ``@original`` edit)
    or ``"autocomplete"`` (suggestions). A silent acknowledgement of a click is no reply,
    nor is a deferred command's "thinking…" placeholder: what replaces it is, as a
    ``"message"`` (the asker sees it appear there) that was not ``created`` but edited.
    """

    kind: str
    callback_type: int | None
    content: str | None
    ephemeral: bool
    files: list[SentFile]
    components: list[dict] | None  # the rows sent; None when the reply left them unchanged
    allowed_mentions: dict | None
    choices: list[dict] | None
    message_id: int | None
    payload: dict
    created: bool = True  # False when an edit produced it: Discord notifies nobody then

    @property
    def text(self) -> str:
        """What the message says: its content, or a card's text displays."""
        if self.card is not None or (self.payload.get("flags") or 0) & COMPONENTS_V2:
            return "\n".join(text_of(self.components or []))
        return self.content or ""

    @property
    def card(self) -> dict | None:
        """The container of a Components v2 card, or None for a classic message."""
        found = [c for c in self.components or [] if c.get("type") == CONTAINER]
        return found[0] if found else None

    @property
    def accent(self) -> int | None:
        """A card's accent colour (``0xRRGGBB``), or None."""
        return (self.card or {}).get("accent_color")

    @property
    def layout(self) -> list[str]:
        """A card's parts top to bottom, as a reader meets them: ``text``, ``gallery``
        (with its ``attachment://`` names), ``buttons`` (their labels)."""
        shown = []
        for part in (self.card or {}).get("components", []):
            kind = part.get("type")
            if kind == 10:
                shown.append("text")
            elif kind == 12:
                urls = ", ".join(i["media"]["url"] for i in part.get("items", []))
                shown.append(f"gallery {urls}")
            elif kind == ROW:
                labels = ", ".join(c.get("label") or "?" for c in part.get("components", []))
                shown.append(f"buttons {labels}")
            else:
                shown.append(f"type {kind}")
        return shown

    @property
    def rows(self) -> list[list[Button]]:
        """The action rows, wherever they sit (a card's are inside its container)."""
        return [
            [
                Button(
                    c.get("custom_id"),
                    c.get("label"),
                    c.get("style", 0),
                    bool(c.get("disabled")),
                    (c.get("emoji") or {}).get("name"),
                    c.get("url"),
                )
                for c in row.get("components", [])
                if c.get("type") == BUTTON
            ]
            for row in components_of(self.components or [])
            if row.get("type") == ROW
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                c["custom_id"],
                c.get("placeholder"),
                [(o["value"], o["label"], o.get("description")) for o in c.get("options", [])],
            )
            for c in components_of(self.components or [])
            if c.get("type") == 3
        ]

    @property
    def buttons(self) -> list[Button]:
        return [b for row in self.rows for b in row]

    @property
    def custom_ids(self) -> list[str]:
        return [b.custom_id for b in self.buttons if b.custom_id]

    @property
    def labels(self) -> list[str]:
        return [b.label or "" for b in self.buttons]

    def button(self, label: str) -> Button:
        found = [b for b in self.buttons if b.label == label]
        assert found, f"no button labelled {label!r}; buttons: {self.labels}"
        return found[0]

    @property
    def choice_values(self) -> list[str]:
        return [c["value"] for c in self.choices or []]

    @property
    def images(self) -> list[Image.Image]:
        return [f.image() for f in self.files if f.filename.lower().endswith(".png")]

    @property
    def mentioned(self) -> set[int]:
        """Users written as ``<@id>`` in the text (content or card)."""
        return {int(m) for m in _MENTION.findall(self.text)}

    @property
    def pings_everyone(self) -> bool:
        """Whether ``@everyone``/``@here`` in the text would notify the whole server."""
        if self.ephemeral or not re.search(r"@(everyone|here)\b", self.text):
            return False
        allowed = self.allowed_mentions
        return allowed is None or "everyone" in allowed.get("parse", [])

    @property
    def pinged(self) -> set[int]:
        """The users Discord would actually notify, following ``allowed_mentions``: nobody
        for an ephemeral message or an edit (a mention added by an edit pings nobody)."""
        if self.ephemeral or not self.created:
            return set()
        mentioned = self.mentioned
        allowed = self.allowed_mentions
        if allowed is None or "users" in allowed.get("parse", []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users", [])}


class Replies(list[Reply]):
    """The replies to one interaction, in the order the bot sent them."""

    @property
    def one(self) -> Reply:
        assert len(self) == 1, f"expected exactly one reply, got {len(self)}: {self!r}"
        return self[0]

    @property
    def messages(self) -> list[Reply]:
        return [r for r in self if r.kind == "message"]

    @property
    def public(self) -> list[Reply]:
        return [r for r in self if r.kind == "message" and not r.ephemeral]

    @property
    def text(self) -> str:
        return "\n".join(r.text for r in self)

    @property
    def board(self) -> Reply:
        """The one public card (a board) these replies posted."""
        cards = [r for r in self.public if r.card is not None]
        assert len(cards) == 1, f"expected one public card, got {self!r}"
        return cards[0]

    @property
    def ping(self) -> Reply | None:
        """The plain message right before the card that pings whoever it pings (a card
        pings nobody: discord-api-docs#7854), or None when nobody is pinged."""
        public = self.public
        at = public.index(self.board)
        before = public[at - 1] if at else None
        if before is None or before.card is not None or not before.pinged:
            assert not any(r.pinged for r in public), f"a ping not before the card: {self!r}"
            return None
        return before

    @property
    def pinged(self) -> set[int]:
        """Everyone any of these replies notifies."""
        return {user for r in self for user in r.pinged}


@dataclass
class Call:
    """One REST request as the bot made it."""

    via: str  # "http" (bot token) or "webhook" (interaction token)
    method: str
    path: str  # the route template, e.g. /interactions/{webhook_id}/{webhook_token}/callback
    url: str
    params: dict | None
    payload: Any
    files: list[SentFile]
    status: int = 200
    error: str | None = None
    ephemeral: bool = False  # the message it created or edited is seen by one user only

    @property
    def message(self) -> dict:
        """The message payload it sends (an interaction callback's ``data``)."""
        return (self.payload or {}).get("data", self.payload) if self.payload else {}

    @property
    def text(self) -> str:
        """What the message it sends says (content or card text), see :func:`text`."""
        return text(self.message)

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of its components, wherever they sit (a card's too)."""
        found = components_of(self.message.get("components") or [])
        return [c["custom_id"] for c in found if "custom_id" in c]


@dataclass
class Fed:
    """An interaction fed in, and what became of it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    fed_at: float
    message_id: int | None = None  # the message a clicked component is on
    ack_type: int | None = None
    original_message_id: int | None = None
    loading: bool = False  # a "thinking…" placeholder waits for the answer
    expired: bool = False  # fed already past Discord's 3 s: every answer gets 10062
    replies: Replies = field(default_factory=Replies)


class DiscordError(discord.HTTPException):
    """What the fake answers when the bot breaks one of Discord's rules."""

    def __init__(self, status: int, code: int, message: str) -> None:
        reason = {400: "Bad Request", 404: "Not Found", 413: "Payload Too Large"}.get(status, "")
        super().__init__(
            SimpleNamespace(status=status, reason=reason), {"code": code, "message": message}
        )


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def formatted(self) -> str:
        fmt = logging.Formatter("%(levelname)s %(name)s: %(message)s")
        return "\n".join(fmt.format(r) for r in self.records)


# -- the harness -----------------------------------------------------------------------------


def _old_component(custom_id: str, data: dict) -> dict:
    """A component the harness never saw sent, as an older deployment might have posted."""
    if data["component_type"] == 3:
        options = [{"label": v, "value": v} for v in data["values"]]
        return {"type": 3, "custom_id": custom_id, "options": options}
    return {"type": 2, "style": 1, "label": "Play", "custom_id": custom_id}


def _user_of(user: Any) -> tuple[int, str, bool]:
    """(id, name, manager) of a conftest ``Caller`` or anything with ``id``/``name``."""
    user_id = getattr(user, "user_id", None) or user.id
    return int(user_id), str(user.name), bool(getattr(user, "manager", False))


def _command_options(command: dict, path: Iterable[str]) -> tuple[dict, list[dict]]:
    """Walk sub-commands; returns (the leaf's definition, the option list to fill)."""
    node = command
    for name in path:
        subs = [o for o in node.get("options", []) if o["type"] in (1, 2) and o["name"] == name]
        assert subs, f"/{command['name']} has no sub-command {name!r}"
        node = subs[0]
    return node, node.get("options", [])


def _sendable(spec: dict, value: Any) -> bool:
    """Whether the Discord client lets a user give ``value`` to the option ``spec``: a
    number within its min and max, true or false for a switch, text for a string."""
    kind = spec["type"]
    if kind == 5:
        return isinstance(value, bool)
    if kind in (4, 10):
        number = isinstance(value, int if kind == 4 else (int, float))
        low, high = spec.get("min_value"), spec.get("max_value")
        return (
            number
            and not isinstance(value, bool)
            and (low is None or value >= low)
            and (high is None or value <= high)
        )
    return not isinstance(value, (bool, int, float)) if kind == 3 else True


class Harness:
    """Discord, faked at discord.py's two REST doors and its gateway parsers."""

    def __init__(
        self,
        db_path: str | Path,
        *,
        images: bool = True,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.db_path = Path(db_path)
        self.images = images
        self.clock = clock  # the store's: timers read it (Discord's own 3 s stay real)
        self.calls: list[Call] = []
        self.pinned: list[int] = []  # message ids, in the order they were pinned
        self.deleted: set[int] = set()  # messages a person deleted (see delete_message)
        self.thread_edits: list[dict] = []  # what the bot changed on the thread
        self.threads_opened: list[dict] = []  # threads the bot created
        self.violations: list[str] = []
        self.messages: dict[int, dict] = {}  # message id -> the message as Discord keeps it
        self.message_owner: dict[int, int] = {}  # ephemeral message id -> the one who sees it
        self.fed: dict[str, Fed] = {}  # by token
        self.commands: list[dict] = []  # as last synced
        self.syncs: list[list[dict]] = []
        self.bot: Bridgekeeper | None = None
        self.store: Store | None = None
        self.service: Service | None = None
        self._ids = itertools.count(1)
        self._patches = contextlib.ExitStack()  # undone in close(), whatever happens
        self._errors = _ErrorLog()
        self._loggers = [logging.getLogger(n) for n in ("discord", "bot", "asyncio")]
        self._tasks_before: set[asyncio.Task] = set()
        self.restarts = 0
        self.closed_dms: set[int] = set()  # users who accept no DMs from the bot
        self.gone_channels: set[int] = set()  # channels deleted while the bot was running
        self.posted: list[int] = []  # messages the bot sent by itself (not answering anyone)
        #: what the bot may do in every channel: take bits away to see it cope
        self.bot_permissions = BOT_PERMISSIONS

    # -- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close(check=exc_info[0] is None)

    async def start(self) -> None:
        self._tasks_before = set(asyncio.all_tasks())
        for logger in self._loggers:
            logger.addHandler(self._errors)
        # both REST doors of discord.py lead to the same recorder
        self._patches.enter_context(
            patch.object(discord.http.HTTPClient, "request", self._fake_http_request())
        )
        self._patches.enter_context(
            patch.object(
                discord.webhook.async_.AsyncWebhookAdapter, "request", self._fake_webhook_request()
            )
        )
        await self._boot()

    async def _boot(self) -> None:
        self.store = await SQLiteStore.open(self.db_path, clock=self.clock)
        # as bot/hosting/running.py builds it, with a fixed seed so games are repeatable
        self.service = Service(self.store, link=jump_link, seed=lambda: 12345)
        self.service.context.images = self.images
        self.bot = Bridgekeeper(
            self.service, shard_ids=[0], shard_count=1, guild_ready_timeout=0.05
        )
        await self.bot.login("fake-token")  # GET /users/@me, GET /oauth2/..., setup_hook
        # what launching the shards would set: the harness feeds shard 0's events itself
        self.bot._connection.shard_count = 1
        self.bot._connection.shard_ids = [0]
        parsers = self.bot._connection.parsers
        parsers["READY"](self._ready_payload())
        parsers["GUILD_CREATE"](self._guild_payload())
        await asyncio.wait_for(self.bot.wait_until_ready(), timeout=5)
        self.check()

    async def restart(self) -> None:
        """Stop the bot and start a brand-new one on the same database file."""
        await self._shutdown()
        self.restarts += 1
        await self._boot()

    async def _shutdown(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            self.bot = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def close(self, *, check: bool = True) -> None:
        try:
            await self._shutdown()
            current = asyncio.current_task()
            leftovers = [
                t
                for t in asyncio.all_tasks()
                if t not in self._tasks_before and t is not current and not t.done()
            ]
            for task in leftovers:  # e.g. the 15-minute timeouts of ephemeral views
                task.cancel()
            await asyncio.gather(*leftovers, return_exceptions=True)
        finally:
            self._patches.close()
            for logger in self._loggers:
                logger.removeHandler(self._errors)
        if check:
            self.check()

    def check(self) -> None:
        """Fail the test on any ERROR discord.py (or the bot) logged, or any rule broken."""
        problems = []
        if self._errors.records:
            problems.append("logged at ERROR:\n" + self._errors.formatted())
        if self.violations:
            problems.append("broke Discord's rules:\n" + "\n".join(self.violations))
        if problems:
            self._errors.records.clear()
            self.violations.clear()
            raise AssertionError("\n".join(problems))

    # -- ids and payloads ------------------------------------------------------------------

    def snowflake(self) -> int:
        return time_snowflake(datetime.now(UTC)) + next(self._ids)

    def _bot_user(self) -> dict:
        return user_payload(APP_ID, BOT_NAME, bot=True)

    def _ready_payload(self) -> dict:
        return {
            "v": 10,
            "user": {**self._bot_user(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": f"session-{self.restarts}",
            "shard": [0, 1],  # the sharded client's one shard: what Discord sends it
            "resume_gateway_url": "wss://gateway.discord.invalid",
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _channel_payload(self, channel_id: int) -> dict:
        if channel_id == THREAD_ID:
            return self._thread_payload()
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": CHANNELS.get(channel_id, f"channel-{channel_id}"),
            "position": list(CHANNELS).index(channel_id) if channel_id in CHANNELS else 9,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def _thread_payload(self) -> dict:
        """The partial channel Discord puts in an interaction from a public thread."""
        return {
            "id": str(THREAD_ID),
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": str(CHANNEL_ID),
            "owner_id": "1001",
            "name": "skybridge-rematch",
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 3,
            "member_count": 2,
            "total_message_sent": 3,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": now_iso(),
                "locked": False,
                "create_timestamp": now_iso(),
            },
            "permissions": str(MEMBER_PERMISSIONS),
        }

    def _guild_payload(self) -> dict:
        return {
            "id": str(GUILD_ID),
            "name": "Bridge Club",
            "icon": None,
            "owner_id": "1",
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "channels": [self._channel_payload(c) for c in CHANNELS],
            "threads": [],
            "members": [
                {
                    "user": self._bot_user(),
                    "roles": [],
                    "joined_at": now_iso(),
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "member_count": 5,
            "unavailable": False,
            "large": False,
            "joined_at": now_iso(),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def _member_payload(self, user: Any) -> dict:
        user_id, name, manager = _user_of(user)
        permissions = MEMBER_PERMISSIONS | (MANAGE_GUILD if manager else 0)
        return {
            "user": user_payload(user_id, name),
            "roles": [],
            "nick": None,
            "avatar": None,
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "permissions": str(permissions),
        }

    def _interaction_payload(
        self, kind: int, user: Any, channel_id: int, data: dict, *, user_install: bool = False
    ) -> dict:
        """An interaction as Discord sends it. ``user_install``: run through the app the
        user installed to their account (the only way in a group DM or a server that has
        not added the bot), so only the user, not the server, authorised it."""
        iid = self.snowflake()
        payload = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"itoken-{iid}",
            "version": 1,
            "locale": "en-GB",
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_LIMIT,
            "data": data,
        }
        user_id, name, _ = _user_of(user)
        assert user_install or channel_id not in OUT_OF_REACH, "only a user's install works there"
        owners = {"1": str(user_id)} if user_install else {}
        if channel_id == GROUP_DM_ID:
            payload.update(
                {
                    "channel_id": str(channel_id),
                    "channel": {
                        "id": str(channel_id),
                        "type": 3,
                        "name": "weekend plans",
                        "owner_id": str(user_id),
                        "icon": None,
                        "last_message_id": None,
                        "flags": 0,
                        "recipients": [user_payload(user_id, name), user_payload(1099, "Pal")],
                    },
                    "user": user_payload(user_id, name),
                    "app_permissions": str(USER_APP_PERMISSIONS),  # what an app gets there
                    "authorizing_integration_owners": owners,
                    "context": 2,  # PRIVATE_CHANNEL
                }
            )
            return payload
        if channel_id in (DM_CHANNEL_ID, DM_CHANNEL_ID + user_id):  # the user's DM with the bot
            payload.update(
                {
                    "channel_id": str(channel_id),
                    "channel": {
                        "id": str(channel_id),
                        "type": 1,
                        "last_message_id": None,
                        "flags": 0,
                        "recipients": [user_payload(user_id, name)],
                    },
                    "user": user_payload(user_id, name),
                    "app_permissions": str(self.bot_permissions),
                    "authorizing_integration_owners": owners or {"0": "0"},
                    "context": 1,  # BOT_DM
                }
            )
            return payload
        guild_id = OTHER_GUILD_ID if channel_id == OTHER_GUILD_CHANNEL_ID else GUILD_ID
        if guild_id == GUILD_ID:
            owners["0"] = str(GUILD_ID)  # the server added the bot
        channel = self._channel_payload(channel_id)
        payload.update(
            {
                "guild_id": str(guild_id),
                "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
                "channel_id": str(channel_id),
                "channel": {**channel, "guild_id": str(guild_id)},
                "member": self._member_payload(user),
                "app_permissions": str(
                    self.bot_permissions if guild_id == GUILD_ID else USER_APP_PERMISSIONS
                ),
                "guild_locale": "en-US",
                "authorizing_integration_owners": owners,
                "context": 0,  # GUILD
            }
        )
        return payload

    # -- feeding interactions ---------------------------------------------------------------

    def offered_in_dms(self, name: str) -> bool:
        """Whether Discord shows the synced command ``name`` in a DM with the bot."""
        spec = self._command(name)
        contexts = spec.get("contexts")
        return spec.get("dm_permission") is not False and (contexts is None or 1 in contexts)

    def mention(self, name: str) -> str:
        """How Discord writes the synced command ``name`` (``game board``) to be clicked:
        with the id this fake gave it at sync."""
        return f"</{name}:{self._command(name.split()[0])['id']}>"

    def _command(self, name: str) -> dict:
        found = [c for c in self.commands if c["name"] == name]
        assert found, f"/{name} was not synced; synced: {[c['name'] for c in self.commands]}"
        return found[0]

    def _options(self, command: dict, path: list[str], values: dict[str, Any], focused: str | None):
        _, defined = _command_options(command, path)
        by_name = {o["name"]: o for o in defined}
        options = []
        for name, value in values.items():
            assert name in by_name, f"/{command['name']} {' '.join(path)} has no option {name!r}"
            spec = by_name[name]
            choices = [c["value"] for c in spec.get("choices", [])]
            if name != focused:  # the Discord client cannot send anything else
                assert not choices or value in choices, f"{value!r} is not one of {choices}"
                assert _sendable(spec, value), f"Discord sends no {value!r} as {name}: {spec}"
            option = {"type": spec["type"], "name": name, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        if focused is None:
            missing = [o["name"] for o in defined if o.get("required") and o["name"] not in values]
            assert not missing, f"the Discord client requires {missing}"
        for name in reversed(path):
            options = [{"type": 1, "name": name, "options": options}]
        return options

    async def slash(
        self,
        command: str,
        *path_and_values: str,
        user: Any,
        channel: int = CHANNEL_ID,
        expired: bool = False,
        user_install: bool = False,
        **values: Any,
    ) -> Replies:
        """``/command [subcommand …] option=value …`` typed by ``user``; its replies.
        ``expired``: it reaches the bot after Discord gave up on it (see :meth:`feed`).
        ``user_install``: through the app ``user`` installed to their own account."""
        spec = self._command(command)
        if channel == DM_CHANNEL_ID:
            assert self.offered_in_dms(command), f"Discord does not offer /{command} in DMs"
        if user_install:
            assert 1 in (spec.get("integration_types") or [0]), f"/{command}: no user install"
        dms = (DM_CHANNEL_ID, DM_CHANNEL_ID + _user_of(user)[0])
        context = 2 if channel == GROUP_DM_ID else 1 if channel in dms else 0
        if spec.get("contexts") is not None:
            assert context in spec["contexts"], f"Discord does not offer /{command} there"
        users = {k: v for k, v in values.items() if isinstance(v, (Caller, discord.abc.User))}
        values = {k: str(_user_of(v)[0]) if k in users else v for k, v in values.items()}
        data = {
            "id": spec["id"],
            "name": command,
            "type": 1,
            "options": self._options(spec, list(path_and_values), values, None),
        }
        if users:  # a user option arrives as an id, its user and member in ``resolved``
            members = {str(_user_of(u)[0]): self._member_payload(u) for u in users.values()}
            data["resolved"] = {
                "users": {uid: m.pop("user") for uid, m in members.items()},
                "members": members,
            }
        payload = self._interaction_payload(2, user, channel, data, user_install=user_install)
        return await self.feed(payload, expired=expired)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *path: str,
        user: Any,
        channel: int = CHANNEL_ID,
        **others: Any,
    ) -> Reply:
        """What Discord shows while ``user`` types ``typed`` into ``option``."""
        spec = self._command(command)
        data = {
            "id": spec["id"],
            "name": command,
            "type": 1,
            "options": self._options(spec, list(path), {**others, option: typed}, option),
        }
        replies = await self.feed(self._interaction_payload(4, user, channel, data))
        reply = replies.one
        assert reply.kind == "autocomplete", reply
        return reply

    def _new_thread(self, parent_id: int, data: dict) -> dict:
        """A public thread the bot opened in ``parent_id`` (league matches live in one)."""
        thread = {
            **self._thread_payload(),
            "id": str(time_snowflake(datetime.now(UTC)) + len(self.threads_opened)),
            "parent_id": str(parent_id),
            "name": data["name"],
            "owner_id": str(APP_ID),
        }
        self.threads_opened.append(thread)
        return thread

    def delete_message(self, message_id: int) -> None:
        """A message is deleted (by a person, or by the bot through Discord's ``DELETE``):
        the bot's later edits of it get Discord's 404."""
        del self.messages[message_id]
        self.deleted.add(message_id)

    def find_message(self, custom_id: str) -> dict | None:
        """The newest message carrying a component with this custom id."""
        for message in reversed(self.messages.values()):
            for c in components_of(message.get("components", [])):
                if c.get("custom_id") == custom_id:
                    return message
        return None

    async def click(
        self,
        custom_id: str,
        *,
        user: Any,
        message: dict | None = None,
        channel: int = CHANNEL_ID,
        expired: bool = False,
    ) -> Replies:
        """``user`` presses the button ``custom_id`` (on the newest message showing it)."""
        data = {"component_type": 2}
        return await self._component(custom_id, data, user, message, channel, expired)

    async def choose(
        self,
        custom_id: str,
        *values: str,
        user: Any,
        message: dict | None = None,
        channel: int = CHANNEL_ID,
    ) -> Replies:
        """``user`` picks ``values`` in the select menu ``custom_id``."""
        data = {"component_type": 3, "values": list(values)}
        return await self._component(custom_id, data, user, message, channel)

    async def _component(
        self,
        custom_id: str,
        data: dict,
        user: Any,
        message: dict | None,
        channel: int,
        expired: bool = False,
    ) -> Replies:
        if message is None:
            message = self.find_message(custom_id)
        if message is None:
            # a button the harness never saw sent: as if posted by an older deployment
            mid = self.snowflake()
            message = self._message_payload(
                mid,
                channel,
                {
                    "content": "An old board",
                    "components": [{"type": 1, "components": [_old_component(custom_id, data)]}],
                },
                [],
            )
            self.messages[mid] = message
        owner = self.message_owner.get(int(message["id"]))
        user_id = _user_of(user)[0]
        assert owner in (None, user_id), (
            f"message {message['id']} is ephemeral: only user {owner} sees its buttons"
        )
        for c in components_of(message.get("components", [])):
            if c.get("custom_id") == custom_id and c.get("type") == 3:
                offered = {o["value"] for o in c.get("options", [])}
                assert set(data["values"]) <= offered, "Discord sends only offered values"
        data = {"custom_id": custom_id, **data}
        channel = int(message["channel_id"])
        # a button on an answer where only the user's install reaches is theirs to press
        payload = self._interaction_payload(
            3, user, channel, data, user_install=channel in OUT_OF_REACH
        )
        payload["message"] = json.loads(json.dumps(message))
        return await self.feed(payload, expired=expired)

    async def feed(
        self, payload: dict, *, expect_answer: bool = True, expired: bool = False
    ) -> Replies:
        """Hand ``INTERACTION_CREATE`` to discord.py as the gateway would; wait for the bot.

        ``expired``: Discord already gave up on this interaction (it reached a lagging bot
        after its 3 seconds): every answer through it is refused with 10062, and the
        user is left with "This interaction failed".
        """
        assert self.bot is not None, "the bot is not running"
        fed = Fed(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=int((payload.get("member") or payload)["user"]["id"]),
            channel_id=int(payload["channel_id"]),
            fed_at=time.monotonic(),
            message_id=int(payload["message"]["id"]) if "message" in payload else None,
            expired=expired,
        )
        self.fed[fed.token] = fed
        before = set(asyncio.all_tasks())
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        spawned = set(asyncio.all_tasks()) - before
        await asyncio.sleep(0)
        if spawned:
            _, pending = await asyncio.wait(spawned, timeout=SETTLE_TIMEOUT)
            assert not pending, f"the bot still works on interaction {fed.id} after 10 s"
        for _ in range(5):  # let any callbacks scheduled by those tasks run
            await asyncio.sleep(0)
        self.check()
        if expect_answer and not expired:
            assert fed.ack_type is not None, (
                f"interaction {payload['data']} was never answered: "
                "Discord would show 'This interaction failed'"
            )
            assert not fed.loading, (
                f"interaction {payload['data']} left its 'thinking…' placeholder unanswered"
            )
            left = self.messages.get(fed.original_message_id or 0, {}).get("content")
            assert left != PLACEHOLDER, f"interaction {payload['data']} left '{PLACEHOLDER}'"
        return fed.replies

    # -- the fake REST API ----------------------------------------------------------------

    def _fake_http_request(self):
        harness = self

        async def request(self, route, *, files=None, form=None, **kwargs):
            payload = kwargs.get("json")
            sent: list[SentFile] = []
            if form:
                payload, sent = harness._read_multipart(form)
            return await harness._handle("http", route, payload, sent, kwargs.get("params"))

        return request

    def _fake_webhook_request(self):
        harness = self

        async def request(
            self, route, session, *, payload=None, multipart=None, files=None, params=None, **kw
        ):
            sent: list[SentFile] = []
            if multipart:
                payload, sent = harness._read_multipart(multipart)
            return await harness._handle("webhook", route, payload, sent, params)

        return request

    @staticmethod
    def _read_multipart(parts: Iterable[dict]) -> tuple[Any, list[SentFile]]:
        payload = None
        files = []
        for part in parts:
            if part["name"] == "payload_json":
                payload = json.loads(part["value"])
            elif part["name"].startswith("files["):
                fp = part["value"]
                position = fp.tell()
                data = fp.read()
                fp.seek(position)
                files.append(SentFile(part.get("filename") or "file", data))
        return payload, files

    async def _handle(self, via, route, payload, files, params) -> Any:
        call = Call(via, route.method, route.path, route.url, params, payload, files)
        self.calls.append(call)
        await asyncio.sleep(0)  # a real request yields to the event loop
        try:
            return self._route(call, route)
        except DiscordError as exc:
            call.status, call.error = exc.status, f"{exc.code}: {exc.text}"
            raise

    def _refuse(self, status: int, code: int, message: str, call: Call) -> DiscordError:
        self.violations.append(f"{call.method} {call.path}: {message} (HTTP {status}, {code})")
        return DiscordError(status, code, message)

    def _route(self, call: Call, route) -> Any:
        method, path = call.method, call.path
        if (method, path) == ("GET", "/users/@me"):
            return self._bot_user()
        if (method, path) == ("GET", "/oauth2/applications/@me"):
            return self._application()
        if method == "PUT" and path in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            return self._sync(call.payload)
        if (method, path) == ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"):
            return self._callback(call, int(route.webhook_id), route.webhook_token)
        if (method, path) == ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
            return self._followup(call, route.webhook_token)
        if path in (
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        ):
            return self._webhook_message(call, route.webhook_token, call.url.rsplit("/", 1)[1])
        if (method, path) == ("POST", "/channels/{channel_id}/messages"):
            return self._channel_send(call, int(route.channel_id))
        if (method, path) == ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            return self._edit(int(call.url.rsplit("/", 1)[1]), call.payload, call)
        if (method, path) == ("DELETE", "/channels/{channel_id}/messages/{message_id}"):
            message_id = int(call.url.rsplit("/", 1)[1])
            if message_id not in self.messages:
                raise self._refuse(404, 10008, "Unknown Message", call)
            if self.messages[message_id]["author"]["id"] != self._bot_user()["id"]:
                raise self._refuse(403, 50003, "Cannot execute action on a DM channel", call)
            self.delete_message(message_id)
            return None
        if (method, path) == ("PATCH", "/channels/{channel_id}") and int(
            route.channel_id
        ) == THREAD_ID:
            self._permitted(MANAGE_THREADS, call)  # the thread is Ada's, not the bot's
            self.thread_edits.append(call.payload)
            thread = self._thread_payload()
            thread["thread_metadata"] = {**thread["thread_metadata"], **call.payload}
            return thread
        if (method, path) == ("GET", "/users/{user_id}"):
            user_id = int(call.url.rsplit("/", 1)[1])
            return user_payload(user_id, f"user{user_id}")
        if (method, path) == ("POST", "/users/@me/channels"):  # open a DM with a user
            user_id = int(call.payload["recipient_id"])
            return {
                "id": str(DM_CHANNEL_ID + user_id),
                "type": 1,
                "last_message_id": None,
                "recipients": [user_payload(user_id, f"user{user_id}")],
            }
        if (method, path) == ("POST", "/channels/{channel_id}/threads"):
            self._permitted(CREATE_THREADS, call)
            return self._new_thread(int(route.channel_id), call.payload)
        if (method, path) == ("PUT", "/channels/{channel_id}/messages/pins/{message_id}"):
            message_id = int(call.url.rsplit("/", 1)[1])
            if message_id not in self.messages:
                raise self._refuse(404, 10008, "Unknown Message", call)
            self._permitted(PIN, call)
            self.pinned.append(message_id)
            return None
        raise self._refuse(404, 0, f"the fake does not know {method} {call.url}", call)

    def _application(self) -> dict:
        return {
            "id": str(APP_ID),
            "name": BOT_NAME,
            "icon": None,
            "description": "Board games by post",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_payload(1, "Owner"),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "interactions_endpoint_url": None,
            "tags": [],
            "bot": self._bot_user(),
        }

    def _sync(self, commands: list[dict]) -> list[dict]:
        problems = [p for c in commands for p in command_problems(c)]
        if problems:
            raise self._refuse(400, 50035, "; ".join(problems), self.calls[-1])
        for missing in (m for c in commands for m in undescribed(c)):
            self.violations.append(f"{missing} has no description: Discord shows '…'")
        echoed = []
        for command in commands:
            echoed.append(
                {
                    "id": str(self.snowflake()),
                    "application_id": str(APP_ID),
                    "version": str(self.snowflake()),
                    "type": command.get("type", 1),
                    "default_member_permissions": None,
                    "dm_permission": True,
                    "nsfw": False,
                    "options": [],
                    **command,
                }
            )
        self.commands = echoed
        self.syncs.append(echoed)
        return echoed

    # -- messages --------------------------------------------------------------------------

    def _message_payload(
        self, mid: int, channel_id: int, data: dict, files: list[SentFile]
    ) -> dict:
        attachments = [
            {
                "id": str(self.snowflake()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{mid}/{f.filename}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{mid}/{f.filename}",
                "content_type": "image/png" if f.filename.endswith(".png") else None,
            }
            for f in files
        ]
        content = data.get("content") or ""
        return {
            **self._stored_components(data.get("components", []), attachments),
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID),
            "type": 0,
            "author": self._bot_user(),
            "content": content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": data.get("embeds", []),
            "pinned": False,
            "flags": data.get("flags", 0) or 0,
            "application_id": str(APP_ID),
            "webhook_id": str(APP_ID),
        }

    @staticmethod
    def _stored_components(components: list[dict], attachments: list[dict]) -> dict:
        """``components`` as Discord keeps them: each ``attachment://`` media item
        resolved to the uploaded file's address, as the message Discord returns has it."""
        urls = {a["filename"]: a for a in attachments}
        stored = json.loads(json.dumps(components))
        for component in components_of(stored):
            items = component.get("items") or []
            for media in [i.get("media") or {} for i in items] + [component.get("media") or {}]:
                name = (media.get("url") or "").removeprefix("attachment://")
                if media.get("url", "").startswith("attachment://") and name in urls:
                    found = urls[name]
                    media.update(
                        url=found["url"],
                        proxy_url=found["proxy_url"],
                        content_type=found["content_type"],
                        attachment_id=found["id"],
                    )
        return {"components": stored}

    def _check_message(
        self, data: dict, files: list[SentFile], call: Call, *, new: bool, flags: int = 0
    ) -> None:
        problems = message_problems(data, [f.filename for f in files], flags=flags)
        if problems:
            raise self._refuse(400, 50035, "; ".join(problems), call)
        content = data.get("content") or ""
        rows = data.get("components") or []
        allowed = data.get("allowed_mentions") or {}
        if "users" in allowed.get("parse", []) and allowed.get("users"):
            raise self._refuse(400, 50035, "allowed_mentions: parse users and users list", call)
        for f in files:
            if len(f.data) > ATTACHMENT_LIMIT:
                raise self._refuse(413, 40005, f"{f.filename} is too large", call)
        if new and not (content.strip() or files or rows or data.get("embeds")):
            raise self._refuse(400, 50006, "Cannot send an empty message", call)

    def _create(self, call: Call, channel_id: int, data: dict, *, owner: int | None) -> dict:
        self._check_message(data, call.files, call, new=True)
        mid = self.snowflake()
        message = self._message_payload(mid, channel_id, data, call.files)
        self.messages[mid] = message
        call.ephemeral = bool(message["flags"] & EPHEMERAL)
        if message["flags"] & EPHEMERAL and owner is not None:
            self.message_owner[mid] = owner
        return message

    def _edit(self, mid: int, data: dict | None, call: Call) -> dict:
        data = data or {}
        message = self.messages.get(mid)
        if mid in self.deleted:  # Discord's honest answer, not a broken rule
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})
        if message is None:
            raise self._refuse(404, 10008, f"Unknown Message {mid}", call)
        self._check_message(data, call.files, call, new=False, flags=message["flags"])
        updated = dict(message)
        for key, empty in (("content", ""), ("embeds", [])):
            if key in data:
                updated[key] = empty if data[key] is None else data[key]
        updated["flags"] = message["flags"] | ((data.get("flags") or 0) & COMPONENTS_V2)
        if call.files or "attachments" in data:
            # existing attachments are kept only when the edit lists them again
            listed = {str(a.get("id")) for a in data.get("attachments", [])}
            kept = [a for a in message["attachments"] if a["id"] in listed]
            fresh = self._message_payload(mid, int(message["channel_id"]), {}, call.files)
            updated["attachments"] = kept + fresh["attachments"]
        if "components" in data:
            updated.update(
                self._stored_components(data["components"] or [], updated["attachments"])
            )
        updated["edited_timestamp"] = now_iso()
        self.messages[mid] = updated
        call.ephemeral = bool(updated["flags"] & EPHEMERAL)
        return updated

    def _reply(
        self, kind: str, call: Call, message: dict | None, ctype: int | None = None
    ) -> Reply:
        data = call.payload.get("data", call.payload) if ctype is not None else call.payload
        data = data or {}
        flags = (message or data).get("flags", 0) or 0
        return Reply(
            kind=kind,
            callback_type=ctype,
            content=data.get("content") if message is None else message.get("content"),
            ephemeral=bool(flags & EPHEMERAL),
            files=list(call.files),
            components=data.get("components"),
            allowed_mentions=data.get("allowed_mentions"),
            choices=data.get("choices"),
            message_id=int(message["id"]) if message else None,
            payload=data,
            created=kind != "update",
        )

    # -- interaction endpoints ------------------------------------------------------------

    def _fed_by_token(self, token: str, call: Call) -> Fed:
        fed = self.fed.get(token)
        if fed is None:
            raise self._refuse(404, 10015, "Unknown Webhook (no such interaction token)", call)
        return fed

    def _callback(self, call: Call, interaction_id: int, token: str) -> dict:
        fed = self._fed_by_token(token, call)
        if fed.id != interaction_id:
            raise self._refuse(404, 10062, "Unknown interaction", call)
        if fed.expired:  # Discord's honest answer to an interaction it has given up on
            call.status, call.error = 404, "10062: Unknown interaction"
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})
        if (call.params or {}).get("with_response") not in ("1", 1, True, "true"):
            self.violations.append("callback without ?with_response=1: discord.py 2.5+ needs it")
        if fed.ack_type is not None:
            raise self._refuse(400, 40060, "Interaction has already been acknowledged.", call)
        elapsed = time.monotonic() - fed.fed_at
        if elapsed > ACK_DEADLINE:
            late = f"Unknown interaction (answered after {elapsed:.1f} s)"
            raise self._refuse(404, 10062, late, call)
        body = call.payload or {}
        ctype = body.get("type")
        if ctype not in CALLBACK_TYPES:
            raise self._refuse(400, 50035, f"bad callback type {ctype}", call)
        data = body.get("data") or {}
        message = None
        if ctype == AUTOCOMPLETE:
            if fed.type != 4:
                raise self._refuse(400, 50035, "autocomplete result for a non-autocomplete", call)
            problems = autocomplete_problems(data.get("choices", []))
            if problems:
                raise self._refuse(400, 50035, "; ".join(problems), call)
            fed.replies.append(self._reply("autocomplete", call, None, ctype))
        elif fed.type == 4:
            raise self._refuse(400, 50035, f"callback type {ctype} to an autocomplete", call)
        elif ctype in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            if ctype == DEFERRED_MESSAGE:
                # "Bridgekeeper is thinking…" (flag 128: loading), seen by the asker only
                # when the defer said ephemeral; what replaces it is the reply
                data = {"flags": (data.get("flags", 0) or 0) | 128, "content": "…"}
                message = self._create(call, fed.channel_id, data, owner=fed.user_id)
                fed.loading = True
            else:
                message = self._create(call, fed.channel_id, data, owner=fed.user_id)
                fed.replies.append(self._reply("message", call, message, ctype))
            fed.original_message_id = int(message["id"])
        elif ctype in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            if fed.type != 3:
                raise self._refuse(400, 50035, "only a component updates its message", call)
            source = fed.message_id  # the message the button is on
            if source not in self.messages:
                raise self._refuse(404, 10008, f"Unknown Message {source}", call)
            fed.original_message_id = source
            message = self.messages[source]
            if ctype == UPDATE_MESSAGE:
                message = self._edit(source, data, call)
                fed.replies.append(self._reply("update", call, message, ctype))

        fed.ack_type = ctype
        return {
            "interaction": {
                "id": str(fed.id),
                "type": fed.type,
                "activity_instance_id": None,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": ctype == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            },
            "resource": {"type": ctype, **({"message": message} if message else {})},
        }

    def _followup(self, call: Call, token: str) -> dict:
        fed = self._fed_by_token(token, call)
        if fed.ack_type is None:
            raise self._refuse(404, 10015, "Unknown Webhook: follow-up before acknowledging", call)
        if fed.ack_type == AUTOCOMPLETE:
            raise self._refuse(400, 50035, "an autocomplete has no follow-ups", call)
        self._check_followup_window(fed, call)
        if fed.loading:
            # the first follow-up after a deferral resolves the placeholder: it becomes
            # that message, keeps its flags (ephemeral stays ephemeral) and pings nobody
            return self._resolve(fed, call)
        message = self._create(call, fed.channel_id, call.payload or {}, owner=fed.user_id)
        fed.replies.append(self._reply("message", call, message))
        return message

    def _check_followup_window(self, fed: Fed, call: Call) -> None:
        """Follow-ups and edits of an interaction's messages work for 15 minutes."""
        if fed.expired or time.monotonic() - fed.fed_at > FOLLOWUP_WINDOW:
            call.status, call.error = 401, "50027: Invalid Webhook Token"
            response = SimpleNamespace(status=401, reason="Unauthorized")
            raise discord.HTTPException(
                response, {"code": 50027, "message": "Invalid Webhook Token"}
            )

    def _resolve(self, fed: Fed, call: Call) -> dict:
        """The "thinking…" placeholder edited into the answer."""
        mid = fed.original_message_id
        assert mid is not None
        # its flags stay the placeholder's (ephemeral or not), but a card makes it one
        data = {k: v for k, v in (call.payload or {}).items() if k != "flags"}
        data["flags"] = (call.payload or {}).get("flags", 0) & COMPONENTS_V2
        message = self._edit(mid, data, call)
        message["flags"] = message["flags"] & ~128
        fed.loading = False
        reply = self._reply("message", call, message)
        reply.created = False
        fed.replies.append(reply)
        return message

    def _webhook_message(self, call: Call, token: str, which: str) -> Any:
        fed = self._fed_by_token(token, call)
        if fed.ack_type is None:
            raise self._refuse(404, 10015, "Unknown Webhook: edit before acknowledging", call)
        self._check_followup_window(fed, call)
        mid = fed.original_message_id if which == "@original" else int(which)
        if mid != fed.original_message_id and mid not in {r.message_id for r in fed.replies}:
            raise self._refuse(404, 10008, f"message {which} is not this interaction's", call)
        if mid is None or mid not in self.messages:
            raise self._refuse(404, 10008, f"Unknown Message {which}", call)
        if call.method == "GET":
            return self.messages[mid]
        if call.method == "DELETE":  # gone from the screen: no longer a reply anyone sees
            del self.messages[mid]
            fed.replies[:] = [r for r in fed.replies if r.message_id != mid]
            if mid == fed.original_message_id:
                fed.loading = False
            return None
        if mid == fed.original_message_id and fed.loading:
            return self._resolve(fed, call)
        message = self._edit(mid, call.payload, call)
        fed.replies.append(self._reply("update", call, message))
        return message

    def _channel_send(self, call: Call, channel_id: int) -> dict:
        # Discord's honest answers, not broken rules
        if channel_id - DM_CHANNEL_ID in self.closed_dms:
            call.status, call.error = 403, "50007: Cannot send messages to this user"
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(
                response, {"code": 50007, "message": "Cannot send messages to this user"}
            )
        if channel_id in OUT_OF_REACH:  # the bot is no member there
            call.status, call.error = 403, "50001: Missing Access"
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})
        if channel_id in self.gone_channels:
            call.status, call.error = 404, "10003: Unknown Channel"
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"code": 10003, "message": "Unknown Channel"})
        threads = {THREAD_ID, *(int(t["id"]) for t in self.threads_opened)}
        self._permitted(SEND_IN_THREADS if channel_id in threads else SEND, call)
        if call.files:
            self._permitted(ATTACH, call)
        message = self._create(call, channel_id, call.payload or {}, owner=None)
        self.posted.append(int(message["id"]))
        return message

    def _permitted(self, permission: int, call: Call) -> None:
        """Discord's honest 403 when the bot lacks ``permission`` in the channel."""
        if self.bot_permissions & permission:
            return
        call.status, call.error = 403, "50013: Missing Permissions"
        response = SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})

    def dms(self, user_id: int) -> list[dict]:
        """The direct messages the bot sent ``user_id`` of its own accord, oldest first."""
        dm = DM_CHANNEL_ID + user_id
        return [
            self.messages[m]
            for m in self.posted
            if m in self.messages and int(self.messages[m]["channel_id"]) == dm
        ]
