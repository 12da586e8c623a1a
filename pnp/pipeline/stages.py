"""Rendering the stages of a game's build, in memory, and writing them.

A stage whose inputs and outputs did not change since the last build into the same folder is
not rendered again (:mod:`pnp.pipeline.cache`): its files are kept and the findings recorded
with them are reported again. A stage that raises a :class:`~pnp.core.errors.PnpError` becomes
an error finding with the error's rule id and location; the other stages still render, so one
run reports everything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core import progress
from ..core.errors import PnpError
from ..core.files import file_digest
from ..core.findings import Finding
from ..core.parallel import process_context
from ..core.tomlcache import save_parsed
from ..design.templating import save_analyses
from ..model.options import LoadOptions
from ..outputs.base import BuildResult, Stage, write_result
from .cache import BuildRecord, inputs_key
from .schedule import STAGES_FILE, longest_first, remember_timings, stage_key


@dataclass
class Rendered:
    """The stages of one game after rendering: ``ran`` the results of the stages rendered now
    (outputs in memory), ``kept`` the files of the stages that were up to date, ``findings``
    every stage's findings in stage order (the kept stages' as recorded), ``failed`` the
    stages that raised, and each stage's record ``keys``."""

    ran: dict[str, BuildResult] = field(default_factory=dict)
    kept: dict[str, list[Path]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    keys: dict[str, str] = field(default_factory=dict)
    side: dict[str, object] = field(default_factory=dict)
    """What each side task returned, or the exception it raised (only for side tasks that ran)."""


def stage_failure(exc: PnpError) -> Finding:
    """The error finding of a stage that could not render: the error's rule, place and words."""
    return Finding.at("error", exc.rule, exc.location, exc.message, hint=exc.hint or "")


def render_stages(stages: list[Stage], record: BuildRecord, *, dry: bool, reuse: bool,
                  workers: int = 1, side: dict[str, Callable[[], object]] | None = None,
                  load: LoadOptions = LoadOptions(), roots: dict[str, Path] | None = None) -> Rendered:
    """Render each stage in memory (``dry``: a dry run, :class:`~pnp.outputs.base.Stage`),
    except, with ``reuse``, those whose record in ``record`` is still fresh (its key: the
    stage's inputs, placed within ``roots`` (:func:`~pnp.core.files.inputs_key`), its
    options, and how ``load`` reads the tables). With ``workers``
    above 1, stages render side by side (:func:`_render_side_by_side`); the results, and so
    the bytes, are those of rendering them one after another. ``side``: work the caller needs
    later (name -> a function of nothing returning something picklable), done beside the
    stages when they render side by side (``Rendered.side``); otherwise left to the caller."""
    out = Rendered()
    to_render: list[Stage] = []
    reading = table_reading(load)
    for stage in stages:
        key = inputs_key(stage.inputs, (stage.name, stage.options) + reading, roots)
        out.keys[stage.name] = key
        files = record.fresh(stage.name, key) if reuse else None
        if files is not None:
            out.kept[stage.name] = files
        else:
            to_render.append(stage)
    tasks = dict(side or {})
    if workers > 1 and len(to_render) + len(tasks) > 1:
        results, out.side = _render_side_by_side(to_render, dry, workers, tasks,
                                                 lambda name: stage_key(record.out_dir, not dry, name))
    else:
        results = {stage.name: _render_one(stage, dry) for stage in to_render}
    for stage in stages:  # findings in stage order, whichever finished first
        if stage.name in out.kept:
            out.findings += record.findings(stage.name) or []
            continue
        result, failed = results[stage.name]
        if failed:
            out.failed.add(stage.name)
        out.ran[stage.name] = result
        out.findings += result.findings
    return out


def table_reading(load: LoadOptions) -> tuple:
    """What the tables' reading adds to every stage's key: the encoding and delimiter the
    command line gives the tables (the same bytes read another way are other data); nothing
    for the defaults, so the records of earlier builds stay fresh. The copies cap is left out:
    a row over it is an error, so it changes no file a build writes."""
    return () if (load.encoding, load.delimiter) == ("utf-8", None) else (("tables", load.encoding, load.delimiter),)


def save_caches() -> None:
    """Keep what this process worked out that depends only on text, for the next run: what
    templates read (:func:`~pnp.design.templating.save_analyses`) and the TOML files parsed
    (:func:`~pnp.core.tomlcache.save_parsed`)."""
    save_analyses()
    save_parsed()


def _render_one(stage: Stage, dry: bool) -> tuple[BuildResult, bool]:
    """``stage`` rendered, and whether it failed (a PnpError, which becomes its finding; one
    listing several problems, ``errors``, a finding each)."""
    try:
        with progress.step(stage.name):
            return stage.render(dry), False
    except PnpError as exc:
        return BuildResult(findings=[stage_failure(e) for e in getattr(exc, "errors", None) or [exc]]), True
    finally:
        save_caches()  # what the stage parsed and its templates read, for the next run (in whichever process)


_FORKED: tuple[list[Stage], bool, list[Callable[[], object]]] = ([], False, [])
"""The stages a forked worker renders by index, whether dry, and the side tasks (set before
the fork)."""


def _render_forked(index: int) -> tuple[tuple[BuildResult, bool], float]:
    stages, dry, _ = _FORKED
    return _timed(_render_one, stages[index], dry)


def _side_forked(index: int) -> tuple[object, float]:
    return _timed(_side_one, _FORKED[2][index])


def _timed(fn: Callable, *args) -> tuple[object, float]:
    """What ``fn(*args)`` returns, and how long it took (s, wall clock)."""
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def _side_one(task: Callable[[], object]) -> object:
    """What ``task`` returns, or the exception it raised (to be raised where it is used)."""
    try:
        return task()
    except Exception as exc:  # noqa: BLE001 - handed to the caller, which handles or raises it
        return exc
    finally:
        save_caches()


def _render_side_by_side(stages: list[Stage], dry: bool, workers: int, side: dict[str, Callable[[], object]],
                         timing_key: Callable[[str], str] | None = None
                         ) -> tuple[dict[str, tuple[BuildResult, bool]], dict[str, object]]:
    """Every stage rendered and every side task done: the card sheets (the largest,
    :data:`FIRST`) in this process, the rest shared with ``workers - 1`` forked processes,
    which inherit the loaded game (nothing is read or pickled but the results). Each worker is
    handed the next item of the queue when it is done with one (a thread here feeds it);
    once the card sheets are done, this process takes items from the queue's other end, so
    neither side waits while the other still has work. The queue holds the longest first, by
    each item's time in the last run (``timing_key(name)``, :mod:`pnp.pipeline.schedule`;
    what was never timed first, in stage order), so that the workers start on the long ones
    and this process finishes with the short ones. Where processes cannot be forked (macOS
    and Windows start workers afresh, a sandbox forbids it) everything is done here, one after
    another."""
    import threading
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import wait as wait_for
    from concurrent.futures.process import BrokenProcessPool

    here = min(stages, key=lambda s: (FIRST.get(s.name, len(FIRST)), stages.index(s))) if stages else None
    items = [("stage", i) for i, s in enumerate(stages) if s is not here] + [("side", i) for i in range(len(side))]
    names, tasks = list(side), list(side.values())

    def name_of(item: tuple[str, int]) -> str:
        return stages[item[1]].name if item[0] == "stage" else names[item[1]]

    if timing_key is not None:
        items = [items[i] for i in longest_first([timing_key(name_of(item)) for item in items], STAGES_FILE)]

    def all_here():
        return ({stage.name: _render_one(stage, dry) for stage in stages},
                {name: _side_one(task) for name, task in side.items()})

    def do_here(item: tuple[str, int]) -> tuple[object, float]:
        kind, i = item
        return _timed(_render_one, stages[i], dry) if kind == "stage" else _timed(_side_one, tasks[i])

    context = process_context()
    if context.get_start_method() != "fork":
        return all_here()
    global _FORKED
    _FORKED = (stages, dry, tasks)
    queue, lock, futures = deque(items), threading.Lock(), {}

    def submit_next():
        """Hand the queue's next item to a worker; its future, or None when none is left (an
        item that cannot be handed over is done here afterwards)."""
        with lock:
            if not queue:
                return None
            item = queue.popleft()
        try:
            future = futures[item] = pool.submit(_render_forked if item[0] == "stage" else _side_forked, item[1])
        except (OSError, RuntimeError, BrokenProcessPool):
            return None
        return future

    def feed(future) -> None:
        while future is not None:
            wait_for([future])
            future = submit_next()

    try:
        pool = ProcessPoolExecutor(workers - 1, mp_context=context)
        first = [submit_next() for _ in range(workers - 1)]  # the workers fork here, in this thread
    except OSError:
        _FORKED = ([], False, [])
        return all_here()
    feeders = [threading.Thread(target=feed, args=(future,), daemon=True) for future in first if future is not None]
    for thread in feeders:
        thread.start()
    try:
        results = {here.name: _render_one(here, dry)} if here is not None else {}
        mine = {}
        while True:  # the card sheets are done: take the queue's last items until none is left
            with lock:
                if not queue:
                    break
                item = queue.pop()
            mine[item] = do_here(item)
        for thread in feeders:
            thread.join()
        done: dict[str, object] = {}
        seconds: dict[str, float] = {}
        for item in items:
            if item in mine:
                value, took = mine[item]
            else:
                try:
                    value, took = futures[item].result()
                except (KeyError, OSError, BrokenProcessPool):  # not handed over, or the worker died
                    value, took = do_here(item)
            if item[0] == "stage":
                results[stages[item[1]].name] = value
            else:
                done[names[item[1]]] = value
            seconds[name_of(item)] = took
    finally:
        pool.shutdown(cancel_futures=True)
        _FORKED = ([], False, [])
    if timing_key is not None:
        remember_timings({timing_key(name): took for name, took in seconds.items()}, STAGES_FILE)
    return results, done


FIRST = {"cards": 0, "cards-only": 0, "cards-changed": 0}
"""Stages rendered in the build's own process when stages render side by side: the card
sheets, most of a build's time (the other stages together take about as long)."""


def write_stages(rendered: Rendered, record: BuildRecord) -> list[Finding]:
    """Write every rendered stage's outputs, remove the files each wrote last time that no stage
    makes any more, and record the stages that found no error (a stage with errors renders again next
    time, and so reports them again). A stage whose files cannot be written (a read-only
    folder, a full disk, a file held open) joins ``rendered.failed`` and is not recorded; the
    other stages are still written. Returns a ``build.write`` error finding per file that
    could not be written."""
    problems: list[Finding] = []
    out_dir = record.out_dir.resolve()
    writing = progress.step("writing", sum(len(r.outputs) for r in rendered.ran.values()))
    # what any stage of this build makes or keeps (a file one stage made before may be another's now)
    made = {path.resolve() for result in rendered.ran.values() for path, _ in result.outputs} | \
        {path.resolve() for files in rendered.kept.values() for path in files}
    for name, result in rendered.ran.items():
        if name in rendered.failed:
            continue  # nothing rendered: its earlier files stay
        writing.advance(len(result.outputs))
        for rel, digest in record.entries.get(name, {}).get("files", {}).items():
            old = (record.out_dir / rel).resolve()
            # a file this stage wrote last time and no stage makes now; one changed since (by
            # hand, or a record that names another file) is not this build's to remove
            if old not in made and old.is_file() and old.is_relative_to(out_dir) and old not in result.remove \
                    and file_digest(old) == digest:
                result.remove.append(old)
        try:
            write_result(result)
        except (OSError, PnpError) as exc:
            rendered.failed.add(name)
            problems.append(write_failure(exc))
    if not any(result.files for result in rendered.ran.values()) and not record.path.exists():
        return problems  # nothing made at all (a rulebook command for a game without one): leave no folder
    try:
        for name, result in rendered.ran.items():
            if name not in rendered.failed and not any(f.severity == "error" for f in result.findings):
                record.record(name, rendered.keys[name], result.files, result.findings)
    except (OSError, PnpError) as exc:  # the outputs are written; the next build renders them again
        problems.append(write_failure(exc))
    return problems


def write_failure(exc: OSError | PnpError) -> Finding:
    """The ``build.write`` error of a file that could not be written: its path and the reason."""
    if isinstance(exc, PnpError):
        where, message = "", exc.message
    else:
        target = exc.filename2 or exc.filename  # a rename names the file it was to replace second
        where, message = str(target or ""), f"could not write the file: {exc.strerror or exc}"
    return Finding("error", "build.write", where, message, hint="check that the folder is writable, the disk has room and no program holds the file "
                        "open; every other part was written completely")
