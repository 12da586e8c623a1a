"""A game that is a build's only one renders its stages side by side in forked processes; what
it writes and reports is what rendering them one after another writes and reports."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.model.games import GameSource
from pnp.model.load import LoadOptions
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline import stages
from pnp.pipeline.build import BuildJob, run_game, run_jobs

from test_cache_edits import prepare, written

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="stages fork on Linux only")


def job(game: Path, out: Path, workers: int) -> BuildJob:
    source = GameSource(game, "tiny", game / "templates", "tiny/templates")
    return BuildJob(source, out, BuildSettings(SheetOptions()), LoadOptions(), stage_workers=workers)


def test_stages_side_by_side_write_and_report_what_one_after_another_do(tiny, tmp_path):
    prepare(tiny)
    one = run_game(job(tiny, tmp_path / "one", 1))
    two = run_game(job(tiny, tmp_path / "two", 2))
    assert sorted(two.ran) == sorted(one.ran) and len(one.ran) >= 3
    assert two.findings == one.findings
    assert {k: (v.cards, v.sheets) for k, v in two.ran.items()} == {k: (v.cards, v.sheets) for k, v in one.ran.items()}
    a, b = written(tmp_path / "one" / "tiny"), written(tmp_path / "two" / "tiny")
    assert sorted(a) == sorted(b) and all(a[n] == b[n] for n in a)


def test_stages_render_in_a_second_process(tiny, tmp_path, monkeypatch):
    import os

    pids = {}
    real = stages._render_one

    def spy(stage, dry):
        pids[stage.name] = os.getpid()
        return real(stage, dry)

    monkeypatch.setattr(stages, "_render_one", spy)
    seen = []
    monkeypatch.setattr(stages, "_render_side_by_side",
                        lambda s, dry, workers, side, *rest, real=stages._render_side_by_side: seen.append(
                            [x.name for x in s] + sorted(side)) or real(s, dry, workers, side, *rest))
    report = run_game(job(tiny, tmp_path / "out", 2))
    assert seen and seen[0][0] == "cards" and len(seen[0]) >= 3 and seen[0][-1] == "snapshot"
    # this process drew the card sheets; the first stage queued went to the forked worker at
    # once (its spy record stayed there: it came back as a result), and what was still queued
    # when the card sheets were done this process took back
    assert pids["cards"] == os.getpid() and seen[0][1] not in pids
    assert set(pids) < set(seen[0])
    assert seen[0][-2:] == ["checks", "snapshot"]  # the data checks and the snapshot beside them
    assert set(seen[0][:-2]) <= set(report.ran)
    assert report.rules_checked > 0
    assert (tmp_path / "out" / "tiny" / ".pnp-pieces.json").is_file()  # the snapshot made beside them


def test_data_checks_beside_the_stages_report_what_they_report_first(tiny, tmp_path):
    table = (tiny / "cards.csv").read_text(encoding="utf-8")
    assert "leaf,Leaf,1,green,,2" in table
    (tiny / "cards.csv").write_text(table.replace("leaf,Leaf,1,green,,2", "leaf,Leaf,1,green,,0"),
                                    encoding="utf-8")  # a row of no copies: a data check's finding
    one = run_game(job(tiny, tmp_path / "one", 1))
    two = run_game(job(tiny, tmp_path / "two", 2))
    assert one.findings == two.findings and one.rules_checked == two.rules_checked
    rules = {f.rule for f in one.findings}
    assert rules - {"access.contrast"}, rules


def test_a_snapshot_made_beside_the_stages_is_the_one_made_after_them(tiny, tmp_path):
    run_game(job(tiny, tmp_path / "one", 1))
    run_game(job(tiny, tmp_path / "two", 2))
    assert (tmp_path / "one" / "tiny" / ".pnp-pieces.json").read_bytes() == \
        (tmp_path / "two" / "tiny" / ".pnp-pieces.json").read_bytes()


def test_a_single_game_renders_its_stages_side_by_side_and_several_share_one_queue(tiny, tmp_path, monkeypatch):
    from pnp.pipeline import build

    got = []
    monkeypatch.setattr("pnp.pipeline.build.run_game", lambda j: got.append(j.stage_workers) or None)
    run_jobs([job(tiny, tmp_path / "a", 1)], workers=2)
    run_jobs([job(tiny, tmp_path / "b", 1)], workers=1)
    assert got == [2, 1]
    got.clear()
    two = [job(tiny, tmp_path / "c", 1), replace(job(tiny, tmp_path / "d", 1))]
    together = []
    monkeypatch.setattr(build, "_run_together", lambda jobs, workers: together.append((len(jobs), workers)) or [])
    run_jobs(two, workers=2)
    assert together == [(2, 2)] and got == []
    # where workers cannot fork, whole games go to the workers, each rendering its own stages
    monkeypatch.setattr(build, "can_fork", lambda: False)
    monkeypatch.setattr("pnp.pipeline.build.map_ordered", lambda fn, items, workers, **kw: [fn(i) for i in items])
    run_jobs(two, workers=2)
    assert got == [1, 1] and together == [(2, 2)]


def test_several_games_write_and_report_what_each_built_alone_does(tiny, tmp_path):
    import shutil

    prepare(tiny)
    other = tmp_path / "other"
    shutil.copytree(tiny, other)
    (other / "cards.csv").write_text((other / "cards.csv").read_text(encoding="utf-8").replace("Leaf", "Lief"),
                                     encoding="utf-8")
    (other / "game.toml").write_text((other / "game.toml").read_text(encoding="utf-8")
                                     .replace('id = "tiny"', 'id = "other"'), encoding="utf-8")

    def jobs(out: Path) -> list[BuildJob]:
        return [BuildJob(GameSource(g, g.name, g / "templates", f"{g.name}/templates"), out,
                         BuildSettings(SheetOptions()), LoadOptions()) for g in (tiny, other)]

    alone = [run_game(j) for j in jobs(tmp_path / "alone")]
    together = run_jobs(jobs(tmp_path / "together"), workers=2)
    assert [r.display for r in together] == ["tiny", "other"] and all(r.written for r in together)
    for a, b in zip(alone, together):
        assert a.findings == b.findings and a.rules_checked == b.rules_checked
        assert sorted(a.ran) == sorted(b.ran) and len(a.ran) >= 3
    for game in ("tiny", "other"):
        a, b = written(tmp_path / "alone" / game), written(tmp_path / "together" / game)
        assert sorted(a) == sorted(b) and all(a[n] == b[n] for n in a), game
    assert written(tmp_path / "together" / "tiny")["tiny-cards.pdf"] != \
        written(tmp_path / "together" / "other")["other-cards.pdf"]


def test_the_stages_of_several_games_are_shared_between_the_processes(tiny, tmp_path, monkeypatch):
    import os
    import shutil

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    games = []
    for name in ("one", "two", "three"):
        shutil.copytree(tiny, tmp_path / name)
        games.append(tmp_path / name)
    jobs = [BuildJob(GameSource(g, g.name, g / "templates", f"{g.name}/templates"), tmp_path / "out" / g.name,
                     BuildSettings(SheetOptions()), LoadOptions()) for g in games]  # one game id: folders apart
    where: dict[tuple[str, str], int] = {}
    real = stages._render_one

    def spy(stage, dry):
        result, failed = real(stage, dry)
        result.notes = result.notes + [f"pid {os.getpid()}"]
        return result, failed

    monkeypatch.setattr(stages, "_render_one", spy)
    reports = run_jobs(jobs, workers=2)
    for report in reports:
        for name, result in report.ran.items():
            where[report.display, name] = int(result.notes[-1].split()[1])
    assert len(where) >= 9 and all(r.written and r.rules_checked > 0 for r in reports)
    assert len(set(where.values())) == 2  # this process and the forked worker each rendered some
    timed = json.loads((tmp_path / "cache" / "timings" / "stages.json").read_text())
    for g in games:  # every game's stages timed, under its folder, for the next run's order
        assert f"build {g.resolve()} cards" in timed and f"build {g.resolve()} checks" in timed
    # into other output folders, the same games are timed under the same keys: the last times order the run
    run_jobs([replace(j, output=tmp_path / "elsewhere" / j.source.path.name) for j in jobs], workers=2)
    assert set(json.loads((tmp_path / "cache" / "timings" / "stages.json").read_text())) == set(timed)


def test_a_game_that_does_not_load_leaves_the_others_to_build(tiny, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(tiny, broken)
    (broken / "game.toml").write_text("[game\n", encoding="utf-8")
    jobs = [BuildJob(GameSource(g, g.name, g / "templates", f"{g.name}/templates"), tmp_path / "out",
                     BuildSettings(SheetOptions()), LoadOptions()) for g in (broken, tiny)]
    reports = run_jobs(jobs, workers=2)
    assert [r.display for r in reports] == ["broken", "tiny"]
    assert not reports[0].loaded and any(f.severity == "error" for f in reports[0].findings)
    assert reports[1].written and (tmp_path / "out" / "tiny" / "tiny-cards.pdf").is_file()


def test_what_no_worker_has_started_is_taken_back_when_the_card_sheets_are_done():
    import os
    import time

    from pnp.outputs.base import BuildResult, Stage

    def made_here(name: str, pause: float = 0.0):
        def render(dry: bool) -> BuildResult:
            time.sleep(pause)
            return BuildResult(notes=[name, str(os.getpid())])
        return Stage(name, [], render)

    queue = [made_here("cards"), made_here("slow", 1.5), made_here("a"), made_here("b"), made_here("c")]
    results, side = stages._render_side_by_side(queue, False, 2, {"task": lambda: os.getpid()})
    where = {name: int(result.notes[1]) for name, (result, failed) in results.items()}
    assert sorted(where) == ["a", "b", "c", "cards", "slow"] and not any(f for _, f in results.values())
    # the slow stage went to the worker first; everything queued behind it was done here
    assert where["slow"] != os.getpid()
    assert {where[n] for n in ("cards", "a", "b", "c")} == {os.getpid()} and side == {"task": os.getpid()}


def test_the_queue_holds_the_longest_stage_first_by_its_last_time(tmp_path, monkeypatch):
    import os
    import time

    from pnp.outputs.base import BuildResult, Stage
    from pnp.pipeline.schedule import STAGES_FILE, remember_timings, stage_key

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))

    def stage(name: str, seconds: float) -> Stage:
        def render(dry: bool) -> BuildResult:
            start = time.monotonic()  # one clock for every process
            time.sleep(seconds)
            return BuildResult(notes=[name, str(os.getpid()), repr(start)])
        return Stage(name, [], render)

    made = [stage("cards", 1.2), stage("short", 0.05), stage("middle", 0.1), stage("long", 0.3)]
    key = lambda name: stage_key(str(tmp_path / "game"), True, name)  # noqa: E731
    remember_timings({key("short"): 0.05, key("long"): 0.3, key("middle"): 0.1}, STAGES_FILE)
    results, _ = stages._render_side_by_side(made, False, 2, {}, key)
    notes = {name: result.notes for name, (result, failed) in results.items()}
    assert notes["cards"][1] == str(os.getpid())  # the card sheets in this process
    worker = {name for name, (_, pid, _) in notes.items() if pid != str(os.getpid())}
    started = sorted(worker, key=lambda name: float(notes[name][2]))
    # the worker starts on the longest, whatever the stage order, and goes on down the queue
    # (what it has not begun when the cards are done this process takes, from the short end)
    assert started == ["long", "middle", "short"][:len(started)] and started

    times = json.loads((tmp_path / "cache" / "timings" / STAGES_FILE).read_text())
    assert times[key("long")] >= 0.3 and times[key("short")] >= 0.05  # measured again, for the next run
