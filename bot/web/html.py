"""A game's page as HTML: everything escaped, no inline script or style (the page's
Content-Security-Policy allows neither), so it reads without JavaScript too; the
script (``static/page.js``) adds replay, the reader's own time zone and live updates."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from bot.service.pages import GamePage, Hand, Player, Ply

SITE = "Bridgekeeper"
HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/page.css">
<script src="/static/page.js" defer></script>
</head>
"""


def home_page() -> str:
    """What the site's root says: no list of games, only what a page is and how to get one."""
    return (
        HEAD.format(title=SITE)
        + "<body><main><h1>Bridgekeeper</h1><p>Each game played with Bridgekeeper has a "
        "page of its own here: its live board, its moves step by step and its record. "
        "Open a game's page with the link the bot gives.</p></main></body></html>\n"
    )


def error_page(sentence: str) -> str:
    """An error as a browser shows it: the plain answer's words (they begin with the
    status), their first sentence the heading, and the way to the site's root."""
    e = escape
    heading, _, rest = sentence.strip().partition(". ")
    more = f"<p>{e(rest)}</p>" if rest else ""
    body = f'<main><h1>{e(heading)}</h1>{more}<p><a href="/">What this site is</a></p></main>'
    return HEAD.format(title=e(f"{heading} — {SITE}")) + f"<body>{body}</body></html>\n"


@dataclass(frozen=True)
class Reader:
    """Who reads a game's page, as far as the page shows it: whether logging in with
    Discord is offered, and once logged in, their name, the guard of their logout form,
    and their own hand where they have a seat in the game."""

    login: bool = False
    name: str | None = None
    guard: str | None = None
    hand: Hand | None = None


def game_page(page: GamePage, path: str, reader: Reader = Reader()) -> str:
    """``page`` at ``path`` (``/g/<id>-<token>``), as ``reader`` sees it."""
    e = escape
    last = len(page.plies)
    board = ""
    if page.board:
        board = f"""<section id="board-section" aria-label="Board">
<figure>
<div class="frame" id="frame" tabindex="0" role="group"
 aria-label="Board picture; scroll it with the arrow keys when zoomed">
<img id="board" src="{path}/board.png?v={page.version}" alt="{e(_position(page, last))}"
 aria-describedby="words">
</div>
<figcaption id="position" aria-live="polite">{e(_position(page, last))}</figcaption>
</figure>
<div class="controls" role="group" aria-label="Replay">
<button type="button" id="first" aria-label="To the start">Start</button>
<button type="button" id="prev" aria-label="Back one move"
 aria-keyshortcuts="ArrowLeft">◀</button>
<button type="button" id="next" aria-label="Forward one move"
 aria-keyshortcuts="ArrowRight">▶</button>
<button type="button" id="last" aria-label="To the position now">Now</button>
<button type="button" id="zoom" aria-pressed="false">Zoom</button>
</div>
<p class="hint">Keys: ← and → step through the moves, Home and End go to the start and to
now; on the zoomed board they scroll it.</p>
</section>
"""
    return (
        HEAD.format(title=e(f"{page.title} — {SITE}"))
        + f"""<body>
<main id="game" data-path="{e(path)}" data-version="{page.version}" data-plies="{last}">
<header>
<h1>{e(page.title)}</h1>
{_account(reader, path)}{_league(page)}<div id="live">
{_turn(page)}
</div>
</header>
{board}<div id="facts">
{_hand(reader.hand, path, page.version)}{_facts(page, path)}
</div>
</main>
</body>
</html>
"""
    )


def _account(reader: Reader, path: str) -> str:
    """Logged in as whom, with the logout form; or the way to log in, where there is one."""
    e = escape
    if reader.name is not None:
        return f"""<form class="account" method="post" action="/logout">
<p>Logged in with Discord as <strong>{e(reader.name)}</strong>.
<input type="hidden" name="guard" value="{e(reader.guard or "")}">
<input type="hidden" name="then" value="{e(path)}">
<button type="submit" id="logout">Log out</button></p>
</form>
"""
    if reader.login:
        return (
            f'<p class="account"><a id="login" href="/login?then={e(path)}">Log in with '
            "Discord</a> to see your own hand here, if you play in this game.</p>\n"
        )
    return ""


def _hand(hand: Hand | None, path: str, version: int) -> str:
    """The reader's own hand, as ``/hand`` shows it: on their page only."""
    if hand is None:
        return ""
    e = escape
    words = "".join(f"<p>{e(line)}</p>" for line in hand.text.splitlines())
    picture = ""
    if hand.png is not None:
        picture = (
            f'<img class="hand" id="hand-board" src="{e(path)}/hand.png?v={version}" '
            f'alt="{e(hand.alt or "Your own view of the board")}">\n'
        )
    return f"""<section id="hand" aria-labelledby="hand-title">
<h2 id="hand-title">Your hand (only you see this)</h2>
{picture}<div id="hand-words">{words}</div>
</section>
"""


