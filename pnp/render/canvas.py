"""Canvases and the marks every sheet shares: how each PDF `pnp` writes is set up (metadata,
viewer preferences, a date and document ID that are the same for the same input), one line of
text, text fitted into a box (made smaller and wrapped), stroked segments (crop marks, cut
ticks), the scale check and a cover page."""

from __future__ import annotations

from dataclasses import dataclass

from .. import __version__
from ..core.units import MM, Size
from ..geometry.impose import MARK_WIDTH
from .art import PRINT_DPI
from .color import PrintCanvas
from .embed import ArtCanvas
from .fonts import register

CUT_GRAY = 0.5
"""Grey level of cut guides (a thin line on a token's or die net's trim outline)."""
CUT_WIDTH = 0.3
"""Cut guide stroke width in pt (0.106 mm)."""
FOLD_GRAY = 0.45
"""Grey level of fold lines (dashed) on standees and die nets."""


def viewer_preferences(duplex: str) -> dict[str, str]:
    """The ``/ViewerPreferences`` of a PDF printed at home: ``PrintScaling`` None (the print
    dialog offers 100 %, never "fit to page", which would shrink an A4 page on Letter to 94 %)
    and ``Duplex``, the flip its double-sided pages need (``Simplex``, ``DuplexFlipLongEdge``
    or ``DuplexFlipShortEdge``; docs/print-specs.md §6 setViewerPreference, §8 check 16)."""
    return {"PrintScaling": "None", "Duplex": duplex}


def set_viewer_preferences(c, duplex: str) -> None:
    """Give the reportlab canvas ``c`` the :func:`viewer_preferences` of ``duplex``."""
    for key, value in viewer_preferences(duplex).items():
        c.setViewerPreference(key, value)


def pdf_date() -> str:
    """The creation and modification date of every PDF pnp writes, in PDF date syntax: the
    date reportlab's invariant mode writes, 2000-01-01 00:00 UTC (``D:20000101000000+00'00'``),
    or the time ``SOURCE_DATE_EPOCH`` gives (seconds since 1970, the reproducible-builds
    convention), read by reportlab's own TimeStamp so that files reportlab writes and files
    assembled otherwise (the imposed booklet) carry the same date (docs/print-specs.md §6
    Determinism). Never the clock: same input, same bytes."""
    from reportlab.lib.utils import TimeStamp

    stamp = TimeStamp(invariant=1)
    return "D:%04d%02d%02d%02d%02d%02d%+03d'%02d'" % (*stamp.YMDhms, stamp.dhh, stamp.dmm)


class PdfBytes:
    """A write-only file a canvas saves into that keeps what is written as it is: reportlab
    writes a whole PDF with one ``write``, which an ``io.BytesIO`` copies, and its
    ``getvalue()`` copies again (a 1,280-card sheets file is 1 MB, 12,800 cards 10 MB, held
    three times over for a moment). :meth:`value` is the file's bytes.

    A ``discard`` sink is the file of a dry run (``pnp check``), wanted only for what drawing
    it finds: a canvas saving into it writes nothing (:meth:`pnp.render.embed.ArtCanvas.save`
    neither embeds the art nor subsets the fonts), and its value is empty."""

    def __init__(self, discard: bool = False):
        self._parts: list[bytes] = []
        self.discards = discard

    def write(self, data) -> int:
        self._parts.append(bytes(data))  # the same object when it is bytes already
        return len(data)

    def value(self) -> bytes:
        """Everything written, in order (the one bytes object written, when it was one)."""
        return self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)


def new_canvas(target, page: Size, title: str = "", subject: str = "", duplex: str | None = "Simplex", *,
               converter=None, scratch: bool = False, image_dpi: int | None = PRINT_DPI):
    """A reportlab canvas of ``page`` size (pt) writing to ``target`` (a path or binary file),
    set up as every pnp PDF is: invariant (same input, same bytes: the :func:`pdf_date` and a
    document ID reportlab derives from it and the metadata), compressed, an embedded font from
    the first page on, and title, subject and creator metadata. It is an
    :class:`~pnp.render.embed.ArtCanvas`: raster art is embedded once, downsampled to
    ``image_dpi`` (px/in at its placed size; None keeps every picture as it is).

    ``duplex``: the Duplex viewer preference of a home-printed file (with PrintScaling None:
    :func:`viewer_preferences`, docs/print-specs.md §8 checks 8 and 16); None for a print-shop file,
    which has none.
    ``converter``: an :class:`pnp.render.color.InkConverter` makes a CMYK canvas
    (:class:`pnp.render.color.PrintCanvas`); a converter with a ``make_canvas`` makes its own
    (the greyscale edition's, :mod:`pnp.render.ink`). ``scratch``: a page that is only rendered to
    pixels (no metadata, no compression).
    """
    size = (page.width, page.height)
    if scratch:
        return ArtCanvas(target, pagesize=size, invariant=1, initialFontName=register("sans"), image_dpi=image_dpi)
    kwargs = dict(pagesize=size, invariant=1, pageCompression=1, initialFontName=register("sans"),
                  initialFontSize=9, image_dpi=image_dpi)
    if converter is not None and hasattr(converter, "make_canvas"):
        c = converter.make_canvas(target, **kwargs)  # an edition's own (pnp.render.ink)
    elif converter is not None:
        c = PrintCanvas(target, converter, **kwargs)
    else:
        c = ArtCanvas(target, **kwargs)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator(f"pnp {__version__}")
    c.setAuthor("")
    if duplex is not None:
        set_viewer_preferences(c, duplex)
    return c


