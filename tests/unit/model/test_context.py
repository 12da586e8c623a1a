"""What a layout template sees of a row: references resolved, and theirs in turn."""

from __future__ import annotations

import pytest

from conftest import CARD_DATA
from pnp.model.context import REF_DEPTH, Ref, piece_context
from pnp.model.load import load_game


def test_references_resolve_through_the_rows_they_name():
    game = load_game(CARD_DATA / "periodic-shed")
    comp = game.components["reference"]
    row = comp.by_id()["molecules-1"]
    ctx = piece_context(game, comp, row)
    water = ctx["molecules"][0]
    assert water == "water" and water.formula == "H₂O"
    hydrogen = water.elements[0]
    assert hydrogen == "h" and hydrogen.symbol == "H"
    assert hydrogen.family == "alkali" and hydrogen.family.glyph == "●"
    # the third level is the last one resolved: a family's cells are its plain values
    assert REF_DEPTH == 3 and type(hydrogen.family.name) is str


def test_a_reference_to_a_missing_row_is_its_id_alone():
    lost = Ref("nowhere", None)
    assert lost == "nowhere"
    with pytest.raises(AttributeError):
        lost.name


def test_a_column_named_like_a_method_of_str_gives_its_cell():
    from types import SimpleNamespace

    from pnp.design.templating import compiled

    family = Ref("alkali", SimpleNamespace(values={"title": "Alkali Metals", "count": 7, "name": "Alkali"}))
    assert family.title == "Alkali Metals" and family.count == 7 and family.name == "Alkali"
    assert family.upper() == "ALKALI" and family == "alkali"  # the id's own methods otherwise
    assert compiled("{{ f.title }} ({{ f.count }})").render(f=family) == "Alkali Metals (7)"
