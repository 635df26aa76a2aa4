"""Shards and processes, as a host sets them: which shards a process connects, and which
databases several processes may share. A setting that cannot work stops the bot at
start-up with a sentence naming it, before anything connects."""

from __future__ import annotations

import pytest

from bot.config import BadSetting, Settings, Shards, load_settings, read_shards
from tests.bot.store.test_storage_faults import a_bot_running_on
from tests.conftest import run_bot


def settings(tmp_path, **env: str) -> Settings:
    return load_settings(env, tmp_path / ".env")


def test_unset_is_automatic_sharding_and_a_count_alone_runs_every_shard_here():
    assert read_shards("", "") == Shards(None, None)
    assert read_shards("", "4") == Shards(None, 4)
    assert not read_shards("", "4").partial
    assert read_shards("0,1", "4") == Shards((0, 1), 4)
    assert read_shards(" 2-3 ", "4") == Shards((2, 3), 4)
    assert read_shards("3, 0-1", "4") == Shards((0, 1, 3), 4)
    assert read_shards("0,1", "4").partial and not read_shards("0-3", "4").partial
    assert read_shards("0,1", "4").describe() == "shards 0, 1 of 4"
    assert read_shards("", "2").describe() == "shards 0, 1 of 2"
    assert "automatic" in Shards().describe()


@pytest.mark.parametrize(
    ("ids", "count", "says"),
    [
        ("0,1", "", "BRIDGEKEEPER_SHARDS=0,1 needs BRIDGEKEEPER_SHARD_COUNT too"),
        ("", "four", "BRIDGEKEEPER_SHARD_COUNT=four is not a number of shards"),
        ("", "0", "BRIDGEKEEPER_SHARD_COUNT=0 is not a number of shards"),
        ("", "-2", "give a whole number from 1 to 65536"),
        (
            "4",
            "4",
            "shard 4 is out of range; with BRIDGEKEEPER_SHARD_COUNT=4 the shards are 0 to 3",
        ),
        ("-1", "4", "BRIDGEKEEPER_SHARDS=-1: -1 is not a shard number"),
        ("0,x", "4", "x is not a shard number; write them like 0,1 or 0-3"),
        ("0,,1", "4", "an empty entry is not a shard number"),
        ("0,1,1", "4", "names shard 1 twice"),
        ("0-1,1-2", "4", "names shard 1 twice"),
    ],
)
def test_shard_settings_that_cannot_work_are_refused_naming_the_setting(ids, count, says):
    with pytest.raises(BadSetting) as refused:
        read_shards(ids, count)
    assert says in str(refused.value)


def test_part_of_the_shards_on_a_sqlite_file_is_refused_all_of_them_is_fine(tmp_path):
    with pytest.raises(BadSetting, match="cannot share the SQLite file .*SQLite is one process"):
        settings(tmp_path, BRIDGEKEEPER_SHARDS="0,1", BRIDGEKEEPER_SHARD_COUNT="4")
    whole = settings(tmp_path, BRIDGEKEEPER_SHARDS="0-3", BRIDGEKEEPER_SHARD_COUNT="4")
    assert whole.shards == Shards((0, 1, 2, 3), 4)
    shared = settings(
        tmp_path,
        BRIDGEKEEPER_DB="postgresql://bk@db.example:5432/bk",
        BRIDGEKEEPER_SHARDS="0,1",
        BRIDGEKEEPER_SHARD_COUNT="4",
    )
    assert shared.shards == Shards((0, 1), 4)


def test_the_old_sharded_switch_is_refused_rather_than_skipping_the_lock(tmp_path):
    with pytest.raises(BadSetting, match="BRIDGEKEEPER_SHARDED is gone"):
        settings(tmp_path, BRIDGEKEEPER_SHARDED="1")
    for off in ("0", "false", "no", ""):  # left switched off: nothing it would change
        assert settings(tmp_path, BRIDGEKEEPER_SHARDED=off).shards == Shards()


def test_the_bot_stops_at_start_up_naming_a_bad_shard_setting(tmp_path):
    done = run_bot(
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "x", "BRIDGEKEEPER_SHARDS": "5", "BRIDGEKEEPER_SHARD_COUNT": "4"},
    )
    assert done.returncode != 0
    assert "BRIDGEKEEPER_SHARDS=5: shard 5 is out of range" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "bridgekeeper.db").exists(), "nothing starts half-way"


def test_a_second_process_on_a_sqlite_file_is_refused_whatever_its_shards(tmp_path):
    path = tmp_path / "bk.db"
    with a_bot_running_on(path) as holder:
        env = {"DISCORD_TOKEN": "x", "BRIDGEKEEPER_DB": str(path)}
        for shards in ({}, {"BRIDGEKEEPER_SHARDS": "0-1", "BRIDGEKEEPER_SHARD_COUNT": "2"}):
            second = run_bot(cwd=tmp_path, env={**env, **shards})
            assert second.returncode != 0
            assert f"Another Bridgekeeper process (pid {holder.pid}) is using" in second.stderr
            assert "several processes share a PostgreSQL database instead" in second.stderr
