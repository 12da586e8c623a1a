"""The order work is handed to worker processes: longest first.

Worker processes take the next task as they become free, so the last task to start decides
when the run ends. Starting the longest first (the longest-processing-time rule) leaves the
short ones to fill the gaps. How long a stage of a game takes (its card sheets, its rulebook,
its data checks, ...) is what it took the last time on this machine, kept in the cache folder
(``timings/stages.json``, seconds by game folder and language, kind of run and stage;
:func:`stage_key`); what was never timed goes first, in the order given. Where whole games go
to workers (no fork), games are queued the same way (``timings/games.json``, seconds by game
folder and kind of run). The order changes only when each game or stage runs, never what it
writes: every game writes its own folder, every stage its own files, and the reports keep the
order of the jobs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from ..core.cachedir import cache_folder, save_merged
from ..core.files import load_json

TIMINGS_FILE = "games.json"
STAGES_FILE = "stages.json"
KEPT_TIMINGS = 1000
"""Entries past which a timings file starts afresh (games, or stages, built on this machine)."""


def timing_key(source: Path, write: bool) -> str:
    """The key of one game's timing: its folder (resolved) and whether the run wrote (a build)
    or not (a check), which take different times."""
    return f"{'build' if write else 'check'} {source.resolve()}"


def stage_key(place: str, write: bool, stage: str) -> str:
    """The key of one stage's timing: where the game is (:func:`game_place`), whether the run
    wrote (a build) or not (a check), and the stage's name (or a side task's)."""
    return f"{'build' if write else 'check'} {place} {stage}"


def game_place(folder: Path, language: str | None = None) -> str:
    """How the timings name one game: its folder (resolved), and the language of a ``--lang``
    run. Not the output folder: a build into a new folder takes as long as the last one."""
    return f"{folder.resolve()}" + (f" [{language}]" if language else "")


def _timings_path(name: str = TIMINGS_FILE) -> Path | None:
    folder = cache_folder("timings")
    return folder / name if folder is not None else None


def _read(path: Path) -> dict[str, float]:
    """The timings in ``path``: key -> seconds; empty when the file is missing, unreadable or
    not a JSON object; entries that are not finite, non-negative numbers a float holds are left
    out."""
    try:
        data = load_json(path) if path.is_file() else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, float] = {}
    for key, value in data.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        try:
            seconds = float(value)
        except OverflowError:  # an integer of hundreds of digits
            continue
        if math.isfinite(seconds) and seconds >= 0:
            out[key] = seconds
    return out


def longest_first(keys: list[str], file: str = TIMINGS_FILE) -> list[int]:
    """Indices into ``keys`` (see :func:`timing_key`; :func:`stage_key` with ``file``
    :data:`STAGES_FILE`), what is expected to take longest first: what was never timed first,
    in the given order, then the others by their last time, longest first (ties in the given
    order)."""
    path = _timings_path(file)
    known = _read(path) if path is not None else {}
    return sorted(range(len(keys)), key=lambda i: -known.get(keys[i], math.inf))


def remember_timings(seconds: dict[str, float], file: str = TIMINGS_FILE) -> None:
    """Keep each game's (or with ``file`` :data:`STAGES_FILE`, each stage's) run time (key ->
    seconds, wall clock) for the next run's order."""
    path = _timings_path(file)
    if path is None or not seconds:
        return
    save_merged(path, _read, {k: round(v, 4) for k, v in seconds.items()}, KEPT_TIMINGS,
                lambda d: (json.dumps(d, indent=0, sort_keys=True) + "\n").encode("utf-8"))
