"""Progress events: what the long steps report, throttled, across worker processes."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.core import progress
from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_jobs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_a_step_reports_its_start_its_end_and_little_between(monkeypatch):
    events = []
    progress.listen(events.append)
    try:
        progress.for_game("g")
        clock = iter(range(0, 10_000))
        monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock) * 0.01)  # 10 ms a call
        with progress.step("cards", 1000) as s:
            for _ in range(1000):
                s.advance()
    finally:
        progress.listen(None)
    assert events[0] == progress.Event("g", "cards", 0, 1000) and events[-1] == progress.Event("g", "cards", 1000, 1000)
    assert 50 <= len(events) <= 120  # one in ten, at most, for a tenth of a second between events
    assert [e.done for e in events] == sorted(e.done for e in events)


def test_without_a_listener_a_step_sends_nothing():
    assert not progress.listening()
    with progress.step("cards", 3) as s:
        for _ in range(3):
            s.advance()
    assert s.done == 3


def test_games_built_side_by_side_each_report_their_steps(tmp_path):
    games = []
    for name in ("one", "two"):
        shutil.copytree(FIXTURES / "tiny", tmp_path / name)
        (tmp_path / name / "templates" / "rulebook.md.j2").write_text(
            "# {{ game.title }}\n\n[TOC]\n\n## Setup\n\nShuffle.\n", encoding="utf-8")
        games.append(GameSource(tmp_path / name, name, tmp_path / name / "templates", f"{name}/templates"))
    settings = BuildSettings(SheetOptions(contact_sheets=False), jobs=2)
    events = []
    reports = run_jobs([BuildJob(g, tmp_path / "out", settings) for g in games], 2, events.append)
    assert [r.written for r in reports] == [True, True]
    for name in ("one", "two"):
        steps = {e.step for e in events if e.game == name}
        assert {"checking the data", "cards", "boards", "rulebook", "rulebook passes", "writing"} <= steps, steps
        cards = [e for e in events if e.game == name and e.step == "cards" and e.total]
        assert cards[-1].done == cards[-1].total == reports[0].ran["cards"].cards
    assert not progress.listening()  # the relay is closed with the run
