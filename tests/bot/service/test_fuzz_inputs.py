"""Property-based: whatever is typed into the console or handed to the service, the
answer is a reply or a refusal, and a refusal leaves the database as it was.

The inputs and the checks are those of ``fuzz_inputs.py`` (run it for 20,000 and more);
here fewer run, so the suite stays quick, on SQLite and on PostgreSQL. Every failure
hypothesis finds is a bug: an exception other than ``Refused``, a refusal that changed a
row, a value out of its range stored, or another fault reported as "this channel already
has a game".
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings

from tests.bot.service.fuzz_inputs import CALLS, LINES, Rig, sweep
from tests.conftest import STORES, drop_database, fresh_database

FUZZ = settings(
    max_examples=500,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module", params=STORES)
def rig(request, tmp_path_factory):
    """One database of each store for every example, so later inputs meet the games
    earlier ones made: a text PostgreSQL cannot keep (a NUL) must be refused on SQLite too."""
    folder = tmp_path_factory.mktemp("fuzz")
    if request.param == "sqlite":
        made = Rig(folder)
        yield made
        made.close()
        return
    cluster = request.getfixturevalue("postgres")
    admin = asyncio.new_event_loop()
    url = admin.run_until_complete(fresh_database(cluster))
    made = Rig(folder, url)
    try:
        yield made
    finally:
        made.close()
        admin.run_until_complete(drop_database(cluster, url))
        admin.close()


def test_every_odd_value_in_every_place_is_answered_or_refused(rig):
    """The sweep first: each odd value once in each command and option (2,000 inputs)."""
    for item in sweep():
        rig.feed(item)


@FUZZ
@given(line=LINES)
def test_any_console_line_is_answered_or_refused_without_a_trace(rig, line):
    rig.feed(("line", line))


@FUZZ
@given(call=CALLS)
def test_any_service_call_is_answered_or_refused_without_a_trace(rig, call):
    rig.feed(call)
