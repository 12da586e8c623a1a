"""Text fitted into a box (a tuck box's panels, a cover's lines): made smaller, then wrapped,
never below the least size, and measured with the font's own widths."""

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.render.canvas import fit_text, wrap_words
from pnp.render.fonts import register


def _widest(fitted) -> float:
    return max(stringWidth(line, register(font), size) for font, size, lines in fitted.entries for line in lines)


def test_a_short_name_keeps_its_size_on_one_line():
    fitted = fit_text([("Elements", "sans-bold", 16), ("80 cards", "sans", 10)], 170, 240)
    assert fitted.fits and [(size, lines) for _, size, lines in fitted.entries] == [(16, ("Elements",)),
                                                                                 (10, ("80 cards",))]


def test_a_long_name_is_made_smaller_then_wrapped_and_stays_inside():
    name = "The Extraordinarily Long-Winded Compendium of Action Cards for Everyone"
    fitted = fit_text([(name, "sans-bold", 16)], 160, 240)
    _, size, lines = fitted.entries[0]
    assert fitted.fits and len(lines) > 1 and 6 <= size < 16
    assert " ".join(lines) == name and _widest(fitted) <= 160 and fitted.height <= 240


def test_text_that_cannot_fit_is_at_the_least_size_and_says_so():
    fitted = fit_text([("Pneumonoultramicroscopicsilicovolcanoconiosis" * 2, "sans-bold", 16)], 160, 240)
    assert not fitted.fits and fitted.entries[0][1] == 6


def test_words_wrap_at_spaces_only():
    assert wrap_words("a bb ccc", "sans", 10, 1) == ["a", "bb", "ccc"]
    assert wrap_words("a bb ccc", "sans", 10, 1000) == ["a bb ccc"]
