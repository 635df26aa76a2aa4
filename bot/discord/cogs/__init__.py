"""discord.py cogs: thin adapters from app commands to the service.

``COGS`` is every cog the bot runs, in the order it adds them; each takes the bot (any
:class:`bot.discord.host.Host`) and imports nothing of the client. ``/game``, ``/league`` and
``/daily`` are ``GroupCog`` s; the others offer top-level commands.
"""

from bot.discord.cogs.daily import DailyCog
from bot.discord.cogs.games import Games
from bot.discord.cogs.leagues import Leagues
from bot.discord.cogs.personal import Personal
from bot.discord.cogs.play import Play
from bot.discord.cogs.postal import Postal
from bot.discord.cogs.ratings import Ratings

COGS = (Games, Play, Personal, Ratings, Leagues, DailyCog, Postal)
