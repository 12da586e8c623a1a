"""Writes the workbooks of the spreadsheet cases in bad_inputs/ (61 to 68), which are committed
as they were written: ``python tests/cases/make_workbook_cases.py`` after changing one."""

import datetime
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))
from workbooks import Error, Formula, Sheet, write_ods, write_xlsx  # noqa: E402

base = TESTS / "cases" / "bad_inputs"
toml = (TESTS / "fixtures" / "tiny" / "game.toml").read_text(encoding="utf-8")
HEAD = ["id", "title", "cost", "colour", "text", "copies"]
def rows(**over):
    r2 = ["fire", "Fire & Ice", 2, "red", "Draw 2.\nDiscard <1>.", 3]
    r3 = ["leaf", "Leaf", 1, "green", None, 2]
    for k, v in over.items():
        row, col = k[:2], "ABCDEF".index(k[2])
        (r2 if row == "r2" else r3)[col] = v
    return [HEAD, r2, r3]
def case(name, expect, sheets, suffix=".xlsx", sheet="Cards", note=""):
    d = base / name; d.mkdir(exist_ok=True)
    (write_ods if suffix == ".ods" else write_xlsx)(d / f"cards{suffix}", sheets)
    (d / "game.toml").write_text(toml.replace('table = "cards.csv"', f'table = {{ file = "cards{suffix}", sheet = "{sheet}" }}'))
    (d / "case.toml").write_text(f"# {note}\nrun = \"build\"\nexpect = '''{expect}'''\n")
case("61-sheet-misspelt", "error schema.sheet g/game.toml:9 (components.cards.table.sheet): cards.xlsx has no sheet 'Cards'",
     {"Card": Sheet(rows()), "Notes": Sheet([["x"]])}, note="the sheet's tab says 'Card'; game.toml names 'Cards'")
case("62-formula-error", "error schema.formula g/cards.xlsx › Cards!C3 (cost): the formula in this cell gives the error #DIV/0!",
     {"Cards": Sheet([HEAD, ["fire", "Fire & Ice", Formula("1+1", 2), "red", "Draw 2.", 3], ["leaf", "Leaf", Error("1/0"), "green", None, 2]])},
     note="C2 is a formula with its saved result (read as 2), C3 a formula whose result is #DIV/0!")
case("63-merged-cell", "error schema.merged g/cards.xlsx › Cards!C2 (cost): cells C2:C3 are merged",
     {"Cards": Sheet(rows(r3C=None), merged=["C2:C3"])}, note="both cards' cost typed once in a merged cell")
case("64-date-in-number", "error schema.type g/cards.xlsx › Cards!C3 (cost): this cell holds a date (2024-03-01)",
     {"Cards": Sheet(rows(r3C=datetime.date(2024, 3, 1)))}, note="the spreadsheet turned the cost into a date")
case("66-hidden-row", "warning schema.hidden g/cards.xlsx › Cards, row 3: 1 hidden row(s) are read like the others",
     {"Cards": Sheet(rows(), hidden_rows=[3])}, note="row 3 is hidden in the spreadsheet; its card still prints")
case("67-ods-formula-error", "error schema.formula g/cards.ods › Cards!C2 (cost): the formula in this cell gives the error #DIV/0!",
     {"Cards": Sheet(rows(r2C=Error("1/0")), merged=[])}, suffix=".ods", note="LibreOffice saves an error result as calcext:value-type error")
case("68-ods-merged-cell", "error schema.merged g/cards.ods › Cards!B2 (title): cells B2:B3 are merged",
     {"Cards": Sheet(rows(r3B=None), merged=["B2:B3"])}, suffix=".ods", note="a merged title in an .ods sheet")
d = base / "65-corrupt-workbook"; d.mkdir(exist_ok=True)
(d / "cards.xlsx").write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
(d / "game.toml").write_text(toml.replace('table = "cards.csv"', 'table = { file = "cards.xlsx", sheet = "Cards" }'))
(d / "case.toml").write_text("# a zip header and then noise: a download that broke off\nrun = \"build\"\nexpect = '''error schema.file g/cards.xlsx: this file cannot be read as a .xlsx workbook'''\n")
