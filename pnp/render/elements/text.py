"""``text`` boxes: text wrapped and fitted to its box, with inline markup (``**bold**``,
``*italic*``, colour spans: :mod:`pnp.design.markup`) and inline icons written ``:name:``.

:class:`TextFitter` does the typesetting: it breaks the text into paragraphs of words (a word is
runs of text, each in one face and colour, and icons; a character the font lacks is drawn in the
first face of its fallback chain that has it, :class:`pnp.render.fonts.FontBook`), wraps them at
a size (:meth:`TextFitter.wrap`) and finds the largest
size, in 0.25 pt steps from the box's ``size`` down to its ``min_size``, at which every line fits
(:meth:`TextFitter.fit`). Text that does not fit even at ``min_size`` is cut at the last line
that fits, which ends in an ellipsis, and reported (``preflight.text-overflow``).
"""

from __future__ import annotations

import re
import unicodedata

from ...core.errors import LayoutError
from ...design.elements import ELEMENT_SPECS
from ...design.fonts import STYLES
from ...design.markup import parse
from ...model.facts import contradictions
from ..preflight import (icon_unknown, markup_problem, missing_glyph, printed_fact, right_to_left, small_text,
                         text_outside, text_overflow)
from .icons import draw_icon, icon_width

ICON_RE = re.compile(r":([A-Za-z0-9_\-]+):")
"""An inline icon in text: ``:name:`` (only names the layouts file defines are icons)."""
ICON_LIKE_RE = re.compile(r"(?<![\w:]):([A-Za-z][A-Za-z0-9_\-]*):(?![\w:])")
"""What a designer writes meaning an icon: ``:name:`` beginning with a letter, standing apart
(``10:30:45`` and ``a:b:c`` are not icons). Such a name that is not an icon is a finding."""
RTL_RE = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
"""Arabic-script characters, which need shaping and right-to-left ordering the PDF text lacks."""
STEP = 0.25
"""Text sizes are tried in steps of this many points."""
ICON_EM = 1.05
"""An inline icon is this many ems high, with 0.05 em either side."""
OUTSIDE_TOLERANCE = 0.05 * 72 / 25.4
"""How far (pt) a text box may reach past the trim before it is reported: 0.05 mm."""


