"""The reportlab canvas every pnp PDF is drawn on: reportlab's own, except that a form XObject
(a card or board drawn once and placed many times) carries every resource its drawing uses.

reportlab 5.1 gives a form only fonts and the forms it places: the shadings (SVG gradients),
graphics states (transparency, overprint) and colour spaces its content names are left out, so
a viewer paints a gradient inside a form as its clip's plain fill (black) and ignores
transparency there ("any resource used in a form must be propagated up to the page that
(recursively) uses the form!! (not implemented yet)", ``pdfbase/pdfdoc.py``
``PDFFormXObject``). :class:`Canvas` writes them into the form's own /Resources.

reportlab also keeps every finished page's content stream as text until the file is saved,
then compresses them all: a 1,280-card sheets file held 3.4 MB of page text, 12,800 cards
34 MB. :class:`Canvas` compresses a page's stream when the page ends, with the filters and in
the order reportlab's save would (:class:`EncodedStream`), so the file's bytes are the same
and only the compressed stream is held.
"""

from __future__ import annotations

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import (PDFArray, PDFBase85Encode, PDFDictionary, PDFName, PDFResourceDictionary,
                                      PDFStream, PDFZCompress)
from reportlab.pdfgen.canvas import Canvas as _ReportlabCanvas


class EncodedStream(PDFStream):
    """A content stream whose filters are applied when it is made rather than when the file is
    written: ``content`` (text) encoded by ``filters`` in reportlab's order (the last filter
    first, so ``[ASCII85, Flate]`` compresses, then encodes the compressed bytes), its /Filter
    array the filters' names. reportlab's :meth:`PDFStream.format` applies no filter to a
    stream whose dictionary names one, so the stream is written exactly as reportlab would
    have encoded it at save."""

    def __init__(self, content: str, filters: list):
        names = []
        for f in reversed(filters):
            content = f.encode(content)
            names.insert(0, PDFName(f.pdfname))
        super().__init__(PDFDictionary({"Filter": PDFArray(names)}), content)


class Canvas(_ReportlabCanvas):
    """A reportlab canvas whose forms hold their own shadings, graphics states and colour
    spaces besides their fonts and forms."""

    def showPage(self):
        super().showPage()
        page = self._doc.Pages.pages[-1]
        if page.compression and page.stream and not page.Contents and not page.Override_default_compilation:
            # the filters reportlab's PDFPage.check_format gives a compressed page stream
            filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
            page.Contents = EncodedStream(page.stream, filters)
            page.stream = None

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
