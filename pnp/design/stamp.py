"""What a piece prints, as a short hash: the content hash of its face, and the version stamp.

The face hash of a piece (:func:`face_hash`) is the SHA-256 of everything its drawing depends
on: the layout as resolved (background, boxes and their settings, with the layouts its repeat
boxes draw), the layouts' bleed and safe zone, the icons it may show, the piece's trim size,
the values of the template names the layout reads (:func:`pnp.design.names.drawing_key`), and
the bytes of the art files its image boxes name. Two pieces with the same hash print the same
face; a change to a column no layout reads leaves it as it was. The version stamp
(:func:`stamp_text`, ``v1.2 · 3f9a1c``) prints the game's version and the first
:data:`SHORT` hex digits of that hash (docs/versions.md).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..core.files import file_digest
from ..core.units import Size
from ..model.pieces import Piece
from .layouts import LayoutSet
from .names import _freeze, drawing_key
from .templating import compiled

SHORT = 6
"""Hex digits of the face hash the stamp prints: 16.7 million values, so two versions of one
card of a game tell apart by eye."""
MAX_NESTING = 8


def _layout_value(layouts: LayoutSet, name: str, depth: int = 0) -> Any:
    """The resolved definition of layout ``name`` and of the layouts its repeat boxes draw, as
    nested tuples (None for a layout the file does not define)."""
    layout = layouts.layouts.get(name)
    if layout is None or depth > MAX_NESTING:
        return None
    boxes = []
    for box in layout.boxes:
        nested = _layout_value(layouts, str(box.props.get("layout")), depth + 1) if box.type == "repeat" else None
        boxes.append((box.name, box.type, round(box.x, 4), round(box.y, 4), round(box.width, 4),
                      round(box.height, 4), box.area, _freeze(box.props), nested))
    return (name, _freeze(layout.background), tuple(boxes))


def _kinds(layouts: LayoutSet, name: str, depth: int = 0) -> set[str]:
    layout = layouts.layouts.get(name)
    if layout is None or depth > MAX_NESTING:
        return set()
    kinds = {box.type for box in layout.boxes}
    for box in layout.boxes:
        if box.type == "repeat":
            kinds |= _kinds(layouts, str(box.props.get("layout")), depth + 1)
    return kinds


_DIGESTS: dict[tuple[Path, int, int], str] = {}
"""Art digests by (path, size, modification time): a deck showing one picture reads it once."""


def _art(game_dir: Path, rel: str) -> str:
    """The digest of art file ``rel`` of the game folder ('missing' when it is not a file)."""
    path = (game_dir / rel.strip()).resolve()
    try:
        if not path.is_file() or not path.is_relative_to(game_dir.resolve()):
            return "missing"
        stat = path.stat()
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key not in _DIGESTS:
            _DIGESTS[key] = file_digest(path)
        return _DIGESTS[key]
    except OSError:
        return "unreadable"


def _nested_images(layouts: LayoutSet, name: str, game_dir: Path, depth: int = 1) -> list[tuple[str, str]]:
    """(path, digest) of the art named as written (not by a template) in the layouts the repeat
    boxes of layout ``name`` draw, at any depth."""
    layout = layouts.layouts.get(name)
    out: list[tuple[str, str]] = []
    for box in layout.boxes if layout and depth <= MAX_NESTING else ():
        if box.type != "repeat":
            continue
        inner = layouts.layouts.get(str(box.props.get("layout")))
        for item in inner.boxes if inner else ():
            raw = item.props.get("image")
            if item.type == "image" and isinstance(raw, str) and raw.strip() and "{{" not in raw and "{%" not in raw:
                out.append((raw.strip(), _art(game_dir, raw)))
        out += _nested_images(layouts, str(box.props.get("layout")), game_dir, depth + 1)
    return out


def _images(layouts: LayoutSet, piece: Piece, game_dir: Path) -> list[tuple[str, str]]:
    """(path, digest) of the art the piece's image boxes name, their templates evaluated with
    the piece's names (a template that fails is kept as written: drawing reports it), and the
    art its repeat boxes' layouts name as written."""
    layout = layouts.layouts.get(piece.layout)
    out = _nested_images(layouts, piece.layout, game_dir)
    for box in layout.boxes if layout else ():
        raw = box.props.get("image")
        if box.type != "image" or not isinstance(raw, str):
            continue
        rel = raw
        if "{{" in raw or "{%" in raw:
            try:
                rel = compiled(raw).render(piece.context)
            except Exception:  # noqa: BLE001 - the drawing reports it; the hash keeps the template
                rel = raw
        if rel.strip():
            out.append((rel.strip(), _art(game_dir, rel)))
    return out


def face_hash(layouts: LayoutSet, piece: Piece, size: Size, game_dir: Path) -> str:
    """The SHA-256 (hex) of what ``piece`` prints at trim ``size`` (pt): see the module
    docstring. A layout whose template names cannot be told hashes the piece's whole context,
    so it changes with any cell of its row (never less often than the face)."""
    key = drawing_key(layouts, piece)
    values = key if key is not None else (piece.layout, _freeze(piece.context))
    memo_key = ("face_hash", piece.layout, game_dir)
    parts = layouts.memo.get(memo_key)
    if parts is None:  # what the layout alone decides: the same for every piece drawn with it
        kinds = _kinds(layouts, piece.layout)
        icons = ()
        if kinds & {"icons", "text", "repeat"}:  # what may show an icon inline or in a row
            icons = tuple((i.name, _freeze(vars(i)), _art(game_dir, i.image) if i.image else "")
                          for i in sorted(layouts.icons.values(), key=lambda i: i.name))
        parts = layouts.memo[memo_key] = (repr(_layout_value(layouts, piece.layout)), repr(icons),
                                          repr(_freeze(layouts.colors)))
    layout, icons, colors = parts
    # the repr of the tuple (layout, bleed, safe zone, size, values, icons, images, colours),
    # written out so the parts every piece of a layout shares are not formatted again
    whole = ", ".join((layout, repr(round(layouts.bleed, 4)), repr(round(layouts.safe_zone, 4)),
                       repr((round(size.width, 4), round(size.height, 4))), repr(values), icons,
                       repr(tuple(_images(layouts, piece, game_dir))), colors))
    return hashlib.sha256(f"({whole})".encode("utf-8")).hexdigest()


def stamp_text(version: str | None, digest: str) -> str:
    """The stamp a piece prints: ``v1.2 · 3f9a1c`` (the hash alone for a game with no version)."""
    short = digest[:SHORT]
    return f"v{version} · {short}" if version else short
