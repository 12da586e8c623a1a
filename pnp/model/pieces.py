"""The physical pieces a game prints, each with its layout, its template context and a
structured identity.

A :class:`Piece` is one drawing of one side of one physical item: a card's face or back, a
board, a reference sheet, a token's face or back, a die face. Its identity (component, row id,
copy, copies, side) gives the label messages show (``heroes/captain (copy 2 of 3)``,
``heroes/captain back``) and the :attr:`Piece.card_key` findings are grouped by (the label
without the copy: a finding on one copy is a finding on the card). The functions here list a
game's pieces in print order: :func:`card_instances`, :func:`board_pieces`,
:func:`token_pieces`, :func:`die_nets`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from ..core.errors import BuildError, Location
from ..core.findings import Finding
from ..core.units import MM, Size, parse_length, parse_size, to_mm
from .context import board_context, piece_context
from .game import Component, Game, Row
from .games import BOARDS_FILE


@dataclass(frozen=True)
class Piece:
    """One side of one physical piece, ready to draw.

    ``layout`` names its design and ``context`` holds the names its templates see. Identity:
    ``component`` (the component id), ``row_id`` (its row, None for a component without rows),
    ``copy`` of ``copies`` (1-based), ``side`` (``face``, ``back``, ``sheet`` for a reference
    sheet, ``face N`` for face N of a die) and ``cell``, the 1-based item numbers of the repeat
    boxes that drew it inside another piece (empty for a whole piece); ``row`` is its table
    row.
    """

    layout: str
    context: dict[str, Any] = field(compare=False, hash=False)
    component: str = ""
    row_id: str | None = None
    copy: int = 1
    copies: int = 1
    side: str = "face"
    cell: tuple[int, ...] = ()
    row: Row | None = field(default=None, compare=False, hash=False, repr=False)
    """The table row the piece is drawn from (None for a piece without one): where a drawing
    problem whose value came from a cell points."""

    @property
    def name(self) -> str:
        """``component/row`` (``component`` alone for a piece without a row)."""
        return self.component + (f"/{self.row_id}" if self.row_id is not None else "")

    @property
    def card_key(self) -> str:
        """The piece's label without its copy number (``heroes/captain``, ``heroes/captain
        back``): what findings are reported once for."""
        text = self.name if self.side == "face" else f"{self.name} {self.side}"
        return text + "".join(f" [{i}]" for i in self.cell)

    @property
    def label(self) -> str:
        """How messages name this piece: ``heroes/captain (copy 2 of 3)`` for a copy of a face,
        ``heroes/captain back``, ``track``, ``orders sheet``, ``d6 face 3``, plus ``[n]`` for
        the n-th cell of a repeat box."""
        if self.side != "face" or self.copies <= 1:
            return self.card_key
        return f"{self.name} (copy {self.copy} of {self.copies})" + "".join(f" [{i}]" for i in self.cell)

    def in_cell(self, index: int, layout: str, context: dict[str, Any]) -> "Piece":
        """The piece a repeat box draws for item ``index`` (0-based) inside this one."""
        return replace(self, layout=layout, context=context, cell=self.cell + (index + 1,))


# --------------------------------------------------------------------------------------------
# Cards


@dataclass
class CardInstance:
    """One physical card: its face, its back, and the card size it is printed at."""

    face: Piece
    back: Piece
    size: Size
    deck: str


def card_instances(game: Game) -> list[CardInstance]:
    """Every card of every deck, in manifest order, rows in file order, copies together."""
    out = []
    for comp in game:
        if comp.kind != "deck":
            continue
        for row in comp.rows:
            layout = comp.layout_of(row)
            back = comp.back_of(row)
            if not layout:
                raise BuildError(f"{row.location(comp.layout_column)}: card {row.id!r} has no face layout",
                                 hint=f"set layout or layout_column for [components.{comp.id}] in game.toml",
                                 rule="pieces.definition")
            if not back:
                raise BuildError(f"{row.location(comp.back_column)}: card {row.id!r} has no back",
                                 hint=f"set back or back_column for [components.{comp.id}] in game.toml",
                                 rule="pieces.definition")
            for copy in range(1, row.copies + 1):
                ctx = piece_context(game, comp, row, copy)
                face = Piece(layout, ctx, comp.id, row.id, copy, row.copies, row=row)
                out.append(CardInstance(face, replace(face, layout=back, side="back"), comp.card_size, comp.id))
    return out


# --------------------------------------------------------------------------------------------
# Boards and reference sheets


@dataclass
class BoardPiece:
    """One board to print: a board component's copy, or a component's reference sheet.

    ``size`` is the trim size in pt; ``piece`` carries the layout name and template context.
    """

    component: str
    title: str
    size: Size
    piece: Piece


def _manifest_location(game: Game, key: str) -> Location:
    """A key of the game's game.toml, with its line, for messages."""
    return game.key_location(key)


