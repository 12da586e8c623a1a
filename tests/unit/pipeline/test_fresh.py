"""A run with nothing to do is answered from the build record: exactly when nothing it reads
or wrote has changed, and then with the report a full run gives."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.core.files import BUILD_RECORD
from pnp.model.games import GameSource
from pnp.model.load import LoadOptions
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game
from pnp.pipeline.fresh import RUN_FILE, RUNS, fresh_report

SETTINGS = BuildSettings(SheetOptions())
LOAD = LoadOptions()


def source(game: Path) -> GameSource:
    return GameSource(game, "tiny", game / "templates", "tiny/templates")


def build(game: Path, out: Path, settings: BuildSettings = SETTINGS):
    return run_game(BuildJob(source(game), out, settings, LOAD))


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in (BUILD_RECORD, RUN_FILE)}


def test_an_unchanged_build_and_its_check_are_answered_as_a_full_run_answers(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    quick = fresh_report(source(tiny), out, SETTINGS, LOAD, write=True)
    full = build(tiny, out)  # the same no-op through every stage's record
    assert quick is not None and not full.ran
    assert quick.findings == full.findings and quick.title == full.title
    assert quick.rules_checked == full.rules_checked
    assert {k: sorted(p.resolve() for p in v) for k, v in quick.kept.items()} == \
        {k: sorted(p.resolve() for p in v) for k, v in full.kept.items()}
    checked = fresh_report(source(tiny), out, replace(SETTINGS, sheet=SheetOptions(contact_sheets=False)), LOAD,
                           write=False)
    dry = run_game(BuildJob(source(tiny), out, replace(SETTINGS, sheet=SheetOptions(contact_sheets=False)), LOAD,
                            write=False))
    assert checked is not None and checked.findings == dry.findings


def edit_cell(game: Path) -> None:
    csv = game / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Leaf", "Leaves"), encoding="utf-8")


def same_size_edit_at_the_recorded_time(game: Path) -> None:
    csv = game / "cards.csv"
    st = csv.stat()
    text = csv.read_text(encoding="utf-8")
    csv.write_text(text.replace("Leaf", "Lead"), encoding="utf-8")  # same size
    os.utime(csv, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the same modification time


def edit_layout(game: Path) -> None:
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace("size = 14", "size = 13", 1), encoding="utf-8")


def add_art(game: Path) -> None:
    from PIL import Image

    (game / "art").mkdir(exist_ok=True)
    Image.new("RGB", (30, 30), (200, 10, 10)).save(game / "art" / "new.png")


def edit_rules(game: Path) -> None:
    with open(game / "game.toml", "a", encoding="utf-8") as fh:
        fh.write("\n[rules]\nhand_limit = 7\n")


def edit_rulebook(game: Path) -> None:
    (game / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\nShuffle.\n", encoding="utf-8")


def edit_output(game: Path) -> None:
    (game.parent / "out" / "tiny" / "tiny-cards.pdf").write_bytes(b"edited by hand")


def remove_output(game: Path) -> None:
    (game.parent / "out" / "tiny" / "tiny-cards.pdf").unlink()


def font_changed(game: Path) -> None:
    record = game.parent / "out" / "tiny" / RUN_FILE
    entries = json.loads(record.read_text(encoding="utf-8"))
    (run,) = entries[RUNS].values()
    font = next(name for name in run["inputs"] if name.endswith(".ttf"))
    run["inputs"][font][0] += 1  # as if the installed font were another
    record.write_text(json.dumps(entries), encoding="utf-8")


EDITS = {"a CSV cell": edit_cell, "a same-size edit at the same time": same_size_edit_at_the_recorded_time,
         "a layout key": edit_layout, "an art file added": add_art, "a rules table": edit_rules,
         "the rulebook template": edit_rulebook, "an output edited": edit_output,
         "an output removed": remove_output, "a font": font_changed}


@pytest.mark.parametrize("edit", list(EDITS))
def test_any_change_makes_the_run_in_full_and_its_files_equal_a_clean_build(edit, tmp_path, tiny):
    game = tmp_path / "tiny"
    if game != tiny:
        shutil.move(tiny, game)
    (game / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\n[TOC]\n\n## Setup\n\nDeal.\n",
                                                        encoding="utf-8")
    out = tmp_path / "out"
    build(game, out)
    assert fresh_report(source(game), out, SETTINGS, LOAD, write=True) is not None
    EDITS[edit](game)
    assert fresh_report(source(game), out, SETTINGS, LOAD, write=True) is None
    build(game, out)
    clean = tmp_path / "clean"
    build(game, clean)
    assert outputs(out / "tiny") == outputs(clean / "tiny")


def test_other_settings_or_a_strict_build_with_warnings_are_made_in_full(tiny, tmp_path):
    out = tmp_path / "out"
    text = tiny / "cards.csv"
    text.write_text(text.read_text(encoding="utf-8").replace("Leaf", "Leaf " + "very long words " * 30),
                    encoding="utf-8")  # text that overflows: a warning
    report = build(tiny, out)
    assert report.written and any(f.severity == "warning" for f in report.findings)
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is not None
    assert fresh_report(source(tiny), out, replace(SETTINGS, sheet=SheetOptions(paper="a4")), LOAD, write=True) is None
    assert fresh_report(source(tiny), out, replace(SETTINGS, strict=True), LOAD, write=True) is None
    assert fresh_report(source(tiny), out, SETTINGS, replace(LOAD, encoding="cp1252"), write=True) is None


def test_a_damaged_record_makes_the_run_in_full(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    record = out / "tiny" / RUN_FILE
    entries = json.loads(record.read_text(encoding="utf-8"))
    (run,) = entries[RUNS].values()
    run["parts"] = {"cards": ["x"]}  # another shape
    record.write_text(json.dumps(entries), encoding="utf-8")
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is None
    record.write_text("{not json", encoding="utf-8")
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is None


def test_a_quick_sheet_and_the_full_build_each_keep_their_run(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    only = replace(SETTINGS, outputs=("cards",), manifest_targets=False, only=("cards",))
    build(tiny, out, only)
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is not None
    assert fresh_report(source(tiny), out, only, LOAD, write=True) is not None


def test_what_a_run_read_is_taken_before_it_runs(tiny, tmp_path, monkeypatch):
    import pnp.pipeline.build as pipeline

    taken = pipeline.before_run

    def saved_while_running(src):
        snapshot = taken(src)
        edit_cell(src.path)  # the designer saves while the build runs
        return snapshot

    monkeypatch.setattr(pipeline, "before_run", saved_while_running)
    out = tmp_path / "out"
    build(tiny, out)
    monkeypatch.undo()
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is None  # the saved file is not taken as read


def test_a_build_record_that_no_longer_holds_a_part_s_files_makes_the_run_again(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is not None
    record = out / "tiny" / BUILD_RECORD
    stages = json.loads(record.read_text(encoding="utf-8"))
    stages["cards"]["files"] = {}
    record.write_text(json.dumps(stages), encoding="utf-8")
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is None
    record.unlink()
    assert fresh_report(source(tiny), out, SETTINGS, LOAD, write=True) is None
    assert build(tiny, out).ran  # made again, where the snapshot would have kept it


def test_a_game_named_otherwise_is_run_again_so_its_findings_name_it_so(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    assert fresh_report(replace(source(tiny), display="./tiny"), out, SETTINGS, LOAD, write=True) is None
