"""The boards, reference sheets, tokens and dice of a snapshot (:mod:`pnp.design.snapshot`):
each printed piece that is not a card, with the settings and cells it prints from, its copies
and the hash of what it prints (:func:`pnp.design.stamp.face_hash`, the hash its version stamp
shows).

Keys name a piece as ``pnp diff`` lists it (docs/versions.md):

- ``boards/<component>``: a board component (its copies are one entry);
- ``sheets/<component>``: the reference sheet a component's ``sheet`` setting asks for;
- ``<component>/<id>``: a token of a tokens component with a table (``<component>/line N``
  for a table without an id column); ``tokens/<component>``: the identical tokens of a
  component without a table;
- ``dice/<component>``: a die (its six faces are one entry).

Each entry has ``kind`` (:data:`pnp.design.snapshot.KINDS`), ``component``, ``id`` (a token's
row id, else None), ``label`` (how the list of a reprint names it: a board's or sheet's title,
a token's ``title``, ``name`` or ``label`` cell, the name of tokens without a table),
``copies``, ``fields`` (name -> text, see :func:`board_fields` and :func:`token_entries`),
``face`` and ``back`` (hex SHA-256; ``back`` None for a piece without one), when copies print
differently ``faces`` (each copy's), and for a token ``shape`` (how it is cut).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..core.units import Size, to_mm
from ..model.game import Component, Game, Row
from ..model.pieces import BoardPiece, DieNet, Piece, TokenPiece, board_pieces, die_nets, token_pieces
from .layouts import LayoutSet
from .snapshot import cell_text
from .stamp import face_hash


def _flat(prefix: str, value: Any, out: dict[str, str]) -> None:
    """``value`` as dotted names -> text: a table's keys (``sheet.size``) one by one."""
    if isinstance(value, dict):
        for k in sorted(value):
            _flat(f"{prefix}.{k}" if prefix else str(k), value[k], out)
    else:
        out[prefix] = cell_text(value)


SETUP = ("columns", "ignore_columns")
"""Settings of a component that say how its table is read, not what it prints."""


def _settings(comp: Component, out: dict[str, str], leave: tuple[str, ...] = ()) -> dict[str, str]:
    """``out`` with the component's game.toml settings as text (:data:`SETUP` and ``leave``
    left out)."""
    _flat("", {k: v for k, v in comp.options.items() if k not in SETUP + leave}, out)
    return out


def _mm(length: float) -> str:
    return f"{round(to_mm(length), 2):g}"


def _row_name(row: Row, index: int) -> str:
    return str(row.id) if row.id is not None else f"line {row.line or index + 1}"


def board_fields(comp: Component, sheet: bool) -> dict[str, str]:
    """What a board prints from, as text: its game.toml settings (``layout``, ``copies``,
    ``size`` and every other key but how its table is read, :data:`SETUP`) and each cell
    of its own table as ``<row id>.<column>``. A reference sheet: its ``sheet`` settings
    (``sheet.layout``, ``sheet.size``, ...); the rows it lists are the component's pieces or
    table, compared as those (a change shows as a face change of the sheet)."""
    out: dict[str, str] = {}
    if sheet:
        _flat("sheet", comp.options.get("sheet", {}), out)
        return out
    out["layout"] = cell_text(comp.layout)
    out["copies"] = cell_text(comp.copies)
    _settings(comp, out, ("sheet",))
    for i, row in enumerate(comp.rows):
        for column, value in row.values.items():
            if column != comp.id_column:
                out[f"{_row_name(row, i)}.{column}"] = cell_text(value)
    return out


def board_key(bp: BoardPiece) -> str:
    """``boards/<component>`` or ``sheets/<component>`` (a reference sheet)."""
    return f"{'sheets' if bp.piece.side == 'sheet' else 'boards'}/{bp.component}"


def token_key(tp: TokenPiece) -> str:
    """``<component>/<id>`` of a token with a row (``<component>/line N`` without an id
    column), ``tokens/<component>`` of one without."""
    row = tp.face.row
    if row is None:
        return f"tokens/{tp.component}"
    return f"{tp.component}/{row.id}" if row.id is not None else f"{tp.component}/line {row.line}"


def die_key(net: DieNet) -> str:
    """``dice/<component>``."""
    return f"dice/{net.component}"


def _add(out: dict[str, dict], key: str, entry: dict, face: str) -> None:
    """Add a copy to ``out``: a new entry, or one more face of the entry ``key`` has."""
    if key in out:
        out[key]["faces"].append(face)
    else:
        out[key] = {**entry, "face": face, "faces": [face]}


def _done(out: dict[str, dict]) -> dict[str, dict]:
    for entry in out.values():
        if len(set(entry["faces"])) == 1:
            del entry["faces"]
    return out


