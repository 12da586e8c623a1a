"""Markdown to platypus flowables: a markdown-it syntax tree turned into paragraphs, headings,
lists, tables, quote boxes, code, pictures and the table of contents of a rulebook.

:class:`MarkdownStory` handles each block node by its type, through :data:`BLOCKS` (node type ->
handler method); a new kind of block is a handler and one line there.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ...core.errors import BuildError, Location
from ...core.findings import Finding
from ...core.units import MM
from ...render import fonts
from ...render.elements.text import ICON_EM, ICON_LIKE_RE
from ...core.suggest import did_you_mean
from ...render.preflight import icon_unknown, markup_problem, missing_glyph
from .images import ImageItem, PlacedImage, image_flow_class
from .fallback import RulebookFonts
from .inline import has_pictures_in_text, paragraph_with_pictures
from .markup import (BACK_COVER_MARKER, LINE_BREAK, RulebookError, inline_markup, marker_text, plain_text, plain_block,
                     short_text, width_spec, xml_escape)
from .pagination import back_cover_mark_class, contents_class, paragraph_class, splitting_table_class
from .styles import RulebookStyle

BLOCKS = {
    "heading": "block_heading",
    "paragraph": "block_paragraph",
    "bullet_list": "block_list",
    "ordered_list": "block_list",
    "table": "block_table",
    "blockquote": "block_quote",
    "fence": "block_code",
    "code_block": "block_code",
    "hr": "block_page_break",
    "html_block": "block_html",
}
"""Markdown block node type -> the MarkdownStory method that makes its flowables."""


_TOC_RE = re.compile(r"^\[TOC(?: ([12]))?\]$")


class MarkdownStory:
    """Builds platypus flowables from a markdown-it syntax tree."""

    def __init__(self, styles: dict, st: RulebookStyle, frame_w: float, frame_h: float,
                 resolver: Callable[[str], ImageItem], display: str, findings: list[Finding],
                 drawn: list[Finding] | None = None, icon_names: Callable[[], list[str]] = list,
                 icon: Callable[[str, float], str] | None = None,
                 locate: Callable[..., Location] | None = None, colors: dict[str, str] | None = None,
                 picture: Callable[[PlacedImage, float, float], str] | None = None, font_set=None):
        """``findings`` collects what building the story finds (a glyph the font lacks);
        ``drawn`` what drawing it finds (a picture printed below 300 dpi), which the document
        empties at the start of each layout pass so that only the final pass's remain.
        ``icon_names()`` lists the icons text may show as ``:name:`` and ``icon(name, height)``
        gives the markup drawing one. ``locate(text, *more)`` is where the template writes
        ``text`` (and ``more`` on the same line): the file and line a finding points at.
        ``colors`` is the game's palette, for ``[text](color:NAME)``; ``picture(image, size,
        frame width)`` gives the markup of a picture drawn inside a paragraph of text at ``size`` pt
        (without it, pictures always stand in a row of their own). ``font_set`` is the game's
        FontSet, whose families draw what DejaVu Sans lacks (:mod:`.fallback`)."""
        self.s = styles
        self.st = st
        self.frame_w = frame_w
        self.frame_h = frame_h
        self.resolve = resolver
        self.display = display
        self.findings = findings
        self.drawn = findings if drawn is None else drawn
        self.heading_count = 0
        self.ImageFlow = image_flow_class()
        self._glyph_seen: set[str] = set()
        self.icon_names = icon_names
        self.locate = locate or (lambda *_texts: Location(display))
        self.icon = icon
        self.colors = colors or {}
        self.picture = picture
        self.fonts = RulebookFonts(font_set)
        self._known_icons: list[str] | None = None
        self._icons_reported: set[str] = set()
        self.section = ""
        """The text of the last heading so far: what a table or box is said to be under."""
        self.table_count = 0

    # -- text --------------------------------------------------------------------------------
    def _check_glyphs(self, text: str, font: str = "sans") -> None:
        text = text.replace(LINE_BREAK, " ")
        found = self.fonts.missing(text) if font == "sans" else fonts.missing(font, text)
        lacking = [ch for ch in found if ch not in self._glyph_seen]
        if lacking:
            self._glyph_seen.update(lacking)
            self.findings.append(missing_glyph(self.locate(lacking[0]), "the rulebook font", lacking,
                                               hint="use a character DejaVu Sans has, or write it out"))

    def _with_icons(self, text: str, size: float) -> str:
        """``text`` as paragraph markup with each ``:name:`` of an icon of the card layouts drawn
        inline, a line of ``size`` pt type high; a ``:name:`` meant as an icon that is none is an error finding and
        prints as typed (``10:30`` is not meant as an icon)."""
        out, pos = [], 0
        for m in ICON_LIKE_RE.finditer(text):
            name = m.group(1)
            if name not in self._icon_names():
                if name not in self._icons_reported:
                    self._icons_reported.add(name)
                    self.findings.append(icon_unknown(self.locate(f":{name}:"), name, self._icon_names()))
                continue
            out.append(self.fonts.markup(text[pos:m.start()]))
            out.append(self.icon(name, size * ICON_EM))
            pos = m.end()
        out.append(self.fonts.markup(text[pos:]))
        return "".join(out)

    def span_color(self, name: str) -> str | None:
        """The ``#RRGGBB`` of colour span ``[text](color:NAME)``: a colour of the game's palette
        or a ``#RRGGBB``; another name is a ``preflight.markup`` warning and None (the text
        prints in the paragraph's colour)."""
        if re.fullmatch(r"#[0-9A-Fa-f]{6}", name):
            return name.upper()
        if name in self.colors:
            return str(self.colors[name]).upper()
        self.findings.append(markup_problem(self.locate(f"color:{name}"), f"color:{name}", [
            f"colour span: {name!r} is not a colour of this game"], hint=did_you_mean(
                name, self.colors, "use a name from [colors] in game.toml, or #RRGGBB")))
        return None

    def _icon_names(self) -> list[str]:
        if self._known_icons is None:
            self._known_icons = self.icon_names()
        return self._known_icons

    def inline(self, node, size: float | None = None) -> list[tuple[str, Any]]:
        """Segments of an inline node set at ``size`` pt (default the body size): ("text",
        platypus markup) and ("image", PlacedImage)."""
        out: list[tuple[str, Any]] = []
        size = size or self.st.base

        def text(markup: str):
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + markup)
            else:
                out.append(("text", markup))

        def walk(n):
            t = n.type
            if t == "text":
                self._check_glyphs(n.content)
                text(self._with_icons(n.content, size))
            elif t == "softbreak":
                text(" ")
            elif t == "hardbreak":
                text("<br/>")
            elif t == "code_inline":
                self._check_glyphs(n.content, "mono")
                text(f'<font face="pnp-mono">{inline_markup(n.content)}</font>')
            elif t in ("strong", "em"):
                tag = "b" if t == "strong" else "i"
                text(f"<{tag}>")
                for c in n.children:
                    walk(c)
                text(f"</{tag}>")
            elif t == "link":
                href = str(n.attrs.get("href", ""))
                hue = self.span_color(href[6:]) if href.startswith("color:") else None
                if hue:
                    text(f'<font color="{hue}">')
                    for c in n.children:
                        walk(c)
                    text("</font>")
                elif re.match(r"^(https?:|mailto:)", href):
                    text(f'<a href="{xml_escape(href).replace(chr(34), "&quot;")}" color="{self.st.accent}"><u>')
                    for c in n.children:
                        walk(c)
                    text("</u></a>")
                else:
                    for c in n.children:
                        walk(c)
            elif t == "image":
                src = str(n.attrs.get("src", ""))
                title = n.attrs.get("title")
                spec = None
                if title:
                    try:
                        spec = width_spec(str(title))
                    except ValueError as exc:
                        raise RulebookError(f"image {src!r}: {exc}", location=self.locate(src),
                                            hint='write the width as the image title: ![alt](file.png "40mm")') from None
                out.append(("image", PlacedImage(self.resolve(src), spec, src)))
            else:
                for c in n.children:
                    walk(c)
                if not n.children and n.content:
                    text(inline_markup(n.content))

        for child in node.children:
            walk(child)
        return out

    def inline_flowables(self, node, style) -> list:
        """A paragraph's flowables: text as a Paragraph, with its pictures drawn in its lines;
        a paragraph of pictures alone as one ImageFlow (side by side, wrapping)."""
        flows: list = []
        images: list[PlacedImage] = []

        def flush():
            if images:
                flows.append(self.ImageFlow(list(images), gap=self.st.base * 0.8, space_after=style.spaceAfter,
                                            findings=self.drawn, where=self.locate))
                images.clear()

        segments = self.inline(node, style.fontSize)
        if self.picture is not None and has_pictures_in_text(segments):
            return paragraph_with_pictures(self, segments, style)
        for kind, value in segments:
            if kind == "image":
                images.append(value)
            elif re.sub(r"(<br/>|\s)", "", value):
                flush()
                flows.append(paragraph_class()(value.strip(), style))
        flush()
        return flows

    def _find(self, cells: list[str], header: list[str]) -> Location:
        """Where the template writes a table row: the first line holding every text of
        ``cells``, else the line of the table's ``header`` texts, else the template alone (a
        row made by a loop over the data is found by its header)."""
        for texts in (cells, header):
            needles = [t.replace(LINE_BREAK, " ").strip() for t in texts if t.strip()]
            if needles:
                where = self.locate(*needles)
                if where.line is not None:
                    return where
        return self.locate("")

    # -- blocks ------------------------------------------------------------------------------
    def blocks(self, nodes, tight: bool = False) -> list:
        """The flowables of a run of block nodes, each by its handler in :data:`BLOCKS` (a node
        of another type gives the flowables of its children). ``tight``: list items without
        paragraph spacing."""
        flows: list = []
        nodes = list(nodes)
        for index, node in enumerate(nodes):
            handler = BLOCKS.get(node.type)
            if handler is None:
                flows.extend(self.blocks(node.children, tight))
                continue
            following = nodes[index + 1] if index + 1 < len(nodes) else None
            flows.extend(getattr(self, handler)(node, tight, following))
        return flows

    def block_heading(self, node, tight: bool, following) -> list:
        return self.heading(node)

    def block_paragraph(self, node, tight: bool, following) -> list:
        """A paragraph: text and pictures, the table of contents for ``[TOC]``, the start of the
        back cover for ``[BACK COVER]``; kept with the list, table, quote or contents it
        introduces."""
        inline = node.children[0] if node.children else None
        toc = _TOC_RE.match(marker_text(node))
        if toc:
            return [self.toc(int(toc.group(1) or 2))]
        if marker_text(node) == BACK_COVER_MARKER:
            return self.back_cover()
        style = self.s["tight"] if tight else self.s["body"]
        para = self.inline_flowables(inline, style) if inline is not None else []
        leads_in = following is not None and (following.type in LEAD_IN_TARGETS or _TOC_RE.match(marker_text(following)))
        if para and leads_in:
            para[-1].keepWithNext = 1  # a lead-in sentence stays with what it introduces (or titles the contents)
        return para

    def block_list(self, node, tight: bool, following) -> list:
        return [self.listing(node)]

    def block_table(self, node, tight: bool, following) -> list:
        return [self.table(node)]

    def block_quote(self, node, tight: bool, following) -> list:
        return [self.callout(node)]

    def block_code(self, node, tight: bool, following) -> list:
        from reportlab.platypus import Preformatted

        self._check_glyphs(node.content, "mono")
        return [Preformatted(node.content.rstrip("\n"), self.s["code"])]

    def block_page_break(self, node, tight: bool, following) -> list:
        from reportlab.platypus import PageBreak

        if marker_text(following) == BACK_COVER_MARKER:
            return []  # the back cover starts the new page itself: one break, not a blank page
        return [PageBreak()]

    def back_cover(self) -> list:
        """A new page and, at its top, the mark by which the layout records the back cover's
        first page (:func:`back_cover_mark_class`; the last one written counts)."""
        from reportlab.platypus import PageBreak

        return [PageBreak(), back_cover_mark_class()()]

    def block_html(self, node, tight: bool, following) -> list:
        return [paragraph_class()(inline_markup(node.content), self.s["body"])]

    def heading(self, node) -> list:
        level = int(node.tag[1])
        inline = node.children[0]
        style = self.s["h1"] if level == 1 else self.s["h2"] if level == 2 else \
            self.s["h3"] if level == 3 else self.s["h4"]
        segments = self.inline(inline, style.fontSize)
        markup = "".join(v for k, v in segments if k == "text").strip()
        para = paragraph_class()(markup, style)
        self.section = plain_text(inline).strip()
        if level in (2, 3):
            self.heading_count += 1
            para._pnp_toc = (level - 2, xml_escape(plain_text(inline).strip()), f"h{self.heading_count}")
        out = [para]
        images = [v for k, v in segments if k == "image"]
        if images:
            out.append(self.ImageFlow(images, gap=self.st.base * 0.8, space_after=self.st.base * 0.6,
                                      findings=self.drawn, where=self.locate))
        return out

    def toc(self, depth: int):
        from reportlab.platypus import TableStyle

        style = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                            ("LEFTPADDING", (0, 0), (-1, -1), 0),
                            ("FONTNAME", (0, 0), (-1, -1), fonts.register("sans"))])
        return contents_class(depth)(levelStyles=[self.s["toc0"], self.s["toc1"]], dotsMinLevel=0,
                                     rightColumnWidth=self.st.base * 3, tableStyle=style)

    def listing(self, node):
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import ListFlowable, ListItem

        b = self.st.base
        ordered = node.type == "ordered_list"
        items = []
        for item in node.children:
            tight = all(c.type != "paragraph" or c.hidden for c in item.children)
            children = self.blocks(item.children, tight=tight)
            items.append(ListItem(children or [], spaceAfter=b * 0.25))
        kwargs = dict(bulletFontName=fonts.register("sans-bold") if ordered else fonts.register("sans"),
                      bulletFontSize=b, leftIndent=b * 1.7, bulletColor=HexColor(self.st.accent),
                      spaceAfter=b * 0.6)
        if ordered:
            start = int(node.attrs.get("start", 1) or 1)
            return ListFlowable(items, bulletType="1", start=str(start), bulletFormat="%s.", **kwargs)
        return ListFlowable(items, bulletType="bullet", start="\u2022", **kwargs)

    def callout(self, node):
        """A block quote: a shaded box with an accent bar, one row per block so it splits."""
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import TableStyle

        b = self.st.base
        section = self.section
        inner = self.blocks(node.children)
        rows = [[f] for f in inner] or [[""]]
        gaps = [("BOTTOMPADDING", (0, i), (0, i), f.getSpaceAfter() or 0) for i, f in enumerate(inner)]
        # each block's text, to name the one that does not split (when each block made one row)
        plain = [plain_block(child) for child in node.children] if len(inner) == len(node.children) else []

        def unsplittable(row: int, height: float):
            text = plain[row - 1] if row - 1 < len(plain) else ""
            raise BuildError(
                ("the quote box" + (f" under {section!r}" if section else "")) + f", its block {row}"
                + (f" ({short_text(text)!r})" if text else "") + f": the block is {height / MM:.0f} mm tall, more than "
                f"the {self.frame_h / MM:.0f} mm of a page, and cannot be split across pages",
                location=self._find([text], []), rule="rulebook.layout",
                hint='a picture does not split: give it a smaller width ("30mm", "40%")')

        table = splitting_table_class(self.frame_h, 0, unsplittable)(rows, colWidths=[self.frame_w], splitByRow=1,
                                                                       hAlign="LEFT")
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), HexColor(self.st.callout)),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, HexColor(self.st.accent)),
            ("LEFTPADDING", (0, 0), (-1, -1), b * 0.9),
            ("RIGHTPADDING", (0, 0), (-1, -1), b * 0.9),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, 0), b * 0.6),
            *gaps,
            ("BOTTOMPADDING", (0, -1), (-1, -1), b * 0.5),
            ("FONTNAME", (0, 0), (-1, -1), fonts.register("sans")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        table.spaceAfter = b * 0.8
        return table

    def table(self, node):
        """A Markdown table: header row repeated on every page it continues to, rows split
        between pages, column widths from the content, alignment from the ``:---:`` row."""
        from reportlab.lib.colors import HexColor
        from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.pdfbase.pdfmetrics import stringWidth
        from reportlab.platypus import TableStyle

        b = self.st.base
        pad = b * 0.45
        rows_nodes = []
        for part in node.children:
            for tr in part.children:
                rows_nodes.append((part.type == "thead", tr))
        aligns: list[int] = []
        data: list[list] = []
        texts: list[list[str]] = []
        for is_head, tr in rows_nodes:
            row, plain = [], []
            for i, cell in enumerate(tr.children):
                style_attr = str(cell.attrs.get("style", ""))
                align = TA_CENTER if "center" in style_attr else TA_RIGHT if "right" in style_attr else TA_LEFT
                if is_head:
                    aligns.append(align)
                base = self.s["head"] if is_head else self.s["cell"]
                style = ParagraphStyle(f"{base.name}-{align}", parent=base, alignment=align)
                inline = cell.children[0] if cell.children else None
                flows = self.inline_flowables(inline, style) if inline is not None else []
                for f in flows:
                    f.spaceAfter = 0
                row.append(flows if len(flows) != 1 else flows[0])
                plain.append(plain_text(inline) if inline is not None else "")
            data.append(row)
            texts.append(plain)
        ncols = max(len(r) for r in data)
        for r, p in zip(data, texts):
            while len(r) < ncols:
                r.append("")
                p.append("")
        font, bold = fonts.register("sans"), fonts.register("sans-bold")
        size = b * 0.92
        max_w, min_w = [0.0] * ncols, [0.0] * ncols
        for ri, p in enumerate(texts):
            f = bold if ri == 0 else font
            for ci, text in enumerate(p):
                lines = text.replace(LINE_BREAK, "\n").split("\n")
                longest = max((stringWidth(line, f, size) for line in lines), default=0)
                word = max((stringWidth(w, f, size) for w in text.split()), default=0)
                max_w[ci] = max(max_w[ci], longest + 2 * pad + 1)
                min_w[ci] = max(min_w[ci], word + 2 * pad + 1)
        avail = self.frame_w
        if sum(max_w) <= avail:
            widths = [w * avail / sum(max_w) for w in max_w] if sum(max_w) else [avail / ncols] * ncols
        elif sum(min_w) >= avail:
            widths = [w * avail / sum(min_w) for w in min_w]
        else:
            extra = avail - sum(min_w)
            spread = [mx - mn for mx, mn in zip(max_w, min_w)]
            widths = [mn + extra * sp / sum(spread) for mn, sp in zip(min_w, spread)]
        self.table_count += 1
        what = f"the table under {self.section!r}" if self.section else "the table"
        what += f" (table {self.table_count} of the rulebook)"

        def unsplittable(row: int, height: float):
            cells = texts[row] if row < len(texts) else []
            label = short_text(next((c for c in cells if c.strip()), ""))
            raise BuildError(
                f"{what}, row {row}" + (f" ({label!r})" if label else "") + f": the row is {height / MM:.0f} mm "
                f"tall, more than the {self.frame_h / MM:.0f} mm of a page, and cannot be split across pages",
                location=self._find(cells, texts[0]), rule="rulebook.layout",
                hint="text in a cell splits, a picture does not: give the picture a smaller width "
                     '("30mm", "40%") or put it outside the table')

        table_class = splitting_table_class(self.frame_h, KEEP_TOGETHER_ROWS, unsplittable)
        table = table_class(data, colWidths=widths, repeatRows=1, splitByRow=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, 0), HexColor(self.st.accent)),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [HexColor("#FFFFFF"), HexColor(self.st.shade)]),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, HexColor(self.st.rule)),
            ("BOX", (0, 0), (-1, -1), 0.4, HexColor(self.st.rule)),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), pad * 0.7),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.9),
            ("FONTNAME", (0, 0), (-1, -1), font),
        ]))
        table.spaceBefore = b * 0.2
        table.spaceAfter = b * 0.9
        return table


LEAD_IN_TARGETS = ("table", "blockquote", "bullet_list", "ordered_list")
"""A paragraph followed by one of these Markdown blocks is kept on the same page as its start."""


KEEP_TOGETHER_ROWS = 10
"""A table of this many rows or fewer (header included) moves to the next page whole rather than
split; a longer one splits between rows and repeats its header row."""

