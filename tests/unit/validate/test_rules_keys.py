"""Which [rules] keys rules.toml, the layouts and the rulebook read, found by parsing."""

from __future__ import annotations

from pnp.validate.rules_keys import WHOLE, _jinja_refs, _python_refs, _tables


def test_python_expressions_name_the_paths_they_read():
    assert _python_refs("rules.hand_limit == 12") == {"rules.hand_limit"}
    assert _python_refs("rules['setup']['face_up'] > rules.rounds") == {"rules.setup.face_up", "rules.rounds"}
    # an index the expression computes reads the whole table before it
    assert _python_refs("rules.setup.face_up_orders[rank] >= 1") == {"rules.setup.face_up_orders"}
    assert _python_refs("len(rules) > 3") == {WHOLE}
    assert _python_refs("Getting started") == set()  # prose that is not an expression


def test_templates_name_the_paths_they_read_through_aliases():
    source = "{% set R = rules %}{% set S = R.setup %}{{ R.hand_limit }} {{ S.face_up }} {{ rules['rounds'] }}"
    assert _jinja_refs(source) == {"rules.hand_limit", "rules.setup.face_up", "rules.rounds"}
    assert _jinja_refs("{{ rules | tojson }}") == {WHOLE}
    assert _jinja_refs("{% for k, v in rules.setup.items() %}{{ v }}{% endfor %}") == {"rules.setup.items"}
    assert _jinja_refs("rules.dice > 1", expression=True) == {"rules.dice"}  # when = ...
    assert _jinja_refs("paragon-rules") == set()  # a layout name, not an expression


def test_a_table_none_of_whose_keys_is_read_is_reported_once():
    keys = ["rules.a", "rules.t.x", "rules.t.y", "rules.u.x", "rules.u.y"]
    assert _tables(["rules.a", "rules.t.x", "rules.t.y", "rules.u.y"], keys) == [
        ("rules.a", 1), ("rules.t", 2), ("rules.u.y", 1)]
