"""Property-based tests: any CSV text and any cost string give a typed result or a located
error, never another exception. Example counts are bounded so CI time stays flat."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.core.errors import Problem
from pnp.model.cost import parse_cost, pips
from pnp.model.readers.csv import read_csv
from pnp.core.errors import DataError
from pnp.model.load import GameDataErrors, load_game

from conftest import FIXTURES

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
cell_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
spreadsheet_bytes = st.one_of(
    st.binary(max_size=200),
    st.lists(st.lists(st.one_of(cell_text, st.sampled_from(['"', ",", ";", "\n", "\r\n", "\r", "2", "-1", "1.5", "red"])),
                      max_size=7), max_size=6)
    .map(lambda rows: "\n".join(",".join(r) for r in rows).encode("utf-8")),
)


@SETTINGS
@given(data=spreadsheet_bytes)
def test_read_csv_never_crashes(tmp_path_factory, data):
    path = Path(tmp_path_factory.mktemp("csv")) / "t.csv"
    path.write_bytes(data)
    try:
        table = read_csv(path, "t.csv")
    except DataError as exc:
        assert exc.location is not None and str(exc.location).startswith("t.csv")
    else:
        assert all(len(r.cells) == len(table.header) for r in table.records)


@SETTINGS
@given(body=spreadsheet_bytes)
def test_load_game_never_crashes(tmp_path_factory, body):
    import shutil

    folder = Path(tmp_path_factory.mktemp("g")) / "tiny"
    shutil.copytree(FIXTURES / "tiny", folder)
    (folder / "cards.csv").write_bytes(b"id,title,cost,colour,text,copies\n" + body)
    try:
        game = load_game(folder, "g")
    except GameDataErrors as exc:
        assert exc.errors and all(str(e.location).startswith("g/cards.csv") for e in exc.errors)
    except DataError as exc:
        assert str(exc.location).startswith("g/")
    else:
        for row in game.components["cards"].rows:
            assert isinstance(row["cost"], int) and isinstance(row.copies, int) and row.copies >= 0


@SETTINGS
@given(text=st.one_of(st.text(max_size=30),
                      st.lists(st.sampled_from(["2 H", "O", "+", "(", ")", "|", "Cr", " ", "3 any", "0 X", "(Cr | Mn)"]),
                               max_size=8).map("".join)))
def test_cost_parser_never_crashes(text):
    try:
        terms = parse_cost(text)
    except Problem as exc:
        assert exc.message and exc.hint
    else:
        assert terms and all(t.count >= 1 and t.options for t in terms)
        assert len(pips(text)) == sum(t.count for t in terms)
