"""The fonts `pnp` draws with: DejaVu TrueType fonts, registered with reportlab, embedded and
subset in every PDF.

The TTF files come from a maintained package (matplotlib ships the DejaVu family in
``mpl-data/fonts/ttf``); they cover Latin, Greek, subscript digits (₂ ₃), arrows and the
geometric shapes (● ▲ ■ ◆) the bundled games use. No standard-14 PDF font is ever used.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from .errors import PnpError

FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "sans-bold-italic": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}
"""Font names a layout may use, and the file of each."""


def font_dir() -> Path:
    """The folder holding the DejaVu TTF files (found without importing matplotlib)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise PnpError("the DejaVu fonts are missing", hint="reinstall pnp: pip install --force-reinstall pnp")
    return Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"


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
