"""Versions of a game: the snapshot of what it prints now, the snapshot of an earlier version
(the last build, a release, a git revision), and what changed between the two.

``--since REF`` (``pnp diff``, ``pnp build --changed-since``) names the earlier version:

- ``last`` (the default): the last build into the output folder, whose snapshot a build keeps
  beside its build record (:data:`PIECES_FILE`);
- a release: ``releases/REF.json`` in the game folder, written by ``pnp release`` (``1.2`` or
  ``v1.2``);
- a git revision (``HEAD~1``, a tag, a commit) of the game folder when it is in a git
  repository: the game's files at that revision are read into a scratch folder and
  snapshotted as they were.

Anything else is a ``versions.ref`` error that says which releases exist (docs/versions.md).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import PnpError
from ..core.files import PIECES_RECORD, RELEASES, game_files, load_json, same_bytes, write_atomic
from ..design.drawable import drawable_cards
from ..design.layouts import BOARDS_FILE, board_layouts, game_layouts
from ..design.snapshot import FORMAT, FORMATS, KINDS, PLURAL, game_snapshot, kind_of, kinds_of
from ..design.snapshot_pieces import empty_layouts, piece_entries
from ..model.game import Game
from ..model.games import GameSource
from ..model.load import LoadOptions, load_game
from ..outputs.base import SheetOptions
from ..outputs.cards import face_positions

PIECES_FILE = PIECES_RECORD
"""The snapshot of the last build, beside the build record in the game's output folder."""
LAST = "last"


def data_files(game: Game) -> list[Path]:
    """The game folder's files a build reads (as :meth:`OutputJob.data_files`)."""
    return [p for p in game_files(game.path) if p.suffix.lower() not in (".md", ".txt")]


def current_snapshot(game: Game, source: GameSource) -> dict:
    """The snapshot of ``game`` as it prints now (:func:`pnp.design.snapshot.game_snapshot`):
    its cards, drawn with ``layouts.toml``, and its boards, sheets, tokens and dice, with
    ``boards.toml``. Raises LayoutError for a layouts file that cannot be read, BuildError for
    a piece that cannot be made (as the build does)."""
    boards = board_layouts(game, source)
    if boards is None:
        boards = empty_layouts(game, source.templates_dir / BOARDS_FILE, f"{source.templates_display}/{BOARDS_FILE}")
    return game_snapshot(game, game_layouts(game, source), data_files(game), piece_entries(game, boards))


def sheet_positions(game: Game, source: GameSource, opts: SheetOptions) -> dict:
    """Where a full build with ``opts`` puts each card's face in its card sheets PDF
    (:func:`pnp.outputs.cards.face_positions`): ``file``, the PDF's name in the output folder,
    and ``cards``, ``deck/id`` -> ``page`` (index from 0) and ``trim`` [x0, y0, x1, y1] (pt from
    the page's bottom-left) of its first copy. Raises BuildError when the cards fit no sheet."""
    cards, _ = drawable_cards(game, game_layouts(game, source))
    found: dict[str, dict] = {}
    for card, (page, trim) in zip(cards, face_positions(cards, opts)):
        found.setdefault(card.face.name, {"page": page, "trim": list(trim)})
    return {"file": f"{game.file_stem}-cards{'-gutter-fold' if opts.gutter_fold else ''}.pdf", "cards": found}


def snapshot_document(snapshot: dict, positions: dict | None = None) -> bytes:
    """The last build's snapshot file (:data:`PIECES_FILE`) but for its last key: ``snapshot``
    with ``positions`` (:func:`sheet_positions`) under its key ``positions``, apart from the
    pieces, so that ``pnp diff --visual`` can cut the old faces out of the sheets; UTF-8 JSON,
    one space an indent level. :func:`save_last` adds the key ``build``. Worked out beside the
    stages (in another process), the snapshot travels as these bytes rather than as its tree
    of dicts, which for 12,800 cards took 10 MB more to receive than the text."""
    if positions is not None:
        snapshot = {**snapshot, "positions": positions}
    return json.dumps(snapshot, indent=1, ensure_ascii=False).encode("utf-8")


