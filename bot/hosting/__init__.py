"""Running the bot as an operator does: its settings, backups and restores, moving a store to
another database, and which shards this process holds."""
