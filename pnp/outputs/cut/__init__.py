"""``cut``: print-and-cut sheets for a cutting machine (``pnp build --cut PROFILE``).

Every card face, every token and standee and every die net of the game is laid out inside the cutter's registration area
(:mod:`pnp.geometry.registration`, the figures from the profile, :mod:`.profile`; the cards
turned a quarter when that takes fewer sheets), each with
the profile's bleed all round and its neighbours twice that apart; the sheets print the
profile's registration marks, and each sheet gets a cut file pair (:mod:`.files`) whose paths
are the trims the pieces were drawn at (a die net's outline on the cut layer, its folds on the
fold layer, :mod:`pnp.geometry.nets`). Files, in ``output/<game>/cut/``:

- ``<game>-cut-<profile>.pdf``: a cover page, then one page per sheet (one-sided: a cutter
  cuts what it registered on, so card backs are not printed);
- ``<game>-cut-<profile>-NN.svg`` and ``.dxf``: the cut lines of sheet NN.

A piece larger than the registration area is a ``cut.fit`` error finding at the component's
size key, found alike by ``pnp check --cut`` (the same stage, dry) and ``pnp build --cut``;
such pieces are left off the sheets.
"""

from __future__ import annotations

import io
from pathlib import Path
from dataclasses import dataclass
from typing import Callable

from ...core.errors import PnpError
from ...core.findings import Finding, merge
from ...core.units import MM, to_mm
from ...design.layouts import board_layouts, game_layouts
from ...design.drawable import drawable_cards
from ...geometry.nets import fold_segments, outline as net_outline
from ...geometry.packing import hexagon_points
from ...geometry.registration import CutterSheet, Slot, fits, layout
from ...model.facts import game_facts
from ...model.game import Game
from ...model.pieces import die_nets, token_pieces
from ...render.canvas import draw_cover, new_canvas, stroke_segments
from ...render.renderer import Renderer
from ..base import BuildResult, OutputJob, Stage, dpi_option, draft_option
from ..dice import draw_net
from ..tokens import draw_token
from .files import Outline, write_dxf, write_svg
from .profile import CutterProfile, load_profile, profile_path

DEFAULT_CORNER_RADIUS = 0.125 * 72
"""Corner radius of a card's cut, 1/8 in (3.175 mm): squib's default for poker cards
(docs/print-specs.md §5); ``--corner-radius`` changes it."""


@dataclass
class CutPiece:
    """One piece to cut: its name, trim size (pt), and how to draw it and outline it once
    placed at a trim (x, y, w, h)."""

    name: str
    component: str
    size_key: str
    width: float
    height: float
    draw: Callable
    outline: Callable[[tuple], Outline]
    turnable: bool = False
    """Whether the piece may be laid out turned a quarter (cards: their art turns with them)."""


def _card_pieces(game: Game, layouts, renderer: Renderer, radius: float) -> tuple[list[CutPiece], list[Finding]]:
    cards, findings = drawable_cards(game, layouts)
    out = []
    for card in cards:
        name = f"{card.deck}/{card.face.row_id}"

        def draw(c, trim, bleed, card=card):
            x, y, w, h = trim
            if abs(w - card.size.width) <= 1e-6:
                renderer.place(c, card.face, trim, (bleed,) * 4, form_bleed=bleed)
                return
            c.saveState()  # turned a quarter counter-clockwise: the card's bottom edge on the slot's right
            c.translate(x + w, y)
            c.rotate(90)
            renderer.place(c, card.face, (0.0, 0.0, card.size.width, card.size.height), (bleed,) * 4,
                           form_bleed=bleed)
            c.restoreState()

        out.append(CutPiece(name, card.deck, "card_size", card.size.width, card.size.height, draw,
                            lambda t, name=name: Outline(name, "rect", *t, radius=radius), turnable=True))
    return out, findings


def _token_outline(name: str, tp, trim) -> Outline:
    x, y, w, h = trim
    cx, cy = x + w / 2, y + h / 2
    if tp.shape == "circle":
        return Outline(name, "circle", cx, cy, radius=w / 2)
    if tp.shape == "hexagon":
        return Outline(name, "polygon", cx, cy, points=tuple(hexagon_points(cx, cy, w)))
    if tp.shape == "standee":  # base | front | back | base, folds between them (outputs/tokens.py)
        folds = tuple((x, y + f, x + w, y + f) for f in (tp.base, tp.base + tp.height, tp.base + 2 * tp.height))
        return Outline(name, "rect", x, y, w, h, folds=folds)
    return Outline(name, "rect", x, y, w, h)


