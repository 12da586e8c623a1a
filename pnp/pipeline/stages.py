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
from functools import partial
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
                  load: LoadOptions = LoadOptions(), roots: dict[str, Path] | None = None,
                  place: str | None = None) -> Rendered:
    """Render each stage in memory (``dry``: a dry run, :class:`~pnp.outputs.base.Stage`),
    except, with ``reuse``, those whose record in ``record`` is still fresh (its key: the
    stage's inputs, placed within ``roots`` (:func:`~pnp.core.files.inputs_key`), its
    options, and how ``load`` reads the tables). With ``workers``
    above 1, stages render side by side (:func:`_render_side_by_side`); the results, and so
    the bytes, are those of rendering them one after another. ``side``: work the caller needs
    later (name -> a function of nothing returning something picklable), done beside the
    stages when they render side by side (``Rendered.side``); otherwise left to the caller.
    ``place`` names the game in the stage timings (:func:`~pnp.pipeline.schedule.game_place`;
    default: the output folder)."""
    out, to_render = _plan(stages, record, reuse, load, roots)
    tasks = dict(side or {})
    if workers > 1 and len(to_render) + len(tasks) > 1:
        results, out.side = _render_side_by_side(to_render, dry, workers, tasks,
                                                 partial(_timing, place, record, dry))
    else:
        results = {stage.name: _render_one(stage, dry) for stage in to_render}
    return _collect(out, stages, record, results)


@dataclass
class GameStages:
    """One game's share of a run that renders several games' stages side by side
    (:func:`render_games`): its name in progress events (``game``) and what
    :func:`render_stages` takes."""

    game: str
    stages: list[Stage]
    record: BuildRecord
    dry: bool
    reuse: bool
    side: dict[str, Callable[[], object]] = field(default_factory=dict)
    load: LoadOptions = LoadOptions()
    roots: dict[str, Path] | None = None
    place: str | None = None
    """How the stage timings name the game (:func:`~pnp.pipeline.schedule.game_place`;
    default: its output folder)."""

    def timing(self, name: str) -> str:
        return _timing(self.place, self.record, self.dry, name)


def _timing(place: str | None, record: BuildRecord, dry: bool, name: str) -> str:
    """The timing key of stage or side task ``name`` of the game ``place`` names (default: the
    game's output folder, ``record.out_dir``) in a build (a check when ``dry``)."""
    return stage_key(place or str(record.out_dir.resolve()), not dry, name)


def render_games(games: list[GameStages], workers: int) -> list[Rendered]:
    """:func:`render_stages` of several games at once, each game's side tasks done too
    (``Rendered.side``): every stage and side task of every game is one task of one queue
    (:func:`side_by_side`), so the processes share the work whatever the games' sizes, the
    longest task first. A game's findings, files and bytes are those of rendering it alone."""
    plans = [_plan(g.stages, g.record, g.reuse, g.load, g.roots) for g in games]
    tasks: list[Task] = []
    owners: list[tuple[int, str, bool]] = []  # (game, name, whether a stage)
    for n, (g, (_, to_render)) in enumerate(zip(games, plans)):
        for stage in to_render:
            tasks.append(Task(partial(_for_game, g.game, _render_one, stage, g.dry), g.timing(stage.name)))
            owners.append((n, stage.name, True))
        for name, fn in g.side.items():
            tasks.append(Task(partial(_for_game, g.game, _side_one, fn), g.timing(name)))
            owners.append((n, name, False))
    results: list[dict[str, tuple[BuildResult, bool]]] = [{} for _ in games]
    for (n, name, is_stage), (value, _) in zip(owners, side_by_side(tasks, workers)):
        if is_stage:
            results[n][name] = value  # type: ignore[assignment]
        else:
            plans[n][0].side[name] = value
    return [_collect(out, g.stages, g.record, done) for g, (out, _), done in zip(games, plans, results)]


def _for_game(game: str, fn: Callable, *args) -> object:
    """``fn(*args)``, its progress events told as ``game``'s."""
    progress.for_game(game)
    return fn(*args)


def _plan(stages: list[Stage], record: BuildRecord, reuse: bool, load: LoadOptions,
          roots: dict[str, Path] | None) -> tuple[Rendered, list[Stage]]:
    """Each stage's record key (in the returned Rendered's ``keys``), the files of the stages
    kept (``kept``: with ``reuse``, those whose record is still fresh) and the stages to render."""
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
    return out, to_render


def _collect(out: Rendered, stages: list[Stage], record: BuildRecord,
             results: dict[str, tuple[BuildResult, bool]]) -> Rendered:
    """``out`` with every stage's results (``results``: name -> result and whether it failed)
    and findings, in stage order whichever finished first (a kept stage's as recorded)."""
    for stage in stages:
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


@dataclass(frozen=True)
class Task:
    """One piece of work done side by side (:func:`side_by_side`): ``run`` takes nothing and
    returns something picklable; ``timing`` is its key in the stage timings
    (:func:`~pnp.pipeline.schedule.stage_key`), by which the longest is started first, and
    under which this run's time is kept (None: neither)."""

    run: Callable[[], object]
    timing: str | None = None


