"""The CSV loader and the manifest: typed rows and exact, located error messages."""

from __future__ import annotations

import pytest

from pnp.model.readers.csv import read_csv
from pnp.core.errors import DataError, ManifestError
from pnp.model.load import GameDataErrors, load_game

HEADER = "id,title,cost,colour,text,copies"


def write(folder, body: bytes | str, name: str = "cards.csv") -> None:
    data = body.encode("utf-8") if isinstance(body, str) else body
    (folder / name).write_bytes(data)


def errors_of(folder) -> list[str]:
    with pytest.raises(GameDataErrors) as info:
        load_game(folder, "g")
    return [e.render() for e in info.value.errors]


def test_tiny_game_loads_typed_rows(tiny):
    game = load_game(tiny, "g")
    cards = game.components["cards"]
    fire = cards.by_id()["fire"]
    assert fire["title"] == "Fire & Ice"
    assert fire["cost"] == 2 and isinstance(fire["cost"], int)
    assert fire["text"] == "Draw 2.\nDiscard <1>."
    assert fire.copies == 3
    assert cards.by_id()["leaf"]["text"] is None
    assert cards.pieces == 5 and game.pieces == 15
    assert cards.back_of(fire) == "red"
    assert fire.location("copies").line == 3  # the quoted cell spans lines 2-3
    assert str(fire.location("cost")) == "g/cards.csv:2:3 (cost)"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_line_endings_and_bom(tiny, ending, bom):
    text = ending.join([HEADER, "fire,Fire,2,red,\"a" + ending + "b\",3", "leaf,Leaf,1,green,,2"]) + ending
    write(tiny, bom + text.encode())
    game = load_game(tiny, "g")
    rows = game.components["cards"].rows
    assert [r.id for r in rows] == ["fire", "leaf"]
    assert rows[0]["text"] == "a\nb"
    assert rows[1].line == 4


def test_semicolon_delimiter(tiny):
    write(tiny, "id;title;cost;colour;text;copies\nfire;Fire, hot;2;red;;3\nleaf;Leaf;1;green;;2\n")
    assert load_game(tiny, "g").components["cards"].by_id()["fire"]["title"] == "Fire, hot"


def test_blank_rows_are_skipped_and_counted(tiny):
    write(tiny, f"{HEADER}\nfire,Fire,2,red,,3\n,,,,,\n   ,,,,,\nleaf,Leaf,1,green,,2\n")
    comp = load_game(tiny, "g").components["cards"]
    assert comp.pieces == 5
    assert comp.blank_rows == [3, 4]


@pytest.mark.parametrize(
    "row, expected",
    [
        ("fire,Fire,2,red,,2.5",
         "g/cards.csv:3:6 (copies): '2.5' is not a whole number\n"
         "  hint: this column counts whole things; write a whole number such as 3"),
        ("fire,Fire,2,red,,",
         "g/cards.csv:3:6 (copies): this cell is blank but the column needs a whole number\n"
         "  hint: fill it in, or declare copies with required = false in game.toml"),
        ("fire,Fire,two,red,,1",
         "g/cards.csv:3:3 (cost): 'two' is not a whole number\n  hint: write a whole number such as 3"),
        ("fire,Fire,12,red,,1",
         "g/cards.csv:3:3 (cost): 12 is above the maximum 9\n  hint: this column takes values up to 9"),
        ("fire,Fire,2,Red,,1",
         "g/cards.csv:3:4 (colour): 'Red' is not one of the allowed values\n"
         "  hint: did you mean 'red'? allowed: red, green"),
        ("fire,Fire,2,blue,,1",
         "g/cards.csv:3:4 (colour): 'blue' is not one of the allowed values\n  hint: allowed: red, green"),
        ("fi re,Fire,2,red,,1",
         "g/cards.csv:3:1 (id): 'fi re' is not a valid id\n"
         "  hint: ids use letters, digits, '-', '_' and '.', and start with a letter or digit"),
        ("fire,\"Fi\nre\",2,red,,1",
         "g/cards.csv:3:2 (title): 'Fi\\nre' holds a line break, but this column is one line of text\n"
         "  hint: remove the line break, or declare the column as type \"text\""),
        ("fire,Fire,2,red,,1,extra",
         "g/cards.csv:3:7: this row has 7 cells but the header names 6 columns (extra value 'extra')\n"
         "  hint: a cell probably holds an unquoted comma; put quotes around it"),
        ("fire,Fire,2,red",
         "g/cards.csv:3:5 (text): this row has 4 cells but the header names 6 columns (no value for 'text')\n"
         "  hint: add the missing cells (they may be empty where the column allows it)"),
        ("leaf,Leaf,1,green,,-1",
         "g/cards.csv:3:6 (copies): -1 is below the minimum 0\n  hint: this column takes values from 0 up"),
    ],
)
def test_bad_cell_messages(tiny, row, expected):
    write(tiny, f"{HEADER}\nleaf,Leaf,1,green,,2\n{row}\n")
    errors = errors_of(tiny)
    assert errors[0] == expected