class TextFitter:
    """Lays out text in one font (and its fallbacks) for one renderer (its icons, and its
    FontBook's cached chains, runs and widths)."""

    def __init__(self, renderer, font: str):
        self.renderer = renderer
        self.font = font
        self.book = renderer.fonts
        self.face = self.book.chain(font)[0]
        """The registered face of the font's own style: spaces and the ellipsis are set in it."""

    def width(self, text: str) -> float:
        """Width of plain ``text`` in the font's own face at 1 pt."""
        return self.book.width(self.face, text)

    def unknown_icons(self, text: str) -> list[str]:
        """The ``:name:`` in ``text`` meant as icons that the layouts file does not define,
        each once (they print as typed)."""
        icons = self.renderer.layouts.icons
        return list(dict.fromkeys(m.group(1) for m in ICON_LIKE_RE.finditer(text) if m.group(1) not in icons))

    def words(self, text: str):
        """Paragraphs -> words -> runs ("text", s, face, colour name or None) or ("icon", name,
        None, None), cached per font and text with what the text lacks: (paragraphs, characters
        no face has, markup problems, styles the family lacks, the text without markup)."""
        key = (self.font, text)
        found = self.book.parsed.get(key)
        if found is None:
            found = self._words(text)
            self.book.parsed[key] = found
        return found

    def _words(self, text: str):
        icons = self.renderer.layouts.icons
        book = self.book
        markup = parse(text)
        resolved = book.fonts.resolve(self.font)
        family, own = resolved if resolved else (None, 0)
        paragraphs: list = []
        words: list = []
        runs: list = []
        lacking: list[str] = []
        no_style: list[int] = []
        for span in markup.spans:
            chain = book.chain(self.font, span.style)
            style = span.style | own
            if family is not None and family.faces[style] is None and style not in no_style:
                no_style.append(style)
            for piece in re.split(r"(\n| )", span.text):
                if piece == " " or piece == "\n":
                    if runs:
                        words.append(runs)
                        runs = []
                    if piece == "\n":
                        paragraphs.append(words)
                        words = []
                    continue
                pos = 0
                for m in ICON_RE.finditer(piece):
                    if m.group(1) not in icons:
                        continue
                    if m.start() > pos:
                        self._text_runs(runs, chain, piece[pos:m.start()], span.color, lacking)
                    runs.append(("icon", m.group(1), None, None))
                    pos = m.end()
                if pos < len(piece):
                    self._text_runs(runs, chain, piece[pos:], span.color, lacking)
        if runs:
            words.append(runs)
        paragraphs.append(words)
        return paragraphs, lacking, markup.problems, no_style, markup.plain

    def _text_runs(self, runs: list, chain, text: str, color, lacking: list[str]) -> None:
        for ch in self.book.missing(chain, text):
            if ch not in lacking:
                lacking.append(ch)
        for face, part in self.book.runs(chain, text):
            runs.append(("text", part, face, color))

    def word_width(self, runs) -> float:
        """Width of one word at size 1; an inline icon is drawn ICON_EM high with 0.05 em
        either side."""
        width = self.book.width
        return sum(width(face, t) if k == "text" else icon_width(self.renderer, t, ICON_EM) + 0.05
                   for k, t, face, _ in runs)

    def wrap(self, paragraphs, size: float, width: float):
        """Lines [(words, line width in pt)] of ``paragraphs`` at ``size`` pt within ``width``
        pt, or None when a word alone is wider than ``width``."""
        space = self.width(" ") * size
        lines = []
        for words in paragraphs:
            line: list = []
            line_w = 0.0
            for runs in words:
                ww = self.word_width(runs) * size
                if ww > width + 1e-6:
                    return None
                if line and line_w + space + ww > width + 1e-6:
                    lines.append((line, line_w))
                    line, line_w = [runs], ww
                else:
                    line_w = ww if not line else line_w + space + ww
                    line.append(runs)
            lines.append((line, line_w))
        return lines

    def fit(self, paragraphs, size: float, min_size: float, leading: float, width: float,
            height: float) -> tuple[float, list, bool]:
        """(size, lines, cut): the largest size from ``size`` down to ``min_size`` (in STEP
        steps, by binary search) at which the lines fit ``width`` x ``height`` pt with line
        height ``size * leading``. When none fits, the text at ``min_size`` cut to the lines
        that fit, the last ending in an ellipsis, and ``cut`` True."""
        def fits(size_pt: float):
            lines = self.wrap(paragraphs, size_pt, width)
            return lines if lines is not None and len(lines) * size_pt * leading <= height + 1e-6 else None

        first = fits(size)
        if first is not None:
            return size, first, False
        chosen = None
        steps = int(round((size - min_size) / STEP))
        lo, hi = 0, steps - 1  # candidate sizes min_size + k * STEP, k < steps
        while lo <= hi:
            mid = (lo + hi) // 2
            trial = round(min_size + mid * STEP, 2)
            lines = fits(trial)
            if lines is not None:
                chosen = (trial, lines)
                lo = mid + 1
            else:
                hi = mid - 1
        if chosen is not None:
            return chosen[0], chosen[1], False
        s = min_size
        lines = self.wrap(paragraphs, s, width)
        if lines is None:  # a word wider than the box even at the minimum size
            lines = [([w], self.word_width(w) * s) for para in paragraphs for w in para]
        fit = max(1, int((height + 1e-6) // (s * leading)))
        if len(lines) > fit:  # show where the text was cut: the last line that fits ends in "…"
            words, line_w = lines[fit - 1]
            ellipsis = self.width(" …") * s
            lines = lines[:fit - 1] + [(list(words) + [[("text", "…", self.face, None)]], line_w + ellipsis)]
        return s, lines, True

    def draw_lines(self, c, lines, rect, size: float, leading: float, color, align: str, valign: str,
                   cut: bool, piece, colors: dict | None = None) -> None:
        """Draw fitted ``lines`` at ``size`` in ``rect`` (runs in colour spans in ``colors``,
        colour name -> reportlab colour; None there: ``color``), aligned left, center or right and top,
        middle or bottom (middle centres the capitals of the middle line on the box's centre);
        cut text is clipped to the box. Returns where the glyphs lie, (x0, y0, x1, y1, "text")
        pt from the first line's cap height to the last line's descender, or None."""
        from reportlab.pdfbase import pdfmetrics

        bx, by, bw, bh = rect
        s = size
        pdf_font = self.face
        face = pdfmetrics.getFont(pdf_font).face
        ascent = face.ascent / 1000 * s
        descent = -face.descent / 1000 * s
        cap = getattr(face, "capHeight", 0.73 * 1000) / 1000 * s
        line_h = s * leading
        block = (len(lines) - 1) * line_h + ascent + descent
        top = by + bh
        if valign == "middle":
            top = by + bh / 2 + (len(lines) - 1) * line_h / 2 + cap / 2 + ascent - cap
            if cut:
                top = by + bh - max(0.0, (bh - block) / 2)
        elif valign == "bottom":
            top = by + block
        lefts = [bx + (bw - width) / 2 if align == "center" else (bx + bw - width if align == "right" else bx)
                 for _, width in lines]
        ink = None
        if lines:
            x0 = min(lefts)
            x1 = max(left + width for left, (_, width) in zip(lefts, lines))
            y1 = top - ascent + _ink_above(lines[0], cap / s, ascent / s) * s
            y0 = top - ascent - (len(lines) - 1) * line_h - (descent if _descends(lines[-1]) else 0.02 * s)
            if cut:
                x0, y0, x1, y1 = max(x0, bx), max(y0, by), min(x1, bx + bw), min(y1, by + bh)
            ink = (x0, y0, x1, y1, "text")
        c.saveState()
        if cut:
            path = c.beginPath()
            path.rect(bx, by, bw, bh)
            c.clipPath(path, stroke=0, fill=0)
        c.setFillColor(color)
        space = self.width(" ") * s
        for i, (words, width) in enumerate(lines):
            baseline = top - ascent - i * line_h
            if align == "center":
                x = bx + (bw - width) / 2
            elif align == "right":
                x = bx + bw - width
            else:
                x = bx
            c.setFont(pdf_font, s)
            if all(kind == "text" and f == pdf_font and hue is None for runs in words for kind, _, f, hue in runs):
                # a line of plain words is one string: the same positions, one text operator
                c.drawString(x, baseline, " ".join("".join(t for _, t, _, _ in runs) for runs in words))
                continue
            for j, runs in enumerate(words):
                if j:
                    x += space
                for kind, t, f, hue in runs:
                    if kind == "text":
                        paint = colors.get(hue) if hue is not None and colors else None
                        if paint is not None:
                            c.setFillColor(paint)
                        c.setFont(f, s)
                        c.drawString(x, baseline, t)
                        if paint is not None:
                            c.setFillColor(color)
                        x += self.book.width(f, t) * s
                    else:
                        icon_size = s * ICON_EM
                        draw_icon(self.renderer, c, t, x + 0.025 * s, baseline - 0.18 * s, icon_size, piece)
                        c.setFillColor(color)
                        x += icon_width(self.renderer, t, icon_size) + 0.05 * s
        c.restoreState()
        return ink


DESCENDERS = set("gjpqyQ,;()[]{}|/_@$§µ")
"""Characters whose ink reaches below the baseline (the glyph footprint counts the descender
only for lines holding one)."""
ASCENDERS = set("bdfhklt")
"""Lower-case letters taller than the capitals (about 0.76 em in DejaVu against 0.73)."""


def _line_text(line) -> tuple[str, bool]:
    """The characters of a fitted line, and whether it holds an inline icon."""
    words, _ = line
    text = "".join(t for runs in words for kind, t, _, _ in runs if kind == "text")
    return text, any(kind != "text" for runs in words for kind, *_ in runs)


def _descends(line) -> bool:
    text, icons = _line_text(line)
    return icons or not DESCENDERS.isdisjoint(text)


def _ink_above(line, cap: float, ascent: float) -> float:
    """How far above the baseline the ink of ``line`` reaches, in ems: the cap height, a little
    more for ascenders, the font's ascent for accented capitals, symbols and inline icons."""
    text, icons = _line_text(line)
    if icons or not text.isascii() and any(ord(ch) > 0x7F and not unicodedata.category(ch).startswith("Ll")
                                           for ch in text):
        return ascent
    return max(cap, 0.76) if not ASCENDERS.isdisjoint(text) else cap


class Text:
    """Text fitted to the box: ``text`` (a template), ``font``, ``size`` and ``min_size`` (pt),
    ``leading`` (line height as a multiple of the size), ``align``, ``valign``, ``color``."""

    spec = ELEMENT_SPECS["text"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        ctx = piece.context
        text = str(renderer.value(p.get("text", ""), ctx, where("text")))
        if not text.strip():
            return
        font = str(p.get("font", "sans"))
        if not renderer.fonts.known(font):
            raise renderer.layouts.error(where("font"), f"unknown font {font!r}",
                                         hint="fonts: " + ", ".join(renderer.fonts.fonts.names()))
        size = float(p.get("size", 9))
        min_size = float(p.get("min_size", min(size, max(renderer.min_text_size, size * 0.6))))
        leading = float(p.get("leading", 1.2))
        fitter = TextFitter(renderer, font)
        paragraphs, lacking, problems, no_style, plain = fitter.words(text)
        source = renderer.source(p.get("text", ""), piece, where("text"))
        key = piece.card_key
        if not renderer.repeat_depth:  # a repeat cell's labels may sit beside the cell
            edges = {"left": trim[0] - rect[0], "bottom": trim[1] - rect[1],
                     "right": rect[0] + rect[2] - trim[0] - trim[2], "top": rect[1] + rect[3] - trim[1] - trim[3]}
            over = {edge: d for edge, d in edges.items() if d > OUTSIDE_TOLERANCE}
            if over:
                renderer.note((key, box.name, "outside"),
                              text_outside(renderer.layouts.location(str(where)), over, key))
        for name in fitter.unknown_icons(text):
            renderer.note((key, box.name, f"icon {name}"), icon_unknown(source, name, renderer.layouts.icons, key))
        if lacking:
            renderer.note((key, box.name, "glyph"), missing_glyph(source, renderer.fonts.describe(font), lacking,
                                                                  piece=key))
        if problems or no_style:
            missing_styles = [STYLES[st].replace("_", " ") for st in no_style]
            renderer.note((key, box.name, "markup"), markup_problem(source, text, problems, font, missing_styles, key))
        if RTL_RE.search(text):
            renderer.note((key, box.name, "rtl"), right_to_left(source, key))
        for found in contradictions(plain, renderer.facts):
            renderer.note((key, box.name, found.snippet), printed_fact(
                source, found.said, found.snippet, found.fact.key, found.fact.value, key))
        s, lines, cut = fitter.fit(paragraphs, size, min_size, leading, rect[2], rect[3])
        if cut:
            renderer.note((key, box.name, "overflow"), text_overflow(source, min_size, text, key))
        if s < renderer.min_text_size - 1e-6:
            setting = "min_size" if "min_size" in p and s <= min_size + 1e-6 else "size"
            renderer.note((key, box.name, "small"), small_text(
                renderer.layouts.location(where(setting)), "the text", s, renderer.min_text_size,
                f"give the box a {setting} of at least {renderer.min_text_size:g}, and the room it needs", key))
        color = renderer.color(p.get("color", "black"), ctx, where("color"), role="text")
        colors = span_colors(renderer, paragraphs, source, text, key, box.name) if "](color:" in text else None
        if color is None:
            return None  # color = "none": the text is fitted and checked, and paints nothing
        return fitter.draw_lines(c, lines, rect, s, leading, color, str(p.get("align", "left")),
                                 str(p.get("valign", "top")), cut, piece, colors)


def span_colors(renderer, paragraphs, source, text: str, key: str, box: str) -> dict:
    """The paint of every colour span of ``paragraphs``, by colour name; a name that is no colour
    of the game is a ``preflight.markup`` finding and its span prints in the box's colour."""
    out: dict = {}
    for words in paragraphs:
        for runs in words:
            for _, _, _, hue in runs:
                if hue is None or hue in out:
                    continue
                try:
                    out[hue] = renderer.color(hue, {}, "", role="text")
                except LayoutError as exc:
                    out[hue] = None
                    renderer.note((key, box, f"colour {hue}"), markup_problem(
                        source, text, [f"colour span: {exc.message}"], "", [], key, hint=exc.hint))
    return out
