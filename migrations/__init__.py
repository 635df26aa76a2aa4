"""Numbered SQL migrations, applied in order at start-up by ``bot.store``."""