def board_entries(game: Game, layouts: LayoutSet) -> dict[str, dict]:
    """The boards and reference sheets of ``game`` (:func:`pnp.model.pieces.board_pieces`),
    hashed with ``layouts`` (the board designs) at their trim size. Raises BuildError as
    board_pieces does."""
    pieces, _ = board_pieces(game)
    out: dict[str, dict] = {}
    for bp in pieces:
        comp = game.components[bp.component]
        sheet = bp.piece.side == "sheet"
        label = str(comp.options["sheet"].get("title", f"{comp.name} (reference sheet)")) if sheet else comp.name
        entry = {"kind": "sheet" if sheet else "board", "component": comp.id, "id": None, "label": label,
                 "copies": bp.piece.copies, "fields": board_fields(comp, sheet), "back": None}
        _add(out, board_key(bp), entry, face_hash(layouts, bp.piece, bp.size, game.path))
    return _done(out)


def _token_fields(game: Game, tp: TokenPiece) -> dict[str, str]:
    row = tp.face.row
    if row is not None:
        return {k: cell_text(v) for k, v in row.values.items()}
    comp = game.components[tp.component]
    out = {"layout": cell_text(comp.layout), "copies": cell_text(comp.copies)}
    if comp.back:
        out["back"] = cell_text(comp.back)
    return _settings(comp, out)


def _label(game: Game, tp: TokenPiece) -> str:
    row = tp.face.row
    if row is None:
        return game.components[tp.component].name
    return next((cell_text(row.values[k]) for k in ("title", "name", "label") if row.values.get(k)), "")


def token_entries(game: Game, layouts: LayoutSet) -> dict[str, dict]:
    """The tokens and standees of ``game`` (:func:`pnp.model.pieces.token_pieces`), hashed with
    ``layouts`` at their trim size (a standee: its front panel), so ``face`` is the hash its
stamp prints; ``shape`` (``circle 20 x 20 mm``) says how it is cut, and a new shape prints
differently too. ``fields``: a token's cells,
    or for a component without a table its game.toml settings (a setting of a component with
    a table, such as its ``size``, shows as a face change of every token it prints). Raises
    BuildError as token_pieces does."""
    pieces, _ = token_pieces(game)
    out: dict[str, dict] = {}
    for tp in pieces:
        size = Size(tp.width, tp.height)
        key = token_key(tp)
        if key not in out:
            back = face_hash(layouts, tp.back, size, game.path) if tp.back is not None else None
            entry = {"kind": "token", "component": tp.component,
                     "id": None if tp.face.row is None else tp.face.row.id, "label": _label(game, tp),
                     "copies": tp.face.copies, "fields": _token_fields(game, tp), "back": back,
                     "shape": f"{tp.shape} {_mm(tp.width)} x {_mm(tp.height)} mm"
                     + (f", base {_mm(tp.base)} mm" if tp.base else "")}
        else:
            entry = out[key]
        _add(out, key, entry, face_hash(layouts, tp.face, size, game.path))
    return _done(out)


def die_entries(game: Game, layouts: LayoutSet) -> dict[str, dict]:
    """The dice of ``game`` (:func:`pnp.model.pieces.die_nets`): ``face`` hashes the six faces
    as printed (value, pips or not, size, and each face's layout drawn at the face size),
    ``fields`` are its game.toml settings. Raises BuildError as die_nets does."""
    nets, _ = die_nets(game)
    out: dict[str, dict] = {}
    for net in nets:
        comp = game.components[net.component]
        parts = [repr((round(net.size, 4), net.pips, [cell_text(v) for v in net.faces]))]
        for value in net.faces:
            if net.layout:
                piece = Piece(net.layout, dict(net.context, face=value), net.component, side=f"face {value}")
                parts.append(face_hash(layouts, piece, Size(net.size, net.size), game.path))
        fields = {"layout": cell_text(net.layout), "copies": cell_text(net.copies)}
        _settings(comp, fields)
        out[die_key(net)] = {"kind": "die", "component": net.component, "id": None, "label": net.title,
                             "copies": net.copies, "fields": fields,
                             "face": hashlib.sha256("\n".join(parts).encode()).hexdigest(), "back": None}
    return out


def piece_entries(game: Game, layouts: LayoutSet) -> dict[str, dict]:
    """Every board, reference sheet, token and die entry of ``game``, in that order (see the
    module docstring), hashed with ``layouts``, the board designs."""
    return {**board_entries(game, layouts), **token_entries(game, layouts), **die_entries(game, layouts)}


def empty_layouts(game: Game, path: Path, display: str) -> LayoutSet:
    """The board designs of a game without ``boards.toml``: none, and its colours."""
    return LayoutSet(path, display, {}, {}, dict(game.manifest.get("colors", {})))
