"""One process pool for the work `pnp` does side by side (games of a build, rasters of an
export): results come back in the order of the inputs, so the files are the same bytes as
doing the work one item after another."""

from __future__ import annotations

import os
import sys
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """Processes to use when the caller does not say: one per core, at most 2 (the work is
    memory-hungry, and two already halve a build's wall time)."""
    return min(2, os.cpu_count() or 1)


def _context():
    import multiprocessing

    # fork starts workers without importing pnp again; elsewhere (macOS, Windows) spawn is the
    # safe start method
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def map_ordered(fn: Callable[[T], R], items: Iterable[T], workers: int | None = None, *,
                min_items: int = 2, chunksize: int = 1) -> list[R]:
    """``[fn(item) for item in items]``, computed in up to ``workers`` processes (default
    :func:`default_workers`) when there are at least ``min_items`` items and more than one
    worker; otherwise, or when worker processes cannot start (a sandbox, a frozen app), in this
    process. ``fn`` and the items must be picklable; results keep the order of ``items``."""
    items = list(items)
    workers = min(len(items), workers or default_workers())
    if workers <= 1 or len(items) < min_items:
        return [fn(item) for item in items]
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
            return list(pool.map(fn, items, chunksize=chunksize))
    except (OSError, BrokenProcessPool):
        return [fn(item) for item in items]
