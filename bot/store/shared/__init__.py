"""What every store shares, written once in neutral SQL (:mod:`bot.store.sql`)."""