def text(c, font: str, size: float, x: float, y: float, value: str, align: str = "left",
         angle: float = 0.0) -> None:
    """Draw one line of text with a registered font; ``align`` left, centre or right of x,
    turned ``angle`` degrees anticlockwise about (x, y)."""
    c.saveState()
    c.setFont(register(font), size)
    if angle:
        c.translate(x, y)
        c.rotate(angle)
        x, y = 0.0, 0.0
    if align == "centre":
        c.drawCentredString(x, y, value)
    elif align == "right":
        c.drawRightString(x, y, value)
    else:
        c.drawString(x, y, value)
    c.restoreState()


def wrap_words(value: str, font: str, size: float, width: float) -> list[str]:
    """``value`` broken at spaces into lines no wider than ``width`` pt in ``font`` at ``size``
    pt, as many words to a line as fit; a word wider than ``width`` stands alone on its line
    (and is wider than it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    name = register(font)
    lines: list[str] = []
    for word in value.split():
        if lines and stringWidth(lines[-1] + " " + word, name, size) <= width + 1e-6:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


@dataclass(frozen=True)
class FittedText:
    """Lines of text fitted into a box: per entry, its font, size (pt) and lines; each line's
    ``ascent`` and ``descent`` (pt above and below its baseline, the font's own) and ``gap``
    between lines; ``height`` of the whole block, pt; ``fits``: whether it is inside the box."""

    entries: tuple[tuple[str, float, tuple[str, ...]], ...]
    height: float
    fits: bool

    def baselines(self, top: float) -> list[tuple[str, float, str, float]]:
        """(font, size, line, baseline y) of every line, the block's top edge at ``top`` (y up)."""
        from reportlab.pdfbase.pdfmetrics import getAscentDescent

        out = []
        y = top
        for font, size, lines in self.entries:
            ascent, descent = getAscentDescent(register(font), size)
            for line in lines:
                out.append((font, size, line, y - ascent))
                y -= ascent - descent + size * LINE_GAP
        return out


LINE_GAP = 0.15
"""Space between two lines of a fitted block, as a share of the upper line's size."""


def fit_text(entries: list[tuple[str, str, float]], width: float, height: float, least: float = 6.0) -> FittedText:
    """``entries`` (text, font, size pt) set in a box ``width`` x ``height`` pt, one under the
    other, made smaller together and wrapped at spaces until they fit: on one line each, from
    their sizes down to six tenths of them; then on at most two lines each, three, ... (as many
    as the longest has words), each from their sizes down to six tenths; then on as few lines
    as fit, down to ``least`` pt (never smaller). The first of these that fits is taken; when
    none does, the smallest, on one line per word at most, with ``fits`` False."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

    def measure(scale: float, most: int) -> FittedText:
        placed = []
        total = 0.0
        good = True
        for value, font, size in entries:
            at = max(least, min(size, size * scale))
            lines = [value] if most == 1 else wrap_words(value, font, at, width)
            good = good and len(lines) <= most and all(stringWidth(line, register(font), at) <= width + 1e-6
                                                       for line in lines)
            ascent, descent = getAscentDescent(register(font), at)
            total += len(lines) * (ascent - descent + at * LINE_GAP)
            placed.append((font, at, tuple(lines)))
        total -= placed[-1][1] * LINE_GAP if placed else 0.0  # no gap below the last line
        return FittedText(tuple(placed), total, good and total <= height + 1e-6)

    if not entries:
        return FittedText((), 0.0, True)
    steps = [1.0 - 0.025 * k for k in range(41)]  # 1.0 down to 0.0 in steps of 2.5 %
    smallest = least / max(size for _, _, size in entries)
    words = max(len(value.split()) for value, _, _ in entries)
    for most in range(1, max(1, words) + 1):
        for scale in steps:
            if scale < 0.6 - 1e-9:
                break
            found = measure(scale, most)
            if found.fits:
                return found
    for scale in steps:
        if scale < 0.6 - 1e-9:
            for most in range(1, max(1, words) + 1):
                found = measure(scale, most)
                if found.fits:
                    return found
        if scale <= smallest:
            break
    return measure(smallest, max(1, words))


def stroke_segments(c, segments, width: float = MARK_WIDTH, gray: float = 0.0, dash: tuple | None = None) -> None:
    """Stroke each (x1, y1, x2, y2) segment in grey level ``gray`` (0 black), ``width`` pt
    (crop marks by default), dashed when ``dash`` gives (on, off)."""
    c.saveState()
    c.setStrokeColorRGB(gray, gray, gray)
    c.setLineWidth(width)
    if dash:
        c.setDash(*dash)
    for x1, y1, x2, y2 in segments:
        c.line(x1, y1, x2, y2)
    c.restoreState()


def draw_cut_lines(c, rects) -> None:
    """Stroke the outline of each trim rectangle (x, y, w, h) as a cut line: CUT_WIDTH pt in
    CUT_GRAY, on the trim itself, so the art's bleed runs under and past it and a cut a little
    to either side of the line shows art, not white paper (``--cut-lines``)."""
    c.saveState()
    c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
    c.setLineWidth(CUT_WIDTH)
    for x, y, w, h in rects:
        c.rect(x, y, w, h, stroke=1, fill=0)
    c.restoreState()


def draw_scale_check(c, x: float, y: float) -> None:
    """The scale check at (x, y): a 50 mm bar and a 1 in square with their labels
    (docs/print-specs.md §8 check 17). Drawn as filled rectangles of exact size."""
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.rect(x, y, 50 * MM, 3 * MM, stroke=0, fill=1)
    text(c, "sans", 8, x, y + 4.5 * MM, "50 mm")
    c.rect(x + 60 * MM, y, 72, 72, stroke=0, fill=1)
    text(c, "sans", 8, x + 60 * MM, y + 72 + 1.5 * MM, "1 in (25.4 mm)")
    c.restoreState()


COVER_INDENT = 4 * MM
"""How far a cover's contents entry continues to the right of its first line when it wraps, pt."""


def _cover_rows(value: str, font: str, size: float, width: float) -> list[str]:
    """``value`` as the lines of a cover (:func:`wrap_words`), a word wider than ``width``
    (a long file name) broken where it reaches the edge."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    name = register(font)
    if stringWidth(value, name, size) <= width + 1e-6:
        return [value]  # as given, spaces and all
    rows: list[str] = []
    for row in wrap_words(value, font, size, width):
        while len(row) > 1 and stringWidth(row, name, size) > width + 1e-6:
            cut = len(row) - 1
            while cut > 1 and stringWidth(row[:cut], name, size) > width + 1e-6:
                cut -= 1
            rows.append(row[:cut])
            row = row[cut:]
        rows.append(row)
    return rows


def draw_cover(c, paper: Size, margin: float, title: str, lines: list[str], contents: list[str]) -> None:
    """A cover page: the title, how to print, the scale check (docs/print-specs.md §8 check 17) and
    a list of what the file holds. A title, line or contents entry wider than the page inside
    ``margin`` (pt) wraps onto the next line (an entry's further lines indented
    :data:`COVER_INDENT`); entries that reach the bottom margin are counted in a last line
    ``... and N more``."""
    h = paper.height
    m = margin + 5 * MM
    width = paper.width - 2 * m
    c.setFillColorRGB(0, 0, 0)
    heads = _cover_rows(title, "sans-bold", 18, width)
    for i, row in enumerate(heads):
        text(c, "sans-bold", 18, m, h - m - 14 - i * 22, row)
    y = h - m - 40 - (len(heads) - 1) * 22
    rows = [row for line in lines for row in _cover_rows(line, "sans", 9.5, width)]
    for i, row in enumerate(rows):
        text(c, "sans", 9.5, m, y - i * 13, row)
    y -= len(rows) * 13 + 40 * MM
    draw_scale_check(c, m, y)
    y -= 12 * MM
    text(c, "sans-bold", 11, m, y, "Contents")
    row = 0
    for i, line in enumerate(contents):
        parts = _cover_rows(line, "sans", 9, width)
        if len(parts) > 1:  # wrapped: its further lines indented, so each entry stands out
            parts = _cover_rows(line, "sans", 9, width - COVER_INDENT)
        yy = y - 15 - row * 12
        if yy - (len(parts) - 1) * 12 < margin + 5 * MM:
            text(c, "sans", 9, m, yy, f"... and {len(contents) - i} more")
            break
        for k, part in enumerate(parts):
            text(c, "sans", 9, m + (COVER_INDENT if k else 0), yy - k * 12, part)
        row += len(parts)
