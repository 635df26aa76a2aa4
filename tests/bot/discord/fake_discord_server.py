"""A small fake Discord for layer-3 tests: REST under ``/api/v10`` and a gateway websocket.

It listens on 127.0.0.1 only, on a port the OS picks, and speaks just enough of the real
protocol for the unmodified ``bot.start(token)`` of discord.py 2.7.1:

* REST: login (``GET /users/@me``, ``GET /oauth2/applications/@me``), command sync
  (``PUT /applications/{app}/commands``), interaction callbacks (JSON or multipart,
  answered as ``?with_response=1`` asks), follow-ups, ``@original`` edits, channel
  messages, and direct messages (``POST /users/@me/channels``, then a send to the DM
  channel, which Discord refuses with 403, code 50007, for a user in
  :attr:`FakeDiscord.closed_dms`: one whose privacy settings keep the bot's DMs out).
* Gateway: HELLO -> IDENTIFY -> READY + GUILD_CREATE, HEARTBEAT -> HEARTBEAT_ACK, and
  :meth:`FakeDiscord.slash` / :meth:`FakeDiscord.click` to push INTERACTION_CREATE dispatches:
  a guild's to its shard's connection (``(guild_id >> 22) % count``), a DM's to shard 0's,
  as Discord sends them.

It enforces Discord's rules a test should trip over: every interaction acknowledged exactly
once (else 400, code 40060) and within 3 s (else 404, code 10062), follow-ups only after the
acknowledgement, message content <= 2000 characters, <= 5 component rows, <= 25 choices,
and a Components v2 card's own rules (``discord_limits``).
Every REST call is kept in :attr:`FakeDiscord.requests`, every refusal in
:attr:`FakeDiscord.rejections`, and every answered interaction in :attr:`FakeDiscord.interactions`.

JSON answers carry ``Content-Type: application/json`` exactly: discord.py reads anything else
(``application/json; charset=utf-8`` included) as text.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from tests.bot.discord.discord_limits import (
    COMPONENTS_V2,
    autocomplete_problems,
    command_problems,
    message_problems,
    text,
)

HOST = "127.0.0.1"
API = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 64

TOKEN = "fake-token"
BOT_ID = 424_200_000_000_000_001
APP_ID = BOT_ID
GUILD_ID = 9001
CHANNEL_ID = 5001
OWNER_ID = 1009
DM_CHANNELS = 7000  # a user's DM channel with the bot is this plus their id
OTHER_GUILD_ID = 9002  # a server that never added the bot: only a user's install reaches it
OTHER_GUILD_CHANNEL_ID = 5901

# gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 10, 11

# interaction callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

# permissions: view channel, send messages, embed links, attach files, read history, use commands
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
FOLLOWUP_WINDOW = 15 * 60.0  # seconds an interaction's token takes follow-ups and edits
# + manage, create and send in threads, pin messages: what the invite asks for
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 34) | (1 << 35) | (1 << 38) | (1 << 51)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
#: what a user's install may do where the bot is no member: embed links and attach files
USER_APP_PERMISSIONS = (1 << 14) | (1 << 15)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


@dataclass
class Recorded:
    """One REST call as it reached the fake."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    status: int = 200


@dataclass(frozen=True)
class UploadedFile:
    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class FakeInteraction:
    """An interaction pushed over the gateway, and what the bot answered."""

    payload: dict[str, Any]
    sent_at: float
    callback: dict[str, Any] | None = None  # the callback body (type + data)
    files: list[UploadedFile] = field(default_factory=list)
    message: dict[str, Any] | None = None  # the message the callback created or updated
    followups: list[dict[str, Any]] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    loading: bool = False  # a deferred "thinking…" placeholder waits for its answer
    #: the messages this interaction shows, in the order they last changed (deleted ones go)
    shown: list[dict[str, Any]] = field(default_factory=list)

    def show(self, message: dict[str, Any]) -> None:
        self.shown = [m for m in self.shown if m["id"] != message["id"]] + [message]

    @property
    def public(self) -> list[dict[str, Any]]:
        return [m for m in self.shown if not m["flags"] & EPHEMERAL]

    @property
    def private(self) -> list[dict[str, Any]]:
        return [m for m in self.shown if m["flags"] & EPHEMERAL]

    @property
    def id(self) -> str:
        return self.payload["id"]

    @property
    def token(self) -> str:
        return self.payload["token"]

    @property
    def data(self) -> dict[str, Any]:
        return (self.callback or {}).get("data") or {}

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def text(self) -> str:
        """What the callback's message says: its content, or a card's text displays."""
        return text(self.data)

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return custom_ids(self.data.get("components") or [])


