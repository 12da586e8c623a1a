"""The rulebook's typography: type sizes, margins and colours of single pages and booklet
pages, and the paragraph styles made from them. Every face is a registered DejaVu TTF
(:mod:`pnp.render.fonts`), embedded and subset."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.units import MM
from ...render import fonts


@dataclass(frozen=True)
class RulebookStyle:
    """Type sizes (pt) and colours of a rulebook's pages. ``base`` is the body size; the
    others scale from it. Margins are in pt."""

    base: float = 10.0
    margin: float = 18 * MM
    margin_bottom: float = 20 * MM
    ink: str = "#222222"
    accent: str = "#2F4A6D"
    muted: str = "#6B7079"
    rule: str = "#C5CBD3"
    shade: str = "#F1F3F6"
    callout: str = "#EEF2F7"


SINGLE_STYLE = RulebookStyle()
"""Single pages on A4 or Letter."""


BOOKLET_STYLE = RulebookStyle(base=9.0, margin=12 * MM, margin_bottom=14 * MM)
"""Booklet pages (A5, half-letter)."""


FONT_FAMILIES = {
    "pnp-sans": ("sans", "sans-bold", "sans-italic", "sans-bold-italic"),
    "pnp-mono": ("mono", "mono-bold", "mono", "mono-bold"),
}
"""PDF font families of the rulebook (regular, bold, italic, bold italic), all DejaVu TTF from
pnp.render.fonts; monospaced italic is drawn upright (DejaVu Sans Mono ships no oblique in the set)."""


def register_fonts() -> None:
    """Register the rulebook's DejaVu fonts and their bold/italic families with reportlab."""
    from reportlab.pdfbase.pdfmetrics import registerFontFamily

    for family, names in FONT_FAMILIES.items():
        pdf = [fonts.register(n) for n in names]
        registerFontFamily(family, normal=pdf[0], bold=pdf[1], italic=pdf[2], boldItalic=pdf[3])


def paragraph_styles(st: RulebookStyle) -> dict[str, Any]:
    """The platypus paragraph styles of a rulebook in style ``st``, by name (body, h1-h4, cell,
    head, code, toc0, toc1, footer), with the rulebook fonts registered."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.enums import TA_LEFT
    from reportlab.lib.styles import ParagraphStyle

    register_fonts()
    b = st.base
    ink, accent = HexColor(st.ink), HexColor(st.accent)
    sans, bold = fonts.register("sans"), fonts.register("sans-bold")
    common = dict(fontName=sans, textColor=ink, alignment=TA_LEFT, bulletFontName=sans)
    body = ParagraphStyle("body", fontSize=b, leading=b * 1.42, spaceAfter=b * 0.6, allowWidows=0,
                          allowOrphans=0, **common)
    s = {
        "body": body,
        "tight": ParagraphStyle("tight", parent=body, spaceAfter=b * 0.2),
        "h1": ParagraphStyle("h1", parent=body, fontName=bold, fontSize=b * 2.4, leading=b * 2.8,
                             spaceBefore=0, spaceAfter=b * 0.8, textColor=accent, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=bold, fontSize=b * 1.55, leading=b * 1.9,
                             spaceBefore=b * 1.1, spaceAfter=b * 0.5, textColor=accent, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName=bold, fontSize=b * 1.18, leading=b * 1.5,
                             spaceBefore=b * 0.8, spaceAfter=b * 0.3, keepWithNext=1),
        "h4": ParagraphStyle("h4", parent=body, fontName=bold, spaceBefore=b * 0.5, spaceAfter=b * 0.2,
                             keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=b * 0.92, leading=b * 1.2, spaceAfter=0),
        "head": ParagraphStyle("head", parent=body, fontName=bold, fontSize=b * 0.92, leading=b * 1.2,
                               spaceAfter=0, textColor=HexColor("#FFFFFF")),
        "code": ParagraphStyle("code", parent=body, fontName=fonts.register("mono"), fontSize=b * 0.88,
                               leading=b * 1.25, spaceAfter=b * 0.6, backColor=HexColor(st.shade),
                               borderPadding=(b * 0.4, b * 0.5, b * 0.4, b * 0.5), leftIndent=b * 0.5,
                               rightIndent=b * 0.5),
        "toc0": ParagraphStyle("toc0", parent=body, fontName=bold, fontSize=b * 1.02, leading=b * 1.55,
                               spaceBefore=b * 0.25, spaceAfter=0),
        "toc1": ParagraphStyle("toc1", parent=body, fontSize=b * 0.95, leading=b * 1.35, leftIndent=b * 1.4,
                               spaceAfter=0),
        "footer": ParagraphStyle("footer", parent=body, fontSize=b * 0.8, textColor=HexColor(st.muted)),
    }
    return s