def _token_pieces(game: Game, renderer: Renderer) -> tuple[list[CutPiece], list[Finding]]:
    tokens, findings = token_pieces(game)
    out = []
    for tp in tokens:
        name = f"{tp.component}/{tp.face.row_id or tp.name}"
        h = 2 * tp.height + 2 * tp.base if tp.shape == "standee" else tp.height

        def draw(c, trim, bleed, tp=tp):
            x, y, w, hh = trim
            draw_token(c, renderer, tp, tp.face, x + w / 2, y + hh / 2, bleed, guide=False)

        out.append(CutPiece(name, tp.component, "size", tp.width, h, draw,
                            lambda t, name=name, tp=tp: _token_outline(name, tp, t)))
    return out, findings


def _die_pieces(game: Game, renderer: Renderer) -> list[CutPiece]:
    """A piece per copy of each die: its net's tab-inclusive box, printed as on the die sheets
    (faces with the bleed past their outer edges, grey glue tabs), cut on the net's outline and
    folded on its folds."""
    nets, _ = die_nets(game)
    out = []
    for net in nets:
        for copy in range(1, net.copies + 1):
            name = f"{net.component}/{copy}" if net.copies > 1 else net.component

            def draw(c, trim, bleed, net=net):
                x, y, w, h = trim
                draw_net(c, renderer, net, x, y + h, bleed)

            def cut(trim, name=name, net=net):
                x, y, w, h = trim
                return Outline(name, "polygon", x, y, points=tuple(net_outline(net, x, y + h)),
                               folds=tuple(fold_segments(net, x, y + h)))

            out.append(CutPiece(name, net.component, "size", net.width, net.height, draw, cut))
    return out


def fit_finding(game: Game, profile: CutterProfile, sheet: CutterSheet, paper: str, piece: CutPiece,
                count: int) -> Finding:
    """The ``cut.fit`` error of the ``count`` pieces of a component like ``piece`` (with its
    bleed) larger than the registration area, at the component's size key."""
    area_w, area_h = to_mm(sheet.area[2]), to_mm(sheet.area[3])
    what = f"{piece.component}: {count} pieces are" if count > 1 else f"{piece.name} is"
    return Finding.at("error", "cut.fit", game.key_location(f"components.{piece.component}.{piece.size_key}"),
                      f"{what} {to_mm(piece.width):.2f} x {to_mm(piece.height):.2f} mm, with "
                      f"{to_mm(profile.bleed):g} mm of bleed all round larger than the {profile.name} cutter's "
                      f"registration area on {paper} paper ({area_w:.2f} x {area_h:.2f} mm)",
                      hint="a smaller piece, larger paper, or cut it by hand from the ordinary sheets",
                      component=piece.component)


