"""Every feature of the store, written once in neutral SQL (:mod:`bot.store.sql`): a store
is :class:`Features` over its connection, with a backend's own statements where they
truly differ in front (:mod:`bot.store.postgres`)."""

from __future__ import annotations

from bot.store.shared.daily import DailySQL
from bot.store.shared.digests import DigestsSQL
from bot.store.shared.games import GamesSQL
from bot.store.shared.leagues import LeaguesSQL
from bot.store.shared.leases import LeasesSQL
from bot.store.shared.notices import NoticesSQL
from bot.store.shared.pages import PagesSQL
from bot.store.shared.postal import PostalSQL
from bot.store.shared.terminal import TerminalSQL


class Features(
    GamesSQL,
    PostalSQL,
    NoticesSQL,
    DigestsSQL,
    LeaguesSQL,
    LeasesSQL,
    DailySQL,
    TerminalSQL,
    PagesSQL,
):
    """:class:`bot.store.interface.Store`'s features, over a connection that comes after
    it (:class:`~bot.store.shared.base.Base`)."""
