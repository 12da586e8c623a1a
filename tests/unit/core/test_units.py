"""Units and named sizes against docs/print-specs.md §0 and §1."""

import pytest

from pnp.core import units


@pytest.mark.parametrize("text, pt", [("63.5mm", 180.0), ("2.5in", 180.0), ("9pt", 9.0),
                                      ("1cm", 72 / 2.54), (" 3 mm ", 3 * 72 / 25.4)])
def test_parse_length(text, pt):
    assert units.parse_length(text) == pytest.approx(pt, abs=1e-9)


@pytest.mark.parametrize("text", ["63.5", "3 px", "mm", ""])
def test_parse_length_needs_a_unit(text):
    with pytest.raises(ValueError, match="is not a length with a unit"):
        units.parse_length(text)


def test_poker_sizes_are_distinct():
    us, eu = units.CARD_SIZES["poker"], units.CARD_SIZES["eu-poker"]
    assert (units.to_mm(us.width), units.to_mm(us.height)) == pytest.approx((63.5, 88.9))
    assert (units.to_mm(eu.width), units.to_mm(eu.height)) == pytest.approx((63.0, 88.0))


def test_paper_sizes():
    assert (units.PAPER_SIZES["letter"].width, units.PAPER_SIZES["letter"].height) == (612, 792)
    a4 = units.PAPER_SIZES["a4"]
    assert (a4.width, a4.height) == pytest.approx((595.276, 841.890), abs=0.001)


def test_parse_size():
    size = units.parse_size("63mm x 88mm", units.CARD_SIZES)
    assert units.to_mm(size.width) == pytest.approx(63)
    assert units.parse_size("Tarot", units.CARD_SIZES) == units.CARD_SIZES["tarot"]
    with pytest.raises(ValueError, match="poker"):
        units.parse_size("huge", units.CARD_SIZES)
