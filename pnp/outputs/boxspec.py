"""What ``[boxes.ID]`` in game.toml asks of ``pnp build --boxes``: boxes that hold a group of
decks, and the layout or picture on a box's faces (docs/cutting.md, docs/game-format.md).

.. code-block:: toml

    [boxes.starter]
    name = "Starter decks"             # optional: the decks' names joined with " + "
    decks = ["elements", "reactions"]  # deck component ids, one box for all of them
    front = { layout = "box-front" }   # a layout of layouts.toml, drawn on the front panel
    back = { image = "art/box-back.png" }  # or a picture, relative to the game folder
    sides = { layout = "box-side" }    # both sides, the layout turned a quarter

A group's box is as deep as the decks' stacks together and as wide and tall as the largest of
their cards (decks of different sizes share a box sized for the largest, as a game box's insert
holds them); every deck in no group keeps a box of its own. A deck may be in one group only. A
table named after one deck with just that deck (``[boxes.elements] decks = ["elements"]``)
gives that deck's own box its faces.

Every problem is an error finding located at its game.toml key, with a hint (a did-you-mean
for a misspelt deck or layout, only for a name close to it: :data:`CLOSE`): ``box.group`` for
the table and its decks, ``box.face`` for a face. ``pnp check --boxes`` finds them first (the
same stage, dry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.findings import Finding
from ..core.suggest import did_you_mean
from ..design.layouts import LayoutSet
from ..model.cells import ID_RE
from ..model.game import Component, Game
from ..model.pieces import card_instances

BOX_KEYS = ("name", "decks", "front", "back", "sides")
"""The settings a ``[boxes.ID]`` table may have."""
FACES = ("front", "back", "sides")
"""The faces a box may give a layout or a picture."""
FACE_KEYS = ("layout", "image")
"""How a face is given: one of these."""
CLOSE = 0.75
"""How alike a misspelt deck, layout or setting must be to a real one to be suggested
(difflib's ratio): close enough for a typo, not for an unrelated name."""


@dataclass(frozen=True)
class Face:
    """A face's design: a ``layout`` of layouts.toml or an ``image`` path (one of them), and
    ``key``, the dotted game.toml key that names it (``boxes.starter.front.layout``)."""

    layout: str | None
    image: str | None
    key: str


@dataclass(frozen=True)
class BoxSpec:
    """One box to make: its ``id`` (the ``[boxes.ID]`` name, or the deck's id for a deck's own
    box), ``name`` (printed on it), the deck components it holds and its faces' designs (by
    ``front``, ``back``, ``sides``; a face not given shows the name and count)."""

    id: str
    name: str
    decks: tuple[Component, ...]
    faces: dict[str, Face] = field(default_factory=dict)
    key: str | None = None
    """The game.toml key of the box's table; None for a deck's own box."""


def _error(game: Game, rule: str, key: str, message: str, hint: str, component: str | None = None) -> Finding:
    return Finding.at("error", rule, game.key_location(key), message, hint=hint, component=component)


def _face(game: Game, where: str, raw: Any, layouts: LayoutSet | None,
          boards: tuple[str, frozenset[str]] | None) -> tuple[Face | None, list[Finding]]:
    example = '{ layout = "box-front" } or { image = "art/box-front.png" }'
    if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in FACE_KEYS:
        given = ", ".join(raw) if isinstance(raw, dict) else repr(raw)
        close = did_you_mean(next(iter(raw)), FACE_KEYS, cutoff=CLOSE) if isinstance(raw, dict) and len(raw) == 1 \
            else ""
        return None, [_error(game, "box.face", where, f"a box face is a table of layout or image, not {given}",
                             (close + " " if close else "") + f"write {where.rsplit('.', 1)[1]} = {example}")]
    kind, value = next(iter(raw.items()))
    key = f"{where}.{kind}"
    if not isinstance(value, str) or not value.strip():
        return None, [_error(game, "box.face", key, f"the face's {kind} must be a name, not {value!r}",
                             f"write {example}")]
    if kind == "layout":
        known = layouts.layouts if layouts is not None else {}
        if value not in known:
            where_from = layouts.display if layouts is not None else "layouts.toml"
            listed = "layouts: " + (", ".join(sorted(known)) or "none")
            if boards is not None and value in boards[1]:
                decks = ", ".join(c.id for c in game if c.kind == "deck") or "none"
                return None, [_error(game, "box.face", key,
                                     f"the layout {value!r} is a board layout of {boards[0]}, not a card layout of "
                                     f"{where_from}: a box holds decks (decks: {decks}), and its faces are drawn "
                                     f"as their cards are",
                                     f"design the face in {where_from} (its trim the panel's size), or give an "
                                     f"image; {listed}")]
            return None, [_error(game, "box.face", key, f"the layout {value!r} is not defined in {where_from}",
                                 did_you_mean(value, known, listed, cutoff=CLOSE))]
        return Face(value, None, key), []
    return Face(None, value, key), []


def box_specs(game: Game, counts: dict[str, int], layouts: LayoutSet | None,
              boards: tuple[str, frozenset[str]] | None = None) -> tuple[list[BoxSpec], list[Finding]]:
    """The boxes of ``game`` in manifest order: each ``[boxes.ID]`` group where its first deck
    stands, then every deck with cards (``counts`` by deck id) in no group as a box of its own.
    ``layouts`` (None: the game has no layouts.toml) is what face layouts are looked up in;
    ``boards`` (the display name of boards.toml and its layouts' names), what a face naming a
    board's layout is told it is.
    Returns the boxes and the ``box.group`` / ``box.face`` error findings; a group with an
    error is left out (the build is refused by its finding)."""
    raw = game.manifest.get("boxes", {})
    findings: list[Finding] = []
    if not isinstance(raw, dict):
        return [], [_error(game, "box.group", "boxes", "boxes must be tables, one per box",
                           '[boxes.starter] with decks = ["elements", "reactions"]')]
    decks = {c.id: c for c in game if c.kind == "deck"}
    grouped: dict[str, str] = {}
    groups: list[BoxSpec] = []
    for bid, table in raw.items():
        where = f"boxes.{bid}"
        if not isinstance(table, dict):
            findings.append(_error(game, "box.group", where, f"box {bid!r} must be a table",
                                   f'write [boxes.{bid}] with decks = [...]'))
            continue
        bad = len(findings)
        if not ID_RE.match(bid):
            findings.append(_error(game, "box.group", where,
                                   f"box id {bid!r} may hold only letters, digits, '-', '_' and '.'",
                                   "the id names the box's cut file"))
        listed = table.get("decks")
        if bid in decks and not (isinstance(listed, list) and bid in listed):
            # a group holding the deck it is named after is that deck's box; any other would share
            # its cut file's name with that deck's own box
            findings.append(_error(game, "box.group", where, f"box id {bid!r} is also a deck's id",
                                   f"give the group an id of its own (its cut file is named by it), or list "
                                   f"{bid!r} in its decks"))
        for key in table:
            if key not in BOX_KEYS:
                findings.append(_error(game, "box.group", f"{where}.{key}", f"unknown box setting {key!r}",
                                       did_you_mean(key, BOX_KEYS, "settings: " + ", ".join(BOX_KEYS), cutoff=CLOSE)))
        names = table.get("decks")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            findings.append(_error(game, "box.group", f"{where}.decks",
                                   f"a box's decks must be a list of deck ids, not {names!r}",
                                   'for example decks = ["elements", "reactions"]'))
            names = []
        members = []
        for name in names:
            if name not in decks:
                findings.append(_unknown_deck(game, f"{where}.decks", name, decks))
            elif name in grouped:
                findings.append(_error(game, "box.group", f"{where}.decks",
                                       f"deck {name!r} is already in box {grouped[name]!r}",
                                       "a deck goes in one box; name it in one group only", component=name))
            elif not counts.get(name):
                findings.append(_error(game, "box.group", f"{where}.decks", f"deck {name!r} has no cards to box",
                                       "leave it out of the group", component=name))
            else:
                grouped[name] = bid
                members.append(decks[name])
        title = table.get("name", " + ".join(m.name for m in members))
        if "name" in table and (not isinstance(title, str) or not title.strip()):  # the decks' names otherwise
            findings.append(_error(game, "box.group", f"{where}.name", f"a box's name must be text, not {title!r}",
                                   'for example name = "Starter decks"'))
        faces = {}
        for side in FACES:
            if side in table:
                face, problems = _face(game, f"{where}.{side}", table[side], layouts, boards)
                findings += problems
                if face is not None:
                    faces[side] = face
        if len(findings) == bad:
            groups.append(BoxSpec(bid, title, tuple(members), faces, where))
    out: list[BoxSpec] = []
    placed: set[str] = set()
    for comp in decks.values():
        if not counts.get(comp.id):
            continue
        if comp.id in grouped:
            group = next((g for g in groups if g.id == grouped[comp.id]), None)
            if group is not None and group.id not in placed:
                placed.add(group.id)
                out.append(group)
            continue
        out.append(BoxSpec(comp.id, comp.name, (comp,)))
    return out, findings


def _unknown_deck(game: Game, key: str, name: str, decks: dict[str, Component]) -> Finding:
    """The ``box.group`` error of a group naming ``name``, which is no deck: another kind of
    component, a deck's printed name instead of its id, or a misspelt id (suggested when close)."""
    listed = "decks: " + (", ".join(decks) or "none")
    other = game.components.get(name)
    if other is not None:
        return _error(game, "box.group", key, f"no deck {name!r}: {name!r} is a {other.kind} component, not a deck",
                      f"a box holds decks of cards; {listed}")
    by_name = next((c for c in decks.values() if c.name.strip().lower() == name.strip().lower()), None)
    if by_name is not None:
        return _error(game, "box.group", key, f"no deck {name!r}",
                      f"did you mean {by_name.id!r}? a group names its decks by id, and {name!r} is the name "
                      f"printed on deck {by_name.id!r}; {listed}")
    return _error(game, "box.group", key, f"no deck {name!r}", did_you_mean(name, decks, listed, cutoff=CLOSE))


def deck_counts(game: Game) -> dict[str, int]:
    """The number of cards of each deck, by deck id."""
    counts: dict[str, int] = {}
    for card in card_instances(game):
        counts[card.deck] = counts.get(card.deck, 0) + 1
    return counts
