"""Where a rulebook's pages break: the platypus flowables and table class that keep headings
with what follows them, mark the start of the back cover, and split a table row only when it is
taller than a page (reporting one that cannot be split). :mod:`.story` makes them; the
document (:mod:`.markdown`) lays them out. Heights are in pt.
"""

from __future__ import annotations

from functools import cache
from typing import Callable


@cache
def back_cover_mark_class():
    """The class of the mark :meth:`pnp.outputs.rulebook.story.MarkdownStory.back_cover` puts at the top of the back
    cover's first page: it draws nothing and takes no room; the document notes the page it
    lands on (:func:`pnp.outputs.rulebook.markdown.markdown_pdf`)."""
    from reportlab.platypus import Flowable

    class BackCoverMark(Flowable):
        _ZEROSIZE = True

        def wrap(self, avail_w, avail_h):
            return 0, 0

        def draw(self):
            pass

    return BackCoverMark


@cache
def paragraph_class():
    """The platypus Paragraph a rulebook's text is set in: one that breaks its lines once per
    width. Platypus asks a paragraph for its size several times at the same width (to keep a
    heading with what follows, to fill a table, on each pass of a book with a table of
    contents): five times on average in the bundled rulebooks, each a full line-breaking run.
    The lines of the last width asked are kept and given again until the paragraph is drawn;
    drawing drops them, so a paragraph drawn is broken afresh if asked again.

    The lines are those of one line-breaking run, which platypus's own Paragraph gives again on
    every run for nearly all text (the bundled rulebooks: the same bytes). Not for two cases,
    where its result depends on how often it was asked: a word too long for the column inside
    bold, italic or a font change gains an invisible space before it on each further run, and
    a line broken at a soft hyphen inside such markup moves by a millionth of a point. There the
    page is what a single run draws: the same glyphs in the same places, without those spaces."""
    from reportlab.platypus import Paragraph

    class WrapOnceParagraph(Paragraph):
        def wrap(self, availWidth, availHeight):
            kept = self.__dict__.get("_pnp_lines")
            if kept is not None and kept[0] == availWidth:
                _, self.width, self.height, self.blPara, self._wrapWidths = kept
                return self.width, self.height
            size = super().wrap(availWidth, availHeight)
            if size[1] != 0x7fffffff:  # (platypus's answer for a width too narrow to try)
                self._pnp_lines = (availWidth, self.width, self.height, self.blPara, self._wrapWidths)
            return size

        def drawOn(self, canvas, x, y, _sW=0):
            self.__dict__.pop("_pnp_lines", None)
            return super().drawOn(canvas, x, y, _sW)

    return WrapOnceParagraph


KEEP_FIRST_ROWS = 2
"""A table of contents that splits leaves at least this many of its lines on each page, so its
title (the heading or sentence before it) never ends a page with one line under it, and no line
is left alone at the top of the next."""



def contents_class(depth: int):
    """A platypus TableOfContents class listing headings of levels below ``depth`` (1: H2
    only, 2: H2 and H3) that splits between its lines and leaves at least
    :data:`KEEP_FIRST_ROWS` of them on each page."""
    from reportlab.platypus import Spacer
    from reportlab.platypus.tableofcontents import TableOfContents

    class Contents(TableOfContents):
        def notify(self, kind, stuff):
            if kind == "TOCEntry" and stuff[0] >= depth:
                return
            super().notify(kind, stuff)

        def split(self, avail_w, avail_h):
            parts = super().split(avail_w, avail_h)
            if len(parts) != 2:
                return parts
            table = self._table  # as platypus lays it out: a spacer row before each section
            rows = table._cellvalues
            lines = [i for i, row in enumerate(rows) if not isinstance(row[0], Spacer)]
            here = sum(1 for i in lines if i < len(parts[0]._cellvalues))
            if here < KEEP_FIRST_ROWS:
                return []
            if len(lines) - here >= KEEP_FIRST_ROWS:
                return parts
            cut = lines[-KEEP_FIRST_ROWS]  # the first line the next page needs
            while cut > 0 and isinstance(rows[cut - 1][0], Spacer):
                cut -= 1
            if sum(1 for i in lines if i < cut) < KEEP_FIRST_ROWS:
                return []
            return table.splitOn(self.canv, avail_w, sum(table._rowHeights[:cut]) + 0.01)

    return Contents

