"""Small fonts made for the tests with fontTools, so that no font file needs shipping:

- :func:`subset_font` cuts a bundled DejaVu face (free: Bitstream Vera / DejaVu licence) down
  to a few characters under a family name of its own, so a face lacks what the test wants it
  to lack;
- :func:`dragon_font` builds a TrueType font from nothing whose only glyph is 龍 (U+9F8D, a
  CJK character DejaVu does not have), drawn as a grid of strokes.
"""

from __future__ import annotations

from pathlib import Path

from pnp.design.fonts import FONT_FILES, font_dir

LATIN = "".join(chr(c) for c in range(0x20, 0x7F))
"""Printable ASCII."""


def subset_font(face: str, dest: Path, chars: str, family: str) -> Path:
    """Write bundled ``face`` (a key of FONT_FILES) to ``dest`` holding only ``chars``, renamed
    to ``family``."""
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)

    font = TTFont(str(font_dir() / FONT_FILES[face]))
    options = subset.Options()
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(c) for c in chars + " "}))
    subsetter.subset(font)
    style = {"": "Regular", "-bold": "Bold", "-italic": "Italic", "-bold-italic": "BoldItalic"}[
        face[len(face.split("-")[0]):]]
    for record in font["name"].names:
        if record.nameID in (1, 4, 6, 16):
            record.string = f"{family}-{style}" if record.nameID == 6 else f"{family} {style}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(dest))
    return dest


def dragon_font(dest: Path, family: str = "PnpTestDragon") -> Path:
    """Write a TrueType font whose glyphs are a space and 龍 (U+9F8D): three horizontal and
    three vertical bars in a 1000-unit em, and a box round them."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def rect(pen, x0, y0, x1, y1):
        pen.moveTo((x0, y0))
        pen.lineTo((x0, y1))
        pen.lineTo((x1, y1))
        pen.lineTo((x1, y0))
        pen.closePath()

    pen = TTGlyphPen(None)
    for y in (80, 330, 580):
        rect(pen, 100, y, 900, y + 70)
    for x in (100, 465, 830):
        rect(pen, x, -100, x + 70, 780)
    dragon = pen.glyph()
    empty = TTGlyphPen(None).glyph()
    notdef_pen = TTGlyphPen(None)
    rect(notdef_pen, 50, 0, 450, 700)
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "space", "uni9F8D"])
    fb.setupCharacterMap({0x20: "space", 0x9F8D: "uni9F8D"})
    fb.setupGlyf({".notdef": notdef_pen.glyph(), "space": empty, "uni9F8D": dragon})
    fb.setupHorizontalMetrics({".notdef": (500, 50), "space": (500, 0), "uni9F8D": (1000, 100)})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    dest.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(dest))
    return dest


def cff_font(dest: Path, family: str = "PnpTestCff") -> Path:
    """Write an OpenType font with PostScript (CFF) outlines, which reportlab cannot embed as
    TrueType: a space and a square for ``A``."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    def glyph(square: bool):
        pen = T2CharStringPen(500, None)
        if square:
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((450, 700))
            pen.lineTo((450, 0))
            pen.closePath()
        return pen.getCharString()

    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "space", "A"])
    fb.setupCharacterMap({0x20: "space", 0x41: "A"})
    fb.setupCFF(family, {"FullName": family}, {".notdef": glyph(True), "space": glyph(False), "A": glyph(True)}, {})
    fb.setupHorizontalMetrics({".notdef": (500, 50), "space": (500, 0), "A": (500, 50)})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    dest.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(dest))
    return dest