def _size(game: Game, comp: Component, value: Any, key: str) -> Size:
    try:
        return parse_size(str(value))
    except ValueError as exc:
        raise BuildError(str(exc), location=_manifest_location(game, f"components.{comp.id}.{key}"),
                         hint='give the size with units, e.g. size = "500mm x 500mm"',
                         rule="pieces.definition") from None


def board_pieces(game: Game) -> tuple[list[BoardPiece], list[Finding]]:
    """Every board and reference sheet of ``game`` in manifest order (board copies together).

    A board needs ``size`` and ``layout``; a component's ``sheet = { layout = "...", size = "..." }``
    adds a reference sheet drawn from that component's rows (``title`` and ``copies`` optional).
    A board without a layout is reported as a warning finding and not drawn. Raises BuildError
    naming the game.toml key for a missing or unreadable size or a malformed ``sheet``.
    """
    out: list[BoardPiece] = []
    findings: list[Finding] = []
    for comp in game:
        if comp.kind == "board" and comp.copies > 0:
            if not comp.layout:
                findings.append(Finding.at(
                    "warning", "boards.no-layout", _manifest_location(game, f"components.{comp.id}"),
                    f"board {comp.name!r} has no layout, so it is not drawn",
                    hint=f'set layout = "..." under [components.{comp.id}] and design it in templates/<game>/{BOARDS_FILE}',
                    component=comp.id))
            else:
                if "size" not in comp.options:
                    raise BuildError(f"board {comp.name!r} has no size",
                                     location=_manifest_location(game, f"components.{comp.id}.size"),
                                     hint='add size = "500mm x 500mm" (any size; large boards are tiled)',
                                     rule="pieces.definition")
                size = _size(game, comp, comp.options["size"], "size")
                for copy in range(1, comp.copies + 1):
                    title = comp.name + (f" ({copy} of {comp.copies})" if comp.copies > 1 else "")
                    ctx = board_context(game, comp, copy, size=size)
                    out.append(BoardPiece(comp.id, title, size, Piece(comp.layout, ctx, comp.id, None, copy,
                                                                      comp.copies)))
        sheet = comp.options.get("sheet")
        if sheet is None:
            continue
        key = f"components.{comp.id}.sheet"
        if not isinstance(sheet, dict) or "layout" not in sheet or "size" not in sheet:
            raise BuildError("sheet must be a table with layout and size", location=_manifest_location(game, key),
                             hint='write sheet = { layout = "my-sheet", size = "190mm x 260mm" }',
                             rule="pieces.definition")
        unknown = set(sheet) - {"layout", "size", "title", "copies"}
        if unknown:
            raise BuildError(f"unknown sheet setting {sorted(unknown)[0]!r}", location=_manifest_location(game, key),
                             hint="sheet settings: layout, size, title, copies",
                             rule="pieces.definition")
        copies = sheet.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0:
            raise BuildError(f"sheet copies must be a whole number, not {copies!r}",
                             location=_manifest_location(game, f"{key}.copies"),
                             rule="pieces.definition")
        size = _size(game, comp, sheet["size"], "sheet.size")
        title = str(sheet.get("title", f"{comp.name} (reference sheet)"))
        for copy in range(1, copies + 1):
            ctx = board_context(game, comp, copy, size=size)
            ctx["piece"] = SimpleNamespace(**{**vars(ctx["piece"]), "copies": copies})
            out.append(BoardPiece(comp.id, title, size, Piece(str(sheet["layout"]), ctx, comp.id, None, copy, copies,
                                                              side="sheet")))
    return out, findings


