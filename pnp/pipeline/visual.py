"""``pnp diff --visual FILE``: the changed cards old beside new (:mod:`pnp.outputs.visual`).
The old cards come from where the earlier version keeps what they looked like:

- ``last``: the card sheets PDF of the last build, each old face cut out of its sheet at the
  trim box the build's snapshot records (``positions``), once the PDF is checked to be the one
  the build record lists (same SHA-256);
- a release: its archive of the files the build read (:mod:`pnp.pipeline.archive`), unpacked
  and drawn again;
- a git revision: the game folder at that revision (:func:`pnp.pipeline.versions.checkout`),
  drawn again.

Where that is missing or changed, it is a ``versions.visual`` error saying what to do.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from ..core.errors import PnpError
from ..core.files import RELEASES, file_digest, load_json, write_atomic
from ..design.layouts import game_layouts
from ..design.drawable import drawable_cards
from ..model.facts import game_facts
from ..model.games import GameSource
from ..model.load import LoadOptions, load_game
from ..outputs.visual import Pair, SheetFace, Sheets, visual_pdf
from ..core.units import Size, paper
from ..render.renderer import Renderer
from .archive import RULE, unpack
from .cache import BuildRecord
from .changes import field_changes, what_changed
from .versions import LAST, PIECES_FILE, checkout, current_snapshot, diff, is_revision, resolve_since


def _renderer(game, source: GameSource) -> tuple[Renderer, dict]:
    layouts = game_layouts(game, source)
    cards, _ = drawable_cards(game, layouts)
    firsts: dict = {}
    for card in cards:
        firsts.setdefault(card.face.name, card)
    return Renderer(layouts, game.path, game_display=game.display_root, facts=game_facts(game), draft=True), firsts


def _pairs(d, old_cards: dict, new_cards: dict) -> list[Pair]:
    """The pairs of diff ``d``: changed cards whose print changed, then added, then removed;
    ``old_cards``/``new_cards`` map ``deck/id`` to (trim size, face)."""
    pairs = [Pair(c.key, new_cards[c.key][0], old_cards[c.key][1], new_cards[c.key][1],
                  [what_changed(c)] + field_changes(c)) for c in _printed_cards(d)]
    pairs += [Pair(k, new_cards[k][0], None, new_cards[k][1], ["added"]) for k in d.added if d.kind(k) == "card"]
    pairs += [Pair(k, old_cards[k][0], old_cards[k][1], None, ["removed"]) for k in d.removed
              if d.kind(k) == "card"]
    return pairs


def _printed_cards(d) -> list:
    """The changed cards of diff ``d`` whose print changed (boards, tokens and dice are listed
    by ``pnp diff`` and left out of the pictures)."""
    return [c for c in d.changed if c.printed and c.kind == "card"]


def not_drawn(d) -> int:
    """How many boards, sheets, tokens and dice of diff ``d`` changed in print, were added or
    were removed: ``--visual`` draws cards only, and says how many pieces it left to the list."""
    return (sum(1 for c in d.changed if c.printed and c.kind != "card")
            + sum(1 for k in d.added + d.removed if d.kind(k) != "card"))


def _release(source: GameSource, ref: str) -> tuple[str, dict] | None:
    """(version, JSON) of the release ``ref`` names (``1.2`` or ``v1.2``), or None (also for a
    release file that cannot be read: :func:`resolve_since` says why)."""
    for name in (ref, ref[1:] if ref[:1] in "vV" else None):
        path = source.path / RELEASES / f"{name}.json" if name else None
        if path is not None and path.is_file():
            try:
                data = load_json(path)
            except (OSError, ValueError):
                return None
            return (name, data) if isinstance(data, dict) else None
    return None


@contextmanager
def _old_source(source: GameSource, ref: str, out_dir: Path, load: LoadOptions):
    """(how to name it, the game folder to draw from) of the earlier version ``ref``, a
    release (its archive unpacked) or a git revision, for the block. Raises PnpError
    (``versions.visual``) for a release that keeps no archive or whose archive is missing or
    changed, (``versions.ref``) for a REF that names nothing."""
    release = _release(source, ref)
    if release is not None:
        with unpack(source, release[0], release[1]) as old:
            yield f"release {release[0]}", old
    elif is_revision(source, ref):
        with checkout(source, ref) as old:
            yield f"git revision {ref}", old
    else:
        resolve_since(source, out_dir, ref, load)  # raises the versions.ref error that lists what there is
        raise PnpError(f"--visual --since {ref}: {ref} keeps no cards to draw", rule=RULE,
                       hint="give --since last, a release or a git revision")


def _sheet_faces(out_dir: Path, snapshot: dict) -> tuple[Sheets, dict]:
    """The card sheets PDF the last build's snapshot's ``positions`` name, opened (close it),
    and ``deck/id`` -> a :class:`SheetFace` of each card of the snapshot on those sheets. Raises PnpError (``versions.visual``) when the
    snapshot records no positions or the PDF is missing or is not as the build wrote it."""
    positions = snapshot.get("positions")
    if not isinstance(positions, dict) or not isinstance(positions.get("cards"), dict):
        raise PnpError(f"--visual --since last: the last build in {out_dir} recorded no card positions "
                       f"to cut the old faces out of its sheets ({PIECES_FILE} has none: an earlier pnp wrote it)",
                       rule=RULE, hint="give --since a release or a git revision; or build again, and --visual "
                       "--since last compares the next changes with that build")
    name = str(positions.get("file"))
    path = out_dir / name
    written = {rel: digest for entry in BuildRecord(out_dir).entries.values() for rel, digest in entry["files"].items()}
    if not path.is_file() or name not in written or file_digest(path) != written[name]:
        raise PnpError(f"--visual --since last: {path} is {'missing' if not path.is_file() else 'not as the last build wrote it'}"
                       " (the old faces are cut out of it)", rule=RULE,
                       hint="the sheets of the last build keep what the old cards looked like: build again to "
                       "compare with the sheets as they are now, or give --since a release (pnp release) or a git revision")
    sheets = Sheets(path.read_bytes())
    try:
        faces = {key: SheetFace(sheets, int(p["page"]), tuple(float(v) for v in p["trim"]))
                 for key, p in positions["cards"].items()}
        if any(not 0 <= f.page < len(sheets.doc) or len(f.trim) != 4 for f in faces.values()):
            raise ValueError("a page or trim box the sheets do not have")
    except (KeyError, TypeError, ValueError) as exc:
        sheets.close()
        raise PnpError(f"--visual --since last: the card positions in {out_dir / PIECES_FILE} cannot be read ({exc})",
                       rule=RULE, hint="build again (pnp build), or give --since a release or a git revision") from None
    return sheets, faces


def write_visual(source: GameSource, ref: str, target: Path, load: LoadOptions = LoadOptions(),
                 paper_name: str = "letter", out_dir: Path | None = None) -> tuple[int, int]:
    """Write the visual diff of the cards whose print changed since ``ref`` (``last``, a
    release or a git revision, as ``--since`` reads it), and the cards added and removed, to
    ``target`` on ``paper_name`` sheets; returns how many cards it shows and how many other
    pieces (:func:`not_drawn`) changed in print and are left to the list. ``out_dir`` is the
    game's output folder (default ``output/<id>``), where the last build is. Raises PnpError:
    ``versions.ref`` for a REF that names nothing, ``versions.visual`` when the version keeps
    nothing to draw the old cards from (see the module docstring)."""
    game = load_game(source.path, source.display, load)
    out_dir = out_dir if out_dir is not None else Path("output") / game.id
    new_renderer, new_cards = _renderer(game, source)
    new = {k: (card.size, card.face) for k, card in new_cards.items()}
    now = current_snapshot(game, source)
    if ref == LAST:  # the old faces are in the last build's sheets
        label, snapshot = resolve_since(source, out_dir, LAST, load)
        sheets, faces = _sheet_faces(out_dir, snapshot)
        try:
            d = diff(label, snapshot, now)
            missing = [k for k in [c.key for c in _printed_cards(d)] + [k for k in d.removed if d.kind(k) == "card"]
                       if k not in faces]
            if missing:
                raise PnpError(f"--visual --since last: the card positions in {out_dir / PIECES_FILE} name no "
                               f"card {missing[0]}", rule=RULE,
                               hint="build again (pnp build), or give --since a release or a git revision")
            old = {k: (Size(f.trim[2] - f.trim[0], f.trim[3] - f.trim[1]), f) for k, f in faces.items()}
            pairs = _pairs(d, old, new)
            data = visual_pdf(game.title, d.since, pairs, None, new_renderer, paper(paper_name))
        finally:
            sheets.close()
    else:
        with _old_source(source, ref, out_dir, load) as (label, old_source):
            old_game = load_game(old_source.path, old_source.display, load)
            old_renderer, old_cards = _renderer(old_game, old_source)
            d = diff(label, current_snapshot(old_game, old_source), now)
            pairs = _pairs(d, {k: (card.size, card.face) for k, card in old_cards.items()}, new)
            data = visual_pdf(game.title, d.since, pairs, old_renderer, new_renderer, paper(paper_name))
    write_atomic(target, data)
    return len(pairs), not_drawn(d)
