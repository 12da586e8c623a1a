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


def process_context():
    """How worker processes start: fork on Linux (workers begin without importing pnp again),
    spawn elsewhere (macOS, Windows: the safe start method there)."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def can_fork() -> bool:
    """Whether worker processes start by forking this one (:func:`process_context`), so that
    they inherit what it has loaded."""
    return process_context().get_start_method() == "fork"


def map_ordered(fn: Callable[[T], R], items: Iterable[T], workers: int | None = None, *,
                min_items: int = 2, chunksize: int = 1, initializer: Callable | None = None,
                initargs: tuple = (), step=None) -> list[R]:
    """``[fn(item) for item in items]``, computed in up to ``workers`` processes (default
    :func:`default_workers`) when there are at least ``min_items`` items and more than one
    worker; otherwise, or when worker processes cannot start (a sandbox, a frozen app), in this
    process. ``fn`` and the items must be picklable; results keep the order of ``items``.
    ``initializer(*initargs)`` runs first in each worker process (or once here, when the work
    stays in this process). ``step`` (a :class:`pnp.core.progress.Step`) advances by one as
    each result arrives."""
    items = list(items)
    workers = min(len(items), workers or default_workers())
    if workers <= 1 or len(items) < min_items:
        return _here(fn, items, initializer, initargs, step)
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(workers, mp_context=process_context(), initializer=initializer,
                                 initargs=initargs) as pool:
            results = []
            for result in pool.map(fn, items, chunksize=chunksize):
                results.append(result)
                if step is not None:
                    step.advance()
            return results
    except (OSError, BrokenProcessPool):
        if step is not None:
            step.done = 0
        return _here(fn, items, initializer, initargs, step)


def _here(fn, items, initializer, initargs, step) -> list:
    if initializer is not None:
        initializer(*initargs)
    results = []
    for item in items:
        results.append(fn(item))
        if step is not None:
            step.advance()
    return results
