"""``boxes``: a printable tuck box for each deck (``pnp build --boxes``).

Each deck's box is sized from the deck (:func:`pnp.geometry.tuckbox.inner_size`: its card
size, its number of cards x ``--card-thickness`` plus ``--sleeve-thickness`` each, and
``--box-tolerance``) and drawn as a net (:func:`pnp.geometry.tuckbox.tuck_nets`) centred on a
sheet, turned to landscape when that is how it fits, or split across two sheets when it fits
neither way. Faces show the deck's name (front, back, sides) and its count (front); the cut
line is solid, fold lines dashed. Files: ``<game>-boxes.pdf`` (a cover page, then the sheets)
and, per sheet, ``boxes/<game>-box-<deck>-N.svg``, the cut line on layer ``cut`` and the folds
on layer ``fold`` (mm, as the print-and-cut files, :mod:`pnp.outputs.cut.files`).

A box that does not fit a sheet even split is a ``box.fit`` error at the deck's ``card_size``
key, found alike by ``pnp check --boxes``.
"""

from __future__ import annotations

import io

from ..core.findings import Finding
from ..core.units import MM, Size, to_mm
from ..geometry.tuckbox import Net, inner_size, tuck_nets
from ..model.game import Game
from ..model.pieces import card_instances
from ..render.canvas import FOLD_GRAY, draw_cover, new_canvas, stroke_segments, text
from .base import BuildResult, OutputJob, Stage
from .cut.files import Outline, write_svg

BOX_LINE = 0.5
"""Stroke width of a box's cut line, pt."""


def deck_boxes(game: Game, thickness: float, sleeve: float, tolerance: float,
               sleeve_size: tuple[float, float] | None = None) -> list[tuple]:
    """(deck component, card count, (width, height, depth) inner size in pt) of every deck;
    sleeved decks (``sleeve_size`` w, h pt) are sized for the sleeve instead of the card."""
    counts: dict[str, int] = {}
    for card in card_instances(game):
        counts[card.deck] = counts.get(card.deck, 0) + 1
    out = []
    for comp in game:
        if comp.kind == "deck" and counts.get(comp.id):
            size = comp.card_size
            sw, sh = sleeve_size or (0.0, 0.0)
            out.append((comp, counts[comp.id], inner_size(size.width, size.height, counts[comp.id], thickness,
                                                          sleeve_thickness=sleeve, sleeve_w=sw, sleeve_h=sh,
                                                          tolerance=tolerance)))
    return out


def place(net: Net, paper: Size, margin: float) -> tuple[Net, Size]:
    """``net`` centred on ``paper`` as it fits inside ``margin``: portrait, else landscape."""
    w, h = net.size
    sheet = paper if w <= paper.width - 2 * margin + 1e-6 and h <= paper.height - 2 * margin + 1e-6 \
        else paper.landscape
    return net.moved((sheet.width - w) / 2, (sheet.height - h) / 2), sheet


def _label(c, rect, lines: list[tuple[str, float]], turn: bool = False) -> None:
    x, y, w, h = rect
    c.saveState()
    c.translate(x + w / 2, y + h / 2)
    if turn:
        c.rotate(90)
    across = h if turn else w
    for i, (line, size) in enumerate(lines):
        size = min(size, max(4.0, across * 0.8 / max(1, len(line)) * 1.8))
        c.setFillColorRGB(0.1, 0.1, 0.1)
        text(c, "sans-bold" if i == 0 else "sans", size, 0, -size / 3 - i * size * 1.4, line, align="centre")
    c.restoreState()


def _draw_net(c, net: Net, name: str, count: int, game: Game) -> None:
    path = c.beginPath()
    path.moveTo(*net.outline[0])
    for point in net.outline[1:]:
        path.lineTo(*point)
    path.close()
    c.saveState()
    c.setFillColorRGB(0.96, 0.95, 0.92)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(BOX_LINE)
    c.drawPath(path, stroke=1, fill=1)
    c.restoreState()
    stroke_segments(c, net.folds, width=0.5, gray=FOLD_GRAY, dash=(3, 2))
    panels = net.panels
    if "front" in panels:
        _label(c, panels["front"], [(name, 16), (f"{count} cards", 10)])
    if "back" in panels:
        _label(c, panels["back"], [(name, 14), (game.title, 8)])
    for side in ("side", "side-2"):
        if side in panels and panels[side][2] >= 4 * MM:
            _label(c, panels[side], [(name, 9)], turn=True)


