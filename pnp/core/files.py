"""Files as `pnp` writes and fingerprints them: atomically, and by content."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from .. import __version__
from .errors import BuildError
from .listing import BUILD_RECORD, PIECES_RECORD, RELEASES, game_file_parts  # noqa: F401  (named here too)


SETTLED_NS = 2_000_000_000
"""How long ago (ns) a file must have last changed for its digest to be kept (:func:`file_digest`):
file times advance in clock ticks of a few milliseconds, so a file rewritten within one tick
with as many bytes keeps its times; one older than this cannot still be in that tick."""

KEPT_DIGESTS = 10_000
"""Digests a process keeps before it starts afresh."""

_digests: dict[tuple[int, int, int, int, int], str] = {}


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (hex). Raises OSError when the file cannot be read.

    Within one process a file is read once while it does not change: its digest is kept under
    its device, inode, size and modification and change times (ns) once it last changed over
    :data:`SETTLED_NS` before, so a build whose every stage names the same fonts and art among
    its inputs (a build of four games: 56 files of 4.9 MB, named 355 times, 74 MB) hashes each
    once. A file that changed more recently is read every time."""
    stat = os.stat(path)
    key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    digest = _digests.get(key)
    if digest is not None:
        return digest
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    digest = h.hexdigest()
    if time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > SETTLED_NS:
        if len(_digests) >= KEPT_DIGESTS:
            _digests.clear()
        _digests[key] = digest
    return digest


def inputs_key(files: Iterable[Path], options: object, roots: Mapping[str, Path] | None = None) -> str:
    """One key for a set of input files (by place and content) and an options object (by repr).
    A file's place is its path within the first of ``roots`` (name -> folder: the game's
    folder and its templates folder, :attr:`~pnp.model.games.GameSource.roots`) that holds it,
    else its name: a picture moved into the folder a card draws from changes the key, and the
    key is the same wherever the game and pnp are."""
    folders = [(name, Path(root).resolve()) for name, root in (roots or {}).items()]
    parts = []
    for path in {Path(p) for p in files}:
        resolved = path.resolve()
        place = next((f"{name}:{resolved.relative_to(root).as_posix()}" for name, root in folders
                      if resolved.is_relative_to(root)), path.name)
        try:
            digest = file_digest(path) if path.is_file() else "missing"
        except OSError:  # a file that cannot be read (locked, a device) is not an input pnp can use
            digest = "unreadable"
        parts.append(f"{place}\0{digest}\0")
    h = hashlib.sha256(f"pnp {__version__}\n{options!r}\n".encode())
    for part in sorted(parts):
        h.update(part.encode())
    return h.hexdigest()


def same_bytes(path: Path, chunks: Sequence[bytes | memoryview]) -> bool:
    """Whether the file ``path`` holds exactly ``chunks``, one after another (False when it
    cannot be read). Read a piece at a time, so that no second copy of a large file is held."""
    try:
        if os.stat(path).st_size != sum(len(c) for c in chunks):
            return False
        with open(path, "rb") as fh:
            for chunk in chunks:
                view = memoryview(chunk)
                for at in range(0, len(view), 1 << 20):
                    part = view[at:at + (1 << 20)]
                    if fh.read(len(part)) != part:
                        return False
    except OSError:
        return False
    return True


def write_atomic(path: Path, data: bytes | Sequence[bytes | memoryview]) -> None:
    """Write ``data`` (bytes, or pieces of it written one after another) to ``path`` through a
    temporary file in the same folder and a rename, so a reader never sees a partial file and
    a failure leaves the old file as it was."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}",
                         hint="give --output a folder you can write to", rule="build.write") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data:
                fh.write(chunk)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def game_files(folder: Path) -> list[Path]:
    """Every file of a game or template folder, in a stable order, leaving out hidden files,
    the release snapshots (``releases/``) and the outputs a build wrote into the folder
    (``output/`` inside a game folder: any folder holding a build record, and the folder
    holding that); see :func:`pnp.core.listing.game_file_parts`."""
    return [folder.joinpath(*parts) for parts in game_file_parts(str(folder))]


def load_json(path: Path):
    """The JSON value ``path`` holds (a record or cache file pnp wrote, as far as it knows).
    Raises OSError when it cannot be read and ValueError when it is not UTF-8 JSON, including
    JSON nested past what the parser reaches (a damaged or hand-made file, which would raise
    RecursionError), so a reader that starts afresh on a ValueError copes with every such file."""
    text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply to read") from None