def _league(page: GamePage) -> str:
    if page.league is None:
        return ""
    name, path = page.league
    link = f'<a href="{escape(path)}">{escape(name)}</a>'
    return f'<p class="league">A match of the league {link}</p>\n'


def _position(page: GamePage, ply: int) -> str:
    """Which position a board shows, in words (its caption and alt text)."""
    if ply == 0:
        return f"{page.title} at the start"
    move = page.plies[ply - 1]
    played = f"{move.name}: {move.notation}" if move.notation else f"{move.name}'s turn skipped"
    return f"{page.title} after move {ply} of {len(page.plies)} ({played})"


def _turn(page: GamePage) -> str:
    lines = [f'<p class="turn">{escape(page.turn).replace(chr(10), "<br>")}</p>']
    times = []
    if page.deadline:
        times.append(f"Deadline: {_time(page.deadline)}")
    if page.since and page.status == "active":
        times.append(f"waiting since {_time(page.since)}")
    if times:
        lines.append(f'<p class="times">{" · ".join(times)}</p>')
    return "\n".join(lines)


def _time(iso: str) -> str:
    """A moment, in UTC here; the script shows it in the reader's own time zone."""
    shown = iso[:16].replace("T", " ") + " UTC"
    return f'<time datetime="{escape(iso)}">{escape(shown)}</time>'


def _facts(page: GamePage, path: str) -> str:
    """Players, the board in words, the moves and the downloads: what a move changes."""
    e = escape
    players = "\n".join(_player(p) for p in page.players)
    score = "<th scope=col>Score</th>" if any(p.score is not None for p in page.players) else ""
    parts = [
        f"""<section aria-labelledby="players-title">
<h2 id="players-title">Players</h2>
<table class="players"><thead><tr><th scope=col>Player</th>{score}</tr></thead>
<tbody>
{players}
</tbody></table>
</section>"""
    ]
    if page.words:
        parts.append(
            f"""<section aria-labelledby="words-title">
<h2 id="words-title">The board in words</h2>
<div id="words">{"".join(f"<p>{e(line)}</p>" for line in page.words.splitlines())}</div>
</section>"""
        )
    if page.plies or page.board:
        moves = "\n".join(_move(path, page.version, p) for p in page.plies)
        start = (
            f'<p><a href="{e(path)}/board/0.png?v={page.version}" data-ply="0">The start</a></p>'
        )
        parts.append(
            f"""<section aria-labelledby="moves-title">
<h2 id="moves-title">Moves</h2>
{start if page.board else ""}
<ol class="moves" id="moves">
{moves}
</ol>
</section>"""
        )
    board = (
        f'<li><a href="{e(path)}/board.png">The board now (PNG)</a></li>\n'
        f'<li><a href="{e(path)}/game.gif">The whole game, a frame a move (GIF)</a></li>'
        if page.board
        else ""
    )
    parts.append(
        f"""<section aria-labelledby="exports-title">
<h2 id="exports-title">Download</h2>
<ul class="exports">
<li><a href="{e(path)}/record.txt">The record (text, one move a line)</a></li>
<li><a href="{e(path)}/record.json">The game as JSON</a></li>
{board}
</ul>
</section>"""
    )
    return "\n".join(parts)


def _player(player: Player) -> str:
    e = escape
    swatch = ""
    if player.colour:
        swatch = f'<span class="swatch" data-colour="{e(player.colour)}" aria-hidden="true"></span>'
    marks = []
    if player.to_play:
        marks.append('<strong class="to-play">to play</strong>')
    if player.place is not None:
        marks.append(f"place {player.place}")
    if player.ai:
        marks.append(f"AI, {e(player.ai)}")
    note = f" <small>({', '.join(marks)})</small>" if marks else ""
    score = f"<td>{player.score}</td>" if player.score is not None else ""
    name = e(player.name)
    if player.page:
        name = f'<a href="{e(player.page)}">{name}</a>'
    return f"<tr><td>{swatch}{name}{note}</td>{score}</tr>"


def _move(path: str, version: int, ply: Ply) -> str:
    e = escape
    what = e(ply.notation) if ply.notation else "<em>turn skipped (out of time)</em>"
    return (
        f'<li value="{ply.number}"><a href="{e(path)}/board/{ply.number}.png?v={version}" '
        f'data-ply="{ply.number}">{e(ply.name)}: <span class="notation">{what}</span></a></li>'
    )
