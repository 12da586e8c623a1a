"""``boxes``: a printable tuck box for each deck, or for each group of decks game.toml's
``[boxes.ID]`` tables name (:mod:`.boxspec`), with ``pnp build --boxes``.

Each box is sized from its decks (:func:`pnp.geometry.tuckbox.inner_size`: the largest of their
card sizes, their number of cards together x ``--card-thickness`` plus ``--sleeve-thickness``
each, and ``--box-tolerance``) and drawn as a net (:func:`pnp.geometry.tuckbox.tuck_nets`) centred on a
sheet, turned to landscape when that is how it fits, or split across two sheets when it fits
neither way. Faces show the box's name (front, back, sides) and its count (front), or the
layout (drawn by the cards' renderer, :class:`pnp.render.renderer.Renderer`) or picture its
``[boxes.ID]`` table gives a face; the cut line is solid, fold lines dashed. Files: ``<game>-boxes.pdf`` (a cover page, then the sheets)
and, per sheet, ``boxes/<game>-box-<deck>-N.svg``, the cut line on layer ``cut`` and the folds
on layer ``fold`` (mm, as the print-and-cut files, :mod:`pnp.outputs.cut.files`).

A box that does not fit a sheet even split is a ``box.fit`` error at its (first) deck's
``card_size`` key, found alike by ``pnp check --boxes``, as are the ``box.group`` and
``box.face`` errors of :mod:`.boxspec` and what drawing a face's layout or picture finds.
``--boxes`` also makes card dividers (:mod:`.dividers`).
"""

from __future__ import annotations

import io
import tomllib
from types import SimpleNamespace

from ..core.errors import LayoutError
from ..core.findings import Finding, merge
from ..core.units import MM, Size, to_mm
from ..design.layouts import LayoutSet, game_layouts
from ..geometry.tuckbox import Net, inner_size, tuck_nets
from ..model.context import piece_context
from ..model.facts import game_facts
from ..model.game import Game
from ..model.games import BOARDS_FILE
from ..model.pieces import Piece
from ..render.canvas import FOLD_GRAY, draw_cover, fit_text, new_canvas, stroke_segments, text
from ..render.elements.image import draw_image
from ..render.renderer import Renderer
from .base import BuildResult, OutputJob, Stage, draft_option
from .boxspec import BoxSpec, Face, box_specs, deck_counts
from .cut.files import Outline, write_svg
from .dividers import render_dividers

BOX_LINE = 0.5
"""Stroke width of a box's cut line, pt."""


def box_size(spec: BoxSpec, counts: dict[str, int], thickness: float, sleeve: float, tolerance: float,
             sleeve_size: tuple[float, float] | None = None) -> tuple[int, tuple[float, float, float]]:
    """(card count, (width, height, depth) inner size in pt) of the box ``spec``: the largest
    card of its decks (or the sleeve, ``sleeve_size`` w, h pt), their stacks together."""
    count = sum(counts[d.id] for d in spec.decks)
    width = max(d.card_size.width for d in spec.decks)
    height = max(d.card_size.height for d in spec.decks)
    sw, sh = sleeve_size or (0.0, 0.0)
    return count, inner_size(width, height, count, thickness, sleeve_thickness=sleeve, sleeve_w=sw, sleeve_h=sh,
                             tolerance=tolerance)


def place(net: Net, paper: Size, margin: float) -> tuple[Net, Size]:
    """``net`` centred on ``paper`` as it fits inside ``margin``: portrait, else landscape."""
    w, h = net.size
    sheet = paper if w <= paper.width - 2 * margin + 1e-6 and h <= paper.height - 2 * margin + 1e-6 \
        else paper.landscape
    return net.moved((sheet.width - w) / 2, (sheet.height - h) / 2), sheet


LABEL_LEAST = 6.0
"""The smallest size (pt) a panel's name and count are set in; text that does not fit its panel
even at this size, wrapped, is a ``box.text-fit`` warning."""
LABEL_PAD = 2 * MM
"""Room kept clear between a panel's text and its folds, pt (a side's two long edges: half)."""


