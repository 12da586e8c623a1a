"""Laying out a rulebook's Markdown as a PDF with reportlab platypus: pages, footers with page
numbers, bookmarks and a table of contents that settles over layout passes."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ... import __version__
from ...core.errors import BuildError, Location
from ...core.findings import Finding
from ...core.units import Size
from ...render import fonts
from ...render.art import PRINT_DPI
from ...render.embed import ArtCanvas
from .images import ImageItem, ImageResolver
from .markup import RulebookError
from .story import MarkdownStory
from .styles import SINGLE_STYLE, RulebookStyle, paragraph_styles


@dataclass
class RulebookPdf:
    """A laid-out rulebook: the PDF bytes, its page count and preflight findings."""

    pdf: bytes
    pages: int
    findings: list[Finding] = field(default_factory=list)


def markdown_pdf(markdown: str, page: Size, *, title: str, style: RulebookStyle = SINGLE_STYLE,
                 resolver: Callable[[str], ImageItem] | None = None, display: str = "rulebook",
                 outer_numbers: bool = False, image_dpi: int | None = PRINT_DPI) -> RulebookPdf:
    """Lay out ``markdown`` (CommonMark plus tables) on pages of ``page`` size (pt).

    - ``# H1`` is a title (kept out of the contents); ``## H2`` and ``### H3`` are listed in
      the table of contents (a paragraph holding only ``[TOC]``) and as PDF bookmarks.
    - ``---`` (a thematic break) starts a new page.
    - Tables repeat their header row on every page they run onto and split between rows.
    - Images: ``![alt](target "width")``; ``resolver`` turns a target into an ImageItem.
      Images in one paragraph sit side by side and wrap; every image is scaled to the frame.
    - Page 1 has no footer; every other page has the title and its page number in the footer
      (``outer_numbers``: numbers on the outer edge, odd pages right, even pages left, as in a
      booklet).
    - Raster pictures (and the art of cards drawn) are embedded once each, downsampled to
      ``image_dpi`` px/in at the largest size they are placed at (None: as they are;
      :class:`pnp.render.embed.ArtCanvas`).

    Raises RulebookError for images that cannot be placed and BuildError for content that
    cannot fit a page. Same input, same bytes (reportlab invariant mode).
    """
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate
    from reportlab.platypus.doctemplate import LayoutError as RLLayoutError

    styles = paragraph_styles(style)
    findings: list[Finding] = []
    frame_w = page.width - 2 * style.margin
    frame_h = page.height - style.margin - style.margin_bottom

    def no_images(src: str) -> ImageItem:
        raise RulebookError(f"image {src!r}: this document has no images", location=Location(display))

    drawn: list[Finding] = []  # findings of the pass being drawn; the last pass is the one kept
    icons = resolver if isinstance(resolver, ImageResolver) else None
    story_maker = MarkdownStory(styles, style, frame_w, frame_h, resolver or no_images, display, findings, drawn,
                                icon_names=icons.icon_names if icons else list, icon=icons.icon if icons else None,
                                locate=icons.locate if icons else None)
    parser = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    tree = SyntaxTreeNode(parser.parse(markdown))
    story = story_maker.blocks(tree.children)
    for flow in story:
        if hasattr(flow, "images"):
            flow._max_h = frame_h
    footer = styles["footer"]
    sans = fonts.register("sans")

    def on_page(canv, doc):
        n = canv.getPageNumber()
        if n == 1:
            return
        canv.saveState()
        canv.setFont(sans, footer.fontSize)
        canv.setFillColor(footer.textColor)
        canv.setStrokeColor(HexColor(style.rule))
        canv.setLineWidth(0.5)
        y = style.margin_bottom - 2.4 * footer.fontSize
        left, right = style.margin, page.width - style.margin
        canv.line(left, y + footer.fontSize * 1.3, right, y + footer.fontSize * 1.3)
        if outer_numbers and n % 2 == 0:
            canv.drawString(left, y, str(n))
            canv.drawRightString(right, y, title)
        else:
            canv.drawString(left, y, title)
            canv.drawRightString(right, y, str(n))
        canv.restoreState()

    class Doc(BaseDocTemplate):
        def handle_documentBegin(self):
            drawn.clear()  # multiBuild lays the story out again; only the saved pass counts
            super().handle_documentBegin()

        def afterFlowable(self, flowable):
            entry = getattr(flowable, "_pnp_toc", None)
            if entry is None:
                return
            level, text, key = entry
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
                                      key, level=level, closed=True)
            self.notify("TOCEntry", (level, text, self.page, key))

    def make_doc(target):
        frame = Frame(style.margin, style.margin_bottom, frame_w, frame_h, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc = Doc(target, pagesize=(page.width, page.height), invariant=1, pageCompression=1,
                  title=title, subject=f"Rules of {title}", creator=f"pnp {__version__}", author="",
                  producer=f"pnp {__version__}", initialFontName=sans, initialFontSize=style.base,
                  leftMargin=style.margin, rightMargin=style.margin, topMargin=style.margin,
                  bottomMargin=style.margin_bottom)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
        return doc

    # multiBuild lays the story out until the table of contents settles and saves that pass.
    buf = io.BytesIO()
    doc = make_doc(buf)
    try:
        doc.multiBuild(story, maxPasses=8, canvasmaker=partial(ArtCanvas, image_dpi=image_dpi))
    except IndexError as exc:
        if "not resolved" not in str(exc):  # multiBuild's own message; anything else is a bug
            raise
        raise BuildError(f"{display}: the table of contents does not settle",
                         hint="a heading may move between pages as the contents grow; add a page break",
                         rule="rulebook.layout") from None
    except RLLayoutError as exc:
        raise BuildError(f"{display}: something in the rulebook is too big for a page: {str(exc)[:200]}",
                         hint="make the image or table smaller, or split it",
                         rule="rulebook.layout") from None
    return RulebookPdf(buf.getvalue(), doc.page, findings + drawn)
