"""The Discord front end: the client, its slash commands (cogs/), buttons and menus, and
turning the service's replies into Discord messages. Everything here speaks discord.py; the
layers below never do."""
