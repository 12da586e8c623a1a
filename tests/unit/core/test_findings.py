"""One finding per cause: merged over pieces, and a warning that an error of the same rule at
the same place reports for the same pieces is left out."""

from __future__ import annotations

from pnp.core.findings import Finding, merge, supersede
from pnp.validate.report import pieces_text

AT = "g/templates/layouts.toml:94 (layouts.action.boxes.art.image)"


def finding(severity: str, piece: str, rule: str = "layout.art-missing", location: str = AT) -> Finding:
    return Finding(severity, rule, location, f"{severity} message", "", "", piece=piece)


def test_a_warning_an_error_states_for_the_same_pieces_is_left_out():
    warning, error = finding("warning", "cards/a"), finding("error", "cards/a")
    assert supersede([warning, error]) == [error]


def test_a_warning_for_other_pieces_rules_or_places_stays():
    error = finding("error", "cards/a")
    other_piece = finding("warning", "cards/b")
    other_rule = finding("warning", "cards/a", rule="preflight.small-text")
    other_place = finding("warning", "cards/a", location="g/cards.csv:3:2 (art)")
    kept = [other_piece, error, other_rule, other_place]
    assert supersede(kept) == kept


def test_merged_pieces_are_compared_as_sets():
    warnings = merge([finding("warning", "cards/a"), finding("warning", "cards/b")])
    errors = merge([finding("error", "cards/b"), finding("error", "cards/a"), finding("error", "cards/c")])
    assert supersede(warnings + errors) == errors
    partial = merge([finding("error", "cards/a")])  # the warning also names cards/b: it stays
    assert supersede(warnings + partial) == warnings + partial


def cell(rule: str, line: int, piece: str, message: str = "the face layout 'event' is not defined") -> Finding:
    return Finding("error", rule, f"g/cards.csv:{line}:7 (layout)", message, file="g/cards.csv", line=line,
                   column=7, field="layout", piece=piece)


def test_rows_naming_the_same_missing_layout_are_one_finding_at_the_first_cell():
    rows = [cell("layout.undefined", n, f"cards/c{n}") for n in (2, 3, 4)]
    assert merge(rows) == [Finding("error", "layout.undefined", "g/cards.csv:2:7 (layout)",
                                   "the face layout 'event' is not defined", file="g/cards.csv", line=2, column=7,
                                   field="layout", piece="cards/c2", pieces=("cards/c2", "cards/c3", "cards/c4"),
                                   count=3)]
    # another layout named, or another column: another cause
    other = cell("layout.undefined", 5, "cards/c5", "the face layout 'evnt' is not defined")
    assert len(merge(rows + [other])) == 2


def test_cells_of_other_rules_stay_apart_even_with_the_same_message():
    """A wrong value in two rows is two places to fix: only rules naming their cause merge."""
    rows = [cell("schema.type", n, f"cards/c{n}", "'x' is not a whole number") for n in (2, 3)]
    assert merge(rows) == rows


def test_a_long_list_of_pieces_names_eight_and_says_where_the_rest_are():
    f = Finding("warning", "preflight.low-resolution", "g/art/a.png", "m", file="g/art/a.png",
                pieces=tuple(f"cards/c{n}" for n in range(12)), count=12)
    assert pieces_text(f) == ("pieces (12): " + ", ".join(f"cards/c{n}" for n in range(8))
                              + " and 4 more (--format json lists all)")