@cache
def _keep_with_next_class():
    from reportlab.platypus import Flowable
    from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak

    class KeepWithNext(Flowable):
        """Headings and lead-in sentences (``lead``) kept on one page with the start of what
        follows them (``follower``): when the lead and the first piece of the follower that
        platypus would place (two lines of a paragraph, the header and a row of a table, a list's
        first item) do not both fit below the current position, the lead moves to the next page.
        Unlike platypus's own KeepTogether, a long follower is not moved whole: it starts after
        its heading and continues on the next page, and lists and tables are kept as well as
        paragraphs."""

        def __init__(self, lead: list, follower):
            super().__init__()
            self.lead = lead
            self.follower = follower

        def getSpaceBefore(self):
            return self.lead[0].getSpaceBefore()

        # a table of contents kept with its title is still told of every heading: multiBuild
        # finds the indexing flowables among the story's own, so this one answers for it
        def isIndexing(self):
            return self.follower.isIndexing()

        def isSatisfied(self):
            return self.follower.isSatisfied()

        def notify(self, kind, stuff):
            return self.follower.notify(kind, stuff)

        def beforeBuild(self):
            return self.follower.beforeBuild()

        def afterBuild(self):
            return self.follower.afterBuild()

        def wrap(self, avail_w, avail_h):
            return avail_w, 0xFFFFFF  # never drawn whole: the frame asks split() where to cut

        def split(self, avail_w, avail_h):
            pieces = [*self.lead, self.follower]
            frame = getattr(self, "_frame", None)
            if frame is None or frame._atTop:
                return pieces  # a fresh page: moving on would gain nothing
            room = avail_h
            for i, f in enumerate(self.lead):
                _, h = f.wrapOn(self.canv, avail_w, room)
                room -= h + (f.getSpaceBefore() if i else 0) + f.getSpaceAfter()
            room -= self.follower.getSpaceBefore()
            if room > 0 and self._starts(self.follower, avail_w, room):
                return pieces
            return [FrameBreak(), *pieces]

        def _starts(self, flow, avail_w: float, room: float, depth: int = 0) -> bool:
            """Whether some of ``flow`` fits in ``room`` pt: all of it, or the first piece it
            splits into (a list splits into its items, which split again)."""
            _, h = flow.wrapOn(self.canv, avail_w, room)
            if h <= room + 1e-6:
                return True
            parts = [p for p in flow.splitOn(self.canv, avail_w, room)
                     if not isinstance(p, ActionFlowable) and not getattr(p, "_ZEROSIZE", False)]
            if not parts or parts[0] is flow or depth >= 4:
                return False
            return self._starts(parts[0], avail_w, room, depth + 1)

    return KeepWithNext


def keep_with_next(flows: list) -> list:
    """``flows`` with every run of flowables that keep with the next one (headings, by their
    style; lead-in sentences, :meth:`pnp.outputs.rulebook.story.MarkdownStory.block_paragraph`) joined with the flowable
    after them into one KeepWithNext. Platypus's own keep-with-next is switched off on them: it
    cannot hold a list, and it moves a long table whole."""
    from reportlab.platypus import PageBreak
    from reportlab.platypus.doctemplate import ActionFlowable

    keeper = _keep_with_next_class()
    out: list = []
    run: list = []
    for f in flows:
        if f.getKeepWithNext():
            f.keepWithNext = 0
            run.append(f)
            continue
        if run and not isinstance(f, (ActionFlowable, PageBreak)) and not getattr(f, "_ZEROSIZE", False):
            out.append(keeper(run, f))
        else:
            out.extend(run)
            out.append(f)
        run = []
    out.extend(run)
    return out


def splitting_table_class(frame_h: float, keep_rows: int, unsplittable: Callable[[int, float], None]):
    """A platypus Table class for one rulebook table (each split piece is of it too) that:

    - moves to the next page whole when it has at most ``keep_rows`` rows and fits a page;
    - otherwise splits between rows;
    - splits a row inside its cells only when the row (under the repeated header) is taller
      than a whole page (``frame_h``, pt), so an ordinary row never straddles two pages;
    - calls ``unsplittable(row, height)`` (row 1-based below the header rows, its height in pt),
      which raises, when a row that fits no page cannot be split either.
    """
    from reportlab.platypus import Table

    class SplittingTable(Table):
        _pnp_row = 1
        """The number (1-based, below the header) of this piece's first row in the whole table."""

        def split(self, avail_w, avail_h):
            if len(self._cellvalues) <= keep_rows and getattr(self, "_height", 0) <= frame_h:
                return []
            parts = super().split(avail_w, avail_h)  # between rows
            head = self.repeatRows if isinstance(self.repeatRows, int) else max(self.repeatRows) + 1
            heights = self._rowHeights
            stop = len(parts[0]._cellvalues) if len(parts) == 2 else head  # the first row left over
            if stop < len(heights) and sum(heights[:head]) + heights[stop] > frame_h:
                # that row fits no page: cut it here, inside its cells, rather than after the rows
                # before it (which would repeat the header above it on the same page)
                self.splitByRow, self.splitInRow = 0, 1
                try:
                    inside = super().split(avail_w, avail_h)
                finally:
                    self.splitByRow, self.splitInRow = 1, 0
                if inside:
                    parts = inside
                elif not parts and avail_h >= frame_h - 0.01:  # a whole page cannot take it either
                    unsplittable(self._pnp_row + stop - head, heights[stop])
            for part in parts:
                part.splitByRow, part.splitInRow = 1, 0
            if len(parts) == 2:
                first, rest = parts
                shown = len(first._cellvalues) - head
                inside = len(first._cellvalues) + len(rest._cellvalues) - head > len(self._cellvalues)
                first._pnp_row = self._pnp_row
                rest._pnp_row = self._pnp_row + shown - (1 if inside else 0)
            return parts

    return SplittingTable
