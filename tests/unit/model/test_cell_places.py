"""Where a row's cells are, kept as one small object per row, answers as the dict of pairs it
replaced did."""

from __future__ import annotations

import pickle

from pnp.model.game import CellPlaces
from pnp.model.load import load_game


def test_a_row_on_one_line_keeps_one_line_number():
    places = CellPlaces({"id": (0, 1), "title": (1, 2)}, 7)
    assert dict(places) == {"id": (7, 1), "title": (7, 2)}
    assert "title" in places and "cost" not in places and len(places) == 2
    assert places == {"id": (7, 1), "title": (7, 2)}
    assert pickle.loads(pickle.dumps(places)) == places


def test_cells_after_a_line_break_are_on_later_lines(tiny):
    fire = load_game(tiny, "g").components["cards"].by_id()["fire"]
    lines = {name: line for name, (line, _) in fire.columns.items()}
    assert lines["id"] == lines["text"] == 2  # the quoted text cell starts on line 2 ...
    assert lines["copies"] == 3  # ... and ends on line 3, where the next cell is
    assert [col for _, col in fire.columns.values()] == list(range(1, len(fire.columns) + 1))
    leaf = load_game(tiny, "g").components["cards"].by_id()["leaf"]
    assert isinstance(leaf.columns, CellPlaces) and type(leaf.columns._lines) is int