def _label(c, rect, entries: list[tuple[str, str, float]], turn: bool = False) -> bool:
    """The ``entries`` (text, font, size pt) of a plain panel ``rect`` (x, y, w, h pt), centred
    in it one under the other, made smaller and wrapped to fit inside it
    (:func:`pnp.render.canvas.fit_text`, at least :data:`LABEL_LEAST`); ``turn`` sets them a
    quarter turned counter-clockwise, reading up the panel (the sides). Text that still does not
    fit is cut off at the panel's edges. Returns whether it fits."""
    x, y, w, h = rect
    across, up = (h, w) if turn else (w, h)
    pad_across, pad_up = (LABEL_PAD, min(LABEL_PAD / 2, up / 8)) if turn else (LABEL_PAD, LABEL_PAD)
    fitted = fit_text(entries, across - 2 * pad_across, up - 2 * pad_up, least=LABEL_LEAST)
    c.saveState()
    if not fitted.fits:
        clip = c.beginPath()
        clip.rect(x, y, w, h)
        c.clipPath(clip, stroke=0, fill=0)
    c.translate(x + w / 2, y + h / 2)
    if turn:
        c.rotate(90)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    for font, size, line, baseline in fitted.baselines(fitted.height / 2):
        text(c, font, size, 0, baseline, line, align="centre")
    c.restoreState()
    return fitted.fits


def _draw_face(c, renderer: Renderer, game: Game, face: Face, ctx: dict, spec: BoxSpec, side: str, rect,
               turn: bool = False) -> None:
    """The layout or picture of ``face`` in the panel ``rect`` (x, y, w, h pt); ``turn`` draws it
    a quarter turned counter-clockwise, its width along the panel's height (the sides)."""
    x, y, w, h = rect
    c.saveState()
    if turn:
        c.translate(x + w, y)
        c.rotate(90)
        rect = (0.0, 0.0, h, w)
    piece = Piece(face.layout or "", ctx, spec.id, side=f"box {side}")
    if face.layout:
        renderer.draw(c, piece, rect, (0.0, 0.0, 0.0, 0.0))
    else:
        draw_image(renderer, c, face.image, rect, "cover", piece, game.key_location(face.key))
    c.restoreState()


def _draw_net(c, net: Net, spec: BoxSpec, count: int, game: Game, renderer: Renderer, ctx: dict) -> list[str]:
    """The net of ``spec``'s box with its faces, labels and folds; returns the panels
    (``front``, ``back``, ``sides``) whose text does not fit them."""
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
    panels, faces, name = net.panels, spec.faces, spec.name
    if faces:  # the designs stop at the cut line (the thumb notch cuts into the front)
        c.saveState()
        clip = c.beginPath()
        clip.moveTo(*net.outline[0])
        for point in net.outline[1:]:
            clip.lineTo(*point)
        clip.close()
        c.clipPath(clip, stroke=0, fill=0)
        for side in ("front", "back"):
            if side in panels and side in faces:
                _draw_face(c, renderer, game, faces[side], ctx, spec, side, panels[side])
        for side in ("side", "side-2"):
            if side in panels and "sides" in faces:
                _draw_face(c, renderer, game, faces["sides"], ctx, spec, "sides", panels[side], turn=True)
        c.restoreState()
    crowded = []
    for side, label in (("front", [(name, "sans-bold", 16), (f"{count} cards", "sans", 10)]),
                        ("back", [(name, "sans-bold", 14), (game.title, "sans", 8)])):
        if side in panels and side not in faces and not _label(c, panels[side], label):
            crowded.append(side)
    for side in ("side", "side-2"):
        if side in panels and "sides" not in faces and panels[side][2] >= 4 * MM \
                and not _label(c, panels[side], [(name, "sans-bold", 9)], turn=True) and "sides" not in crowded:
            crowded.append("sides")
    stroke_segments(c, net.folds, width=0.5, gray=FOLD_GRAY, dash=(3, 2))
    return crowded


