"""Laying out a rulebook's Markdown as a PDF with reportlab platypus: pages, footers with page
numbers, bookmarks and a table of contents that settles over layout passes."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ... import __version__
from ...core.errors import BuildError, Location
from ...core.findings import Finding
from ...core.progress import step
from ...core.units import MM, Size
from ...render import fonts
from ...render.canvas import PdfBytes, set_viewer_preferences
from ...render.art import PRINT_DPI
from ...render.embed import ArtCanvas
from .images import ImageItem, ImageResolver
from .markup import RulebookError
from .pagination import back_cover_mark_class, keep_with_next
from .story import MarkdownStory
from .styles import SINGLE_STYLE, RulebookStyle, paragraph_styles


@dataclass
class RulebookPdf:
    """A laid-out rulebook: the PDF bytes, its page count, preflight findings and how many of
    its last pages are the back cover (``back``, from ``{{ back_cover() }}``; 0: none)."""

    pdf: bytes
    pages: int
    findings: list[Finding] = field(default_factory=list)
    back: int = 0


def markdown_pdf(markdown: str, page: Size, *, title: str, style: RulebookStyle = SINGLE_STYLE,
                 resolver: Callable[[str], ImageItem] | None = None, display: str = "rulebook",
                 outer_numbers: bool = False, duplex: str = "DuplexFlipLongEdge",
                 image_dpi: int | None = PRINT_DPI, dry: bool = False) -> RulebookPdf:
    """Lay out ``markdown`` (CommonMark plus tables) on pages of ``page`` size (pt).

    - ``# H1`` is a title (kept out of the contents); ``## H2`` and ``### H3`` are listed in
      the table of contents (a paragraph holding only ``[TOC]``) and as PDF bookmarks.
    - ``---`` (a thematic break) starts a new page; so does ``[BACK COVER]``, which also marks
      where the back cover starts (``result.back`` counts its pages).
    - Headings, and a sentence that introduces a list, table or the contents, stay on the page
      of the first lines of what follows them.
    - Tables repeat their header row on every page they run onto and split between rows; a
      row taller than a page is split inside its cells.
    - Images: ``![alt](target "width")``; ``resolver`` turns a target into an ImageItem.
      Images in one paragraph sit side by side and wrap; every image is scaled to the frame.
    - Page 1 has no footer; every other page has the title and its page number in the footer
      (``outer_numbers``: numbers on the outer edge, odd pages right, even pages left, as in a
      booklet).
    - Raster pictures (and the art of cards drawn) are embedded once each, downsampled to
      ``image_dpi`` px/in at the largest size they are placed at (None: as they are;
      :class:`pnp.render.embed.ArtCanvas`).

    The PDF asks to be printed at 100 % and double-sided with ``duplex``, the flip of its
    portrait pages (the long edge; :func:`pnp.render.canvas.viewer_preferences`), and carries
    the date every pnp PDF does (:func:`pnp.render.canvas.pdf_date`, reportlab's invariant
    mode) and a document ID reportlab derives from it and the metadata.

    A ``dry`` layout (``pnp check``) finds what the real one finds and makes no file: every
    pass is laid out as the real one is, but text is not drawn (pictures are, since drawing a
    card finds what is wrong with it) and nothing is saved (``result.pdf`` is empty).

    Raises RulebookError for images that cannot be placed and BuildError (rule
    ``rulebook.layout``, at the template line) for content that cannot fit a page. Same input,
    same bytes (reportlab invariant mode).
    """
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import BaseDocTemplate, PageTemplate
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
                                locate=icons.locate if icons else None, colors=icons.colors() if icons else None,
                                picture=icons.picture if icons else None, font_set=icons.fonts() if icons else None)
    parser = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    tree = SyntaxTreeNode(parser.parse(markdown))
    story = story_maker.blocks(tree.children)
    for flow in story:
        if hasattr(flow, "images"):
            flow._max_h = frame_h
    story = keep_with_next(story)
    back_mark = back_cover_mark_class()
    placed = {"back": 0, "section": ""}  # of the pass being laid out: the back cover's first page, the last heading
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

    passes = step("rulebook passes")  # multiBuild lays the story out once per pass
    # The first pass of a book with contents only finds where the headings fall: its pages are
    # thrown away (the contents are not filled in yet), so its flowables are laid out but not
    # drawn. Layout never depends on drawing, so the pass that is kept is as it was.
    sketch = {"on": False, "passes": 0, "dry": dry}
    SketchFrame = sketch_frame_class()

    class Doc(BaseDocTemplate):
        def handle_documentBegin(self):
            sketch["on"] = not sketch["passes"] and bool(getattr(self, "_indexingFlowables", None))
            sketch["passes"] += 1
            passes.advance()
            drawn.clear()  # multiBuild lays the story out again; only the saved pass counts
            placed.update(back=0, section="")
            super().handle_documentBegin()
            set_viewer_preferences(self.canv, duplex)

        def afterFlowable(self, flowable):
            if isinstance(flowable, back_mark):
                placed["back"] = self.page
            entry = getattr(flowable, "_pnp_toc", None)
            if entry is None:
                return
            placed["section"] = entry[1]
            level, text, key = entry
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
                                      key, level=level, closed=True)
            self.notify("TOCEntry", (level, text, self.page, key))

        def _allSatisfied(self):
            # a sketched pass is never the one saved, even when its contents already settled
            return super()._allSatisfied() and not sketch["on"]

    def make_doc(target):
        frame = SketchFrame(sketch, style.margin, style.margin_bottom, frame_w, frame_h, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc = Doc(target, pagesize=(page.width, page.height), invariant=1, pageCompression=1,
                  title=title, subject=f"Rules of {title}", creator=f"pnp {__version__}", author="",
                  producer=f"pnp {__version__}", initialFontName=sans, initialFontSize=style.base,
                  leftMargin=style.margin, rightMargin=style.margin, topMargin=style.margin,
                  bottomMargin=style.margin_bottom)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
        return doc

    # multiBuild lays the story out until the table of contents settles and saves that pass.
    buf = PdfBytes(discard=dry)
    doc = make_doc(buf)
    try:
        doc.multiBuild(story, maxPasses=8, canvasmaker=partial(ArtCanvas, image_dpi=image_dpi))
    except IndexError as exc:
        if "not resolved" not in str(exc):  # multiBuild's own message; anything else is a bug
            raise
        raise BuildError(f"{display}: the table of contents does not settle",
                         hint="a heading may move between pages as the contents grow; add a page break",
                         rule="rulebook.layout") from None
    except RLLayoutError:
        section = placed["section"].replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        where = f"after the heading {section!r}" if section else "before the first heading"
        raise BuildError(f"something {where} is too big for a page ({frame_w / MM:.0f} x {frame_h / MM:.0f} mm) "
                         "and cannot be split across pages",
                         location=icons.locate(section) if icons and section else Location(display),
                         hint="make the picture, table or code block smaller, or split it in parts",
                         rule="rulebook.layout") from None
    back = doc.page - placed["back"] + 1 if placed["back"] else 0
    return RulebookPdf(buf.value(), doc.page, findings + drawn, back=back)


def _no_draw(*args, **kwargs) -> None:
    """What a flowable does instead of drawing itself on a sketched pass."""


def sketch_frame_class():
    """A platypus Frame that, while ``sketch["on"]`` (the dict given first to its
    constructor), places flowables without drawing them: wrap, split and the space they take
    are as always, so where everything falls is the same; nothing reaches the page. Used for
    the first layout pass of a book with a table of contents, whose pages are discarded, and,
    while ``sketch["dry"]``, for the text of every pass of a dry run (paragraphs, code, rules
    and the contents, which find nothing when drawn; pictures and tables, which may hold
    them, are drawn)."""
    from reportlab.platypus import Frame, Paragraph, Preformatted, XPreformatted
    from reportlab.platypus.flowables import HRFlowable
    from reportlab.platypus.tableofcontents import TableOfContents

    text_only = (Paragraph, Preformatted, XPreformatted, HRFlowable, TableOfContents)

    class SketchFrame(Frame):
        def __init__(self, sketch: dict, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.sketch = sketch

        def _add(self, flowable, canv, trySplit=0):
            own = getattr(flowable, "__dict__", None)  # a flowable with its own drawOn is drawn as it is
            skip = self.sketch["on"] or (self.sketch["dry"] and isinstance(flowable, text_only))
            if not skip or own is None or "drawOn" in own:
                return super()._add(flowable, canv, trySplit)
            flowable.drawOn = _no_draw
            try:
                return super()._add(flowable, canv, trySplit)
            finally:
                del flowable.drawOn

        add = _add  # as platypus's Frame names it

    return SketchFrame
