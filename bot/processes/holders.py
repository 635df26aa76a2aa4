"""Who holds a lease: a name for this process (``host:pid-namespace:pid:random``), made
and read here alone, so a lease's holder can be told apart from every other process
sharing the database, and, on this host, found to be no longer running."""

from __future__ import annotations

import os
import secrets
import socket


def pid_space() -> str:
    """This process's pid namespace (its ``/proc/self/ns/pid`` inode), so a pid is only
    compared with pids of the same namespace: containers on one host each have their
    own, and may share a host name. ``-`` where it cannot be read."""
    try:
        return os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:
        return "-"


def process_holder() -> str:
    """A name for this process in the leases it holds: unique among the processes sharing
    a database, and telling which process holds what."""
    return f"{socket.gethostname()}:{pid_space()}:{os.getpid()}:{secrets.token_hex(4)}"


def stopped_here(holder: str) -> bool:
    """Whether ``holder`` (a :func:`process_holder`) was a process that is not running
    now, on this host and in this pid namespace, where its pid can be asked about: the pid
    is free, or is this process's own (a live holder cannot share it, so that one was an
    earlier process, as a container's first process restarted)."""
    parts = holder.split(":")
    if len(parts) != 4 or not parts[2].isdigit():
        return False
    host, space, pid = parts[0], parts[1], int(parts[2])
    if host != socket.gethostname() or space != pid_space():
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False
