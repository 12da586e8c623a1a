"""A snapshot of what a game prints: every card with its cells, its copies and the hashes of its
face and back (:func:`pnp.design.stamp.face_hash`), every board, reference sheet, token and die
likewise (:mod:`pnp.design.snapshot_pieces`), and one hash of the game's data.

Builds keep the last one beside the build record and ``pnp release`` saves one per version, so
``pnp diff`` and ``pnp build --changed-since`` can tell which pieces changed, how, and whether
what they print did (docs/versions.md). A snapshot is plain JSON: no paths, no times.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..core.errors import PnpError
from ..core.files import file_digest
from ..model.game import Game, Row
from ..model.pieces import CardInstance
from .layouts import LayoutSet
from .drawable import drawable_cards
from .stamp import face_hash

FORMAT = 2
"""The snapshot format: a later pnp that changes the shape reads this number first. Format 1
recorded cards only; format 2 adds boards, reference sheets, tokens and dice (``kinds``)."""
FORMATS = (1, 2)
"""The formats this pnp reads."""
KINDS = ("card", "board", "sheet", "token", "die")
"""The kinds of piece a snapshot of :data:`FORMAT` records, in the order ``pnp diff`` lists
them. An entry without ``kind`` is a card (format 1 wrote none)."""
PLURAL = {"card": "cards", "board": "boards", "sheet": "sheets", "token": "tokens", "die": "dice"}


def kinds_of(snapshot: dict) -> tuple[str, ...]:
    """The kinds of piece ``snapshot`` recorded: its ``kinds``, or cards alone for format 1."""
    kinds = snapshot.get("kinds")
    return tuple(kinds) if isinstance(kinds, list) else ("card",)


def kind_of(entry: dict) -> str:
    """The kind of a snapshot entry (``card`` when it says none)."""
    return entry.get("kind", "card")


def cell_text(value: Any) -> str:
    """A typed cell as a designer reads it: lists joined with ``;``, yes/no, blank as ``""``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "; ".join(cell_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _fields(row: Row | None) -> dict[str, str]:
    return {} if row is None else {k: cell_text(v) for k, v in row.values.items()}


def data_hash(files: list[Path], root: Path) -> str:
    """SHA-256 (hex) of the game's data files: each one's path under ``root`` and its bytes."""
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + file_digest(path).encode() + b"\n")
    return h.hexdigest()


def card_entries(cards: list[CardInstance], layouts: LayoutSet, game_dir: Path) -> dict[str, dict]:
    """``deck/id`` -> the card's entry: ``component``, ``id``, ``copies``, ``fields`` (each
    column's cell as text), ``face`` and ``back`` hashes. Copies are one entry; a card whose
    copies print differently (a layout that reads ``piece.copy``) keeps the first copy's face
    and ``faces``, every copy's."""
    out: dict[str, dict] = {}
    for card in cards:
        key = card.face.name
        face = face_hash(layouts, card.face, card.size, game_dir)
        entry = out.get(key)
        if entry is None:
            out[key] = {"component": card.deck, "id": card.face.row_id, "copies": card.face.copies,
                        "fields": _fields(card.face.row), "face": face,
                        "back": face_hash(layouts, card.back, card.size, game_dir), "faces": [face]}
        else:
            entry["faces"].append(face)
    for entry in out.values():
        if len(set(entry["faces"])) == 1:
            del entry["faces"]
    return out


def game_snapshot(game: Game, layouts: LayoutSet, data_files: list[Path], others: dict[str, dict] | None = None
                  ) -> dict:
    """The snapshot of ``game`` as it prints with ``layouts`` (see the module docstring):
    ``format``, ``game``, ``version``, ``kinds`` (:data:`KINDS`; cards alone without
    ``others``), ``data`` (the hash of
    ``data_files``) and ``pieces``: the cards, then ``others``, the boards, sheets, tokens and
    dice (:func:`pnp.design.snapshot_pieces.piece_entries`). Raises PnpError (``versions.ref``)
    when one of ``others`` has a card's key (a deck named ``boards``)."""
    cards, _ = drawable_cards(game, layouts)
    pieces = card_entries(cards, layouts, game.path)
    for key, entry in (others or {}).items():
        if key in pieces:
            raise PnpError(f"the {entry['kind']} {entry['component']!r} and a card of {game.title} are both "
                           f"named {key}", rule="versions.ref",
                           hint=f"rename the deck {key.split('/')[0]!r}: boards/, sheets/, tokens/ and dice/ name "
                           "boards, reference sheets, tokens without a table and dice")
        pieces[key] = entry
    kinds = list(KINDS) if others is not None else ["card"]  # what was looked at, and nothing more
    return {"format": FORMAT, "game": game.id, "version": game.version, "kinds": kinds,
            "data": data_hash(data_files, game.path), "pieces": pieces}
