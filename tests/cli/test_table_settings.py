"""How a table is read, as game.toml states it, from the command line: a CSV table's own
encoding and delimiter, and a workbook sheet's findings in ``pnp check``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from conftest import FIXTURES
from workbooks import Error, Sheet, write_xlsx


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})


def _game(tmp_path, table: str):
    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('table = "cards.csv"', f"table = {table}"),
                    encoding="utf-8")
    return game


def test_a_tables_own_encoding_and_delimiter_win_over_the_command_line(tmp_path):
    game = _game(tmp_path, '{ file = "cards.csv", encoding = "cp1252", delimiter = ";" }')
    csv = game / "cards.csv"
    csv.write_bytes(csv.read_text(encoding="utf-8").replace(",", ";").replace("Leaf", "Feuillé").encode("cp1252"))
    for extra in ([], ["--encoding", "utf-8", "--delimiter", ","]):
        result = pnp("check", "--format", "json", str(game), *extra)
        assert result.returncode == 0, result.stdout + result.stderr
        assert json.loads(result.stdout)[0]["loaded"] is True


def test_check_reports_a_sheets_cell_in_text_and_json(tmp_path):
    game = _game(tmp_path, '{ file = "cards.xlsx", sheet = "Cards" }')
    write_xlsx(game / "cards.xlsx", {"Cards": Sheet([["id", "title", "cost", "colour", "text", "copies"],
                                                     ["fire", "Fire", Error("1/0"), "red", None, 3]])})
    text = pnp("check", str(game))
    assert text.returncode == 1
    assert "tiny/cards.xlsx › Cards\n    C2 (cost)  error  schema.formula\n" \
           "      the formula in this cell gives the error #DIV/0!" in text.stdout
    (finding,) = json.loads(pnp("check", "--format", "json", str(game)).stdout)[0]["findings"]
    assert {k: finding[k] for k in ("file", "sheet", "line", "column", "field", "rule")} == {
        "file": f"{game}/cards.xlsx", "sheet": "Cards", "line": 2, "column": 3, "field": "cost",
        "rule": "schema.formula"}