def save_last(out_dir: Path, document: bytes, parts: dict | None = None) -> None:
    """Keep ``document`` (:func:`snapshot_document`) as the last build's snapshot, beside the
    build record (rewritten only when it changed), with ``parts``, the build's parts (stage
    name -> its record key, :mod:`pnp.pipeline.cache`), under ``build``, so that ``pnp
    release`` records the files of this build and no other. The file is what
    ``json.dumps(..., indent=1)`` writes of the whole, with a line break after it; the key is
    added to the text, not to a copy of the tree, and the text is written in two pieces."""
    if parts is None:
        chunks = [document, b"\n"]
    else:
        build = json.dumps(dict(sorted(parts.items())), indent=1, ensure_ascii=False).replace("\n", "\n ")
        if document.endswith(b"\n}"):  # the last line closes the object: the key goes before it
            chunks = [memoryview(document)[:-2], f',\n "build": {build}\n}}\n'.encode("utf-8")]
        else:  # an empty object, {}
            chunks = [f'{{\n "build": {build}\n}}\n'.encode("utf-8")]
    path = out_dir / PIECES_FILE
    if not same_bytes(path, chunks):
        write_atomic(path, chunks)


def releases(game_dir: Path) -> list[str]:
    """The versions the game folder has release snapshots of, in file-name order."""
    folder = game_dir / RELEASES
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _read(path: Path, label: str) -> dict:
    try:
        data = load_json(path)
    except (OSError, ValueError) as exc:
        raise PnpError(f"{label}: {path.name} cannot be read ({exc})", rule="versions.ref",
                       hint="it is written by pnp build and pnp release; build again, or release again") from None
    if not isinstance(data, dict) or data.get("format") not in FORMATS or not isinstance(data.get("pieces"), dict):
        raise PnpError(f"{label}: {path.name} is not a snapshot pnp {FORMAT} can read", rule="versions.ref",
                       hint="it is written by pnp build and pnp release; build again, or release again")
    return data


def _git(game_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(game_dir), *args], capture_output=True)


def _in_git(game_dir: Path) -> bool:
    return shutil.which("git") is not None and _git(game_dir, "rev-parse", "--is-inside-work-tree").returncode == 0


def is_revision(source: GameSource, ref: str) -> bool:
    """Whether ``ref`` is a git revision of the repository holding the game folder."""
    return _in_git(source.path) and _git(source.path.resolve(), "rev-parse", "--verify", "--quiet",
                                         f"{ref}^{{commit}}").returncode == 0


@contextmanager
def checkout(source: GameSource, ref: str, option: str = "--since"):
    """The game as it was at git revision ``ref``: its folder (and a templates folder in the
    same repository) read into a scratch folder, yielded as a :class:`GameSource` that lasts
    until the block ends. Raises PnpError when the folder is not in git at that revision."""
    game_dir = source.path.resolve()
    top = Path(_git(game_dir, "rev-parse", "--show-toplevel").stdout.decode().strip()).resolve()
    folders = [game_dir.relative_to(top).as_posix()]
    templates = source.templates_dir.resolve() if source.templates_dir else None
    if templates is not None and templates.is_relative_to(top) and not templates.is_relative_to(game_dir):
        folders.append(templates.relative_to(top).as_posix())
    with tempfile.TemporaryDirectory(prefix="pnp-since-") as tmp:
        for folder in folders:
            done = _git(top, "archive", "--format=tar", ref, "--", folder)
            if done.returncode != 0:
                raise PnpError(f"{option} {ref}: {folder} is not in git at that revision", rule="versions.ref",
                               hint=done.stderr.decode(errors="replace").strip() or None)
            with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
                _extract(tar, tmp, f"{option} {ref}: {folder}")
        root = Path(tmp)
        old_dir = root / folders[0]
        old_templates = (root / folders[1]) if len(folders) > 1 else \
            (old_dir / templates.relative_to(game_dir) if templates is not None else None)
        yield GameSource(old_dir, f"{source.label} at {ref}", old_templates, f"{source.templates_display} at {ref}")


