"""Token sheets: round, square and hexagonal tokens and fold-over standees, packed densely.

A ``tokens`` component's pieces are drawn from their layout (``templates/<game>/boards.toml``)
inside their shape, with bleed around the shape and a thin cut guide on the trim outline. Each
piece's shape and size come from the component settings ``shape`` and ``size`` or, per row,
from the columns ``shape`` and ``size`` (or ``diameter``); a standee takes ``width`` and
``height`` (settings or columns) and a ``base`` setting (default 12 mm). Shapes:

- ``circle`` (also ``round``): ``size`` is the diameter.
- ``square``: ``size`` is the side.
- ``hexagon``: pointy-top, ``size`` is the distance across the flats (the width).
- ``standee``: a fold-over strip: base | front | back (turned 180°) | base, ``width`` x ``height``
  per panel; fold on the dashed lines, glue front to back, fold the bases out as the foot.

Packing: circles and hexagons go in offset rows (every other row shifted half a pitch, rows
sqrt(3)/2 of a pitch apart), which is the densest arrangement of equal circles and tiles
hexagons exactly; squares and standees go in a plain grid. Every piece keeps its own bleed,
pieces of a group are spaced by their bleed (and the sheet's ``gap``), and everything stays
inside the ink-free margin. Positions are computed from absolute coordinates (origin + index x
pitch).

A component with ``back`` or ``back_column`` prints double-sided: its sheet is followed by a back
sheet placed by the same duplex rules as cards (pnp.impose, print-specs.md §8 checks 13-15):
long-edge flip mirrors each position about the sheet's vertical centre line, short-edge flip
about the horizontal one with the back turned 180°, and ``back_offset`` moves every back. With
``gutter_fold`` the fronts fill the upper half and their backs the lower half, mirrored about
the fold and turned 180° (§8 check 18).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .build import SheetOptions, piece_context
from .errors import BuildError, Location
from .findings import Finding
from .impose import DEFAULT_MARGIN
from .layout import Piece, Renderer
from .model import Component, Game, Row
from .units import MM, Size, parse_length, to_mm

SHAPES = ("circle", "square", "hexagon", "standee")
"""Token shapes a tokens component may use."""
SHAPE_ALIASES = {"round": "circle", "disc": "circle", "hex": "hexagon"}
"""Other names accepted for a shape."""
CUT_GRAY = 0.5
"""Grey level of token cut guides (a thin line on the trim outline)."""
CUT_WIDTH = 0.3
"""Cut guide stroke width in pt (0.106 mm)."""
FOLD_GRAY = 0.45
"""Grey level of fold lines (dashed) on standees and die nets."""
DEFAULT_BASE = 12 * MM
"""Height of each of a standee's two base flaps."""
CAPTION = 4.5 * MM
"""Height of the caption line above each group of tokens."""
SQRT3 = math.sqrt(3.0)


@dataclass
class TokenPiece:
    """One physical token or standee.

    ``width`` x ``height`` is the trim box in pt: d x d for a circle, s x s for a square,
    F x 2F/sqrt(3) for a pointy-top hexagon F across the flats, and for a standee the front panel.
    ``base`` is a standee's base flap height (0 otherwise). ``back`` is None for one-sided pieces.
    """

    component: str
    name: str
    shape: str
    width: float
    height: float
    face: Piece
    back: Piece | None
    base: float = 0.0

    @property
    def key(self) -> tuple:
        """Pieces with the same key are packed together as one group."""
        return (self.component, self.shape, round(self.width, 4), round(self.height, 4),
                round(self.base, 4), self.back is not None)


def _loc(game: Game, key: str) -> Location:
    return Location(f"{game.display_root}/game.toml", column_name=key)


def _setting(game: Game, comp: Component, row: Row | None, names: tuple[str, ...]):
    """A per-row column value (first of ``names`` that is a column with a value) or the
    component setting of the first name; returns (value, where-it-came-from)."""
    if row is not None:
        for name in names:
            if name in comp.columns and row.get(name) is not None:
                return row.get(name), row.location(name)
    for name in names:
        if name in comp.options:
            return comp.options[name], _loc(game, f"components.{comp.id}.{name}")
    return None, _loc(game, f"components.{comp.id}.{names[0]}")


