"""discord.py cogs: thin adapters from app commands to the service.

``COGS`` is every cog the bot runs, in the order it adds them; each takes the bot (any
:class:`bot.host.Host`) and imports nothing of the client. ``/game``, ``/league`` and
``/daily`` are ``GroupCog`` s; the others offer top-level commands.
"""

from bot.cogs.daily import DailyCog
from bot.cogs.games import Games
from bot.cogs.leagues import Leagues
from bot.cogs.personal import Personal
from bot.cogs.play import Play
from bot.cogs.postal import Postal
from bot.cogs.ratings import Ratings

COGS = (Games, Play, Personal, Ratings, Leagues, DailyCog, Postal)