def text_fit_finding(game: Game, spec: BoxSpec, panel: str, size: tuple[float, float]) -> Finding:
    """The ``box.text-fit`` warning of a ``panel`` (``front``, ``back``, ``sides``; ``size`` its
    width and height, pt) of ``spec``'s box whose name (and count or title) does not fit it even
    at :data:`LABEL_LEAST` pt wrapped: at the name's key (the group's ``name``, or the deck's)."""
    if spec.key is None:
        key, hint = (f"components.{spec.decks[0].id}.name",
                     f'a shorter name, or give the box one of its own: [boxes.{spec.id}] with decks = '
                     f'["{spec.id}"] and name = "..." (printed on the box instead), or a face layout')
    else:
        table = game.manifest.get("boxes", {}).get(spec.id, {})
        key = f"{spec.key}.name" if "name" in table else spec.key
        hint = f'a shorter name = "..." under [{spec.key}], or a face layout for its {panel}'
    decks = ", ".join(d.id for d in spec.decks)
    what = "the name and the count do" if panel == "front" else "the name and the game's title do" \
        if panel == "back" else "the name does"
    return Finding.at("warning", "box.text-fit", game.key_location(key),
                      f"{what} not fit the {panel} panel ({to_mm(size[0]):.1f} x {to_mm(size[1]):.1f} mm) of "
                      f"the tuck box of {spec.name!r} (deck {decks}) even at {LABEL_LEAST:g} pt on several lines: "
                      f"the text is cut off at the panel's edges", hint=hint, component=spec.decks[0].id)


def _context(game: Game, spec: BoxSpec, counts: dict[str, int], size: tuple[float, float, float]) -> dict:
    """What a face's layout sees: the first deck's names (``piece``, ``game``, ``colors``) and
    ``box`` (id, name, cards, decks (each id, name, cards), width, height, depth in mm)."""
    ctx = piece_context(game, spec.decks[0], None)
    w, h, d = (round(to_mm(v), 2) for v in size)
    ctx["box"] = SimpleNamespace(id=spec.id, name=spec.name, cards=sum(counts[x.id] for x in spec.decks),
                                 decks=[SimpleNamespace(id=x.id, name=x.name, cards=counts[x.id]) for x in spec.decks],
                                 width=w, height=h, depth=d)
    return ctx


