"""One finding per cause: merged over pieces, and a warning that an error of the same rule at
the same place reports for the same pieces is left out."""

from __future__ import annotations

from pnp.core.findings import Finding, merge, supersede

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
