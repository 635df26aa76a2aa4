"""The service's marks for moments and commands, as each front end writes them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service.marks import channel, for_discord, link, plain, press, role, when

MOMENT = datetime(2026, 12, 1, 17, 0, 30, tzinfo=UTC)
UNIX = int(MOMENT.timestamp())
MENTIONS = {"game board": "</game board:11>", "vacation": "</vacation:22>"}


def test_a_moment_is_a_live_timestamp_on_discord_and_utc_in_the_terminal():
    text = f"Due {when(MOMENT)}; since {when(MOMENT, 'f')}; back {when(MOMENT, 'R')}."
    assert for_discord(text) == (
        f"Due <t:{UNIX}:f> (<t:{UNIX}:R>); since <t:{UNIX}:f>; back <t:{UNIX}:R>."
    )
    assert (
        plain(text)
        == "Due 2026-12-01 17:00 UTC; since 2026-12-01 17:00 UTC; back 2026-12-01 17:00 UTC."
    )


def test_a_command_becomes_its_mention_and_its_arguments_stay_code():
    text = "See `/game board move:3`, or `/vacation days:0`, or `/game board`."
    assert for_discord(text, MENTIONS.get) == (
        "See </game board:11> `move:3`, or </vacation:22> `days:0`, or </game board:11>."
    )


def test_what_is_no_known_command_stays_as_written():
    text = "`/game …` groups, `/league join name:Cup` unsynced, `/tmp/x`, `start=ii-2-3`"
    assert for_discord(text, MENTIONS.get) == text
    assert for_discord("`/game board`") == "`/game board`"  # no ids yet: plain text


def test_the_terminal_writes_each_command_as_it_is_typed_there():
    """Discord's ``name:value`` options and ``/game`` group are not the terminal's."""
    text = (
        "See `/game board move:N`; `/vacation days:0` comes back early; join with "
        "`/league join name:Spring Cup`; hand it on (`/game replace player:<themselves> "
        "by:<someone>`), e.g. `/settings reminders:digest digest_hour:8`; `by:3d` is too "
        "much; `/game board`, `/daily play`, `/game …`, `/tmp/x`, `start=ii-2-3`, `12:00`."
    )
    assert plain(text) == (
        "See `/board move=N`; `/vacation days=0` comes back early; join with "
        '`/league join name="Spring Cup"`; hand it on (`/replace player=<themselves> '
        "by=<someone>`), e.g. `/settings reminders=digest digest_hour=8`; `by=3d` is too "
        "much; `/board`, `/daily play`, `/game …`, `/tmp/x`, `start=ii-2-3`, `12:00`."
    )


def test_channels_roles_and_buttons_are_marked_for_each_front_end():
    bob = press("Rematch", one=True)
    text = f"In {channel(1234)}, by {role(77)}: {press('Rematch')}, as Bob {bob}."
    assert (
        for_discord(text) == "In <#1234>, by <@&77>: click **Rematch**, as Bob clicks **Rematch**."
    )
    assert plain(text) == "In table 1234, by role 77: type `/rematch`, as Bob types `/rematch`."
    with pytest.raises(ValueError):
        press("Nothing")


def test_a_page_is_a_link_without_a_preview_on_discord_and_its_address_in_the_terminal():
    text = f"Due soon. {link('Game page', 'https://games.example.org/g/12-abc')}"
    assert for_discord(text) == "Due soon. [Game page](<https://games.example.org/g/12-abc>)"
    assert plain(text) == "Due soon. Game page: https://games.example.org/g/12-abc"
