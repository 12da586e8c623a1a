"""The fonts `pnp` draws with, registered with reportlab so that every PDF embeds a subset of
each face it uses, and what characters each face has.

The faces and their files are :data:`pnp.design.fonts.FONT_FILES`.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import PnpError
from ..design.fonts import FONT_FILES, font_dir

__all__ = ["FONT_FILES", "font_dir", "glyphs", "missing", "register"]


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register font ``name`` (a key of FONT_FILES) with reportlab; returns the PDF font name.

    Raises PnpError for an unknown name, listing the known ones.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if name not in FONT_FILES:
        raise PnpError(f"unknown font {name!r}", hint="fonts: " + ", ".join(FONT_FILES))
    pdf_name = "pnp-" + name
    pdfmetrics.registerFont(TTFont(pdf_name, str(font_dir() / FONT_FILES[name])))
    return pdf_name


@lru_cache(maxsize=None)
def glyphs(name: str) -> frozenset[int]:
    """Code points that font ``name`` has a glyph for."""
    from reportlab.pdfbase import pdfmetrics

    return frozenset(pdfmetrics.getFont(register(name)).face.charToGlyph)


def missing(name: str, text: str) -> list[str]:
    """Characters of ``text`` (other than spaces and line breaks) that font ``name`` lacks, in order."""
    have = glyphs(name)
    out: list[str] = []
    for ch in text:
        if ch in " \n\t" or ord(ch) in have or ch in out:
            continue
        out.append(ch)
    return out
