"""discord.py cogs: thin adapters from app commands to the service."""
