"""``dividers``: card dividers for a game of several decks, made with ``pnp build --boxes``.

One divider per deck with cards, in manifest order: the card's trim size (the sleeve's with
``--sleeve-size``) with a tab above it showing the deck's name, the tabs staggered across the
width (:mod:`pnp.geometry.dividers`) so that every name shows when the dividers stand between
the decks in a box. The sheets (``--paper``, inside ``--margin``) carry each divider's cut line
(thin grey, as token sheets' cut lines, on the outline itself); a sheet holds dividers of one
size. Files: ``<game>-dividers.pdf`` (a cover page, then the sheets, one-sided) and, per sheet,
``dividers/<game>-dividers-NN.svg`` with the outlines on the cut layer (mm, as the
print-and-cut files, :mod:`pnp.outputs.cut.files`).

A game with one deck gets no dividers. A divider larger than the printable area is a
``divider.fit`` error at its deck's ``card_size`` key, found alike by ``pnp check --boxes``.
"""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..core.findings import Finding
from ..core.units import MM, to_mm
from ..geometry.dividers import TAB_HEIGHT, Divider, divider, sheet_places, tab_positions
from ..render.canvas import CUT_GRAY, CUT_WIDTH, draw_cover, fit_text, new_canvas, text
from ..render.fonts import register
from .base import BuildResult, OutputJob
from .boxspec import deck_counts
from .cut.files import Outline, write_svg

TAB_TEXT = 9.0
"""Size of the deck's name on a tab, pt: smaller when it is wider than the tab; below 7 pt the
name is set on two lines (broken at the space nearest its middle), at most 7 pt."""


BODY_LEAST = 6.0
"""The smallest size (pt) of the deck's name on a divider's body: a longer name wraps
(:func:`pnp.render.canvas.fit_text`) rather than shrinking further."""


def _fit(font: str, value: str, size: float, room: float) -> float:
    """``size``, or the smaller size at which ``value`` is ``room`` pt wide (at least 5 pt)."""
    width = stringWidth(value, register(font), size)
    return size if width <= room else max(5.0, size * room / width)


def tab_lines(name: str, room: float) -> tuple[list[str], float]:
    """The line(s) and size (pt) a deck's ``name`` is set in on a tab with ``room`` pt across
    (:data:`TAB_TEXT`)."""
    size = _fit("sans-bold", name, TAB_TEXT, room)
    if size >= 7.0 or " " not in name:
        return [name], size
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    lines = [name[:cut], name[cut + 1:]]
    return lines, min(_fit("sans-bold", line, 7.0, room) for line in lines)


def _draw(c, d: Divider, name: str, count: int) -> None:
    x, y, w, h = d.body
    tx, ty, tw, th = d.tab
    c.saveState()
    c.setFillColorRGB(0.85, 0.88, 0.92)
    c.rect(tx, ty, tw, th, stroke=0, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.saveState()
    clip = c.beginPath()
    clip.rect(tx, ty, tw, th)
    c.clipPath(clip, stroke=0, fill=0)
    lines, size = tab_lines(name, tw - 2 * MM)
    lead = size * 1.15
    first = ty + th / 2 + (len(lines) - 1) * lead / 2 - size / 3
    for i, line in enumerate(lines):
        text(c, "sans-bold", size, tx + tw / 2, first - i * lead, line, align="centre")
    c.restoreState()
    fitted = fit_text([(name, "sans-bold", 14.0)], w - 6 * MM, h * 0.5, least=BODY_LEAST)
    _, big, lines = fitted.entries[0]
    base = y + h * 0.62  # the first line's baseline; further lines below it
    for i, line in enumerate(lines):
        text(c, "sans-bold", big, x + w / 2, base - i * big * 1.2, line, align="centre")
    text(c, "sans", 9, x + w / 2, base - (len(lines) - 1) * big * 1.2 - big - 4, f"{count} cards", align="centre")
    c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
    c.setLineWidth(CUT_WIDTH)
    points = d.outline
    for i, (px, py) in enumerate(points):
        qx, qy = points[(i + 1) % len(points)]
        c.line(px, py, qx, qy)
    c.restoreState()


def render_dividers(job: OutputJob, dry: bool) -> BuildResult:
    """The dividers PDF and each sheet's SVG, in memory (``result.outputs``); nothing for a game
    of fewer than two decks with cards."""
    game, settings = job.game, job.settings
    opts = settings.sheet
    paper = opts.paper_size()
    counts = deck_counts(game)
    decks = [comp for comp in game if comp.kind == "deck" and counts.get(comp.id)]
    result = BuildResult()
    if len(decks) < 2:
        return result
    area_w, area_h = paper.width - 2 * opts.margin, paper.height - 2 * opts.margin
    sheets: list[list[tuple[Divider, str, int]]] = []
    findings: list[Finding] = []
    current: tuple | None = None
    free: list = []
    for index, comp in enumerate(decks):
        w, h = settings.sleeve_size or (comp.card_size.width, comp.card_size.height)
        if (w, h) != current or not free:  # a sheet holds dividers of one size
            try:
                free = sheet_places(w, h, area_w, area_h)
            except ValueError as exc:
                findings.append(Finding.at(
                    "error", "divider.fit", game.key_location(f"components.{comp.id}.card_size"),
                    f"the divider of {comp.name} ({exc} with its tab) does not fit {opts.paper} paper inside "
                    f"the {to_mm(opts.margin):g} mm margin", hint="larger paper (--paper a3), or a smaller --margin",
                    component=comp.id))
                current, free = None, []
                continue
            current = (w, h)
            sheets.append([])
        x, y = free.pop(0)
        places = tab_positions(len(decks), w)
        sheets[-1].append((divider(opts.margin + x, opts.margin + y, w, h, index, places), comp.name, counts[comp.id]))
    result.findings = findings
    result.cards = sum(len(s) for s in sheets)
    if not sheets:
        return result
    buf = io.BytesIO()
    c = new_canvas(buf, paper, f"{game.title} - card dividers", f"Card dividers for the decks of {game.title}",
                   "Simplex")
    lines = ["Print at 100 % / Actual size, one-sided, on card stock. Turn off 'fit to page' and 'scale'.",
             "Cut on the grey outlines. Each divider is a card's size"
             + (" (the sleeves' size)" if settings.sleeve_size else "")
             + f", its tab {to_mm(TAB_HEIGHT):g} mm above the cards;",
             "the tabs take turns across the width, so each deck's name shows in the box."]
    draw_cover(c, paper, opts.margin, f"{game.title}: card dividers", lines,
               [f"{name}: {count} cards" for sheet in sheets for _, name, count in sheet])
    c.showPage()
    for number, sheet in enumerate(sheets, start=1):
        for d, name, count in sheet:
            _draw(c, d, name, count)
        c.showPage()
        outlines = [Outline(name, "polygon", 0.0, 0.0, points=d.outline) for d, name, _ in sheet]
        result.outputs.append((job.out_dir / "dividers" / f"{game.file_stem}-dividers-{number:02d}.svg",
                               write_svg(outlines, paper, f"{game.title}: card dividers, sheet {number}")))
    c.save()
    result.outputs.insert(0, (job.out_dir / f"{game.file_stem}-dividers.pdf", buf.getvalue()))
    result.sheets = len(sheets)
    folder = job.out_dir / "dividers"
    made = {path for path, _ in result.outputs}
    if folder.is_dir():  # the sheets an earlier, longer run made
        result.remove = sorted(p for p in folder.glob(f"{game.file_stem}-dividers-*.svg") if p not in made)
    return result
