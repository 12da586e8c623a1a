"""Preflight findings raised while drawing: one constructor per kind, so that card sheets,
boards, tokens, exports and rulebooks report each problem with the same rule id, severity and
words. Every finding is a warning: the file is still written, and ``--strict`` fails on it."""

from __future__ import annotations

from typing import Iterable

from ..core.findings import Finding

GLYPH_HINT = "use a character the font has, or another font"


def glyph_names(chars: Iterable[str]) -> str:
    """Characters as a message names them: ``'☃' (U+2603), '€' (U+20AC)``."""
    return ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)


def missing_glyph(location: str, face: str, chars: Iterable[str], hint: str = GLYPH_HINT) -> Finding:
    """``preflight.missing-glyph``: ``face`` (``the font sans``) has no glyph for ``chars``,
    which print as empty boxes."""
    return Finding("warning", "preflight.missing-glyph", location,
                   f"{face} has no glyph for {glyph_names(chars)}", hint=hint)


def right_to_left(location: str) -> Finding:
    """``preflight.right-to-left``: Arabic-script text, which the PDF text cannot shape."""
    return Finding("warning", "preflight.right-to-left", location,
                   "Arabic-script text is drawn left to right without joined letter forms",
                   hint="set that text as an image, or keep it off the card")


def text_overflow(location: str, min_size: float, text: str) -> Finding:
    """``preflight.text-overflow``: the text does not fit its box even at ``min_size`` pt (it
    is cut, ending in an ellipsis)."""
    return Finding("warning", "preflight.text-overflow", location,
                   f"the text does not fit its box even at {min_size:g} pt: {text[:60]!r}",
                   hint="shorten the text, or give the box more room or a smaller min_size")


def svg_unsupported(location: str, art: str, problem: str) -> Finding:
    """``preflight.svg-unsupported``: something in the SVG ``art`` that the converter skips."""
    return Finding("warning", "preflight.svg-unsupported", location, f"{art}: {problem}",
                   hint="simplify the SVG (convert text and effects to paths)")


def low_resolution(location: str, art: str, dpi: float, min_dpi: int, hint: str, *, here: bool = True) -> Finding:
    """``preflight.low-resolution``: raster ``art`` placed at ``dpi``, below ``min_dpi``
    (300, print-specs.md §2)."""
    return Finding("warning", "preflight.low-resolution", location,
                   f"{art} prints at {dpi:.0f} dpi{' here' if here else ''}, below {min_dpi} dpi", hint=hint)
