"""``pnp release``: save a snapshot of a game's last build as a named version,
``releases/<version>.json`` in the game folder, so later diffs and reprints have a reference
without git (docs/versions.md), and the files that build read, ``releases/<version>.zip``
(:mod:`pnp.pipeline.archive`), so ``pnp diff --visual`` can draw the old cards again.

A release holds the build's snapshot (:mod:`pnp.design.snapshot`: the data hash and every card,
board, reference sheet, token and die with its cells or settings, copies and face hashes) and the
SHA-256 of every file of the last full build: the parts that build made or kept, as its build
record lists them, and no part an earlier run left in the folder. It is made only from a build of the data as it is now, whose files are
as that build wrote them: a release must describe sheets that exist.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..core.errors import PnpError
from ..core.files import RELEASES, file_digest, load_json, write_atomic
from ..model.games import GameSource
from ..model.load import LoadOptions, load_game
from ..model.manifest import VERSION_RE
from ..design.snapshot import KINDS, PLURAL, kind_of
from .cache import BuildRecord
from .archive import archive_bytes, archive_files, archive_path, sha256
from .versions import PIECES_FILE, current_snapshot, data_files

RULE = "versions.release"


def pieces_count(snapshot: dict) -> str:
    """The pieces of a snapshot in words, kind by kind: ``5 cards, 1 board, 4 tokens``."""
    counts: dict[str, int] = {}
    for entry in snapshot["pieces"].values():
        counts[kind_of(entry)] = counts.get(kind_of(entry), 0) + 1
    return ", ".join(f"{counts[k]} {k if counts[k] == 1 else PLURAL[k]}" for k in KINDS if k in counts) \
        or "no pieces"


def release_version(given: str | None, manifest: str | None, game_toml: str) -> str:
    """The version to release: ``given`` (``--version``) or the manifest's ``[game] version``.
    Raises PnpError when there is neither, when they differ (the stamps print the manifest's),
    or when it is no file name."""
    if given is None and manifest is None:
        raise PnpError("no version to release", rule=RULE,
                       hint=f'give --version 1.2, or set version = "1.2" under [game] in {game_toml}')
    if given is not None and manifest is not None and given != manifest:
        raise PnpError(f"--version {given}, but {game_toml} says version = {manifest!r}", rule=RULE,
                       hint=f'set version = "{given}" under [game] in {game_toml} and build again, so the '
                       "stamps and the release agree")
    version = given if given is not None else manifest
    if not VERSION_RE.match(version or ""):
        raise PnpError(f"version {version!r} may hold only letters, digits, '.', '-' and '_'", rule=RULE,
                       hint="it names the file releases/<version>.json")
    return version  # type: ignore[return-value]


def built_outputs(out_dir: Path, parts: object) -> dict[str, str]:
    """Every file the last full build into ``out_dir`` wrote or kept (relative path -> SHA-256):
    the files its build record holds for each of the build's ``parts`` (stage name -> record
    key, saved with the build's snapshot under ``build``), and no other: a part an earlier run
    made (``--boxes``, ``--cut``, an export, a reprint) and this build did not is not released.
    Raises PnpError when ``parts`` is missing (an earlier pnp wrote the snapshot), a part is
    not recorded with the key this build gave it (it failed, or was made again since with
    other inputs), or a file differs from its record."""
    if not isinstance(parts, dict) or not parts:
        raise PnpError(f"the last build in {out_dir} does not list its parts (an earlier pnp made it)", rule=RULE,
                       hint="build again (pnp build), then release")
    record = BuildRecord(out_dir)
    files: dict[str, str] = {}
    for name, key in sorted(parts.items()):
        entry = record.entries.get(name)
        if entry is None or entry["key"] != key:
            raise PnpError(f"the {name} part of the last build in {out_dir} is not as that build made it "
                           "(it was not written, or was made again since with other inputs)", rule=RULE,
                           hint="build again (pnp build) and fix what it reports, then release")
        files.update(entry["files"])
    for rel, digest in sorted(files.items()):
        path = out_dir / rel
        if not path.is_file() or file_digest(path) != digest:
            raise PnpError(f"{path} is not as the last build wrote it", rule=RULE,
                           hint="build again (pnp build), then release")
    return dict(sorted(files.items()))


def _reprinted(out_dir: Path) -> bool:
    """Whether the build record of ``out_dir`` holds a reprint (``pnp build --changed-since``)."""
    return any(name.endswith("-changed") for name in BuildRecord(out_dir).entries)


def make_release(source: GameSource, out_dir: Path, version: str | None, load: LoadOptions = LoadOptions(),
                 force: bool = False) -> tuple[Path, dict]:
    """Write ``releases/<version>.json`` and ``releases/<version>.zip`` (the files the build
    read) for the last build of ``source`` into ``out_dir``; returns the JSON file and what it
    holds (``archive``: the zip's ``file`` name, ``sha256``, ``templates`` folder in it and
    number of ``files``). Raises PnpError (``versions.release``) when the version
    is missing or disagrees with game.toml, when the last build is not of the current data or
    its files changed since, and when the release exists (unless ``force``)."""
    game = load_game(source.path, source.display, load)
    version = release_version(version, game.version, f"{source.display}/game.toml")
    target = source.path / RELEASES / f"{version}.json"
    if target.exists() and not force:
        raise PnpError(f"release {version} of {game.title} exists: {target}", rule=RULE,
                       hint="a release is a record of what was printed; give a new --version, or --force to replace it")
    snapshot = current_snapshot(game, source)
    try:
        last = load_json(out_dir / PIECES_FILE)
    except (OSError, ValueError):
        last = None
    if not isinstance(last, dict) or last.get("data") != snapshot["data"] or last.get("pieces") != json.loads(
            json.dumps(snapshot["pieces"])):
        if _reprinted(out_dir):
            raise PnpError(f"the last full build in {out_dir} is not of {game.title} as it is now; a reprint "
                           "(pnp build --changed-since) is not a release", rule=RULE,
                           hint="run a full pnp build first, then release what it built")
        raise PnpError(f"the last build in {out_dir} is not of {game.title} as it is now", rule=RULE,
                       hint="build it (pnp build), then release what was built")
    outputs = built_outputs(out_dir, last.get("build"))
    files, templates = archive_files(game, source, data_files(game))
    archive = archive_bytes(files)
    body = {**snapshot, "version": version, "pnp": __version__, "outputs": outputs,
            "archive": {"file": archive_path(source.path, version).name, "sha256": sha256(archive),
                        "templates": templates, "files": len(files)}}
    write_atomic(archive_path(source.path, version), archive)  # first: the JSON names a zip that exists
    write_atomic(target, (json.dumps(body, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return target, body