# --------------------------------------------------------------------------------------------
# Tokens and standees


SHAPES = ("circle", "square", "hexagon", "standee")
"""Token shapes a tokens component may use."""


SHAPE_ALIASES = {"round": "circle", "disc": "circle", "hex": "hexagon"}
"""Other names accepted for a shape."""


DEFAULT_BASE = 12 * MM
"""Height of each of a standee's two base flaps."""


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


def _setting(game: Game, comp: Component, row: Row | None, names: tuple[str, ...]):
    """A per-row column value (first of ``names`` that is a column with a value) or the
    component setting of the first name; returns (value, where-it-came-from)."""
    if row is not None:
        for name in names:
            if name in comp.columns and row.get(name) is not None:
                return row.get(name), row.location(name)
    for name in names:
        if name in comp.options:
            return comp.options[name], _manifest_location(game, f"components.{comp.id}.{name}")
    return None, _manifest_location(game, f"components.{comp.id}.{names[0]}")


def token_size_location(game: Game, comp: Component, row: Row | None) -> Location:
    """Where a token's size is given: its row's ``size`` (or ``diameter``, or for a standee
    ``width``) cell, else that key under the component in game.toml."""
    names = ("width", "height") if _setting(game, comp, row, ("shape",))[0] == "standee" else ("size", "diameter")
    return _setting(game, comp, row, names)[1]