_FORKED: list[Task] = []
"""The tasks a forked worker does by index (set before the fork)."""


def _forked(index: int) -> tuple[object, float]:
    return _timed(_FORKED[index].run)


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
    """Every stage of one game rendered and every side task done (:func:`side_by_side`): the
    card sheets (the largest, :data:`FIRST`) in this process, the rest shared with ``workers -
    1`` forked processes, which inherit the loaded game (nothing is read or pickled but the
    results), the longest first by each one's time in the last run (``timing_key(name)``; what
    was never timed first, in stage order). Returns each stage's result and whether it failed,
    and what each side task returned (or raised)."""
    here = min(stages, key=lambda s: (FIRST.get(s.name, len(FIRST)), stages.index(s))) if stages else None
    names = [s.name for s in stages] + list(side)
    runs = [partial(_render_one, s, dry) for s in stages] + [partial(_side_one, fn) for fn in side.values()]
    tasks = [Task(run, timing_key(name) if timing_key is not None else None) for run, name in zip(runs, names)]
    values = side_by_side(tasks, workers, first=stages.index(here) if here is not None else None)
    done = dict(zip(names, (value for value, _ in values)))
    return {s.name: done[s.name] for s in stages}, {name: done[name] for name in side}


def side_by_side(tasks: list[Task], workers: int, first: int | None = None) -> list[tuple[object, float]]:
    """Every task done, ``workers - 1`` forked processes beside this one, and what each returned
    with how long it took (s), in the order of ``tasks`` whichever process did it.

    This process starts on ``tasks[first]`` (default: the one expected to take longest). The
    rest wait in a queue, the longest first by their last time (:data:`STAGES_FILE`; what was
    never timed first, in the given order); each worker is handed the queue's next task when
    it is done with one (a thread here feeds it), and this process, once its first task is
    done, takes tasks from the queue's other end, so neither side waits while the other still
    has work. The workers inherit everything loaded before the call (nothing is read or
    pickled but the results). The times are kept for the next run's order. Where processes
    cannot be forked (macOS and Windows start workers afresh, a sandbox forbids it)
    everything is done here, one after another. An exception a task raises is raised here."""
    import threading
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import wait as wait_for
    from concurrent.futures.process import BrokenProcessPool

    global _FORKED
    order = list(range(len(tasks)))
    timed = [i for i in order if tasks[i].timing is not None]
    if timed:
        ranked = iter(timed[j] for j in longest_first([tasks[i].timing for i in timed], STAGES_FILE))
        order = [next(ranked) if tasks[i].timing is not None else i for i in order]
    if first is None and order:
        first = order[0]
    items = [i for i in order if i != first]
    values: dict[int, tuple[object, float]] = {}

    def do_here(i: int) -> None:
        values[i] = _timed(tasks[i].run)

    context = process_context()
    if workers < 2 or len(tasks) < 2 or context.get_start_method() != "fork":
        for i in range(len(tasks)):
            do_here(i)
        return _kept(tasks, [values[i] for i in range(len(tasks))])
    _FORKED = tasks
    queue, lock, futures = deque(items), threading.Lock(), {}

    def submit_next():
        """Hand the queue's next task to a worker; its future, or None when none is left (a
        task that cannot be handed over is done here afterwards)."""
        with lock:
            if not queue:
                return None
            i = queue.popleft()
        try:
            future = futures[i] = pool.submit(_forked, i)
        except (OSError, RuntimeError, BrokenProcessPool):
            return None
        return future

    def feed(future) -> None:
        while future is not None:
            wait_for([future])
            future = submit_next()

    try:
        pool = ProcessPoolExecutor(workers - 1, mp_context=context)
        started = [submit_next() for _ in range(workers - 1)]  # the workers fork here, in this thread
    except OSError:
        _FORKED = []
        for i in range(len(tasks)):
            do_here(i)
        return _kept(tasks, [values[i] for i in range(len(tasks))])
    feeders = [threading.Thread(target=feed, args=(future,), daemon=True) for future in started if future is not None]
    for thread in feeders:
        thread.start()
    try:
        if first is not None:
            do_here(first)
        while True:  # this process's first task is done: take the queue's last ones until none is left
            with lock:
                if not queue:
                    break
                i = queue.pop()
            do_here(i)
        for thread in feeders:
            thread.join()
        for i in items:
            if i not in values:
                try:
                    values[i] = futures[i].result()
                except (KeyError, OSError, BrokenProcessPool):  # not handed over, or the worker died
                    do_here(i)
    finally:
        pool.shutdown(cancel_futures=True)
        _FORKED = []
    return _kept(tasks, [values[i] for i in range(len(tasks))])


def _kept(tasks: list[Task], values: list[tuple[object, float]]) -> list[tuple[object, float]]:
    """``values``, after keeping each timed task's time for the next run's order."""
    remember_timings({task.timing: took for task, (_, took) in zip(tasks, values) if task.timing is not None},
                     STAGES_FILE)
    return values


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
