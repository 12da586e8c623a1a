"""SVG art drawn with embedded fonts only.

svglib turns an SVG into a reportlab Drawing, and reportlab's ``renderPDF.draw`` paints it. Left
to themselves they put an unembedded standard-14 font into every page that shows SVG art: the
renderer's first step sets the Drawing's initial text state (``fontName`` Helvetica, 10 pt, from
reportlab's ``STATE_DEFAULTS``), which writes ``BT /F1 10 Tf 12 TL ET`` before every drawing
whether or not it has any text, and svglib maps ``<text>`` fonts to Helvetica, Times and
Courier. docs/print-specs.md §6 and §8 check 6: every font of a print file must be embedded.

So here:

- :class:`SvgFonts` is the font map svglib reads ``font-family``, ``font-weight`` and
  ``font-style`` through: every family is one of the bundled DejaVu faces
  (:data:`pnp.design.fonts.FONT_FILES`), registered as embedded TrueType; the widths svglib
  measures (for ``text-anchor``) are the widths of the face that is drawn. A family that is
  neither a generic one (``sans-serif``, ``serif``, ``monospace``), a DejaVu family nor
  svglib's default (Helvetica) is listed in :attr:`SvgFonts.substituted`, so that the
  designer hears their font is not the one printed.
- :func:`draw_svg` paints a Drawing with a renderer that sets no text state until a string is
  drawn, and then sets that string's (embedded) face and size inside the string's own saved
  graphics state. A drawing without text leaves no ``Tf`` and no font resource behind.
"""

from __future__ import annotations

from functools import lru_cache

from .dry import painted
from .fonts import register

GENERIC = {"sans-serif": "sans", "serif": "serif", "monospace": "mono"}
"""CSS generic families and the bundled face family each is drawn in."""
KNOWN = {
    "dejavu sans": "sans", "dejavu serif": "serif", "dejavu sans mono": "mono",
    "helvetica": "sans",  # svglib's default when an SVG names no family
}
"""Families drawn in a bundled face without a finding."""
SERIF_LIKE = ("times", "georgia", "garamond", "palatino", "cambria", "baskerville", "book antiqua",
              "roman", "serif")
MONO_LIKE = ("mono", "courier", "consol", "menlo", "monaco", "code")
"""Words in a family name that pick the serif or monospaced face for a family pnp does not have
(checked mono first: "DejaVu Sans Mono", "Courier New"); anything else is drawn in sans."""
FACES = {
    ("sans", False, False): "sans", ("sans", True, False): "sans-bold",
    ("sans", False, True): "sans-italic", ("sans", True, True): "sans-bold-italic",
    ("serif", False, False): "serif", ("serif", True, False): "serif-bold",
    ("serif", False, True): "serif-italic", ("serif", True, True): "serif-bold",
    ("mono", False, False): "mono", ("mono", True, False): "mono-bold",
    ("mono", False, True): "mono", ("mono", True, True): "mono-bold",
}
"""(family, bold, italic) -> bundled face. DejaVu as bundled has no serif bold italic and no
monospaced italic: those keep the weight and drop the slant."""
FACE_TITLES = {"sans": "DejaVu Sans", "serif": "DejaVu Serif", "mono": "DejaVu Sans Mono"}


def _family(name: str) -> str:
    key = name.strip().strip("'\"").lower()
    if key in GENERIC:
        return GENERIC[key]
    if key in KNOWN:
        return KNOWN[key]
    if any(word in key for word in MONO_LIKE):
        return "mono"
    if "sans" not in key and any(word in key for word in SERIF_LIKE):
        return "serif"
    return "sans"


def _bold(weight) -> bool:
    text = str(weight).strip().lower()
    if text in ("bold", "bolder"):
        return True
    try:
        return float(text) >= 600
    except ValueError:
        return False


def face_for(family: str, weight="normal", style="normal") -> str:
    """The bundled face (a key of FONT_FILES) an SVG ``font-family``, ``font-weight`` (a word or
    100..900) and ``font-style`` are drawn in."""
    italic = str(style).strip().lower() in ("italic", "oblique")
    return FACES[(_family(family), _bold(weight), italic)]


def embedded_font(name: str) -> str:
    """The registered (embedded) PDF font name for a reportlab font name in a Drawing: pnp's own
    faces as they are, any other name (a standard-14 font) as :func:`face_for` maps its family."""
    if name.startswith("pnp-"):
        return name
    base, _, variant = name.partition("-")
    variant = variant.lower()
    return register(face_for(base, "bold" if "bold" in variant else "normal",
                             "italic" if ("italic" in variant or "oblique" in variant) else "normal"))


class SvgFonts:
    """The font map of one svglib conversion (svglib calls ``find_font``): every family is a
    bundled, embedded DejaVu face. ``substituted`` lists (family, face title) of the families
    named in the SVG that pnp does not have, in order, once each."""

    def __init__(self):
        self.substituted: list[tuple[str, str]] = []

    def find_font(self, font_name: str, weight="normal", style="normal") -> tuple[str, bool]:
        """(registered font name, exact): exact for the generic and DejaVu families, so that
        svglib takes ``"Georgia, serif"`` as serif without a substitution of its own."""
        family = font_name.strip().strip("'\"")
        key = family.lower()
        exact = key in GENERIC or key in KNOWN
        if not exact and family:
            entry = (family, FACE_TITLES[_family(family)])
            if entry not in self.substituted:
                self.substituted.append(entry)
        return register(face_for(family, weight, style)), exact


_FONT_STATE = ("fontName", "fontSize")


@lru_cache(maxsize=None)
def _renderer_class():
    """reportlab's PDF renderer, told to leave the text state alone except around strings."""
    from reportlab.graphics.renderPDF import _PDFRenderer

    class SvgRenderer(_PDFRenderer):
        def applyStateChanges(self, delta, newState):
            super().applyStateChanges({k: v for k, v in delta.items() if k not in _FONT_STATE}, newState)

        def drawString(self, stringObj):
            state = self._tracker.getState()
            state["fontName"] = embedded_font(state["fontName"])
            self._canvas.setFont(state["fontName"], state["fontSize"])
            super().drawString(stringObj)

    return SvgRenderer


def draw_svg(c, drawing, x: float = 0.0, y: float = 0.0) -> None:
    """Paint a reportlab Drawing (from :func:`pnp.render.art.load_svg`) with its origin at
    (x, y) pt of the canvas' current coordinates, in the canvas' colours (a CMYK canvas converts
    every fill, stroke, shading and image it is given) and in embedded fonts only."""
    from reportlab.graphics.renderbase import renderScaledDrawing

    # on the canvas itself even in a dry run: reportlab's renderer calls far more of it than a
    # dry canvas checks, and what it cannot write (a dash of length 0, a number too large) it
    # finds only while painting
    _renderer_class()().draw(renderScaledDrawing(drawing), painted(c), x, y, showBoundary=False)