def _board_layout_names(job: OutputJob) -> tuple[str, frozenset[str]] | None:
    """(display name, layout names) of the game's boards.toml, for telling a box face that
    names a board's layout what it is; None when there is none or it cannot be read (the board
    sheets report that)."""
    if "boxes" not in job.game.manifest or not job.source.templates_dir:
        return None
    path = job.source.templates_dir / BOARDS_FILE
    if not path.is_file():
        return None
    try:
        found = tomllib.loads(path.read_text(encoding="utf-8")).get("layouts", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return f"{job.source.templates_display}/{BOARDS_FILE}", frozenset(found if isinstance(found, dict) else ())


def render_boxes(job: OutputJob, dry: bool) -> BuildResult:
    """The boxes PDF and each sheet's SVG, in memory (``result.outputs``)."""
    game, settings = job.game, job.settings
    opts = settings.sheet
    paper = opts.paper_size()
    area = (paper.width - 2 * opts.margin, paper.height - 2 * opts.margin)
    counts = deck_counts(game)
    try:
        layouts = game_layouts(game, job.source)
    except LayoutError:  # a broken layouts.toml is the card sheets' error, reported there
        layouts = None
    specs, findings = box_specs(game, counts, layouts, _board_layout_names(job))
    renderer = Renderer(layouts or LayoutSet(job.source.templates_dir, job.source.layouts_display, {}, {},
                                             dict(game.manifest.get("colors", {}))),
                        game.path, max_image_pixels=settings.max_image_pixels, game_display=game.display_root,
                        facts=game_facts(game), draft=settings.draft)
    result = BuildResult(cards=len(specs))
    if settings.sleeve_size:
        sw, sh = settings.sleeve_size
        for spec in specs:
            for comp in spec.decks:
                if sw + 1e-6 < comp.card_size.width or sh + 1e-6 < comp.card_size.height:
                    findings.append(Finding.at(
                        "error", "box.sleeve", game.key_location(f"components.{comp.id}.card_size"),
                        f"--sleeve-size {to_mm(sw):g}mm x {to_mm(sh):g}mm is smaller than {comp.name}'s "
                        f"{comp.card_size} cards", hint="give the sleeves' outer size, larger than the card",
                        component=comp.id))
    sheets: list[tuple[Net, Size, BoxSpec, int, str, dict]] = []
    contents = []
    for spec in specs:
        count, (w, h, d) = box_size(spec, counts, settings.card_thickness, settings.sleeve_thickness,
                                    settings.box_tolerance, settings.sleeve_size)
        comp = spec.decks[0]
        held = "" if spec.key is None else " (" + ", ".join(x.name for x in spec.decks) + ")"
        try:
            nets = tuck_nets(w, h, d, *area)
        except ValueError as exc:
            findings.append(Finding.at(
                "error", "box.fit", game.key_location(f"components.{comp.id}.card_size"),
                f"the tuck box of {spec.name}{held} ({count} cards, inside {to_mm(w):.1f} x {to_mm(h):.1f} x "
                f"{to_mm(d):.1f} mm) does not fit {opts.paper} paper even in two parts: a part is {exc}",
                hint="larger paper (--paper a3), or a smaller --margin", component=comp.id))
            continue
        contents.append(f"{spec.name}{held}: {count} cards, inside {to_mm(w):.1f} x {to_mm(h):.1f} x {to_mm(d):.1f} mm"
                        + (f", in {len(nets)} parts" if len(nets) > 1 else ""))
        ctx = _context(game, spec, counts, (w, h, d))
        for part, net in enumerate(nets, start=1):
            placed, sheet = place(net, paper, opts.margin)
            sheets.append((placed, sheet, spec, count, f"{spec.id}-{part}" if len(nets) > 1 else spec.id, ctx))
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
    for net, sheet, spec, count, stem, ctx in sheets:
        name = spec.name
        c.setPageSize((sheet.width, sheet.height))
        for panel in _draw_net(c, net, spec, count, game, renderer, ctx):
            rect = net.panels.get("side") or net.panels["side-2"] if panel == "sides" else net.panels[panel]
            findings.append(text_fit_finding(game, spec, panel, (rect[3], rect[2]) if panel == "sides" else rect[2:]))
        c.showPage()
        outline = Outline(name, "polygon", 0.0, 0.0, points=net.outline, folds=net.folds)
        result.outputs.append((job.out_dir / "boxes" / f"{game.file_stem}-box-{stem}.svg",
                               write_svg([outline], sheet, f"{game.title}: tuck box of {name}")))
    c.save()
    result.outputs.insert(0, (job.out_dir / f"{game.file_stem}-boxes.pdf", buf.getvalue()))
    result.sheets = len(sheets)
    result.findings = merge(findings + renderer.findings)
    return result


class BoxesOutput:
    """``boxes``: a tuck box per deck or group, and card dividers, made only with ``--boxes``."""

    name = "boxes"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        if not settings.boxes:
            return []
        return [Stage("boxes", job.data_files() + job.card_template_files() + job.font_files(),
                      lambda dry: render_boxes(job, dry),
                      (settings.sheet.paper, settings.sheet.margin, settings.card_thickness,
                       settings.sleeve_thickness, settings.sleeve_size, settings.box_tolerance,
                       settings.max_image_pixels) + draft_option(settings.draft)),
                Stage("dividers", job.data_files() + job.font_files(), lambda dry: render_dividers(job, dry),
                      (settings.sheet.paper, settings.sheet.margin, settings.sleeve_size))]
