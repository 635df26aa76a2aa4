"""What the pages' application holds, by key: the service, and the login's settings."""

from __future__ import annotations

from aiohttp import web

from bot.config import Login
from bot.service import Service

SERVICE = web.AppKey("service", Service)
#: "Log in with Discord", where it is set up (absent: no login offered)
LOGIN = web.AppKey("login", Login)
