"""What can go wrong with storage, as exceptions whose ``str()`` is the advice to give.

A game moved on (:class:`StaleGame`), a write the disk refused (:class:`CannotSave`), and
a database that cannot be used at all (:class:`StoreFault` and its kinds, each with the
advice that fits it: a locked file must never be "restored" over).
"""

from __future__ import annotations

from pathlib import Path


class StaleGame(Exception):
    """The game changed after it was read: the write was not made."""


class LeaseLost(Exception):
    """The work was another process's by the time of the write: the lease it was made
    under ran out, or another process took it (this one stalled past it). Nothing was
    written: the lease's holder does, or has done, that work."""


class CannotSave(Exception):
    """A write failed for a reason outside the game (disk full, I/O error, read-only file,
    another program holding the database): the transaction was rolled back, so nothing is
    half-written. ``str()`` is the sentence to show the asker, privately; the game plays on
    once the cause is gone."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(
            f"I can't save anything right now ({reason}), so nothing you asked for was done; "
            "please try again later."
        )


class CommitUnknown(CannotSave):
    """The connection to the database server was lost at the very moment a write
    committed, and the server could not be asked afterwards whether it had: the write
    may or may not have been made. ``str()`` says so to the asker, and how to find out,
    rather than "nothing was done", which may be false."""

    def __init__(self) -> None:
        self.reason = "the database server went away as this was being saved"
        Exception.__init__(
            self,
            "I lost the database at the very moment of saving, so what you asked for may or "
            "may not have been saved: check (for a move, with `/game board`) once I'm back, "
            "before trying again.",
        )


#: SQLite's primary result codes that mean "the disk or the file", not "this request"


class StoreFault(Exception):
    """The database file cannot be used; ``str()`` names the file, the fault and the advice
    that fits that fault (a locked or unreachable file must never be "restored" over)."""


class CannotOpen(StoreFault):
    """The file cannot be reached or written: a missing folder, a read-only place, a folder
    where the file should be, or a file that is not SQLite at all."""


class Locked(StoreFault):
    """Another process held the database longer than the busy timeout."""


class Damaged(StoreFault):
    """The database reads but is found corrupt: only here is restoring a backup right."""

    def __init__(self, path: str | Path, detail: str, checker: str = "SQLite") -> None:
        detail = " ".join(detail.split())[:200]  # SQLite reports one problem a line
        super().__init__(
            f"{path} failed {checker}'s integrity check ({detail}). Restore a backup: "
            f"python -m bot restore BACKUP --db {path} --force"
        )


class SchemaTooNew(StoreFault):
    """The file was migrated by a newer Bridgekeeper: writing to it with this one would put
    rows the newer schema does not expect."""

    def __init__(self, path: str | Path, found: int, known: int) -> None:
        super().__init__(
            f"{path} has schema version {found}, but this Bridgekeeper knows migrations only "
            f"up to {known}: a newer Bridgekeeper wrote it. Run that newer version, or restore "
            f"a backup made by this one (python -m bot restore BACKUP --db {path} --force). "
            "Nothing was changed."
        )


class InUse(StoreFault):
    """Another Bridgekeeper process already runs on this database file."""
