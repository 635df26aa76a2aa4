"""The bot's processes: the worker pools that draw boards and think for AI seats, and this
process's name as the holder of a lease."""
