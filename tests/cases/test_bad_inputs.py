"""Every case under tests/cases/bad_inputs/: a broken (or awkward) game folder and what pnp must
say, the same in ``pnp check`` and ``pnp build`` (a case with ``boxes = true`` is run with
``--boxes``, one with ``cut = "FILE"`` with ``--cut`` and the case's cutter profile FILE, named
``g/FILE`` in what is said)."""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.core.errors import PnpError
from pnp.core.findings import failing
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

from conftest import FIXTURES

CASES = sorted(p for p in (Path(__file__).parent / "bad_inputs").iterdir() if p.is_dir())


def finding_lines(findings) -> list[str]:
    return [f"{f.severity} {f.rule} {f.location}: {f.message}" for f in findings]


def run_case(folder: Path, game_dir: Path, out: Path) -> list[str]:
    """What pnp says about the case: the error of a game that does not load, or the finding
    lines of its check, or ['ok'] (then the info lines). A case that loads is run both ways,
    as ``pnp check`` (a dry run) and as ``pnp build``, and both must say the same."""
    spec = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    if spec["run"] == "load":
        try:
            load_game(game_dir, "g")
        except PnpError as exc:
            errors = getattr(exc, "errors", None)
            return [e.render() for e in errors] if errors else [exc.render()]
        return ["ok"]
    source = GameSource(game_dir, "g", game_dir / "templates", "g/templates")
    cut = str(game_dir / spec["cut"]) if "cut" in spec else None
    settings = BuildSettings(SheetOptions(contact_sheets=False), boxes=spec.get("boxes", False), cut=cut)
    dry = run_game(BuildJob(source, out, settings, write=False))
    built = run_game(BuildJob(source, out, settings, write=True))
    assert finding_lines(dry.findings) == finding_lines(built.findings), "check and build disagree"
    if failing(dry.findings, strict=True) != failing(dry.findings):  # warnings alone: --strict decides
        strict = run_game(BuildJob(source, out.parent / "strict", replace(settings, strict=True), write=True))
        assert strict.refused == "strict", "check --strict fails but build --strict writes"
    lines = [line.replace(str(game_dir), "g") for line in finding_lines(dry.findings)]
    return lines if any(not line.startswith("info") for line in lines) else ["ok"] + lines


def test_there_are_at_least_thirty_cases():
    assert len(CASES) >= 30


def case_game(folder: Path, tmp_path: Path) -> Path:
    """The tiny game with the case's files over it, in ``tmp_path/game``."""
    game_dir = tmp_path / "game"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    for path in folder.rglob("*"):
        if path.is_file() and path.name != "case.toml":
            target = game_dir / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return game_dir


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_case(folder: Path, tmp_path: Path):
    game_dir = case_game(folder, tmp_path)
    expect = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))["expect"]
    said = run_case(folder, game_dir, tmp_path / "out")
    if expect == "ok":
        assert said[0] == "ok", said
    else:
        assert any(line.startswith(expect) for line in said), said


@pytest.mark.parametrize("name, rule, pieces", [
    ("73-layout-renamed-rows-name-it", "layout.undefined", ("cards/fire", "cards/leaf", "cards/wind", "cards/ash")),
    ("74-unreadable-art-named-by-rows", "layout.art-unreadable", ("cards/fire", "cards/leaf")),
])
def test_rows_naming_one_cause_give_one_finding_with_every_piece(name, rule, pieces, tmp_path):
    """A layout four rows name that the layouts file lacks, or a picture every row names that
    cannot be read, is one finding (at the first cell) listing the pieces, not one per row."""
    game_dir = case_game(Path(__file__).parent / "bad_inputs" / name, tmp_path)
    source = GameSource(game_dir, "g", game_dir / "templates", "g/templates")
    report = run_game(BuildJob(source, tmp_path / "out", BuildSettings(SheetOptions(contact_sheets=False)),
                               write=False))
    found = [f for f in report.findings if f.rule == rule]
    assert [(f.location, f.pieces, f.count) for f in found] == [(found[0].location, pieces, len(pieces))]
    assert found[0].line == 2
