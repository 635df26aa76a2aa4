"""The web front end: each game's page (its live board, its moves step by step, its
record), served beside Discord and the terminal over the same service.

A thin front end like the terminal: no rule, no SQL and no Discord in it. What a page
shows comes from :class:`~bot.service.pages.Pages`, the public view only, and a logged-in
player's own hand beside it; the routes and their headers are in :mod:`bot.web.app`,
logging in with Discord (OAuth2) in :mod:`bot.web.login`, the HTML in :mod:`bot.web.html`,
and starting and stopping the server in :mod:`bot.web.serving`. It runs on aiohttp's server, which
discord.py already brings (its HTTP client).
"""
