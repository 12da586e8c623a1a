"""Following a game's files: which folders to watch and which changes matter.

A game is its folder (``game.toml``, the tables, art) and its templates folder (layouts,
boards, rulebook). Changes under an output folder, editors' scratch files (``~`` backups, swap
and lock files) and notes (``.md``, ``.txt``: not inputs of a build) are not changes of the game.
Saved changes are batched over :data:`DEBOUNCE_MS`, short enough that the preview refreshes
within a second of a save, long enough that an editor's save (write, rename) is one change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from watchfiles import Change, DefaultFilter, watch

from ..model.games import GameSource

DEBOUNCE_MS = 50
"""How long a batch of changes may gather, in ms (watchfiles' default, 1,600 ms, is too slow
for a page that should refresh within a second of a save)."""
STEP_MS = 20
"""How often, in ms, the watcher looks whether the batch is complete."""

SCRATCH_SUFFIXES = (".swp", ".swx", ".tmp", ".part", ".bak", "~", ".md", ".txt")
SCRATCH_PREFIXES = (".~lock.", ".#", "~$")


def watched_folders(sources: Iterable[GameSource]) -> list[Path]:
    """The folders to watch for ``sources``: each game folder and templates folder, each once,
    none inside another."""
    folders: list[Path] = []
    for source in sources:
        for folder in (source.path, source.templates_dir):
            if folder is not None and Path(folder).is_dir():
                folders.append(Path(folder).resolve())
    out: list[Path] = []
    for folder in sorted(set(folders), key=lambda p: len(p.parts)):
        if not any(folder.is_relative_to(kept) for kept in out):
            out.append(folder)
    return out


class GameFilter(DefaultFilter):
    """watchfiles' default filter (version control, caches) without scratch files, notes and
    anything under ``ignore`` (the output folder, when it lies inside a game folder)."""

    def __init__(self, ignore: Iterable[Path] = ()):
        super().__init__()
        self.ignore = [Path(p).resolve() for p in ignore]

    def __call__(self, change: Change, path: str) -> bool:
        name = Path(path).name
        if name.endswith(SCRATCH_SUFFIXES) or name.startswith(SCRATCH_PREFIXES) or name.startswith(".pnp-"):
            return False
        resolved = Path(path).resolve()
        if any(resolved.is_relative_to(folder) for folder in self.ignore):
            return False
        return super().__call__(change, path)


def changes(folders: list[Path], ignore: Iterable[Path] = (), stop_event=None) -> Iterator[set[Path]]:
    """Each batch of changed files under ``folders`` (paths resolved), until ``stop_event`` is set
    or the watcher is interrupted (Ctrl-C ends the iteration)."""
    for batch in watch(*folders, watch_filter=GameFilter(ignore), debounce=DEBOUNCE_MS, step=STEP_MS,
                       stop_event=stop_event, raise_interrupt=False):
        yield {Path(path) for _, path in batch}