def test_every_bad_cell_is_reported_not_only_the_first(tiny):
    write(tiny, f"{HEADER}\nfire,Fire,x,red,,1\nleaf,Leaf,1,blue,,y\n")
    errors = errors_of(tiny)
    assert [e.split(":")[1:3] for e in errors] == [["2", "3 (cost)"], ["3", "4 (colour)"], ["3", "6 (copies)"]]


def test_duplicate_ids(tiny):
    write(tiny, f"{HEADER}\nfire,Fire,2,red,,1\nleaf,Leaf,1,green,,1\nfire,Fire again,2,red,,1\n")
    assert errors_of(tiny) == [
        "g/cards.csv:4:1 (id): id 'fire' is used twice (first on line 2)\n"
        "  hint: every row needs its own id; ids stay with a card when rows move"]


def test_unclosed_quote(tiny):
    write(tiny, f'{HEADER}\nfire,"Fire,2,red,,1\n')
    errors = errors_of(tiny)
    assert errors[0].startswith("g/cards.csv:2: the CSV cannot be read here:")
    assert "hint: a quoted cell is probably not closed" in errors[0]


def test_undeclared_and_missing_columns(tiny):
    write(tiny, "id,title,cost,colour,notes,copies\nfire,Fire,2,red,x,1\n")
    assert errors_of(tiny) == [
        "g/cards.csv:1 (text): column 'text' is declared in game.toml but missing from the file\n"
        "  hint: the header has: id, title, cost, colour, notes, copies",
        "g/cards.csv:1:5 (notes): column 'notes' is not declared in game.toml\n"
        "  hint: declare it under [components.cards.columns] (for example notes = \"str\"), "
        "or list it in ignore_columns",
    ]


def test_duplicate_and_blank_headers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("id,name,name\n")
    with pytest.raises(DataError) as info:
        read_csv(path, "t.csv")
    assert info.value.render() == (
        "t.csv:1:3 (name): column name 'name' appears twice (columns 2 and 3)\n"
        "  hint: rename or delete one of the two columns")
    path.write_text("id,,x\n")
    with pytest.raises(DataError, match=r"t.csv:1:2: this header cell is blank"):
        read_csv(path, "t.csv")