def custom_ids(components: list[dict[str, Any]]) -> list[str]:
    """Every custom id in a list of components, rows walked in order."""
    found = []
    for component in components:
        if "custom_id" in component:
            found.append(component["custom_id"])
        found.extend(custom_ids(component.get("components") or []))
    return found


class Rejected(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class FakeDiscord:
    """The fake server. ``await start()``, point the bot at it with :meth:`redirect`, ``stop()``."""

    def __init__(
        self,
        *,
        heartbeat_interval_ms: int = 250,
        ack_deadline: float = 3.0,
        members: dict[int, str] | None = None,
        recommended_shards: int = 1,
        guild_id: int = GUILD_ID,
        max_concurrency: int = 1,
    ) -> None:
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_deadline = ack_deadline
        self.members = dict(members or {})
        self.bot_user = user_payload(BOT_ID, "Bridgekeeper", bot=True)
        self.port: int | None = None
        #: what ``GET /gateway/bot`` recommends to a client sharding automatically
        self.recommended_shards = recommended_shards
        #: the guild's id, which decides its shard (``(id >> 22) % count``, Discord's rule)
        self.guild_id = guild_id
        #: identifies Discord takes at once, one per bucket (``shard_id % max_concurrency``)
        self.max_concurrency = max_concurrency

        self.requests: list[Recorded] = []
        self.closed_dms: set[int] = set()  # users who accept no DMs from the bot
        self.pinned: list[int] = []  # message ids the bot pinned
        self.rejections: list[tuple[Recorded, int, int, str]] = []
        self.commands: list[dict[str, Any]] = []
        self.command_syncs = 0
        self.interactions: dict[str, FakeInteraction] = {}
        self.messages: dict[str, dict[str, Any]] = {}
        self.identify: dict[str, Any] | None = None
        self.identified: list[list[int] | None] = []  # each IDENTIFY's shard, in order
        self.identified_at: list[float] = []  # and when it came (time.monotonic())
        self.gateway_queries: list[dict[str, str]] = []
        self.unexpected_ops: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.heartbeat_acks = 0
        self.sequence = 0

        self._ids = itertools.count(1)
        #: requests kept unanswered while their event is unset (see :meth:`hold`)
        self._holds: list[tuple[Callable[[Recorded], bool], asyncio.Event]] = []
        self.held: list[Recorded] = []  # requests being kept waiting now
        self._ws: web.WebSocketResponse | None = None  # shard 0's: DMs arrive there
        self._guild_ws: web.WebSocketResponse | None = None  # the guild's shard's
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> int:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, 0)
        await site.start()
        (address,) = self._runner.addresses  # the port the OS bound for port 0
        assert address[0] == HOST
        self.port = address[1]
        return self.port

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://{HOST}:{self.port}{API}"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://{HOST}:{self.port}/gateway")

    def redirect(self, monkeypatch) -> None:
        """Point the unmodified discord.py at this server (``monkeypatch`` undoes it)."""
        import discord.gateway
        import discord.http

        assert self.port is not None, "start() the server first"
        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", self.gateway_url)

    # -- waiting --------------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every request or frame)."""

        async def waiter() -> Any:
            async with self._changed:
                while not (value := predicate()):
                    await self._changed.wait()
                return value

        return await asyncio.wait_for(waiter(), timeout)

    def hold(self, predicate: Callable[[Recorded], bool]) -> asyncio.Event:
        """Discord slow to answer: each request ``predicate`` picks (as it arrived, before
        it is acted on) waits until the returned event is set, listed in :attr:`held`."""
        release = asyncio.Event()
        self._holds.append((predicate, release))
        return release

    async def answer(self, interaction: FakeInteraction, timeout: float = 5.0) -> FakeInteraction:
        await asyncio.wait_for(interaction.answered.wait(), timeout)
        return interaction

    # -- ids ------------------------------------------------------------------------------

    def snowflake(self) -> str:
        """A real-looking snowflake: now's timestamp, a counter in the low bits."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._ids) & 0x3FFFFF))

    # -- payloads -------------------------------------------------------------------------

    def member_payload(self, user_id: int, *, permissions: int | None = None) -> dict[str, Any]:
        name = "Bridgekeeper" if user_id == BOT_ID else self.members[user_id]
        member: dict[str, Any] = {
            "user": self.bot_user if user_id == BOT_ID else user_payload(user_id, name),
            "roles": [],
            "nick": None,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if permissions is not None:
            member["permissions"] = str(permissions)
        return member

    def channel_payload(self) -> dict[str, Any]:
        return {
            "id": str(CHANNEL_ID),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": "board-games",
            "position": 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "permission_overwrites": [],
        }

    def guild_payload(self) -> dict[str, Any]:
        everyone = {
            "id": str(self.guild_id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        members = [self.member_payload(BOT_ID), *(self.member_payload(u) for u in self.members)]
        return {
            "id": str(self.guild_id),
            "name": "Fake Guild",
            "icon": None,
            "owner_id": str(OWNER_ID),
            "unavailable": False,
            "member_count": len(members),
            "large": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "roles": [everyone],
            "channels": [self.channel_payload()],
            "members": members,
            "threads": [],
            "voice_states": [],
            "presences": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_id": None,
        }

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "Bridgekeeper",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_payload(OWNER_ID, "Owner"),
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": self.bot_user,
        }

    def dm_channel(self, user_id: int) -> dict[str, Any]:
        """A user's DM channel with the bot, as ``POST /users/@me/channels`` answers it."""
        return {
            "id": str(DM_CHANNELS + user_id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_payload(user_id, self.members[user_id])],
        }

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        """What the bot sent ``user_id`` in their DM with it, oldest first (deleted ones go)."""
        dm = str(DM_CHANNELS + user_id)
        return [m for m in self.messages.values() if m["channel_id"] == dm]

    def _message(
        self,
        data: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction_type: int | None,
        channel_id: int = CHANNEL_ID,
    ) -> dict[str, Any]:
        """A message object as Discord returns it, for a message created from ``data``."""
        message_id = self.snowflake()
        dm = channel_id - DM_CHANNELS in self.members
        message = {
            "id": message_id,
            "channel_id": str(channel_id),
            **({} if dm else {"guild_id": str(self.guild_id)}),
            "author": self.bot_user,
            "content": data.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(data.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(data, files),
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "pinned": False,
            "type": 20 if interaction_type == 2 else 0,
            "flags": int(data.get("flags") or 0),
        }
        if interaction_type is not None:
            message["application_id"] = str(APP_ID)
            message["webhook_id"] = str(APP_ID)
        self.messages[message_id] = message
        return message

    def _attachments(self, data: dict[str, Any], files: list[UploadedFile]) -> list[dict]:
        declared = {str(a.get("id")): a for a in data.get("attachments") or []}
        attachments = []
        for upload in files:
            index = upload.field.removeprefix("files[").removesuffix("]")
            meta = declared.get(index, {})
            attachment_id = self.snowflake()
            url = f"http://{HOST}:{self.port}/attachments/{CHANNEL_ID}/{attachment_id}/{upload.filename}"
            attachments.append(
                {
                    "id": attachment_id,
                    "filename": meta.get("filename", upload.filename),
                    "size": len(upload.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": upload.content_type,
                }
            )
        return attachments

    def _edit(
        self, message: dict[str, Any], data: dict[str, Any], files: list[UploadedFile]
    ) -> dict:
        for key in ("content", "components", "embeds"):
            if key in data:
                message[key] = (
                    data[key] if data[key] is not None else ([] if key != "content" else "")
                )
        # an edit cannot make a message ephemeral or public; a card makes it a v2 message
        message["flags"] |= (data.get("flags") or 0) & COMPONENTS_V2
        if files or "attachments" in data:
            kept = {str(a.get("id")) for a in data.get("attachments") or []}
            old = [a for a in message["attachments"] if a["id"] in kept]
            message["attachments"] = old + self._attachments(data, files)
        message["edited_timestamp"] = now_iso()
        return message

    # -- rules ----------------------------------------------------------------------------

    def _check_message(
        self, data: dict[str, Any], files: list[UploadedFile] = (), flags: int = 0
    ) -> None:
        """Refuse what Discord refuses; ``flags`` are those of a message being edited."""
        problems = message_problems(data, [f.filename for f in files], flags=flags)
        if problems:
            raise Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    # -- REST -----------------------------------------------------------------------------

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            form = await request.post()
            body = None
            files = []
            for name, value in form.items():
                if name == "payload_json":
                    body = json.loads(value if isinstance(value, str) else value.file.read())
                elif isinstance(value, web.FileField):
                    files.append(
                        UploadedFile(name, value.filename, value.content_type, value.file.read())
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        return json.loads(raw), []

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
        )

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        body, files = await self._read_body(request)
        record = Recorded(
            method=request.method,
            path="/" + request.match_info["tail"],
            query=dict(request.query),
            headers=dict(request.headers),
            json=body,
            files=files,
        )
        self.requests.append(record)
        for picks, release in self._holds:
            if picks(record) and not release.is_set():
                self.held.append(record)
                await self._notify()
                await release.wait()
                self.held.remove(record)
        try:
            status, answer = self._route(record)
        except Rejected as exc:
            record.status = exc.status
            self.rejections.append((record, exc.status, exc.code, exc.message))
            status, answer = exc.status, {"message": exc.message, "code": exc.code}
        record.status = status
        await self._notify()
        if status == 204:
            return web.Response(status=204)
        return self._json(answer, status)

    def _authorised(self, record: Recorded) -> None:
        if record.headers.get("Authorization") != f"Bot {TOKEN}":
            raise Rejected(401, 0, "401: Unauthorized")

    def _route(self, r: Recorded) -> tuple[int, Any]:
        parts = r.path.strip("/").split("/")
        match r.method, parts:
            case "GET", ["gateway", "bot"]:  # asked by a client sharding automatically
                self._authorised(r)
                return 200, {
                    "url": str(self.gateway_url),
                    "shards": self.recommended_shards,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 14_400_000,
                        "max_concurrency": self.max_concurrency,
                    },
                }
            case "GET", ["users", "@me"]:
                self._authorised(r)
                return 200, self.bot_user
            case "GET", ["oauth2", "applications", "@me"]:
                self._authorised(r)
                return 200, self.application_payload()
            case "PUT", ["applications", app, "commands"]:
                self._authorised(r)
                if app != str(APP_ID):
                    raise Rejected(403, 50001, "Missing Access")
                return 200, self._sync(r.json)
            case "GET", ["applications", app, "commands"]:
                self._authorised(r)
                return 200, self.commands
            case "POST", ["interactions", interaction_id, token, "callback"]:
                return self._callback(r, interaction_id, token)
            case "POST", ["webhooks", app, token]:
                return 200, self._followup(r, app, token)
            case "PATCH", ["webhooks", app, token, "messages", message]:
                return 200, self._edit_webhook_message(r, app, token, message)
            case "DELETE", ["webhooks", app, token, "messages", message]:
                self._delete_webhook_message(app, token, message)
                return 204, None
            case "POST", ["users", "@me", "channels"]:  # open a DM with a user
                self._authorised(r)
                return 200, self.dm_channel(int((r.json or {})["recipient_id"]))
            case "POST", ["channels", channel, "messages"]:
                self._authorised(r)
                recipient = int(channel) - DM_CHANNELS
                if recipient in self.closed_dms:  # Discord's honest answer
                    raise Rejected(403, 50007, "Cannot send messages to this user")
                if channel != str(CHANNEL_ID) and recipient not in self.members:
                    raise Rejected(404, 10003, "Unknown Channel")
                self._check_message(r.json or {}, r.files)
                return 200, self._message(
                    r.json or {}, r.files, interaction_type=None, channel_id=int(channel)
                )
            case "DELETE", ["channels", channel, "messages", message]:
                self._authorised(r)
                found = self.messages.get(message)
                if found is None or found["channel_id"] != channel:
                    raise Rejected(404, 10008, "Unknown Message")
                del self.messages[message]
                return 204, None
            case "PATCH", ["channels", channel, "messages", message]:
                self._authorised(r)
                self._check_message(
                    r.json or {}, flags=self.messages.get(message, {}).get("flags", 0)
                )
                edited = self._message(r.json or {}, [], interaction_type=None)
                return 200, {**edited, "id": message, "edited_timestamp": now_iso()}
            case "PUT", ["channels", channel, "messages", "pins", message]:
                self._authorised(r)
                self.pinned.append(int(message))
                return 204, None
        raise Rejected(404, 0, f"404: Not Found ({r.method} {r.path})")

    def _sync(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(commands) > 100:
            raise Rejected(400, 30032, "Maximum number of application commands reached")
        problems = [p for c in commands for p in command_problems(c)]
        if problems:
            raise Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        self.command_syncs += 1
        known = {c["name"]: c["id"] for c in self.commands}
        self.commands = [
            {
                **command,
                "id": known.get(command["name"]) or self.snowflake(),
                "application_id": str(APP_ID),
                "version": self.snowflake(),
                "type": command.get("type", 1),
            }
            for command in commands
        ]
        return self.commands

    def _interaction_for(self, interaction_id: str, token: str) -> FakeInteraction:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise Rejected(404, 10062, "Unknown interaction")
        return interaction

    def _by_token(self, app: str, token: str) -> FakeInteraction:
        if app != str(APP_ID):
            raise Rejected(404, 10015, "Unknown Webhook")
        found = next((i for i in self.interactions.values() if i.token == token), None)
        if found is None:
            raise Rejected(404, 10015, "Unknown Webhook")
        if found.callback is None:  # a follow-up before the acknowledgement
            raise Rejected(404, 10015, "Unknown Webhook")
        if time.monotonic() - found.sent_at > FOLLOWUP_WINDOW:  # the token lives 15 minutes
            raise Rejected(401, 50027, "Invalid Webhook Token")
        return found

    def _callback(self, r: Recorded, interaction_id: str, token: str) -> tuple[int, Any]:
        interaction = self._interaction_for(interaction_id, token)
        if interaction.callback is not None:
            raise Rejected(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - interaction.sent_at > self.ack_deadline:
            raise Rejected(404, 10062, "Unknown interaction")
        body = r.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        itype = interaction.payload["type"]
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            flags = interaction.payload.get("message", {}).get("flags", 0)
            self._check_message(data, r.files, flags if kind == UPDATE_MESSAGE else 0)
        if kind == AUTOCOMPLETE_RESULT and (problems := autocomplete_problems(data["choices"])):
            raise Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        if kind in (UPDATE_MESSAGE, DEFERRED_UPDATE) and itype != 3:
            raise Rejected(400, 40043, "Interaction type does not allow an update")
        if kind not in (
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
            DEFERRED_UPDATE,
            UPDATE_MESSAGE,
            AUTOCOMPLETE_RESULT,
            MODAL,
        ):
            raise Rejected(400, 50035, f"Invalid Form Body: callback type {kind}")

        message = None
        where = _answered_in(interaction)
        if kind == CHANNEL_MESSAGE:
            message = self._message(data, r.files, interaction_type=itype, channel_id=where)
            interaction.show(message)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = self._message(
                {"flags": (data.get("flags") or 0) | 128},
                [],
                interaction_type=itype,
                channel_id=where,
            )
            interaction.loading = True
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            original = interaction.payload["message"]
            message = self.messages.setdefault(original["id"], original)
            if kind == UPDATE_MESSAGE:
                message = self._edit(message, data, r.files)
                interaction.show(message)
        interaction.callback = body
        interaction.files = r.files
        interaction.message = message
        interaction.answered.set()

        if r.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        answer: dict[str, Any] = {
            "interaction": {
                "id": interaction_id,
                "type": itype,
                "activity_instance_id": None,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["resource"]["message"] = message
        return 200, answer

    def _followup(self, r: Recorded, app: str, token: str) -> dict[str, Any]:
        interaction = self._by_token(app, token)
        data = r.json or {}
        self._check_message(data, r.files)
        if interaction.loading:
            # the first follow-up after a deferral becomes the placeholder, flags and all
            # (a card makes it a v2 message)
            assert interaction.message is not None
            message = self._resolve(interaction, data, r.files)
        else:
            message = self._message(
                data,
                r.files,
                interaction_type=interaction.payload["type"],
                channel_id=_answered_in(interaction),
            )
            interaction.show(message)
        interaction.followups.append({"data": data, "files": r.files, "message": message})
        return message

    def _resolve(
        self, interaction: FakeInteraction, data: dict[str, Any], files: list[UploadedFile]
    ) -> dict[str, Any]:
        """The "thinking…" placeholder edited into the answer."""
        assert interaction.message is not None
        message = self._edit(interaction.message, data, files)
        message["flags"] &= ~128
        interaction.loading = False
        interaction.show(message)
        return message

    def _delete_webhook_message(self, app: str, token: str, message_id: str) -> None:
        interaction = self._by_token(app, token)
        if message_id == "@original" and interaction.message is not None:
            message_id = interaction.message["id"]
        self._owned(interaction, message_id)
        if self.messages.pop(message_id, None) is None:
            raise Rejected(404, 10008, "Unknown Message")
        interaction.shown = [m for m in interaction.shown if m["id"] != message_id]
        if interaction.message is not None and message_id == interaction.message["id"]:
            interaction.loading = False

    @staticmethod
    def _owned(interaction: FakeInteraction, message_id: str) -> None:
        """An interaction's token reaches its own messages only: the one it answers
        (or was clicked on) and its follow-ups."""
        own = {m["id"] for m in interaction.shown}
        if interaction.message is not None:
            own.add(interaction.message["id"])
        if message_id not in own:
            raise Rejected(404, 10008, "Unknown Message")

    def _edit_webhook_message(self, r: Recorded, app: str, token: str, message_id: str) -> dict:
        interaction = self._by_token(app, token)
        data = r.json or {}
        if message_id == "@original":
            if interaction.message is None:
                raise Rejected(404, 10008, "Unknown Message")
            message_id = interaction.message["id"]
        self._owned(interaction, message_id)
        if message_id not in self.messages:
            raise Rejected(404, 10008, "Unknown Message")
        self._check_message(data, r.files, self.messages[message_id]["flags"])
        if interaction.loading and message_id == interaction.message["id"]:
            return self._resolve(interaction, data, r.files)
        message = self._edit(self.messages[message_id], data, r.files)
        interaction.show(message)
        return message

    async def _unknown(self, request: web.Request) -> web.Response:
        self.requests.append(
            Recorded(
                request.method, request.path, dict(request.query), dict(request.headers), status=404
            )
        )
        await self._notify()
        return self._json({"message": "404: Not Found", "code": 0}, 404)

    # -- the gateway ----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        self._sockets.add(ws)
        self.sequence = 0
        try:
            await self._send(
                ws, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
            )
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    self.unexpected_ops.append({"frame": str(frame.type)})
                    continue
                await self._on_frame(ws, json.loads(frame.data))
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws = None
            if self._guild_ws is ws:
                self._guild_ws = None
            await self._notify()
        return ws

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        payload.setdefault("s", None)
        payload.setdefault("t", None)
        await ws.send_str(json.dumps(payload))  # text frames: discord.py reads them as plain JSON

    async def dispatch(self, event: str, data: dict[str, Any], *, guild: bool = False) -> int:
        """Send one dispatch (op 0) to the connection of shard 0, which takes DMs (with
        ``guild``, to the connection of the guild's shard: shard 0 too, unless the fake
        was given a ``guild_id`` that says otherwise), with the next sequence number;
        returns that number."""
        ws = self._guild_ws if guild else self._ws
        if ws is None or ws.closed:
            raise RuntimeError("no gateway connection")
        return await self._send_dispatch(ws, event, data)

    async def _send_dispatch(self, ws: web.WebSocketResponse, event: str, data: dict) -> int:
        self.sequence += 1
        await self._send(ws, {"op": DISPATCH, "t": event, "s": self.sequence, "d": data})
        return self.sequence

    async def _on_frame(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await self._send(ws, {"op": HEARTBEAT_ACK})
            self.heartbeat_acks += 1
        elif op == IDENTIFY:
            d = payload.get("d") or {}
            if d.get("token") != TOKEN:
                await ws.close(code=4004, message=b"Authentication failed.")
                return
            self.identify = d
            self.identified.append(d.get("shard"))
            self.identified_at.append(time.monotonic())
            shard, count = d.get("shard") or (0, 1)
            ours = (self.guild_id >> 22) % count == shard  # Discord's rule for a guild's shard
            if shard == 0:  # shard 0's connection takes DMs
                self._ws = ws
            await self._send_dispatch(ws, "READY", self._ready(shard, count, ours))
            if ours:
                self._guild_ws = ws
                await self._send_dispatch(ws, "GUILD_CREATE", self.guild_payload())
        elif op == RESUME:
            await self.dispatch("RESUMED", {})
        else:
            self.unexpected_ops.append(payload)
        await self._notify()

    def _ready(self, shard: int, count: int, ours: bool) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user,
            "shard": [shard, count],
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if ours else [],
            "session_id": "fake-session",
            "resume_gateway_url": str(self.gateway_url),
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }

    # -- interactions ---------------------------------------------------------------------

    def command_id(self, name: str) -> str:
        for command in self.commands:
            if command["name"] == name:
                return command["id"]
        raise KeyError(f"command {name!r} was never synced")

    def _interaction_payload(
        self,
        user_id: int,
        kind: int,
        data: dict[str, Any],
        *,
        away: bool = False,
        channel_id: int = CHANNEL_ID,
    ) -> dict:
        """An interaction in the bot's server; ``away``: in a server that never added the
        bot, through the app the user installed to their own account; in the user's DM
        with the bot if ``channel_id`` is that DM (no guild there, the user instead of a
        member, and Discord sends it to shard 0)."""
        interaction_id = self.snowflake()
        if channel_id == DM_CHANNELS + user_id:
            return {
                "id": interaction_id,
                "application_id": str(APP_ID),
                "type": kind,
                "data": data,
                "channel_id": str(channel_id),
                "channel": self.dm_channel(user_id),
                "user": user_payload(user_id, self.members[user_id]),
                "token": f"itoken-{interaction_id}",
                "version": 1,
                "app_permissions": str(BOT_PERMISSIONS),
                "locale": "en-US",
                "entitlements": [],
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,  # BOT_DM
                "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            }
        guild, channel = (OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID) if away else (self.guild_id, None)
        return {
            "id": interaction_id,
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(guild),
            "guild": {"id": str(guild), "locale": "en-US", "features": []},
            "channel_id": str(channel or CHANNEL_ID),
            "channel": (
                {**self.channel_payload(), "id": str(channel), "guild_id": str(guild)}
                if away
                else self.channel_payload()
            ),
            "member": self.member_payload(user_id, permissions=MEMBER_PERMISSIONS),
            "token": f"itoken-{interaction_id}",
            "version": 1,
            "app_permissions": str(USER_APP_PERMISSIONS if away else BOT_PERMISSIONS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": (
                {"1": str(user_id)} if away else {"0": str(self.guild_id)}
            ),
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    async def _push(self, payload: dict[str, Any]) -> FakeInteraction:
        interaction = FakeInteraction(payload, sent_at=time.monotonic())
        self.interactions[interaction.id] = interaction
        await self.dispatch("INTERACTION_CREATE", payload, guild="guild_id" in payload)
        return interaction

    async def slash(
        self,
        user_id: int,
        command: str,
        *path: str,
        away: bool = False,
        in_dm: bool = False,
        **options: Any,
    ) -> FakeInteraction:
        """Push a slash command: ``slash(ADA, "game", "new", game="skybridge")``; ``away``:
        typed in a server that never added the bot, through the user's own install;
        ``in_dm``: typed in the user's DM with the bot."""
        leaf = [{"name": k, "type": _option_type(v), "value": v} for k, v in options.items()]
        for sub in reversed(path):
            leaf = [{"name": sub, "type": 1, "options": leaf}]
        data = {
            "id": self.command_id(command),
            "name": command,
            "type": 1,
            "options": leaf,
        }
        where = DM_CHANNELS + user_id if in_dm else CHANNEL_ID
        payload = self._interaction_payload(user_id, 2, data, away=away, channel_id=where)
        return await self._push(payload)

    async def click(self, user_id: int, message: dict[str, Any], custom_id: str) -> FakeInteraction:
        """Push a button click on ``message`` (as the fake stored it), where it is."""
        if custom_id not in custom_ids(message.get("components") or []):
            raise AssertionError(f"message {message['id']} has no component {custom_id!r}")
        payload = self._interaction_payload(
            user_id,
            3,
            {"custom_id": custom_id, "component_type": 2},
            channel_id=int(message["channel_id"]),
        )
        payload["message"] = message
        return await self._push(payload)


def _answered_in(interaction: FakeInteraction) -> int:
    """The channel an interaction's answers appear in: the user's DM for one from there,
    else the bot's channel (as this fake has always placed them)."""
    payload = interaction.payload
    return int(payload["channel_id"]) if payload.get("context") == 1 else CHANNEL_ID


def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3