def render_cut(job: OutputJob, dry: bool) -> BuildResult:
    """The print-and-cut PDF and each sheet's SVG and DXF, in memory (``result.outputs``)."""
    game, settings = job.game, job.settings
    profile = load_profile(settings.cut)
    paper = settings.sheet.paper
    sheet = profile.sheet(paper)
    layouts = game_layouts(game, job.source)
    renderer = Renderer(layouts, game.path, max_image_pixels=settings.max_image_pixels,
                        game_display=game.display_root, facts=game_facts(game), draft=settings.draft)
    pieces, findings = _card_pieces(game, layouts, renderer, settings.corner_radius)
    tlayouts = board_layouts(game, job.source)
    if tlayouts is not None:
        token_renderer = Renderer(tlayouts, game.path, max_image_pixels=settings.max_image_pixels,
                                  game_display=game.display_root, facts=game_facts(game), draft=settings.draft)
        more, token_findings = _token_pieces(game, token_renderer)
        pieces += more
        findings += token_findings
    else:
        token_renderer = None
    pieces += _die_pieces(game, token_renderer or renderer)
    bleed = profile.bleed
    keep: list[CutPiece] = []
    over: dict[tuple, list[CutPiece]] = {}
    for piece in pieces:
        if fits(sheet, piece.width, piece.height, bleed):
            keep.append(piece)
        else:
            over.setdefault((piece.component, piece.width, piece.height), []).append(piece)
    findings += [fit_finding(game, profile, sheet, paper, group[0], len(group)) for group in over.values()]
    try:
        upright = layout(sheet, [(p.width, p.height) for p in keep], bleed)
        turned = layout(sheet, [(p.height, p.width) if p.turnable else (p.width, p.height) for p in keep], bleed)
        slots = turned if _sheets(turned) < _sheets(upright) else upright
    except ValueError as exc:  # every row blocked by keep-outs: the profile's area is too small
        raise PnpError(f"no {exc} piece fits between the {profile.name} cutter's keep-outs on {paper} paper",
                       rule="cut.fit", hint="a smaller piece, or larger paper") from None
    result = BuildResult(cards=len(keep))
    base = job.out_dir / "cut" / f"{game.file_stem}-cut-{profile.name}"
    buf = io.BytesIO()
    result.sheets = _pdf(buf, game, profile, sheet, keep, slots, bleed)
    result.outputs.append((base.with_name(base.name + ".pdf"), buf.getvalue()))
    for number in range(result.sheets):
        outlines = [p.outline(s.trim) for p, s in zip(keep, slots) if s.sheet == number]
        stem = f"{base.name}-{number + 1:02d}"
        title = f"{game.title}: cut lines of sheet {number + 1} ({profile.title}, {paper})"
        result.outputs.append((base.with_name(stem + ".svg"), write_svg(outlines, sheet.paper, title)))
        result.outputs.append((base.with_name(stem + ".dxf"), write_dxf(outlines)))
    made = {path for path, _ in result.outputs}
    folder = base.parent
    if folder.is_dir():  # the cut files of sheets an earlier, longer run made
        result.remove = sorted(p for p in folder.glob(f"{base.name}-*.*") if p not in made)
    found = findings + renderer.findings + (token_renderer.findings if token_renderer else [])
    result.findings = merge(found)
    return result


def _sheets(slots: list[Slot]) -> int:
    return max((s.sheet for s in slots), default=-1) + 1


def draw_marks(c, sheet: CutterSheet) -> None:
    """The registration marks of ``sheet``, in black: filled squares, and corner marks stroked
    their width (the L's strokes meet at the mark's point, their ends squared off)."""
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for mark in sheet.marks:
        if mark.kind == "square":
            c.rect(mark.x, mark.y - mark.size, mark.size, mark.size, stroke=0, fill=1)
    c.restoreState()
    for mark in sheet.marks:
        if mark.kind == "corner":
            stroke_segments(c, mark.segments(), width=mark.width)


def _pdf(target, game: Game, profile: CutterProfile, sheet: CutterSheet, pieces: list[CutPiece],
         slots: list[Slot], bleed: float) -> int:
    pages = max((s.sheet for s in slots), default=-1) + 1
    c = new_canvas(target, sheet.paper, f"{game.title} - print and cut ({profile.name})",
                   f"Print-and-cut sheets for {game.title}, {profile.title}", "Simplex")
    lines = ["Print at 100 % / Actual size, one-sided. Turn off 'fit to page' and 'scale'.",
             f"Cutter: {profile.title}.",
             f"Each sheet has a cut file beside this PDF: {game.id}-cut-{profile.name}-NN.svg and .dxf (mm);",
             "open the sheet's file in the cutter's software on the same paper, with its registration marks on,",
             "and cut. Every piece has %.1f mm of bleed, so a cut a little off its line shows art, not white." % (bleed / MM)]
    draw_cover(c, sheet.paper, 10 * MM, f"{game.title}: print and cut", lines,
               [f"{len(pieces)} pieces on {pages} sheet(s)"])
    c.showPage()
    for number in range(pages):
        for piece, slot in zip(pieces, slots):
            if slot.sheet == number:
                piece.draw(c, slot.trim, bleed)
        draw_marks(c, sheet)
        c.showPage()
    c.save()
    return pages


class CutOutput:
    """``cut``: print-and-cut sheets and their cut files, made only with ``--cut PROFILE``."""

    name = "cut"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        if not settings.cut:
            return []
        # the profile is an input: a bleed or a mark changed in it makes the sheets again
        return [Stage(f"cut-{Path(settings.cut).stem}",
                      job.data_files() + job.template_files() + job.font_files() + [profile_path(settings.cut)],
                      lambda dry: render_cut(job, dry),
                      (settings.sheet.paper, settings.cut, settings.corner_radius, settings.max_image_pixels)
                      + dpi_option(settings.image_dpi, None) + draft_option(settings.draft))]