def _length(value: Any, where: Location, what: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        length = float(value)  # a CSV length column is already in pt
    else:
        try:
            length = parse_length(str(value))
        except ValueError as exc:
            raise BuildError(str(exc), location=where, hint=f"give the {what} with a unit, e.g. 25mm") from None
    if length <= 0:
        raise BuildError(f"the {what} must be greater than zero, not {to_mm(length):g} mm", location=where)
    return length


def _piece_shape(game: Game, comp: Component, row: Row | None) -> tuple[str, float, float, float]:
    raw, where = _setting(game, comp, row, ("shape",))
    if raw is None:
        raise BuildError(f"tokens {comp.name!r} have no shape", location=where,
                         hint='add shape = "circle" (or square, hexagon, standee) and size = "25mm" '
                         f"under [components.{comp.id}], or a shape column")
    shape = SHAPE_ALIASES.get(str(raw).strip().lower(), str(raw).strip().lower())
    if shape not in SHAPES:
        raise BuildError(f"token shape {raw!r} is not one of {', '.join(SHAPES)}", location=where,
                         hint="round is accepted for circle and hex for hexagon")
    if shape == "standee":
        w_raw, w_where = _setting(game, comp, row, ("width",))
        h_raw, h_where = _setting(game, comp, row, ("height",))
        if w_raw is None or h_raw is None:
            raise BuildError(f"standees {comp.name!r} need a width and a height", location=w_where if w_raw is None else h_where,
                             hint='add width = "25mm" and height = "45mm" (settings or columns)')
        b_raw, b_where = _setting(game, comp, None, ("base",))
        base = DEFAULT_BASE if b_raw is None else _length(b_raw, b_where, "base")
        return shape, _length(w_raw, w_where, "width"), _length(h_raw, h_where, "height"), base
    s_raw, s_where = _setting(game, comp, row, ("size", "diameter"))
    if s_raw is None:
        raise BuildError(f"tokens {comp.name!r} have no size", location=s_where,
                         hint='add size = "25mm" under the component, or a size column')
    size = _length(s_raw, s_where, "size")
    if shape == "hexagon":
        return shape, size, 2 * size / SQRT3, 0.0
    return shape, size, size, 0.0


def token_pieces(game: Game) -> tuple[list[TokenPiece], list[Finding]]:
    """Every token and standee of ``game``: each ``tokens`` component's rows with their copies
    (or ``copies`` identical pieces for a component without a table), in manifest and file order.

    A component without a layout is reported as a warning finding and not drawn. Raises
    BuildError naming the row or game.toml key for a missing or unknown shape or size.
    """
    out: list[TokenPiece] = []
    findings: list[Finding] = []
    for comp in game:
        if comp.kind != "tokens" or comp.pieces == 0:
            continue
        rows: list[Row | None] = list(comp.rows) if comp.copies_column else [None]
        if not comp.layout and not comp.layout_column:
            findings.append(Finding(
                "warning", "tokens.no-layout", f"{game.display_root}/game.toml (components.{comp.id})",
                f"tokens {comp.name!r} have no layout, so no token sheet is drawn for them",
                hint=f'set layout = "..." under [components.{comp.id}] and design it in templates/<game>/boards.toml'))
            continue
        for row in rows:
            copies = row.copies if row is not None else comp.copies
            if copies == 0:
                continue
            layout = comp.layout_of(row) if row is not None else comp.layout
            back = comp.back_of(row) if row is not None else comp.back
            if not layout:
                raise BuildError(f"token {row.id if row else comp.id!r} has no layout",
                                 location=row.location(comp.layout_column) if row else _loc(game, f"components.{comp.id}.layout"),
                                 hint=f"fill the layout column, or set layout under [components.{comp.id}]")
            shape, w, h, base = _piece_shape(game, comp, row)
            name = (row.id if row is not None and row.id else comp.id)
            for copy in range(1, copies + 1):
                ctx = piece_context(game, comp, row, copy)
                ctx["rules"] = game.manifest.get("rules", {})
                label = f"{comp.id}/{name}" + (f" (copy {copy} of {copies})" if copies > 1 else "")
                back_piece = Piece(f"{comp.id}/{name} back", back, ctx) if back else None
                out.append(TokenPiece(comp.id, name, shape, w, h, Piece(label, layout, ctx), back_piece, base))
    return out, findings


# --------------------------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class Lattice:
    """How one group of equal pieces is packed, in pt.

    ``cell_w`` x ``cell_h`` is one piece with its bleed; ``pitch_x`` and ``pitch_y`` the distance
    between neighbouring centres in a row and between rows; every odd row is shifted right by
    ``shift``; ``cols_even`` and ``cols_odd`` are the pieces in even and odd rows.
    """

    cell_w: float
    cell_h: float
    pitch_x: float
    pitch_y: float
    shift: float
    cols_even: int
    cols_odd: int

    def per_rows(self, rows: int) -> int:
        """Pieces in the first ``rows`` rows."""
        return (rows + 1) // 2 * self.cols_even + rows // 2 * self.cols_odd

    def rows_fitting(self, height: float) -> int:
        """Rows that fit in ``height``."""
        if height + 1e-6 < self.cell_h:
            return 0
        return int((height - self.cell_h + 1e-6) // self.pitch_y) + 1

    @property
    def width(self) -> float:
        """Width of the packed rows (the wider of even and odd rows)."""
        even = self.cell_w + (self.cols_even - 1) * self.pitch_x
        odd = self.shift + self.cell_w + (self.cols_odd - 1) * self.pitch_x if self.cols_odd else 0.0
        return max(even, odd)

    def centre(self, index: int, left: float, top: float) -> tuple[float, float]:
        """Centre (PDF pt) of piece ``index`` of a group whose packed area starts at
        (``left``, ``top``): row r, column k from absolute coordinates."""
        pair, rest = divmod(index, self.cols_even + self.cols_odd)
        if rest < self.cols_even:
            row, col = 2 * pair, rest
        else:
            row, col = 2 * pair + 1, rest - self.cols_even
        x = left + (self.shift if row % 2 else 0.0) + self.cell_w / 2 + col * self.pitch_x
        y = top - self.cell_h / 2 - row * self.pitch_y
        return x, y

    def row_of(self, index: int) -> int:
        """The row (0-based) of piece ``index``."""
        pair, rest = divmod(index, self.cols_even + self.cols_odd)
        return 2 * pair + (0 if rest < self.cols_even else 1)


def lattice(piece: TokenPiece, width: float, bleed: float, gap: float) -> Lattice:
    """The packing of pieces like ``piece`` across ``width`` pt. Raises BuildError when not one
    piece fits the width."""
    if piece.shape == "circle":
        d = piece.width + 2 * bleed + gap
        cell_w = cell_h = piece.width + 2 * bleed
        pitch_x, pitch_y, shift = d, d * SQRT3 / 2, d / 2
    elif piece.shape == "hexagon":
        f = piece.width + 2 * bleed + gap          # across the flats, bleed and gap included
        cell_w = piece.width + 2 * bleed
        cell_h = 2 * cell_w / SQRT3
        pitch_x, pitch_y, shift = f, f * SQRT3 / 2, f / 2
    else:
        height = piece.height + (piece.height + 2 * piece.base if piece.shape == "standee" else 0.0)
        cell_w, cell_h = piece.width + 2 * bleed, height + 2 * bleed
        pitch_x, pitch_y, shift = cell_w + gap, cell_h + gap, 0.0
    cols_even = int((width - cell_w + 1e-6) // pitch_x) + 1 if width + 1e-6 >= cell_w else 0
    cols_odd = int((width - shift - cell_w + 1e-6) // pitch_x) + 1 if width - shift + 1e-6 >= cell_w else 0
    if shift == 0.0:
        cols_odd = cols_even
    if cols_even < 1:
        raise BuildError(f"a {piece.shape} token of {to_mm(piece.width):g} mm ({piece.face.label}) does not fit "
                         f"the sheet's printable width of {to_mm(width):g} mm",
                         hint="use larger paper, a smaller --margin or a smaller token")
    if cols_odd < 1:  # offset rows do not fit: pack in a plain grid instead
        pitch_y, shift, cols_odd = cell_h + gap, 0.0, cols_even
    return Lattice(cell_w, cell_h, pitch_x, pitch_y, shift, cols_even, cols_odd)


def hexagon_points(cx: float, cy: float, across_flats: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top regular hexagon centred at (cx, cy), ``across_flats`` wide."""
    r = across_flats / SQRT3
    return [(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
            for k in range(6)]


def outline_path(c, shape: str, cx: float, cy: float, w: float, h: float):
    """A closed path of ``shape`` with its trim box w x h centred at (cx, cy)."""
    path = c.beginPath()
    if shape == "circle":
        path.circle(cx, cy, w / 2)
    elif shape == "hexagon":
        pts = hexagon_points(cx, cy, w)
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
        path.close()
    else:
        path.rect(cx - w / 2, cy - h / 2, w, h)
    return path


# --------------------------------------------------------------------------------------------
# Drawing


def draw_token(c, renderer: Renderer, tp: TokenPiece, piece: Piece, cx: float, cy: float, bleed: float,
               rotate: bool = False, guide: bool = True) -> None:
    """Draw ``piece`` (a face or back of ``tp``) centred at (cx, cy): art clipped to the shape
    grown by ``bleed``, then the cut guide on the trim outline."""
    if tp.shape == "standee":
        draw_standee(c, renderer, tp, cx, cy, bleed, rotate)
        return
    w, h = tp.width, tp.height
    grow_h = h + (2 * bleed * 2 / SQRT3 if tp.shape == "hexagon" else 2 * bleed)
    c.saveState()
    c.clipPath(outline_path(c, tp.shape, cx, cy, w + 2 * bleed, grow_h), stroke=0, fill=0)
    renderer.draw(c, piece, (cx - w / 2, cy - h / 2, w, h), (bleed, bleed, bleed, bleed), rotate=rotate)
    c.restoreState()
    if guide:
        c.saveState()
        c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
        c.setLineWidth(CUT_WIDTH)
        c.drawPath(outline_path(c, tp.shape, cx, cy, w, h), stroke=1, fill=0)
        c.restoreState()


def draw_standee(c, renderer: Renderer, tp: TokenPiece, cx: float, cy: float, bleed: float,
                 rotate: bool = False) -> None:
    """A fold-over standee centred at (cx, cy): from the bottom, a base flap, the front, the
    back (its art turned 180° so it stands upright once folded), and a second base flap."""
    w, h, base = tp.width, tp.height, tp.base
    total = 2 * h + 2 * base
    left, bottom = cx - w / 2, cy - total / 2
    c.saveState()
    if rotate:
        c.translate(cx, cy)
        c.rotate(180)
        c.translate(-cx, -cy)
    path = c.beginPath()
    path.rect(left - bleed, bottom - bleed, w + 2 * bleed, total + 2 * bleed)
    c.clipPath(path, stroke=0, fill=0)
    c.setFillColorRGB(0.92, 0.92, 0.92)
    c.rect(left - bleed, bottom - bleed, w + 2 * bleed, base + bleed, stroke=0, fill=1)
    c.rect(left - bleed, bottom + base + 2 * h, w + 2 * bleed, base + bleed, stroke=0, fill=1)
    renderer.draw(c, tp.face, (left, bottom + base, w, h), (bleed, 0.0, bleed, 0.0))
    renderer.draw(c, tp.back or tp.face, (left, bottom + base + h, w, h), (bleed, 0.0, bleed, 0.0), rotate=True)
    c.restoreState()
    c.saveState()
    if rotate:
        c.translate(cx, cy)
        c.rotate(180)
        c.translate(-cx, -cy)
    c.setStrokeColorRGB(FOLD_GRAY, FOLD_GRAY, FOLD_GRAY)
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    for y in (bottom + base, bottom + base + h, bottom + base + 2 * h):
        c.line(left, y, left + w, y)
    c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
    c.setLineWidth(CUT_WIDTH)
    c.rect(left, bottom, w, total, stroke=1, fill=0)
    c.restoreState()


@dataclass
class Placement:
    """One piece placed on a sheet: its centre (PDF pt)."""

    piece: TokenPiece
    x: float
    y: float


@dataclass
class TokenSheet:
    """One front sheet of tokens (and whether it needs a back sheet)."""

    placements: list[Placement]
    captions: list[tuple[float, float, str]]
    double: bool


def _groups(pieces: list[TokenPiece]) -> list[list[TokenPiece]]:
    groups: list[list[TokenPiece]] = []
    for tp in pieces:
        if groups and groups[-1][0].key == tp.key:
            groups[-1].append(tp)
        else:
            groups.append([tp])
    # one-sided groups first, then double-sided ones (they need back sheets)
    return [g for g in groups if g[0].back is None] + [g for g in groups if g[0].back is not None]


def pack(pieces: list[TokenPiece], paper: Size, opts: SheetOptions, names: dict[str, str]) -> list[TokenSheet]:
    """Place ``pieces`` on sheets of ``paper``: group by group (same component, shape, size and
    sidedness), each group under a caption, as many as fit; a group continues on the next sheet.
    One-sided and double-sided groups never share a sheet. With gutter fold, double-sided groups
    use only the upper half (above the fold, keeping the margin from it)."""
    margin = opts.margin
    width = paper.width - 2 * margin
    sheets: list[TokenSheet] = []
    current: TokenSheet | None = None
    y = 0.0
    for group in _groups(pieces):
        first = group[0]
        double = first.back is not None
        lat = lattice(first, width, opts.bleed, opts.gap)
        bottom = margin
        if double and opts.gutter_fold:
            bottom = paper.height / 2 + DEFAULT_MARGIN
        if (paper.height - margin - bottom) < CAPTION + lat.cell_h:
            raise BuildError(f"a {first.shape} piece ({first.face.label}) does not fit on {paper} paper",
                             hint="use larger paper or a smaller piece")
        left = margin + (width - lat.width) / 2
        placed = 0
        while placed < len(group):
            if current is None or current.double != double or y - CAPTION - lat.cell_h < bottom - 1e-6:
                current = TokenSheet([], [], double)
                sheets.append(current)
                y = paper.height - margin
            rows = lat.rows_fitting(y - CAPTION - bottom)
            n = min(len(group) - placed, lat.per_rows(rows))
            count = sum(1 for _ in group)
            size = f"{to_mm(first.width):g} mm" if first.shape != "standee" else \
                f"{to_mm(first.width):g} x {to_mm(first.height):g} mm"
            current.captions.append((left, y - CAPTION + 1.3 * MM,
                                     f"{names.get(first.component, first.component)}: {first.shape} {size}, "
                                     f"{'double-sided, ' if double else ''}{count} in the group"
                                     + (f" (continued, {placed} before)" if placed else "")))
            top = y - CAPTION
            for i in range(n):
                cx, cy = lat.centre(i, left, top)
                current.placements.append(Placement(group[placed + i], cx, cy))
            used_rows = lat.row_of(n - 1) + 1
            y = top - (used_rows - 1) * lat.pitch_y - lat.cell_h - opts.gap - 1.5 * MM
            placed += n
            if placed < len(group):
                current = None
    return sheets


def back_position(paper: Size, x: float, y: float, opts: SheetOptions) -> tuple[float, float, bool]:
    """Where the back of a piece centred at (x, y) goes, and whether it is turned 180°: long-edge
    flip mirrors x, short-edge flip mirrors y and turns it, gutter fold mirrors y about the fold
    and turns it; the back offset is added (print-specs.md §8 checks 13-15, 18)."""
    ox, oy = opts.back_offset
    if opts.gutter_fold:
        return x + ox, paper.height - y + oy, True
    if opts.flip == "long":
        return paper.width - x + ox, y + oy, False
    return x + ox, paper.height - y + oy, True


def render_tokens_pdf(target, game: Game, renderer: Renderer, pieces: list[TokenPiece], nets: list,
                      opts: SheetOptions) -> tuple[int, int]:
    """Write the tokens PDF: a cover page, token sheets (each double-sided sheet followed by its
    back sheet, or folded with gutter fold), then die nets. Returns (sheets, pieces drawn)."""
    from .boards import draw_cover, new_canvas, text
    from .build import DUPLEX_NAMES
    from .dice import draw_die_sheets

    paper = opts.paper_size()
    names = {comp.id: comp.name for comp in game}
    sheets = pack(pieces, paper, opts, names)
    duplex = any(s.double for s in sheets) and not opts.gutter_fold
    c = new_canvas(target, paper, f"{game.title} - tokens", f"Print-and-play tokens for {game.title}",
                   DUPLEX_NAMES[opts.flip] if duplex else "Simplex")
    contents = []
    by_comp: dict[str, list[TokenPiece]] = {}
    for tp in pieces:
        by_comp.setdefault(tp.component, []).append(tp)
    for cid, tps in by_comp.items():
        kinds = sorted({(tp.shape, round(to_mm(tp.width), 2)) for tp in tps})
        desc = ", ".join(f"{s} {w:g} mm" for s, w in kinds)
        sided = "double-sided" if tps[0].back is not None else "one side"
        contents.append(f"{names.get(cid, cid)}: {len(tps)} ({desc}; {sided})")
    for net in nets:
        contents.append(f"{net.title}: {net.copies} printable d6 net(s) with glue tabs, {to_mm(net.size):g} mm faces")
    lines = [
        "Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'.",
        "Check the scale: the bar below must measure 50 mm and the square 1 in (25.4 mm).",
        "Cut each piece on its thin grey outline; the colour runs past it so a slightly wide cut shows no white.",
    ]
    if duplex:
        flip = "long edge" if opts.flip == "long" else "short edge"
        lines.append(f"Double-sided sheets: print both sides, flipping on the {flip}; each back sheet follows its front.")
    if opts.gutter_fold and any(s.double for s in sheets):
        lines.append("Double-sided sheets: fold on the centre line, faces out, glue, then cut.")
    draw_cover(c, paper, opts.margin, f"{game.title}: tokens", lines, contents)
    c.showPage()
    count = 1
    if duplex:  # keep every front sheet on an odd page so its back sheet is on the other side
        text(c, "sans", 8, paper.width / 2, paper.height / 2, "(back of the cover page, left blank)", align="centre")
        c.showPage()
    drawn = 0
    for sheet in sheets:
        for x, y, caption in sheet.captions:
            c.setFillColorRGB(0, 0, 0)
            text(c, "sans", 7, x, y, caption)
        for p in sheet.placements:
            draw_token(c, renderer, p.piece, p.piece.face, p.x, p.y, opts.bleed)
            drawn += 1
        if sheet.double and opts.gutter_fold:
            for p in sheet.placements:
                bx, by, turn = back_position(paper, p.x, p.y, opts)
                draw_token(c, renderer, p.piece, p.piece.back, bx, by, opts.bleed, rotate=turn)
            c.saveState()
            c.setStrokeColorRGB(FOLD_GRAY, FOLD_GRAY, FOLD_GRAY)
            c.setLineWidth(0.4)
            c.setDash(3, 3)
            c.line(opts.margin, paper.height / 2, paper.width - opts.margin, paper.height / 2)
            c.restoreState()
        c.showPage()
        count += 1
        if sheet.double and not opts.gutter_fold:
            for p in sheet.placements:
                bx, by, turn = back_position(paper, p.x, p.y, opts)
                draw_token(c, renderer, p.piece, p.piece.back, bx, by, opts.bleed, rotate=turn, guide=False)
            c.showPage()
        elif duplex:
            text(c, "sans", 8, paper.width / 2, paper.height / 2, "(back of a one-sided sheet, left blank)",
                 align="centre")
            c.showPage()
    if nets:
        count += draw_die_sheets(c, renderer, nets, paper, opts, duplex)
    c.save()
    return count, drawn
