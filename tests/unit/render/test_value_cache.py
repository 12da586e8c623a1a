"""Template values and colours are evaluated once per distinct input, with the same results and
errors as evaluating them every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.errors import LayoutError
from pnp.design.layouts import LayoutSet
from pnp.design.templating import render_key
from pnp.model.context import Ref
from pnp.render.renderer import Renderer


def renderer() -> Renderer:
    layouts = LayoutSet(Path("layouts.toml"), "layouts.toml", {}, {}, {"ember": "#c0392b"})
    return Renderer(layouts, Path("."))


def test_equal_values_of_other_types_print_their_own_way():
    r = renderer()
    raw = "{{ cost }} / {{ cost * 2 }}"
    assert [r.value(raw, {"cost": v}, "k") for v in (1, 1.0, True, 1)] == ["1 / 2", "1.0 / 2.0", "True / 2", "1 / 2"]


def test_a_render_is_reused_only_for_the_same_values_of_the_names_read():
    r = renderer()
    raw = "{{ title | upper }}"
    assert r.value(raw, {"title": "a", "other": 1}, "k") == "A"
    assert r.value(raw, {"title": "a", "other": 2}, "k") == "A"
    assert r.value(raw, {"title": "b", "other": 1}, "k") == "B"
    assert len(r._rendered) == 2


def test_values_that_cannot_be_told_apart_are_rendered_every_time():
    assert render_key("{{ piece.copy }}", {"piece": {"copy": 1}}) is None
    assert render_key("{{ 3 | random }}", {}) is None
    one, two = Ref("fe", None), Ref("fe", None)  # the same id, rows of two tables
    one._row, two._row = object(), object()
    assert render_key("{{ el.name }}", {"el": one}) != render_key("{{ el.name }}", {"el": two})


def test_a_failing_template_fails_every_time():
    r = renderer()
    for _ in range(2):
        with pytest.raises(LayoutError, match="undefined"):
            r.value("{{ missing_name }}x", {"title": "a"}, "layouts.card.boxes.t.text")


def test_colours_are_parsed_once_and_a_wrong_name_is_refused_every_time():
    r = renderer()
    first = r.color("ember", {}, "k")
    assert r.color("ember", {}, "k") is first
    assert (first.red, first.green, first.blue) == pytest.approx((0xC0 / 255, 0x39 / 255, 0x2B / 255))
    assert r.color("{{ c }}", {"c": "ember"}, "k") is first
    assert r.color("none", {}, "k") is None and r.color(None, {}, "k") is None
    for _ in range(2):
        with pytest.raises(LayoutError, match="not a colour"):
            r.color("embr", {}, "layouts.card.background")


def test_an_expression_is_evaluated_once_per_input_and_each_caller_gets_its_own_list():
    r = renderer()
    first = r.expression("['fire'] * cost", {"cost": 2}, "k")
    first.append("changed")
    assert r.expression("['fire'] * cost", {"cost": 2}, "k") == ["fire", "fire"]
    assert r.expression("cost > 1", {"cost": 2}, "k") is True
    assert r.expression("cost > 1", {"cost": 1.0}, "k") is False
    rows = r.expression("rows", {"rows": [{"a": 1}]}, "k")
    assert rows == [{"a": 1}] and len(r._evaluated) == 3  # a list of mappings is not kept


def test_compiled_templates_are_kept_between_runs_and_print_the_same(tmp_path, monkeypatch):
    from pnp.core.cachedir import CACHE_ENV
    from pnp.design import templating

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(templating, "_BYTECODE", [])
    source = "{% for i in range(n) %}{{ i * 2 }},{% endfor %}{{ name | upper }}"
    first = templating._from_cache(templating.layout_env(), source)
    kept = list((tmp_path / "templates").iterdir())
    assert len(kept) == 1
    again = templating._from_cache(templating.layout_env(), source)  # read back from the file
    assert again.render(n=3, name="x") == first.render(n=3, name="x") == "0,2,4,X"
    other = templating._from_cache(templating.layout_env(), source + "!")
    assert other.render(n=1, name="y") == "0,Y!" and len(list((tmp_path / "templates").iterdir())) == 2
    monkeypatch.setenv(CACHE_ENV, "")
    monkeypatch.setattr(templating, "_BYTECODE", [])
    assert templating.bytecode_cache() is None
    assert templating._from_cache(templating.layout_env(), source).render(n=1, name="z") == "0,Z"


def test_the_low_ink_edition_paints_a_colour_by_the_box_it_fills_every_time():
    from pnp.render.ink import LowInk, tint

    layouts = LayoutSet(Path("layouts.toml"), "layouts.toml", {}, {}, {"ember": "#c0392b"})
    low = LowInk(0.25)
    r = Renderer(layouts, Path("."), color_convert=low)
    low.share = 1.0  # a background: lightened
    assert r.color("ember", {}, "k").hexval()[2:].upper() == tint("#C0392B", 0.25)[1:].upper()
    low.share = 0.05  # a small box of the same colour: as it is, not the background's tint
    assert r.color("ember", {}, "k").hexval()[2:].upper() == "C0392B"
    r.color("#27AE60", {}, "k")
    assert r.last_fill == "#27AE60"
    r.color("ember", {}, "k")  # a colour seen before is still the last fill painted
    assert r.last_fill == "#C0392B"
