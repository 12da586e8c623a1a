"""A run with nothing to do, answered from the build record without loading the game.

After a build that wrote every part and found no error, the game's output folder holds,
beside the build record (:mod:`pnp.pipeline.cache`), a snapshot of the whole run
(:data:`RUN_FILE`): a key of the settings, every
input file the run read (the game folder, its templates, the fonts and profiles the stages
read) with its size, modification time and SHA-256, every file written with its size and
modification time, and the report. A later ``pnp build`` (or ``pnp check``) of the same
game, named the same way, with the same settings, whose inputs and outputs are all as
recorded, and whose build record still holds each part's files, prints that report again
without loading the game or importing the renderers.

Correct before fast: a file whose size or modification time differs is read and hashed, and
so is one modified within :data:`SETTLE_NS` of the recording (a coarse file-system clock
could hide an edit there); a file added to or removed from the game or templates folder,
any other setting, or another version of pnp means the run is made in full, where each
stage's own record decides what is drawn again.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from .. import __version__
from ..core.files import BUILD_RECORD, PIECES_RECORD, file_digest, load_json, write_atomic
from ..core.listing import run_listing
from ..core.errors import PnpError
from ..core.findings import Finding
from ..model.games import game_id
from ..render.preflight import refused_art
from .report import GameReport

RUN_FILE = ".pnp-run.json"
"""The snapshot of the last whole run, in the game's output folder. It holds this machine's
absolute paths and file times, so unlike the build record it differs from one machine to
the next; it is a cache, not an output."""

RUNS = "runs"
"""The snapshot's table of runs, by settings key: a quick sheet (``--only``) and the full
build each keep their own."""

KEEP = 4
"""Runs a snapshot keeps (the most recent)."""

SETTLE_NS = 2_000_000_000
"""Files modified this close (ns) to the recording are hashed again, whatever their stat says:
FAT keeps modification times to 2 s."""


def settings_key(source, settings, load, *, for_check: bool = False) -> str:
    """The run's settings as one string: the game's folders, the settings (less those that
    change neither the files nor the recorded findings: ``force``, ``jobs``, and ``strict``,
    whose report is the recorded one with missing art made an error; with
    ``for_check``, the contact sheets too, which a dry run does not draw and which find
    nothing the cards do not), how the tables are read, and the pnp version."""
    normal = replace(settings, force=False, strict=False, jobs=None)
    if for_check:
        normal = replace(normal, sheet=replace(normal.sheet, contact_sheets=False))
    return repr((__version__, str(Path(source.path).resolve()), str(source.templates_dir), normal, load))


def _listing(source) -> list[str]:
    """Every file of the game folder and its templates folder (outputs and hidden files left
    out), as absolute paths: a file added or removed changes it (:func:`~pnp.core.listing.run_listing`)."""
    return run_listing(str(source.path), None if source.templates_dir is None else str(source.templates_dir))


def _stat_digests(names: Iterable[str]) -> dict[str, list | None]:
    """``[size, mtime_ns, sha256]`` of each file (None: absent or unreadable)."""
    recorded: dict[str, list | None] = {}
    for name in names:
        try:
            st = os.stat(name)
            recorded[name] = [st.st_size, st.st_mtime_ns, file_digest(Path(name))]
        except OSError:
            recorded[name] = None  # absent (a font not installed): must stay absent
    return recorded


def before_run(source) -> tuple[list[str], dict, int]:
    """The game and templates folders as a run is about to read them: their listing, each
    file's size, time and SHA-256, and the time taken (ns). Taken before the run, so that a file
    saved while it runs is not recorded as what it read."""
    now = time.time_ns()
    listing = _listing(source)
    return listing, _stat_digests(listing), now


def remember(out_dir: Path, source, settings, load, report: GameReport, inputs: Iterable[Path],
             before: tuple[list[str], dict, int], parts: dict[str, str] | None = None) -> None:
    """Write the snapshot of the run into ``out_dir``: after a build that wrote every part
    (``report.written``, nothing failed) and found no error. ``before`` is :func:`before_run`
    of the run; ``inputs`` the files the stages read besides the game and templates folders
    (fonts, profiles); ``parts`` the parts of a full build (stage name -> record key), which
    the run, answered again, names as the last build's (:func:`_mark_last_build`). A snapshot
    that cannot be written is left as it is (the next build is then made in full)."""
    if not report.written or report.failed or any(f.severity == "error" for f in report.findings):
        return
    listing, recorded, now = before
    recorded = {**recorded, **_stat_digests(sorted({str(Path(p).resolve()) for p in inputs} - set(recorded)))}
    build_parts = parts
    parts: list[tuple[str, list[str]]] = []  # in build order
    outputs: dict[str, list[int]] = {}
    root = out_dir.resolve()
    for name, files in list((n, r.files) for n, r in report.ran.items()) + list(report.kept.items()):
        rels: list[str] = []
        parts.append((name, rels))
        for f in files:
            path = Path(f).resolve()
            try:
                st = path.stat()
                rel = path.relative_to(root).as_posix()
            except (OSError, ValueError):
                return  # an output gone already, or outside the folder: no snapshot
            rels.append(rel)
            outputs[rel] = [st.st_size, st.st_mtime_ns]
    if not (out_dir / BUILD_RECORD).is_file():
        return  # nothing was made (a game without outputs): leave no folder
    runs = _runs(out_dir)
    key = settings_key(source, settings, load)
    runs[key] = {
        "key": key, "check_key": settings_key(source, settings, load, for_check=True),
        "recorded_ns": now, "listing": listing, "inputs": recorded, "outputs": outputs, "parts": parts,
        "build": build_parts,
        "report": {"display": report.display, "title": report.title, "rules_checked": report.rules_checked,
                   "findings": [f.as_dict() for f in report.findings]},
    }
    recent = sorted(runs, key=lambda k: runs[k].get("recorded_ns", 0) if isinstance(runs[k], dict) else 0)[-KEEP:]
    try:
        write_atomic(out_dir / RUN_FILE, (json.dumps({RUNS: {k: runs[k] for k in recent}}, indent=1,
                                                     sort_keys=True) + "\n").encode())
    except (OSError, PnpError):
        pass  # a folder that cannot take it: the next build is made in full


def fresh_report(source, output: Path, settings, load, *, write: bool) -> GameReport | None:
    """The report of a run of ``source`` into ``output`` that has nothing to do, read from the
    build record (every part kept, its findings as recorded); None when the run must be made
    (see the module docstring). For a build (``write``) also None when the verdict would not
    write: an error, or with ``settings.strict`` a warning, among the recorded findings."""
    fresh = fresh_run(source, output, settings, load, write=write)
    return None if fresh is None else fresh[0]


def fresh_run(source, output: Path, settings, load, *, write: bool) -> tuple[GameReport, dict, Path] | None:
    """:func:`fresh_report`, with the snapshot's run it was read from (its ``listing``,
    ``inputs``, ``outputs`` relative to the output folder, ``recorded_ns``, ``key`` and
    ``check_key``) and the game's output folder; None as there."""
    gid = game_id(Path(source.path))
    if gid is None:
        return None
    out_dir = Path(output) / gid / settings.language if settings.language else Path(output) / gid
    try:
        key = settings_key(source, settings, load, for_check=not write)
        field = "key" if write else "check_key"
        entry = next((e for e in _runs(out_dir).values() if isinstance(e, dict) and e.get(field) == key), None)
        if entry is None or entry.get("listing") != _listing(source) or (write and "build" not in entry):
            return None  # (a run recorded before runs named their parts: made again, so a release can name them)
        settled = entry["recorded_ns"] - SETTLE_NS
        for name, was in entry["inputs"].items():
            if not _same_input(name, was, settled):
                return None
        root = out_dir.resolve()
        for rel, (size, mtime) in entry["outputs"].items():
            st = os.stat(root / rel)
            if (st.st_size, st.st_mtime_ns) != (size, mtime):
                return None
        stages = load_json(root / BUILD_RECORD)
        if any(sorted(stages[name]["files"]) != sorted(files) for name, files in entry["parts"]):
            return None  # a stage's record was changed or removed: that stage decides again
        saved = entry["report"]
        if saved["display"] != source.display:
            return None  # named otherwise (``./g`` for ``g``): the findings name its files that way
        findings = [Finding.from_dict(item) for item in saved["findings"]]
        if settings.strict:  # recorded as the draft; --strict refuses missing art
            findings = refused_art(findings)
        kept = {name: [out_dir / rel for rel in files] for name, files in entry["parts"]}
        report = GameReport(saved["display"], saved["title"], True, findings, saved["rules_checked"], kept=kept)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # a record of another version, or damaged: the run is made in full
    if write and any(f.severity == "error" or (settings.strict and f.severity == "warning") for f in findings):
        return None
    if write and isinstance(entry.get("build"), dict):
        _mark_last_build(out_dir, entry["build"])
    return report, entry, out_dir


