"""Files as `pnp` writes and fingerprints them: atomically, and by content."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from .errors import BuildError


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    a reader never sees a partial file and a failure leaves the old file as it was."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}",
                         hint="give --output a folder you can write to", rule="build.write") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


BUILD_RECORD = ".pnp-build.json"
"""The file every game's output folder holds (:mod:`pnp.pipeline.cache`)."""

PIECES_RECORD = ".pnp-pieces.json"
"""The snapshot of the last full build, beside the build record (:mod:`pnp.pipeline.versions`):
its pieces and, under ``build``, the parts that build made, each with its record key."""


RELEASES = "releases"
"""The folder of a game folder that holds its release snapshots (``pnp release``): records of
earlier builds, not inputs of the next."""


def game_files(folder: Path) -> list[Path]:
    """Every file of a game or template folder, in a stable order, leaving out hidden files,
    the release snapshots (``releases/``) and the outputs a build wrote into the folder
    (``output/`` inside a game folder: any folder holding a build record, and the folder
    holding that)."""
    if not folder.is_dir():
        return []
    outputs = {record.parent for record in folder.rglob(BUILD_RECORD)}
    outputs |= {o.parent for o in outputs if o.parent != folder}
    releases = folder / RELEASES
    return sorted(p for p in folder.rglob("*") if p.is_file() and not any(
        part.startswith(".") for part in p.relative_to(folder).parts) and not any(
        parent in outputs or parent == releases for parent in p.parents))