def render_boxes(job: OutputJob, dry: bool) -> BuildResult:
    """The boxes PDF and each sheet's SVG, in memory (``result.outputs``)."""
    game, settings = job.game, job.settings
    opts = settings.sheet
    paper = opts.paper_size()
    area = (paper.width - 2 * opts.margin, paper.height - 2 * opts.margin)
    boxes = deck_boxes(game, settings.card_thickness, settings.sleeve_thickness, settings.box_tolerance,
                       settings.sleeve_size)
    result = BuildResult(cards=len(boxes))
    findings: list[Finding] = []
    if settings.sleeve_size:
        sw, sh = settings.sleeve_size
        for comp, _, _ in boxes:
            if sw + 1e-6 < comp.card_size.width or sh + 1e-6 < comp.card_size.height:
                findings.append(Finding.at(
                    "error", "box.sleeve", game.key_location(f"components.{comp.id}.card_size"),
                    f"--sleeve-size {to_mm(sw):g}mm x {to_mm(sh):g}mm is smaller than {comp.name}'s "
                    f"{comp.card_size} cards", hint="give the sleeves' outer size, larger than the card",
                    component=comp.id))
    sheets: list[tuple[Net, Size, str, int, str]] = []
    contents = []
    for comp, count, (w, h, d) in boxes:
        try:
            nets = tuck_nets(w, h, d, *area)
        except ValueError as exc:
            findings.append(Finding.at(
                "error", "box.fit", game.key_location(f"components.{comp.id}.card_size"),
                f"the tuck box of {comp.name} ({count} cards, inside {to_mm(w):.1f} x {to_mm(h):.1f} x "
                f"{to_mm(d):.1f} mm) does not fit {opts.paper} paper even in two parts: a part is {exc}",
                hint="larger paper (--paper a3), or a smaller --margin", component=comp.id))
            continue
        contents.append(f"{comp.name}: {count} cards, inside {to_mm(w):.1f} x {to_mm(h):.1f} x {to_mm(d):.1f} mm"
                        + (f", in {len(nets)} parts" if len(nets) > 1 else ""))
        for part, net in enumerate(nets, start=1):
            placed, sheet = place(net, paper, opts.margin)
            sheets.append((placed, sheet, comp.name, count, f"{comp.id}-{part}" if len(nets) > 1 else comp.id))
    result.findings = findings
    if not sheets:
        return result
    buf = io.BytesIO()
    c = new_canvas(buf, paper, f"{game.title} - tuck boxes", f"Tuck boxes for the decks of {game.title}", "Simplex")
    lines = ["Print at 100 % / Actual size, one-sided. Turn off 'fit to page' and 'scale'.",
             "Cut on the solid outline, score and fold on the dashed lines (folds inward), glue the tab",
             "under the far side and the bottom flap over the dust flaps; the lid tucks in.",
             f"Sized for cards {to_mm(settings.card_thickness):.2f} mm thick"
             + (f" in sleeves {to_mm(settings.sleeve_thickness):.2f} mm thick" if settings.sleeve_thickness else "")
             + (" of %.1f x %.1f mm" % tuple(to_mm(v) for v in settings.sleeve_size) if settings.sleeve_size else "")
             + f", with {to_mm(settings.box_tolerance):.1f} mm to spare each way."]
    draw_cover(c, paper, opts.margin, f"{game.title}: tuck boxes", lines, contents)
    c.showPage()
    for net, sheet, name, count, stem in sheets:
        c.setPageSize((sheet.width, sheet.height))
        _draw_net(c, net, name, count, game)
        c.showPage()
        outline = Outline(name, "polygon", 0.0, 0.0, points=net.outline, folds=net.folds)
        result.outputs.append((job.out_dir / "boxes" / f"{game.file_stem}-box-{stem}.svg",
                               write_svg([outline], sheet, f"{game.title}: tuck box of {name}")))
    c.save()
    result.outputs.insert(0, (job.out_dir / f"{game.file_stem}-boxes.pdf", buf.getvalue()))
    result.sheets = len(sheets)
    return result


class BoxesOutput:
    """``boxes``: a tuck box per deck, made only with ``--boxes``."""

    name = "boxes"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        if not settings.boxes:
            return []
        return [Stage("boxes", job.data_files() + job.font_files(), lambda dry: render_boxes(job, dry),
                      (settings.sheet.paper, settings.sheet.margin, settings.card_thickness,
                       settings.sleeve_thickness, settings.sleeve_size, settings.box_tolerance))]
