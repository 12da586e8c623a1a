"""The reportlab canvas every pnp PDF is drawn on: reportlab's own, except that a form XObject
(a card or board drawn once and placed many times) carries every resource its drawing uses.

reportlab 5.1 gives a form only fonts and the forms it places: the shadings (SVG gradients),
graphics states (transparency, overprint) and colour spaces its content names are left out, so
a viewer paints a gradient inside a form as its clip's plain fill (black) and ignores
transparency there ("any resource used in a form must be propagated up to the page that
(recursively) uses the form!! (not implemented yet)", ``pdfbase/pdfdoc.py``
``PDFFormXObject``). :class:`Canvas` writes them into the form's own /Resources.
"""

from __future__ import annotations

from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas as _ReportlabCanvas


class Canvas(_ReportlabCanvas):
    """A reportlab canvas whose forms hold their own shadings, graphics states and colour
    spaces besides their fonts and forms."""

    def endForm(self, **extra_attributes):
        if "Resources" not in extra_attributes:
            resources = PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()  # as reportlab gives forms: they may hold images
            if self._formsinuse:
                resources.XObject = self._doc.xobjDict(self._formsinuse)
            states = self._extgstate.getState()
            if states:
                resources.ExtGState = states
            resources.setShading(self._shadingUsed)
            resources.setColorSpace(self._colorsUsed)
            extra_attributes["Resources"] = resources
        super().endForm(**extra_attributes)
