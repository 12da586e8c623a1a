"""Tables kept as sheets of .xlsx and .ods workbooks, and the per-table reading settings of
game.toml (docs/game-format.md, "Spreadsheet tables")."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

from pnp.core.errors import Location, ManifestError, column_letters
from pnp.core.findings import Finding
from pnp.model.load import GameDataErrors, LoadOptions, load_game
from pnp.validate.check import check_game_full
from pnp.model.games import GameSource

from conftest import FIXTURES
from workbooks import Error, Formula, Sheet, write_ods, write_xlsx

HEAD = ["id", "title", "cost", "colour", "text", "copies"]
FIRE = ["fire", "Fire & Ice", 2, "red", "Draw 2.\nDiscard <1>.", 3]
LEAF = ["leaf", "Leaf", 1, "green", None, 2]
WRITERS = {".xlsx": write_xlsx, ".xlsm": write_xlsx, ".ods": write_ods}


def tiny(tmp_path: Path, table: str) -> Path:
    """The tiny game with its cards table written as ``table`` in game.toml."""
    game = tmp_path / "g"
    shutil.copytree(FIXTURES / "tiny", game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('table = "cards.csv"', f"table = {table}"),
                    encoding="utf-8")
    return game


def with_sheets(tmp_path: Path, suffix: str, sheets: dict[str, Sheet], sheet: str | None = "Cards") -> Path:
    game = tiny(tmp_path, f'{{ file = "cards{suffix}"' + (f', sheet = "{sheet}"' if sheet else "") + " }")
    WRITERS[suffix](game / f"cards{suffix}", sheets)
    return game


def errors_of(game: Path) -> list[str]:
    with pytest.raises(GameDataErrors) as info:
        load_game(game, "g")
    return [f"{e.rule} {e.location}: {e.message}" for e in info.value.errors]


def test_column_letters_and_sheet_locations():
    assert [column_letters(n) for n in (1, 3, 26, 27, 52, 703)] == ["A", "C", "Z", "AA", "AZ", "AAA"]
    assert str(Location("g/cards.xlsx", 7, 3, "cost", "Creatures")) == "g/cards.xlsx › Creatures!C7 (cost)"
    assert str(Location("g/cards.xlsx", 7, sheet="Creatures")) == "g/cards.xlsx › Creatures, row 7"
    assert str(Location("g/cards.xlsx", sheet="Creatures")) == "g/cards.xlsx › Creatures"
    assert str(Location("g/cards.csv", 7, 3, "cost")) == "g/cards.csv:7:3 (cost)"  # CSV as before


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm", ".ods"])
def test_a_sheet_reads_as_the_csv_does(tmp_path, suffix):
    want = load_game(FIXTURES / "tiny", "g").components["cards"]
    game = with_sheets(tmp_path, suffix, {"Notes": Sheet([["a note"]]), "Cards": Sheet([HEAD, FIRE, LEAF])})
    got = load_game(game, "g").components["cards"]
    assert [r.values for r in got.rows] == [r.values for r in want.rows]
    assert isinstance(got.rows[0]["cost"], int) and got.rows[0].copies == 3
    assert str(got.rows[1].location("cost")) == f"g/cards{suffix} › Cards!C3 (cost)"
    assert got.table_name == f"g/cards{suffix} › Cards"


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_formula_gives_its_saved_result_and_an_error_result_is_located(tmp_path, suffix):
    fire = FIRE[:2] + [Formula("1+1", 2)] + FIRE[3:]
    game = with_sheets(tmp_path, suffix, {"Cards": Sheet([HEAD, fire, LEAF])})
    assert load_game(game, "g").components["cards"].rows[0]["cost"] == 2
    leaf = LEAF[:2] + [Error("1/0")] + LEAF[3:]
    game = with_sheets(tmp_path / "err", suffix, {"Cards": Sheet([HEAD, fire, leaf])})
    assert errors_of(game) == [f"schema.formula g/cards{suffix} › Cards!C3 (cost): "
                               "the formula in this cell gives the error #DIV/0!"]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_formula_with_no_saved_result_is_not_read_as_blank(tmp_path, suffix):
    fire = FIRE[:2] + [Formula("1+1")] + FIRE[3:]
    game = with_sheets(tmp_path, suffix, {"Cards": Sheet([HEAD, fire, LEAF])})
    assert errors_of(game) == [f"schema.formula g/cards{suffix} › Cards!C2 (cost): this formula cell has no saved result"]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_types_are_read_as_the_manifest_declares(tmp_path, suffix):
    rows = [HEAD, ["fire", 42, 2.5, "red", True, 3], ["leaf", "Leaf", datetime.date(2024, 3, 1), "green", None, 2.0]]
    said = errors_of(with_sheets(tmp_path, suffix, {"Cards": Sheet(rows)}))
    assert said == [
        f"schema.type g/cards{suffix} › Cards!C2 (cost): '2.5' is not a whole number",
        f"schema.type g/cards{suffix} › Cards!C3 (cost): this cell holds a date (2024-03-01), but its column "
        "is declared \"int\" (a whole number)",
    ]
    rows[1][2], rows[2][2] = 2.0, 1
    cards = load_game(with_sheets(tmp_path / "ok", suffix, {"Cards": Sheet(rows)}), "g").components["cards"]
    assert cards.rows[0]["title"] == "42" and cards.rows[0]["text"] == "TRUE" and cards.rows[1].copies == 2


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_merged_cells_are_errors_and_hidden_rows_and_columns_warnings(tmp_path, suffix):
    merged = with_sheets(tmp_path, suffix, {"Cards": Sheet([HEAD, FIRE, LEAF[:1] + [None] + LEAF[2:]], merged=["B2:B3"])})
    assert errors_of(merged)[0] == f"schema.merged g/cards{suffix} › Cards!B2 (title): cells B2:B3 are merged"
    hidden = with_sheets(tmp_path / "h", suffix, {"Cards": Sheet([HEAD, FIRE, LEAF], hidden_rows=[3],
                                                                 hidden_columns=["C"])})
    result = check_game_full(GameSource(hidden, "g"))
    found = [(f.severity, f.rule, f.location, f.message) for f in result.findings if f.rule == "schema.hidden"]
    assert found == [  # in report order: by row
        ("warning", "schema.hidden", f"g/cards{suffix} › Cards!C1 (cost)",
         "hidden column(s) 'cost' (C) are read like the others"),
        ("warning", "schema.hidden", f"g/cards{suffix} › Cards, row 3",
         "1 hidden row is read like the others (row 3)"),
    ]
    assert result.game.components["cards"].rows[1].id == "leaf"  # read, not dropped


def test_the_sheet_name_gets_a_did_you_mean_at_its_key(tmp_path):
    game = with_sheets(tmp_path, ".xlsx", {"Creatures": Sheet([HEAD, FIRE]), "Spells": Sheet([["x"]])}, "Creaturs")
    with pytest.raises(GameDataErrors) as info:
        load_game(game, "g")
    err = info.value.errors[0]
    assert (err.rule, str(err.location), err.message) == (
        "schema.sheet", "g/game.toml:9 (components.cards.table.sheet)", "cards.xlsx has no sheet 'Creaturs'")
    assert err.hint == "did you mean 'Creatures'? its sheets: Creatures, Spells"


def test_a_workbook_of_one_sheet_needs_no_sheet_name_and_one_of_several_does(tmp_path):
    game = with_sheets(tmp_path, ".xlsx", {"Anything": Sheet([HEAD, FIRE, LEAF])}, sheet=None)
    assert load_game(game, "g").components["cards"].table_name == "g/cards.xlsx › Anything"
    game = with_sheets(tmp_path / "two", ".xlsx", {"A": Sheet([HEAD, FIRE]), "B": Sheet([["x"]])}, sheet=None)
    assert errors_of(game) == ["schema.sheet g/game.toml:9 (components.cards.table): "
                               "cards.xlsx has 2 sheets and game.toml names none"]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_sheet_whose_table_starts_lower_and_to_the_right_names_its_real_cells(tmp_path, suffix):
    rows = [[], [None, *HEAD], [None, *FIRE[:2], "two", *FIRE[3:]], [None, *LEAF[:5], Error("1/0")]]
    assert errors_of(with_sheets(tmp_path, suffix, {"Cards": Sheet(rows, merged=["C3:C4"])})) == [
        f"schema.merged g/cards{suffix} › Cards!C3 (title): cells C3:C4 are merged",
        f"schema.type g/cards{suffix} › Cards!D3 (cost): 'two' is not a whole number",
        f"schema.required g/cards{suffix} › Cards!C4 (title): this cell is blank but the column needs a value",
        f"schema.formula g/cards{suffix} › Cards!G4 (copies): the formula in this cell gives the error #DIV/0!"]


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04 broken off", b"id,title\nfire,Fire\n"])
def test_a_file_that_is_not_a_workbook_is_a_located_error(tmp_path, data):
    game = tiny(tmp_path, '{ file = "cards.xlsx", sheet = "Cards" }')
    (game / "cards.xlsx").write_bytes(data)
    said = errors_of(game)
    assert len(said) == 1 and said[0].startswith("schema.file g/cards.xlsx: this file cannot be read as a .xlsx workbook")


@pytest.mark.parametrize("table, key, message", [
    ('{ file = "cards.csv", sheet = "Cards" }', "components.cards.table.sheet", "is not a workbook"),
    ('{ file = "cards.xlsx", encoding = "cp1252" }', "components.cards.table.encoding", "is a workbook"),
    ('{ file = "cards.ods", delimiter = ";" }', "components.cards.table.delimiter", "is a workbook"),
    ('{ file = "cards.csv", encoding = "klingon" }', "components.cards.table.encoding", "unknown text encoding"),
    ('{ file = "cards.csv", delimiter = ";;" }', "components.cards.table.delimiter", "is not one character"),
    ('{ file = "cards.csv", sheeet = "Cards" }', "components.cards.table", "sheeet"),
])
def test_reading_settings_that_do_not_fit_the_file_are_refused_at_their_key(tmp_path, table, key, message):
    with pytest.raises(ManifestError) as info:
        load_game(tiny(tmp_path, table), "g")
    assert info.value.location.column_name.startswith(key) and message in info.value.render()


def test_a_csv_table_states_its_own_encoding_and_delimiter(tmp_path):
    game = tiny(tmp_path, '{ file = "cards.csv", encoding = "cp1252", delimiter = "semicolon" }')
    (game / "cards.csv").write_bytes("id;title;cost;colour;text;copies\nfire;Caf\xe9;2;red;;3\nleaf;Leaf;1;green;;2\n"
                                     .encode("cp1252"))
    # the table's own settings win over the command line's, which are the default for the others
    for options in (LoadOptions(), LoadOptions(encoding="utf-16", delimiter=",")):
        assert load_game(game, "g", options).components["cards"].rows[0]["title"] == "Café"


def test_a_sheet_names_rows_as_rows(tmp_path):
    game = with_sheets(tmp_path, ".xlsx", {"Cards": Sheet([HEAD, FIRE, ["fire"] + LEAF[1:]])})
    assert errors_of(game) == ["schema.unique-id g/cards.xlsx › Cards!A3 (id): id 'fire' is used twice "
                               "(first on row 2)"]


def test_a_finding_carries_its_sheet_and_json_names_it_only_for_a_sheet():
    cell = Finding.at("error", "schema.type", Location("g/cards.xlsx", 7, 3, "cost", "Creatures"), "bad")
    assert (cell.group, cell.position, cell.as_dict()["sheet"]) == ("g/cards.xlsx › Creatures", "C7 (cost)", "Creatures")
    assert Finding.from_dict(cell.as_dict()) == cell
    csv_cell = Finding.at("error", "schema.type", Location("g/cards.csv", 7, 3, "cost"), "bad")
    assert "sheet" not in csv_cell.as_dict() and csv_cell.position == "7:3 (cost)"


def test_a_hidden_blank_row_is_only_a_skipped_blank_row(tmp_path):
    game = with_sheets(tmp_path, ".xlsx", {"Cards": Sheet([HEAD, FIRE, [], LEAF], hidden_rows=[3])})
    found = [(f.rule, f.location, f.message) for f in check_game_full(GameSource(game, "g")).findings
             if f.rule.startswith("schema.")]
    assert found == [("schema.blank-rows", "g/cards.xlsx › Cards, row 3", "1 blank row(s) skipped (rows 3)")]
