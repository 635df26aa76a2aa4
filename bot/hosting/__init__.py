"""Running the bot as an operator does: the command line's subcommands, backups and restores,
moving a store to another database, and which shards this process holds."""