def _extract(tar: tarfile.TarFile, dest: str, what: str) -> None:
    """Every member of ``tar`` (a ``git archive``) into the folder ``dest``, as tarfile's
    ``data`` filter extracts them: Python 3.11.4 and later have the filter; before it (3.11.0
    to 3.11.3, Debian 12's 3.11.2 among them) the same is done here: a leading ``/`` is dropped,
    and anything but a file, a folder or a link, or a name or link that leads outside ``dest``,
    is refused. Raises PnpError naming ``what`` and the member refused."""
    if hasattr(tarfile, "data_filter"):
        try:
            tar.extractall(dest, filter="data")
        except tarfile.FilterError as exc:
            raise PnpError(f"{what}: the archive git made cannot be read safely ({exc})", rule="versions.ref") from None
        return
    root = os.path.realpath(dest)

    def inside(path: str) -> bool:
        return os.path.commonpath([root, os.path.realpath(path)]) == root

    for member in tar.getmembers():
        member.name = member.name.lstrip("/" + os.sep)
        target = os.path.join(dest, member.name)
        link = os.path.join(os.path.dirname(target), member.linkname) if member.issym() else \
            os.path.join(dest, member.linkname) if member.islnk() else target
        if not (member.isreg() or member.isdir() or member.issym() or member.islnk()) \
                or not inside(target) or not inside(link):
            raise PnpError(f"{what}: the archive git made cannot be read safely ({member.name!r} would be "
                           "written outside the scratch folder, or is not a file, folder or link)", rule="versions.ref")
    tar.extractall(dest)


def _git_snapshot(source: GameSource, ref: str, load: LoadOptions, option: str) -> dict | None:
    """The snapshot of the game at git revision ``ref``, or None when ``ref`` is no revision."""
    if not is_revision(source, ref):
        return None
    with checkout(source, ref, option) as old:
        return current_snapshot(load_game(old.path, old.display, load), old)


def resolve_since(source: GameSource, out_dir: Path, ref: str | None, load: LoadOptions = LoadOptions(),
                  option: str = "--since") -> tuple[str, dict]:
    """The earlier version ``ref`` names (see the module docstring) as (how to name it, its
    snapshot). Raises PnpError (``versions.ref``) for a ref that names nothing, saying what
    there is; messages name the ``option`` that gave it."""
    ref = ref or LAST
    if ref == LAST:
        path = out_dir / PIECES_FILE
        if not path.is_file():
            known = releases(source.path)
            raise PnpError(f"{option} last: {source.label} has no build in {out_dir} to compare with",
                           rule="versions.ref",
                           hint="build it first (pnp build), or give --since a release"
                           + (f" ({', '.join(known)})" if known else "") + " or a git revision")
        return "the last build", _read(path, f"{option} last")
    for name in (ref, ref[1:] if ref[:1] in "vV" else None):
        if name and (source.path / RELEASES / f"{name}.json").is_file():
            return f"release {name}", _read(source.path / RELEASES / f"{name}.json", f"{option} {ref}")
    if _in_git(source.path):
        found = _git_snapshot(source, ref, load, option)
        if found is not None:
            return f"git revision {ref}", found
    known = releases(source.path)
    where = "a release" + (f" ({', '.join(known)})" if known else " (there are none: pnp release makes them)")
    raise PnpError(f"{option} {ref}: no release {ref} of {source.label}"
                   + ("" if _in_git(source.path) else ", and the game folder is not in git")
                   + ("" if not _in_git(source.path) else f", and no git revision {ref}"),
                   rule="versions.ref", hint=f"give last (the last build), {where} or a git revision")


@dataclass
class Change:
    """One piece in both versions that differs: ``fields`` changed (name -> (old, new)),
    ``face``/``back``: whether what that side prints changed, ``copies`` (old, new); ``kind``
    is the piece's (:data:`pnp.design.snapshot.KINDS`)."""

    key: str
    fields: dict[str, tuple[str, str]] = field(default_factory=dict)
    face: bool = False
    back: bool = False
    copies: tuple[int, int] | None = None
    kind: str = "card"

    @property
    def printed(self) -> bool:
        """Whether a side of the piece prints differently (else the change is data only)."""
        return self.face or self.back


