"""The terminal front end: ``python -m bot console`` plays every game through the same service,
one line per command, board pictures written to a folder."""
