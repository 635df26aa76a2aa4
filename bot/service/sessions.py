"""Who reads a page: a player logged in with Discord, held in a signed cookie.

A session is the Discord user's id and name and when it ends, signed with an HMAC under
a secret kept in the database (the ``sessions`` secret, made once, as the pages' is):
nothing is stored per login, so any number of processes sharing the database read each
other's sessions, and no migration is needed. A cookie that is forged, tampered with,
past its end or signed under another database's secret reads as nobody. What that
costs: logging out forgets the cookie in that browser, but a copy taken before stays
good until it ends (:data:`SESSION_SECONDS`); deleting the ``sessions`` secret from the
database ends every session at once.

The same secret signs the ``state`` of a login under way (bound to the browser by a
cookie of its own: a callback whose ``state`` is not that browser's is refused) and
the guard of the logout form (bound to the session it ends).
"""

from __future__ import annotations

import base64
import hmac
import os
from dataclasses import dataclass

from bot.service.context import Context
from bot.service.signing import Signer

#: the database secret sessions are signed with
SECRET = "sessions"
#: how long a login lasts: a week
SESSION_SECONDS = 7 * 24 * 3600
#: how long a login under way may take at Discord's page
STATE_SECONDS = 600


@dataclass(frozen=True)
class Session:
    """A reader logged in with Discord."""

    user_id: int
    name: str
    ends: int  # seconds since the epoch


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Signing and reading sessions, login states and logout guards."""

    def __init__(self, context: Context) -> None:
        self.signer = Signer(context.store, SECRET)

    async def _sign(self, purpose: str, text: str) -> str:
        return _b64(await self.signer.digest(purpose, text))

    async def _signed(self, purpose: str, text: str) -> str:
        return f"{text}.{await self._sign(purpose, text)}"

    async def _read(self, purpose: str, value: str) -> list[str] | None:
        """The fields of ``value`` if it is signed for ``purpose``, else None."""
        text, dot, signature = value.rpartition(".")
        if not dot or not hmac.compare_digest(await self._sign(purpose, text), signature):
            return None
        return text.split(".")

    async def issue(self, user_id: int, name: str, now: float) -> str:
        """A session cookie's value for Discord user ``user_id``."""
        ends = int(now) + SESSION_SECONDS
        return await self._signed("session", f"{user_id}.{ends}.{_b64(name.encode())}")

    async def read(self, value: str | None, now: float) -> Session | None:
        """The session a cookie holds, or None: absent, forged, tampered with or ended."""
        fields = await self._read("session", value or "")
        if fields is None or len(fields) != 3:
            return None
        user, ends, name = fields
        if not user.isdigit() or not ends.isdigit() or int(ends) <= now:
            return None
        return Session(int(user), _unb64(name).decode(errors="replace"), int(ends))

    async def state(self, then: str, now: float) -> str:
        """A new login's ``state``: random, when it ends, and the page to go back to
        (``then``, a path of ours)."""
        ends = int(now) + STATE_SECONDS
        return await self._signed("state", f"{_b64(os.urandom(16))}.{ends}.{_b64(then.encode())}")

    async def returned(self, state: str, kept: str | None, now: float) -> str | None:
        """The page to go back to, if Discord sent back the ``state`` this browser
        ``kept`` in its cookie, signed by us and not ended; None otherwise."""
        if not kept or not hmac.compare_digest(state.encode(), kept.encode()):
            return None
        fields = await self._read("state", state)
        if fields is None or len(fields) != 3 or not fields[1].isdigit():
            return None
        if int(fields[1]) <= now:
            return None
        return _unb64(fields[2]).decode(errors="replace")

    async def guard(self, session_value: str) -> str:
        """The logout form's guard: only a page that read this session's cookie has it."""
        return await self._sign("logout", session_value)

    async def guarded(self, session_value: str, guard: str) -> bool:
        return hmac.compare_digest(await self.guard(session_value), guard)
