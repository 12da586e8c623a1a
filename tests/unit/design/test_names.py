"""Which context names and piece fields a layout reads decides which pieces draw the same."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pnp.design.layouts import load_layouts
from pnp.design.names import drawing_key, piece_fields, template_names
from pnp.model.pieces import Piece


def layouts_with(tmp_path, text: str):
    (tmp_path / "layouts.toml").write_text(f"""
[layouts.card.boxes.t]
type = "text"
x = "1mm"
y = "1mm"
width = "20mm"
height = "10mm"
text = "{text}"
""", encoding="utf-8")
    return load_layouts(tmp_path, "layouts.toml", {})


def piece(copy: int, deck: str = "cards") -> Piece:
    ctx = {"title": "Fire", "piece": SimpleNamespace(copy=copy, copies=3, deck=deck, id="fire")}
    return Piece("card", ctx, "cards", "fire", copy, 3)


@pytest.mark.parametrize("text, fields", [
    ("{{ title }}", frozenset()),
    ("{{ piece.deck }} {{ title }}", frozenset({"deck"})),
    ("{{ piece['copy'] }} of {{ piece.copies }}", frozenset({"copy", "copies"})),
    ("{{ piece[title] }}", None),          # indexed by a variable: any field may be read
    ("{{ piece | tojson }}", None),        # used whole
    ("{% for f in piece %}{{ f }}{% endfor %}", None),
])
def test_piece_fields_are_the_fields_read_or_none_when_piece_is_used_whole(tmp_path, text, fields):
    assert piece_fields(layouts_with(tmp_path, text), "card") == fields


def test_copies_draw_alike_unless_the_layout_reads_the_copy_number(tmp_path):
    plain = layouts_with(tmp_path, "{{ piece.deck }} {{ title }}")
    assert drawing_key(plain, piece(1)) == drawing_key(plain, piece(2))
    assert drawing_key(plain, piece(1)) != drawing_key(plain, piece(1, deck="other"))
    numbered = layouts_with(tmp_path, "{{ piece.copy }}")
    assert drawing_key(numbered, piece(1)) != drawing_key(numbered, piece(2))
    whole = layouts_with(tmp_path, "{{ piece | tojson }}")
    assert drawing_key(whole, piece(1)) != drawing_key(whole, piece(2))


def test_a_template_that_does_not_parse_makes_the_drawing_unknown(tmp_path):
    broken = layouts_with(tmp_path, "{{ title ")
    assert template_names(broken, "card") is None and drawing_key(broken, piece(1)) is None
    assert template_names(broken, "no-such-layout") is None


def test_layouts_read_again_are_separate_sets_and_follow_the_file(tmp_path):
    first = layouts_with(tmp_path, "{{ title }}")
    template_names(first, "card")
    second = load_layouts(tmp_path, "layouts.toml", {})
    assert second is not first and second.layouts is not first.layouts
    assert second.names == {}  # what one caller found out is not another's
    second.layouts.pop("card")
    assert "card" in load_layouts(tmp_path, "layouts.toml", {}).layouts
    changed = layouts_with(tmp_path, "{{ piece.copy }}")
    assert template_names(changed, "card") == frozenset({"piece"})
    assert load_layouts(tmp_path, "layouts.toml", {"red": "#ff0000"}).colors == {"red": "#ff0000"}
