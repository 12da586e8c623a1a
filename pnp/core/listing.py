"""The files of a game or templates folder, found with :mod:`os` alone: what a build reads and
what a run snapshot lists (:func:`pnp.core.files.game_files` gives them as paths). Nothing but
:mod:`os` is imported, so that the quick answers of the command line (:mod:`pnp.cli.quick`)
list a folder exactly as a build does without loading anything else."""

from __future__ import annotations

import os

BUILD_RECORD = ".pnp-build.json"
"""The file every game's output folder holds (:mod:`pnp.pipeline.cache`)."""

PIECES_RECORD = ".pnp-pieces.json"
"""The snapshot of the last full build, beside the build record (:mod:`pnp.pipeline.versions`):
its pieces and, under ``build``, the parts that build made, each with its record key."""

RELEASES = "releases"
"""The folder of a game folder that holds its release snapshots (``pnp release``): records of
earlier builds, not inputs of the next."""


def game_file_parts(folder: str) -> list[tuple[str, ...]]:
    """Every file of a game or template folder as the parts of its path below ``folder``, in
    path order, leaving out hidden files (any part starting with ``.``), the release
    snapshots (``releases/``) and the outputs a build wrote into the folder (any folder
    holding a build record, and the folder holding that; a record in ``folder`` itself leaves
    nothing). Folders reached through a symbolic link are not entered; a link to a file counts
    as a file, a broken link does not. Unreadable folders are skipped. [] when ``folder`` is
    not a folder."""
    if not os.path.isdir(folder):
        return []
    outputs: set[tuple[str, ...]] = set()
    found: list[tuple[tuple[str, ...], str]] = []
    top = os.path.join(folder, "")
    for dirpath, dirnames, filenames in os.walk(folder):
        rel = tuple(os.path.relpath(dirpath, top).split(os.sep)) if dirpath != top and dirpath != folder else ()
        if BUILD_RECORD in dirnames or BUILD_RECORD in filenames:
            if not rel:
                return []
            outputs.add(rel)
            if len(rel) > 1:
                outputs.add(rel[:-1])
        found += ((rel, name) for name in filenames)
    parts = []
    for rel, name in found:
        if name.startswith(".") or any(p.startswith(".") for p in rel) or rel[:1] == (RELEASES,):
            continue
        if any(rel[:n] in outputs for n in range(1, len(rel) + 1)):
            continue
        if os.path.isfile(os.path.join(folder, *rel, name)):
            parts.append((*rel, name))
    return sorted(parts, key=lambda p: tuple(os.path.normcase(s) for s in p))


def game_file_names(folder: str) -> list[str]:
    """The files of :func:`game_file_parts`, each as its absolute path with every link resolved
    (:func:`os.path.realpath`), sorted as strings: the listing a run snapshot records."""
    return sorted(os.path.realpath(os.path.join(folder, *parts)) for parts in game_file_parts(folder))


def run_listing(game_folder: str, templates_dir: str | None) -> list[str]:
    """The listing a run snapshot records (:mod:`pnp.pipeline.fresh`) of a game folder and its
    templates folder (None: none): the files of both (:func:`game_file_names`), sorted as
    strings."""
    names = game_file_names(game_folder)
    if templates_dir is not None:
        names += game_file_names(templates_dir)
    return sorted(names)