def _length(value: Any, where: Location, what: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        length = float(value)  # a CSV length column is already in pt
    else:
        try:
            length = parse_length(str(value))
        except ValueError as exc:
            raise BuildError(str(exc), location=where, hint=f"give the {what} with a unit, e.g. 25mm",
                             rule="pieces.definition") from None
    if length <= 0:
        raise BuildError(f"the {what} must be greater than zero, not {to_mm(length):g} mm", location=where,
                         rule="pieces.definition")
    return length


def _piece_shape(game: Game, comp: Component, row: Row | None) -> tuple[str, float, float, float]:
    raw, where = _setting(game, comp, row, ("shape",))
    if raw is None:
        raise BuildError(f"tokens {comp.name!r} have no shape", location=where,
                         hint='add shape = "circle" (or square, hexagon, standee) and size = "25mm" '
                         f"under [components.{comp.id}], or a shape column",
                         rule="pieces.definition")
    shape = SHAPE_ALIASES.get(str(raw).strip().lower(), str(raw).strip().lower())
    if shape not in SHAPES:
        raise BuildError(f"token shape {raw!r} is not one of {', '.join(SHAPES)}", location=where,
                         hint="round is accepted for circle and hex for hexagon",
                         rule="pieces.definition")
    if shape == "standee":
        w_raw, w_where = _setting(game, comp, row, ("width",))
        h_raw, h_where = _setting(game, comp, row, ("height",))
        if w_raw is None or h_raw is None:
            raise BuildError(f"standees {comp.name!r} need a width and a height", location=w_where if w_raw is None else h_where,
                             hint='add width = "25mm" and height = "45mm" (settings or columns)',
                             rule="pieces.definition")
        b_raw, b_where = _setting(game, comp, None, ("base",))
        base = DEFAULT_BASE if b_raw is None else _length(b_raw, b_where, "base")
        return shape, _length(w_raw, w_where, "width"), _length(h_raw, h_where, "height"), base
    s_raw, s_where = _setting(game, comp, row, ("size", "diameter"))
    if s_raw is None:
        raise BuildError(f"tokens {comp.name!r} have no size", location=s_where,
                         hint='add size = "25mm" under the component, or a size column',
                         rule="pieces.definition")
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
            findings.append(Finding.at(
                "warning", "tokens.no-layout", _manifest_location(game, f"components.{comp.id}"),
                f"tokens {comp.name!r} have no layout, so no token sheet is drawn for them",
                hint=f'set layout = "..." under [components.{comp.id}] and design it in templates/<game>/boards.toml',
                component=comp.id))
            continue
        for row in rows:
            copies = row.copies if row is not None else comp.copies
            if copies == 0:
                continue
            layout = comp.layout_of(row) if row is not None else comp.layout
            back = comp.back_of(row) if row is not None else comp.back
            if not layout:
                raise BuildError(f"token {row.id if row else comp.id!r} has no layout",
                                 location=row.location(comp.layout_column) if row else _manifest_location(game, f"components.{comp.id}.layout"),
                                 hint=f"fill the layout column, or set layout under [components.{comp.id}]",
                                 rule="pieces.definition")
            shape, w, h, base = _piece_shape(game, comp, row)
            name = (row.id if row is not None and row.id else comp.id)
            for copy in range(1, copies + 1):
                ctx = piece_context(game, comp, row, copy)
                ctx["rules"] = game.manifest.get("rules", {})
                face = Piece(layout, ctx, comp.id, name, copy, copies, row=row)
                back_piece = replace(face, layout=back, side="back") if back else None
                out.append(TokenPiece(comp.id, name, shape, w, h, face, back_piece, base))
    return out, findings


# --------------------------------------------------------------------------------------------
# Dice


DEFAULT_FACE = 20 * MM
"""Default edge length of a printed die."""


@dataclass
class DieNet:
    """One die component to print: ``copies`` nets of ``size`` (pt) faces."""

    component: str
    title: str
    faces: list[Any]
    size: float
    layout: str | None
    copies: int
    pips: bool
    context: dict[str, Any]

    @property
    def tab(self) -> float:
        """Depth of a glue tab."""
        return min(6 * MM, self.size * 0.3)

    @property
    def width(self) -> float:
        """Width of the net with its tabs."""
        return 3 * self.size + 2 * self.tab

    @property
    def height(self) -> float:
        """Height of the net with its tabs."""
        return 4 * self.size + self.tab


def bad_die_face(faces: list) -> tuple[int, Any] | None:
    """(1-based position, the value as TOML writes it) of the first face of ``faces`` a die
    cannot print: a face is a number or a text, not a list, a table or true/false; None when
    every face is one."""
    for i, face in enumerate(faces, 1):
        if isinstance(face, bool):
            return i, str(face).lower()
        if not isinstance(face, (int, float, str)):
            return i, repr(face)
    return None


def die_nets(game: Game) -> tuple[list[DieNet], list[Finding]]:
    """The die components of ``game``. Raises BuildError naming the game.toml file, line and
    key for faces that are not six, a face that is not a number or a text, or a bad size."""
    out = []
    for comp in game:
        if comp.kind != "die" or comp.copies == 0:
            continue
        where = f"components.{comp.id}"
        loc = _manifest_location(game, f"{where}.faces")
        faces = comp.options.get("faces", [1, 2, 3, 4, 5, 6])
        if not isinstance(faces, list) or len(faces) != 6:
            raise BuildError(f"a printable die needs 6 faces, not {faces!r}", location=loc,
                             hint="faces = [1, 2, 3, 4, 5, 6]; only six-sided nets are printed",
                             rule="pieces.definition")
        bad = bad_die_face(faces)
        if bad is not None:
            raise BuildError(f"face {bad[0]} of die {comp.name!r} is {bad[1]}, not a number or a text",
                             location=loc, hint='each face is printed as it is written: faces = [1, 2, 3, 4, 5, 6] '
                             'or ["sun", "moon", ...]', rule="pieces.definition")
        size = DEFAULT_FACE
        if "size" in comp.options:
            try:
                size = parse_length(str(comp.options["size"]))
            except ValueError as exc:
                raise BuildError(str(exc), location=_manifest_location(game, f"{where}.size"),
                                 hint='give the edge of the cube, e.g. size = "20mm"',
                                 rule="pieces.definition") from None
            if size <= 0:
                raise BuildError(f"a die's size must be greater than zero, not {comp.options['size']!r}",
                                 location=_manifest_location(game, f"{where}.size"),
                                 rule="pieces.definition")
        pips = comp.options.get("pips", True) is not False
        out.append(DieNet(comp.id, comp.name, faces, size, comp.layout, comp.copies, pips,
                          piece_context(game, comp, None)))
    return out, []
