"""Games are handed to the worker processes longest first, by the time their last run took;
the reports keep the order of the jobs and every game writes what it writes in any order."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pnp.model.games import GameSource
from pnp.model.load import LoadOptions
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline import build, schedule
from pnp.pipeline.build import BuildJob, run_jobs
from pnp.pipeline.schedule import longest_first, remember_timings, timing_key


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "timings" / schedule.TIMINGS_FILE


def test_never_timed_games_go_first_then_the_longest(cache, tmp_path):
    keys = [timing_key(tmp_path / name, True) for name in "abcde"]
    remember_timings({keys[0]: 0.5, keys[1]: 2.0, keys[3]: 1.0})
    assert longest_first(keys) == [2, 4, 1, 3, 0]
    remember_timings({keys[2]: 0.1})  # merged with what the file holds
    assert longest_first(keys) == [4, 1, 3, 0, 2]
    assert json.loads(cache.read_text(encoding="utf-8"))[keys[1]] == 2.0


def test_a_build_and_a_check_are_timed_apart(cache, tmp_path):
    assert timing_key(tmp_path, True) != timing_key(tmp_path, False)
    assert timing_key(tmp_path / "x" / "..", True) == timing_key(tmp_path, True)


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"K": -1}', '{"K": NaN}', '{"K": true}', '{"K": "9"}',
                                  '{"K": 1' + "0" * 400 + "}", '{"K": 1e999}', '{"K": {"a": 1}}'])
def test_a_damaged_timings_file_orders_nothing(cache, tmp_path, text):
    keys = [timing_key(tmp_path / "a", True), timing_key(tmp_path / "b", True)]
    cache.parent.mkdir(parents=True)
    cache.write_text(text.replace("K", keys[1].replace("\\", "\\\\")), encoding="utf-8")
    assert longest_first(keys) == [0, 1]
    remember_timings({keys[0]: 1.0})  # a damaged file is replaced, not merged
    assert json.loads(cache.read_text(encoding="utf-8")) == {keys[0]: 1.0}


def test_without_a_cache_folder_the_given_order_stays(monkeypatch, tmp_path):
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    keys = [timing_key(tmp_path / name, True) for name in "abc"]
    remember_timings({keys[2]: 5.0})
    assert longest_first(keys) == [0, 1, 2]


def test_run_jobs_starts_the_longest_game_first_and_reports_in_job_order(cache, tiny, tmp_path, monkeypatch):
    games = []
    for name in ("one", "two", "three"):
        shutil.copytree(tiny, tmp_path / name)
        games.append(tmp_path / name)
    jobs = [BuildJob(GameSource(g, g.name, g / "templates", f"{g.name}/templates"), tmp_path / "out" / g.name,
                     BuildSettings(SheetOptions()), LoadOptions()) for g in games]
    remember_timings({timing_key(games[0], True): 0.1, timing_key(games[1], True): 0.3,
                      timing_key(games[2], True): 0.2})
    queued = []
    real = build.map_ordered

    def spy(fn, items, workers=None, **kw):
        queued.extend(job.source.display for job in items)
        return real(fn, items, 1, **kw)  # one after another here: the order is what is tested

    monkeypatch.setattr(build, "map_ordered", spy)
    monkeypatch.setattr(build, "can_fork", lambda: False)  # whole games go to workers only where none forks
    reports = run_jobs(jobs, workers=2)
    assert queued == ["two", "three", "one"]
    assert [r.display for r in reports] == ["one", "two", "three"]
    assert all(r.written for r in reports)
    timed = json.loads(cache.read_text(encoding="utf-8"))
    assert all(timed[timing_key(g, True)] not in (0.1, 0.2, 0.3) for g in games)  # this run's times kept


def test_one_process_keeps_the_given_order(cache, tiny, tmp_path, monkeypatch):
    jobs = [BuildJob(GameSource(tiny, "tiny", tiny / "templates", "tiny/templates"), tmp_path / n,
                     BuildSettings(SheetOptions()), LoadOptions(), write=False) for n in ("a", "b", "c")]
    remember_timings({timing_key(tiny, False): 1.0})
    queued = []
    monkeypatch.setattr(build, "map_ordered", lambda fn, items, workers=None, **kw: queued.extend(items) or
                        [(build.GameReport(j.source.display, "", True), 0.0) for j in items])
    run_jobs(jobs, workers=1)
    assert queued == jobs


@pytest.mark.parametrize("name", [schedule.TIMINGS_FILE, schedule.STAGES_FILE])
def test_a_timings_file_nested_past_reading_is_started_afresh(cache, tmp_path, name):
    path = cache.parent / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[" * 100_000 + "]" * 100_000)  # json raises RecursionError, not ValueError
    keys = [timing_key(tmp_path / n, True) for n in "ab"]
    assert longest_first(keys, name) == [0, 1]  # as if never timed
    remember_timings({keys[1]: 1.0}, name)
    assert json.loads(path.read_text()) == {keys[1]: 1.0}  # written afresh, so the next run reads it
    assert longest_first(keys, name) == [0, 1]


def test_load_json_turns_too_deep_nesting_into_a_value_error(tmp_path):
    from pnp.core.files import load_json

    path = tmp_path / "deep.json"
    path.write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        load_json(path)
    path.write_text('{"a": [1, 2]}')
    assert load_json(path) == {"a": [1, 2]}
