"""Assemble! kept in spreadsheets instead of CSV files builds the same bytes."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from conftest import CARD_DATA, ROOT
from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game
from workbooks import game_as_workbook


def _pdfs(game, out) -> dict[str, str]:
    source = GameSource(game, "assemble", ROOT / "templates" / "assemble", "templates/assemble")
    report = run_game(BuildJob(source, out, BuildSettings(SheetOptions(contact_sheets=False)), write=True))
    assert not report.refused and not [f for f in report.findings if f.severity == "error"]
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*.pdf"))}


@pytest.mark.slow
def test_assemble_from_an_xlsx_and_an_ods_workbook_builds_byte_identical_pdfs(tmp_path):
    game = tmp_path / "sheets" / "assemble"
    shutil.copytree(CARD_DATA / "assemble", game)
    game_as_workbook(game, ".xlsx", "cards", components=["heroes", "reference_cards"])
    game_as_workbook(game, ".ods", "tables", components=["insignias", "icons"])
    for csv_file in game.glob("*.csv"):
        csv_file.unlink()  # the workbooks alone are read
    assert "sheet = " in (game / "game.toml").read_text(encoding="utf-8")
    want = _pdfs(CARD_DATA / "assemble", tmp_path / "out-csv")
    got = _pdfs(game, tmp_path / "out-sheets")
    assert len(want) == 4 and got == want