def _mark_last_build(out_dir: Path, parts: dict) -> None:
    """Name ``parts`` (stage name -> record key) the last build's in the pieces snapshot
    (:data:`~pnp.core.files.PIECES_RECORD`), for a full build answered from its run snapshot:
    the same pieces, but maybe other parts than the build before it made (``--boxes``, a cut
    file). Left as it is when it cannot be read or written: ``pnp release`` then says to build."""
    path = out_dir / PIECES_RECORD
    try:
        last = load_json(path)
        if isinstance(last, dict) and last.get("build") != parts:
            last["build"] = dict(sorted(parts.items()))
            write_atomic(path, (json.dumps(last, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    except (OSError, ValueError, PnpError):
        pass


def _runs(out_dir: Path) -> dict:
    """The runs of the snapshot in ``out_dir`` (empty when there is none, or it is damaged)."""
    try:
        runs = load_json(out_dir / RUN_FILE).get(RUNS)
    except (OSError, ValueError, AttributeError):
        return {}
    return runs if isinstance(runs, dict) else {}


def _same_input(name: str, was, settled: int) -> bool:
    """Whether input ``name`` is as recorded (``[size, mtime_ns, sha256]``, or None: absent)."""
    try:
        st = os.stat(name)
    except OSError:
        return was is None
    if was is None:
        return False
    size, mtime, digest = was
    if st.st_size != size:
        return False
    if st.st_mtime_ns == mtime and mtime < settled:
        return True
    return file_digest(Path(name)) == digest
