"""The league, daily challenge, player and server pages as HTML: like a game's page,
everything escaped and nothing inline (the same policy), tables that wrap rather than
scroll on a 390 px phone, and each game linked to its page."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from html import escape

from bot.service.listings import (
    DailyPage,
    DailyRow,
    LeaguePage,
    Link,
    PlayerPage,
    ServerPage,
)
from bot.web.html import HEAD, SITE

e = escape


def _page(title: str, body: str) -> str:
    return (
        HEAD.format(title=e(f"{title} — {SITE}"))
        + f'<body>\n<main class="listing">\n<h1>{e(title)}</h1>\n{body}\n</main>\n'
        + "</body>\n</html>\n"
    )


def _link(link: Link) -> str:
    text = e(link.text)
    return f'<a href="{e(link.path)}">{text}</a>' if link.path else text


def _section(ident: str, title: str, inner: str) -> str:
    return (
        f'<section aria-labelledby="{ident}">\n<h2 id="{ident}">{e(title)}</h2>\n{inner}\n'
        "</section>"
    )


def _table(
    caption: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    names: Collection[int] = (1,),
) -> str:
    """A table whose cells are HTML already; its caption is for screen readers. The
    columns ``names`` hold names, which break anywhere on a phone if they must (a long
    name with no space); the other columns' words stay whole."""

    def cells(row: Sequence[str]) -> str:
        return "".join(
            f'<td class="name">{c}</td>' if n in names else f"<td>{c}</td>"
            for n, c in enumerate(row)
        )

    head = "".join(f"<th scope=col>{e(c)}</th>" for c in columns)
    body = "\n".join(f"<tr>{cells(row)}</tr>" for row in rows)
    return (
        f'<table class="list"><caption class="quiet">{e(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table>"
    )


def _items(links: Iterable[Link], empty: str) -> str:
    shown = [f"<li>{_link(link)}</li>" for link in links]
    return f"<ul>{''.join(shown)}</ul>" if shown else f"<p>{e(empty)}</p>"


def league_page(page: LeaguePage) -> str:
    status = {"open": "sign-up open", "running": "under way", "finished": "finished"}
    parts = [
        f'<p class="turn">{e(page.game)}, {e(page.format)}, '
        f"{e(status.get(page.status, page.status))} — standings {e(page.when)}</p>"
    ]
    if page.rows:
        rows = [[_link(cell) for cell in row] for row in page.rows]
        table = _table(f"{page.name} standings {page.when}", page.columns, rows)
        why = f'<p class="hint">{e(page.legend)}</p>'
        why += f"<p>{e(page.why)}</p>" if page.why else ""
        parts.append(_section("standings-title", "Standings", table + why))
    if page.matches:
        rows = [
            [
                str(m.round),
                " v ".join(_link(p) for p in m.players),
                e(m.outcome),
                _link(m.game) if m.game else "–",
            ]
            for m in page.matches
        ]
        columns = ("Round", "Match", "Result", "Game")
        table = _table("Every match drawn so far", columns, rows, names=(1, 2))
        parts.append(_section("results-title", "Results", table))
    if page.schedule:
        lines = "".join(f"<li>{e(line)}</li>" for line in page.schedule)
        parts.append(_section("schedule-title", "Rounds to come", f"<ul>{lines}</ul>"))
    elif page.status == "running":
        parts.append(
            _section("schedule-title", "Rounds to come", "<p>Each is drawn from the results.</p>")
        )
    return _page(page.name, "\n".join(parts))


def daily_page(page: DailyPage) -> str:
    today = page.today
    parts = [
        f'<p class="turn">Today, {e(today.weekday)} {e(today.day)}: Seven Bridges against '
        f"Euler, starting level {today.levels[0]}–{today.levels[1]}.</p>",
        _section(
            "today-title",
            "Today, by margin over Euler",
            "<p>Games of today are linked once the day is over (UTC), so no one sees "
            "today's dice before playing.</p>"
            + (_rows(page.todays) if page.todays else "<p>No finished games yet today.</p>"),
        ),
    ]
    past = "\n".join(f"<h3>{e(day)}</h3>\n{_rows(rows)}" for day, rows in page.past)
    parts.append(_section("past-title", "Past days", past or "<p>No past games yet.</p>"))
    rows = [
        [str(n), e(name), f"{rating:+.1f}", str(wins), str(streak), f"{best:+d}"]
        for n, (name, rating, wins, streak, best) in enumerate(page.all_time, 1)
    ]
    table = (
        _table("All time", ("#", "Player", "Rating", "Wins", "Streak", "Best"), rows)
        + f"<p>Rating: {e(page.ranking)}. Streak: days in a row beaten Euler.</p>"
    )
    parts.append(_section("all-time-title", "All time", table if rows else "<p>None yet.</p>"))
    return _page("Daily challenge", "\n".join(parts))


def _rows(rows: Sequence[DailyRow]) -> str:
    return _table(
        "By margin over Euler",
        ("#", "Player", "Margin", "Result"),
        (
            [str(n), e(r.name), f"{r.margin:+d}", e(r.status) + _game(r.game)]
            for n, r in enumerate(rows, 1)
        ),
    )


def _game(path: str | None) -> str:
    return f' · <a href="{e(path)}">the game</a>' if path else ""


def player_page(page: PlayerPage) -> str:
    parts = []
    if page.average_wait is not None:
        parts.append(
            f'<p class="turn">Takes {e(_duration(page.average_wait))} to move on average '
            f"(over their last {page.moves_timed} moves).</p>"
        )
    ratings = [[e(game), e(shown), str(games)] for game, shown, games in page.ratings]
    parts.append(
        _section(
            "ratings-title",
            "Ratings",
            _table("Ratings", ("Game", "Rating", "Rated games"), ratings, names=(0,))
            + "<p>Rating = mu − 3·sigma, one per game and server; ? = provisional.</p>"
            if ratings
            else "<p>No rated games yet.</p>",
        )
    )
    parts.append(_section("playing-title", "Playing", _items(page.playing, "No game now.")))
    parts.append(_section("finished-title", "Finished", _items(page.finished, "None yet.")))
    if page.elsewhere:
        games = "game" if page.elsewhere == 1 else "games"
        parts.append(
            f"<p>And {page.elsewhere} more {games} not listed here: on servers that keep "
            "their page of games private, or played alone.</p>"
        )
    return _page(page.name, "\n".join(parts))


def _duration(seconds: float) -> str:
    """A wait in the largest unit that reads well: 40 seconds, 12 minutes, 5.5 hours, 2.1 days."""
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


def server_page(page: ServerPage) -> str:
    """A list rather than a table: a game's players and turn read as sentences on a phone."""
    items = "\n".join(
        f"<li>{_link(g.game)}: {e(g.players)}<br>{e(g.turn).replace(chr(10), '<br>')}</li>"
        for g in page.games
    )
    inner = (
        "<p>Every game under way in this Discord server, the latest to move first; each "
        "links to its page (its live board, its moves, its record).</p>\n"
        + (f'<ul class="games">{items}</ul>' if items else "<p>No game is under way now.</p>")
    )
    return _page("Games in progress", inner)