def test_padded_headers_are_trimmed_and_noted(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(" id , name\na,b\n")
    table = read_csv(path, "t.csv")
    assert table.header == ["id", "name"]
    assert table.trimmed_headers == ["id", "name"]


def test_not_utf8_names_byte_offset(tiny):
    write(tiny, f"{HEADER}\nfire,Caf\xe9,2,red,,1\n".encode("cp1252"))
    errors = errors_of(tiny)
    assert errors[0].startswith("g/cards.csv:2: byte 0xe9 at byte offset 41 is not valid utf-8")
    assert "CSV UTF-8" in errors[0]


def test_empty_file(tiny):
    write(tiny, "")
    assert errors_of(tiny)[0].startswith("g/cards.csv:1: the file is empty: no header row")


def test_missing_table_file(tiny):
    (tiny / "cards.csv").unlink()
    assert errors_of(tiny)[0].startswith("g/cards.csv: file not found")


def test_manifest_errors(tiny):
    manifest = (tiny / "game.toml").read_text()
    (tiny / "game.toml").write_text(manifest.replace('kind = "deck"', 'kind = "dek"'))
    with pytest.raises(ManifestError) as info:
        load_game(tiny, "g")
    assert info.value.render() == ("g/game.toml:7 (components.cards.kind): unknown component kind 'dek'\n"
                                   "  hint: did you mean 'deck'? kinds: deck, board, tokens, die, table, rulebook")
    (tiny / "game.toml").write_text(manifest.replace('cost = { type = "int"', 'cost = { type = "integer"'))
    with pytest.raises(ManifestError, match="unknown column type 'integer'"):
        load_game(tiny, "g")
    (tiny / "game.toml").write_text(manifest + "\n[broken\n")
    with pytest.raises(ManifestError, match=r"g/game.toml:\d+:\d+: not valid TOML"):
        load_game(tiny, "g")
    (tiny / "game.toml").write_text(manifest.replace('card_size = "poker"', 'card_size = "pokr"'))
    with pytest.raises(ManifestError, match="'pokr' is not a size"):
        load_game(tiny, "g")


def test_table_outside_game_folder_is_refused(tiny):
    manifest = (tiny / "game.toml").read_text()
    (tiny / "game.toml").write_text(manifest.replace('table = "cards.csv"', 'table = "../cards.csv"'))
    with pytest.raises(ManifestError, match="outside the game folder"):
        load_game(tiny, "g")


def optional_copies(tiny, column: str) -> None:
    manifest = tiny / "game.toml"
    manifest.write_text("\n".join(column if line.startswith("copies = {") else line
                                  for line in manifest.read_text().splitlines()) + "\n")


def test_a_blank_optional_copy_count_is_one_copy_or_the_columns_default(tiny):
    write(tiny, HEADER + "\nfire,Fire,2,red,,\nleaf,Leaf,1,green,,0\nsun,Sun,1,red,,2\n")
    optional_copies(tiny, 'copies = { type = "int", min = 0, required = false }')
    cards = load_game(tiny, "g").components["cards"]
    assert {r.id: r.copies for r in cards.rows} == {"fire": 1, "leaf": 0, "sun": 2}
    assert cards.by_id()["fire"]["copies"] == 1  # rules and templates see the same count
    optional_copies(tiny, 'copies = { type = "int", min = 0, required = false, default = 3 }')
    cards = load_game(tiny, "g").components["cards"]
    assert {r.id: r.copies for r in cards.rows} == {"fire": 3, "leaf": 0, "sun": 2}


def test_a_default_fills_blank_cells_and_must_be_a_value_of_the_column(tiny):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text().replace('text = { type = "text", required = false }',
                                                     'text = { type = "text", required = false, default = "No effect." }'))
    assert load_game(tiny, "g").components["cards"].by_id()["leaf"]["text"] == "No effect."
    manifest.write_text(manifest.read_text().replace('cost = { type = "int", min = 0, max = 9 }',
                                                     'cost = { type = "int", min = 0, max = 9, default = "two" }'))
    with pytest.raises(ManifestError) as info:
        load_game(tiny, "g")
    assert str(info.value.location) == "g/game.toml:19 (components.cards.columns.cost.default)"
    assert "the default 'two' is not a value of this column" in info.value.message


def test_a_text_repeated_down_a_column_is_read_once_and_refused_at_every_cell(tiny):
    """Cells of one column with the same text share its value, and a refused text is an error
    at each of its cells, each with its own line and column."""
    write(tiny, f"{HEADER}\nfire,Fire,x,red,,3\nleaf,Leaf,x,green,,3\nsun,Sun,2,red,,3\nmoon,Moon,2,blue,,3\n")
    errors = errors_of(tiny)
    assert [e.split(":")[1:3] for e in errors if "'x'" in e] == [["2", "3 (cost)"], ["3", "3 (cost)"]]
    assert any("g/cards.csv:5:4 (colour)" in e and "'blue'" in e for e in errors)
    write(tiny, f"{HEADER}\nfire,Fire,2,red,,3\nleaf,Leaf,2,green,,3\n")
    rows = load_game(tiny, "g").components["cards"].rows
    assert [r["cost"] for r in rows] == [2, 2] and [r.location("cost").line for r in rows] == [2, 3]
