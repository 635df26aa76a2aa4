"""Every command the README shows works as written, on a fresh clone: each terminal
example (the sessions, the one-line examples, the replay), and the host's commands the
operator's guide shows that need no server (a backup into a folder not made yet, its
restore, the ratings rebuild). The lines are read from README.md and docs/hosting.md
themselves, so an example changed there is tested as it is."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from bot.service import Service
from bot.store import SQLiteStore
from bot.terminal.session import Console
from tests.bot.terminal.test_syntax import NOT_UNDERSTOOD
from tests.conftest import run_bot

ROOT = Path(__file__).parents[3]
README = (ROOT / "README.md").read_text("utf-8")
HOSTING = (ROOT / "docs" / "hosting.md").read_text("utf-8")
#: how the README runs the bot: the virtual environment's Python
BOT = ".venv/bin/python -m bot "
#: a line typed at the terminal: ``ada: /new skybridge``
TYPED = re.compile(r"[a-z]+: /[a-z][^\n]*")


def section(title: str, text: str = README) -> str:
    """The section of ``text`` headed ``title`` (at any level), up to the next heading."""
    start = re.search(rf"^#+ {re.escape(title)}$", text, re.MULTILINE).start()
    following = re.search(r"^#", text[start + 4 :], re.MULTILINE)
    return text[start : start + 4 + following.start()] if following else text[start:]


def blocks(text: str, language: str = "") -> list[str]:
    """The fenced blocks of ``text`` in ``language`` (none: a session's lines)."""
    found, inside, lines = [], None, []
    for line in text.splitlines():
        if inside is None and line.startswith("```"):
            inside, lines = line[3:].strip(), []
        elif inside is not None and line.startswith("```"):
            if inside == language:
                found.append("".join(f"{kept}\n" for kept in lines))
            inside = None
        elif inside is not None:
            lines.append(line)
    return found


def commands(text: str) -> list[list[str]]:
    """Every ``.venv/bin/python -m bot …`` line of ``text``'s shell blocks, as arguments,
    its comment dropped (``< file`` stays, for the test to feed)."""
    found = []
    for block in blocks(text, "sh"):
        for line in block.splitlines():
            if line.startswith(BOT):
                found.append(shlex.split(line.removeprefix(BOT), comments=True))
    return found


def run(args: list[str], cwd: Path):
    """``python -m bot ARGS`` as a host types it in ``cwd``; ``< file`` is its input."""
    stdin = ""
    if "<" in args:
        at = args.index("<")
        stdin = (cwd / args[at + 1]).read_text()
        args = args[:at] + args[at + 2 :]
    return run_bot(*args, cwd=cwd, stdin=stdin)


TERMINAL = section("Play in the terminal, no Discord needed")
FIRST_COMMAND, REPLAY = commands(TERMINAL)
FIRST_LINES = blocks(TERMINAL)[0]


def test_the_first_terminal_example_plays_as_written(tmp_path):
    """Whoever the dice would have made start, the example's own lines play through."""
    done = run_bot(*FIRST_COMMAND, cwd=tmp_path, stdin=FIRST_LINES)
    assert done.returncode == 0, done.stdout  # piped: 1 if any line was refused
    assert "bob placed blue tall b2." in done.stdout
    (tmp_path / "game.txt").write_text(FIRST_LINES)
    again = run(REPLAY, tmp_path)
    assert again.returncode == 0, again.stdout
    assert "bob placed blue tall b2." in again.stdout


@pytest.mark.parametrize(
    "lines", [b for b in blocks(README) if TYPED.match(b)], ids=lambda b: b.split("\n")[0]
)
def test_every_session_the_readme_shows_plays_without_a_refusal(lines, tmp_path):
    """Each, in the terminal as the README starts it."""
    done = run_bot(*FIRST_COMMAND, cwd=tmp_path, stdin=lines)
    assert done.returncode == 0, done.stdout


async def typed(line: str, database: Path) -> tuple[str, int]:
    """``line`` typed in a terminal of its own, on a fresh ``database``: what it printed,
    and how many lines it refused."""
    store = await SQLiteStore.open(database)
    out = io.StringIO()
    console = Console(Service(store, images=False), database.parent, out)
    try:
        await console.handle(line)
    finally:
        await store.close()
    return out.getvalue(), console.refused


async def test_every_one_line_example_works_as_written(tmp_path):
    """A whole line (``ada: /solo``) plays on a fresh database; a command on its own
    (``/extend by=1d``) is understood, though a fresh table may have nothing to extend."""
    spans = re.findall(r"`([^`\n]+)`", TERMINAL)
    lines = [span for span in spans if TYPED.fullmatch(span)]
    alone = [span for span in spans if re.match(r"/[a-z]", span) and " " in span]
    assert "ada: /solo" in lines and "/extend by=1d" in alone and len(lines) >= 4
    for n, line in enumerate(lines):
        said, refused = await typed(line, tmp_path / f"line{n}.db")
        assert refused == 0, said
    for n, command in enumerate(alone):
        said, _ = await typed(f"ada: {command}", tmp_path / f"alone{n}.db")
        assert not NOT_UNDERSTOOD.search(said), (command, said)


def test_the_hosts_commands_run_as_written_on_a_fresh_clone(tmp_path):
    """The backup goes into ``backups/``, which a fresh clone has not got; the ratings
    rebuild is run with the virtual environment's Python, as everything else."""
    assert run_bot(*FIRST_COMMAND, cwd=tmp_path, stdin=FIRST_LINES).returncode == 0
    shown = [c for c in commands(section("Backups", HOSTING)) if "--db" not in c]
    assert [c[0] for c in shown] == ["backup", "restore"]
    rebuild = re.search(rf"`{re.escape(BOT)}([^`]+)`", section("Ratings", HOSTING))
    assert rebuild, "the rebuild is shown run by the virtual environment's Python"
    said = []
    for args in [*shown, shlex.split(rebuild[1])]:
        done = run(args, tmp_path)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        said.append(done.stdout)
    assert (tmp_path / "backups" / "2026-11-22.db").is_file()
    assert ": 1 game, integrity ok" in said[0], "the example's one game, said as one"
    assert said[1].startswith("restored 1 game from")
    assert "replayed 0 rated games: identical to the stored ratings" in done.stdout