@dataclass
class Diff:
    """What changed from ``old`` (named ``since``) to ``new``: pieces added and removed (their
    keys: ``deck/id``, ``boards/track``, ...), and pieces changed. ``unknown`` are the new
    pieces of a kind the old snapshot did not record (a snapshot of format 1 recorded cards
    only): neither added nor changed, since what they were is not known."""

    since: str
    old: dict
    new: dict
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def kind(self, key: str) -> str:
        """The kind of the piece ``key`` (as the new snapshot has it, else the old)."""
        return kind_of(self.new["pieces"].get(key) or self.old["pieces"][key])

    def unknown_kinds(self) -> list[str]:
        """The kinds of :attr:`unknown` pieces, in :data:`~pnp.design.snapshot.KINDS` order."""
        kinds = {self.kind(k) for k in self.unknown}
        return [k for k in KINDS if k in kinds]

    def counts(self) -> dict[str, dict[str, int]]:
        """Per kind with a change (plural: ``cards``, ``tokens``), the pieces added, removed and
        changed, in :data:`~pnp.design.snapshot.KINDS` order."""
        out: dict[str, dict[str, int]] = {}
        for kind in KINDS:
            n = {"changed": sum(c.kind == kind for c in self.changed),
                 "added": sum(self.kind(k) == kind for k in self.added),
                 "removed": sum(self.kind(k) == kind for k in self.removed)}
            if any(n.values()):
                out[PLURAL[kind]] = n
        return out

    def as_dict(self) -> dict:
        """The diff as JSON: versions, counts per kind, added, removed, changed (fields as
        old/new), and the pieces not compared (``not_compared``)."""
        return {"game": self.new.get("game"), "since": self.since, "old_version": self.old.get("version"),
                "version": self.new.get("version"), "data_changed": self.old.get("data") != self.new.get("data"),
                "counts": self.counts(),
                "added": [{"piece": k, "kind": self.kind(k), "copies": self.new["pieces"][k]["copies"]}
                          for k in self.added],
                "removed": [{"piece": k, "kind": self.kind(k), "copies": self.old["pieces"][k]["copies"]}
                            for k in self.removed],
                "changed": [{"piece": c.key, "kind": c.kind, "printed": c.printed, "face_changed": c.face,
                             "back_changed": c.back, "copies": list(c.copies) if c.copies else None,
                             "fields": {k: {"old": o, "new": n} for k, (o, n) in c.fields.items()}}
                            for c in self.changed],
                "not_compared": [{"piece": k, "kind": self.kind(k)} for k in self.unknown]}


def _faces(entry: dict) -> tuple:
    """What decides whether a piece's face changed: its faces' hashes, and a token's shape."""
    return tuple(entry.get("faces", [entry["face"]])), entry.get("shape")


def diff(since: str, old: dict, new: dict) -> Diff:
    """Compare two snapshots piece by piece, in the new snapshot's order (removed pieces in the
    old one's). A piece of a kind only one of them recorded is :attr:`Diff.unknown` (new) or
    left out (old)."""
    out = Diff(since, old, new)
    before, after = old["pieces"], new["pieces"]
    known_before, known_after = set(kinds_of(old)), set(kinds_of(new))
    for key, entry in after.items():
        was = before.get(key)
        if was is None:
            (out.added if kind_of(entry) in known_before else out.unknown).append(key)
            continue
        old_fields, new_fields = was.get("fields", {}), entry.get("fields", {})
        columns = list(new_fields) + [k for k in old_fields if k not in new_fields]  # the table's order
        fields = {k: (old_fields.get(k, ""), new_fields.get(k, "")) for k in columns
                  if old_fields.get(k, "") != new_fields.get(k, "")}
        change = Change(key, fields, face=_faces(was) != _faces(entry), back=was.get("back") != entry.get("back"),
                        copies=(was["copies"], entry["copies"]) if was["copies"] != entry["copies"] else None,
                        kind=kind_of(entry))
        if change.fields or change.printed or change.copies:
            out.changed.append(change)
    out.removed = [key for key, entry in before.items() if key not in after and kind_of(entry) in known_after]
    return out
