"""Inline markup of card, board and token text (pnp.design.markup): what is markup, what prints
as typed, and what is a problem."""

from __future__ import annotations

import pytest

from pnp.design.markup import BOLD, ITALIC, Span, escape, parse


def spans(text: str) -> list[tuple[str, int, str | None]]:
    return [(s.text, s.style, s.color) for s in parse(text).spans]


@pytest.mark.parametrize("text, expected", [
    ("**Attack** 3 — 龍 ★", [("Attack", BOLD, None), (" 3 — 龍 ★", 0, None)]),
    ("*it* and **bold *both***", [("it", ITALIC, None), (" and ", 0, None), ("bold ", BOLD, None),
                                  ("both", BOLD | ITALIC, None)]),
    ("***x***", [("x", BOLD | ITALIC, None)]),
    ("[Fire](color:red) burns", [("Fire", 0, "red"), (" burns", 0, None)]),
    ("a **b [c](color:#FF0000)**", [("a ", 0, None), ("b ", BOLD, None), ("c", BOLD, "#FF0000")]),
    ("2 * 3 = 6", [("2 * 3 = 6", 0, None)]),
    ("[not a span] stays", [("[not a span] stays", 0, None)]),
    (r"\*lit\* and \\ and \[x\]", [("*lit* and \\ and [x]", 0, None)]),
    (r"10\ mm", [("10\u00a0mm", 0, None)]),
    (r"\n not a break", [(r"\n not a break", 0, None)]),
    ("a line\nand the next", [("a line\nand the next", 0, None)]),
])
def test_markup_spans(text, expected):
    assert spans(text) == expected
    assert parse(text).problems == ()


@pytest.mark.parametrize("text, printed, problem", [
    ("**Attack 3", "**Attack 3", "'**' at character 1 opens bold that is never closed"),
    ("Score*", "Score*", "'*' at character 6 closes italic that was never opened"),
    ("*a **b* c", "a **b c", "'**' at character 4 opens bold that is never closed"),
    ("x](color:red) y", "x](color:red) y", "ends a colour span that has no '['"),
])
def test_unbalanced_markup_prints_as_typed_and_is_a_problem(text, printed, problem):
    found = parse(text)
    assert found.plain == printed
    assert len(found.problems) == 1 and problem in found.problems[0]


def test_escape_reads_back_as_the_text():
    for text in ("**not bold**", "[a](color:red)", "back\\slash", "*"):
        assert parse(escape(text)).spans == (Span(text),)
