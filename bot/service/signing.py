"""Texts signed for one purpose each under a secret kept in the database: pages'
addresses (:mod:`bot.service.pages`) and logins (:mod:`bot.service.sessions`). The
purpose is part of what is signed, so a signature made for one never passes for another;
the secret is made once by the store and read once per process."""

from __future__ import annotations

import hashlib
import hmac

from bot.store import Store


def digest_of(secret: bytes, purpose: str, text: str) -> bytes:
    """The HMAC-SHA256 of ``text`` for ``purpose`` under ``secret``."""
    return hmac.new(secret, f"{purpose} {text}".encode(), hashlib.sha256).digest()


class Signer:
    """Signs under the database secret named ``name``, read when first needed."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self.name = name
        self._secret: bytes | None = None

    async def secret(self) -> bytes:
        if self._secret is None:
            self._secret = await self.store.secret(self.name)
        return self._secret

    async def digest(self, purpose: str, text: str) -> bytes:
        return digest_of(await self.secret(), purpose, text)
