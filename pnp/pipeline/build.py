"""One game's check and build as one run: the data checks, then every stage of every output
(:data:`pnp.outputs.OUTPUTS`) rendered in memory, then one verdict over all their findings.

``pnp check`` is this run without writing (a dry run); ``pnp build``, ``pnp export`` and
``pnp rulebook`` are this run with writing, for all outputs or some. So whatever a build would
find, a check finds first, with the same rule id and location. A build writes only when the
verdict allows: no error (unless forced) and, with ``strict``, no warning; otherwise nothing is
written and the previous outputs stay as they were. Several games run side by side in worker
processes; each game writes only its own folder.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Callable

from ..core import progress
from ..core.errors import PnpError
from ..core.findings import merge, sort_key, supersede
from ..core.parallel import can_fork, default_workers, map_ordered
from ..model.game import Game
from ..model.games import BOARDS_FILE, RULEBOOK_FILE, GameSource
from ..model.load import LoadOptions
from ..outputs import OUTPUTS
from ..outputs.base import BuildResult, BuildSettings, OutputJob, Stage
from ..render.preflight import refused_art
from ..validate.check import CheckResult, check_game_full, data_checks, load_for_check
from .cache import BuildRecord
from .fresh import before_run, remember
from .language import localize, mark
from .report import GameReport
from .schedule import game_place, longest_first, remember_timings, timing_key
from .changes import reprint_plan
from .stages import GameStages, render_games, render_stages, save_caches, stage_failure, write_failure, write_stages
from .versions import (current_snapshot, diff as compare, resolve_since, save_last, sheet_positions,
                       snapshot_document)


@dataclass
class BuildJob:
    """One game to check or build, in a form a worker process can receive: where the game is,
    the folder every game's subfolder goes in (``output``), the settings and how its tables are
    read. ``write``: build (False: a dry run); ``reuse``: parts whose inputs did not change
    since the last build into ``output`` are not rendered again (their findings are read from
    the build record)."""

    source: GameSource
    output: Path
    settings: BuildSettings = BuildSettings()
    load: LoadOptions = LoadOptions()
    write: bool = True
    reuse: bool = True
    stage_workers: int = 1
    """Processes the game's stages may render in side by side (:func:`render_stages`): more
    than one only when the game is the build's only one, so its cores are otherwise idle."""


def game_stages(job: OutputJob) -> list[Stage]:
    """The stages of the outputs ``job.settings.outputs`` names (all, when None), in build order."""
    wanted = job.settings.outputs
    return [stage for name in OUTPUTS if wanted is None or name in wanted  # (only those asked for are imported)
            for stage in OUTPUTS[name].stages(job)]


def run_game(job: BuildJob) -> GameReport:
    """Check one game and render every part of it, then, for a build, write what the verdict
    allows (see the module docstring). A forced run renders every part again, writes despite
    errors and lifts the copies cap."""
    run = _prepare(job, beside=job.stage_workers > 1)
    if isinstance(run, GameReport):
        return run
    rendered = render_stages(run.stages, run.record, dry=not job.write, reuse=run.reuse, workers=job.stage_workers,
                             side=run.side, load=job.load, roots=job.source.roots, place=run.place)
    return _finish(run, rendered)


@dataclass
class _GameRun:
    """One game between loading and writing: what :func:`_prepare` worked out for
    :func:`_finish`. ``beside``: the data checks are the side task ``checks`` (else they ran
    while loading, into ``data``)."""

    job: BuildJob
    settings: BuildSettings
    data: CheckResult
    checked: Game
    game: Game
    report: GameReport
    record: BuildRecord
    stages: list[Stage]
    side: dict[str, Callable[[], object]]
    before: tuple | None
    beside: bool

    @property
    def reuse(self) -> bool:
        return self.job.reuse and not self.settings.force

    @property
    def place(self) -> str:
        """How the stage timings name the game (:func:`~pnp.pipeline.schedule.game_place`)."""
        return game_place(self.job.source.path, self.settings.language)


def _prepare(job: BuildJob, beside: bool) -> _GameRun | GameReport:
    """Load ``job``'s game, with its data checks (``beside``: only loaded, the checks left to
    the side task ``checks``), and work out its stages and side tasks; the finished report of a
    game that did not load."""
    settings = job.settings
    load = replace(job.load, copies_cap=None) if settings.force else job.load
    progress.for_game(job.source.path.name)
    before = before_run(job.source) if job.write else None
    with progress.step("loading the data" if beside else "checking the data"):
        data = load_for_check(job.source, load) if beside else check_game_full(job.source, load, draft=settings.draft)
    game = data.game
    checked = data.game
    lang = settings.language
    report = GameReport(data.display, f"{data.title} [{lang}]" if lang else data.title, game is not None,
                        rules_checked=data.rules_checked)
    if game is not None and lang:
        game, found = localize(game, job.source, lang)
        data.findings += found
        report.loaded = game is not None
    if game is None:
        report.findings = merge(data.findings)
        return report
    out_dir = job.output / game.id / lang if lang else job.output / game.id
    record = BuildRecord(out_dir)
    if settings.changed_since is not None:
        settings = _with_reprint(settings, game, job.source, out_dir, load, data.findings)
    stages = game_stages(OutputJob(game, job.source, out_dir, settings))
    full = job.write and _full_cards(settings)
    side = {"snapshot": partial(_snapshot_beside, game, job.source, settings)} if full else {}
    if beside:
        side["checks"] = partial(_checks_of, checked, job.source, settings.draft)
    return _GameRun(job, settings, data, checked, game, report, record, stages, side, before, beside)


def _finish(run: _GameRun, rendered) -> GameReport:
    """The report of ``run`` once its stages are rendered (``rendered``), after writing, for a
    build, what the verdict allows."""
    job, settings, data, game, report, stages = run.job, run.settings, run.data, run.game, run.report, run.stages
    progress.for_game(job.source.path.name)
    if run.beside:
        found = rendered.side.get("checks") or _checks_of(run.checked, job.source, settings.draft)
        if isinstance(found, BaseException):
            raise found
        findings, report.rules_checked, data.files = found
        data.findings[:0] = findings  # before what localizing and the reprint found, as when run first
    report.ran, report.kept = rendered.ran, rendered.kept
    report.failed = sorted(rendered.failed)
    lang = settings.language
    files = data.files + _design_files(game, job.source) + ([f"{game.display_root}/i18n/{lang}.po"] if lang else [])
    report.findings = sorted(supersede(merge(data.findings + mark(rendered.findings, game))),
                             key=sort_key({f: i for i, f in enumerate(files)}))
    if settings.strict:  # the print-ready run: missing art is refused, not a placeholder
        report.findings = refused_art(report.findings)
    if job.write:
        errors = any(f.severity == "error" for f in report.findings)
        warnings = any(f.severity == "warning" for f in report.findings)
        if settings.strict and (errors or warnings):
            report.refused = "strict"
        elif errors and not settings.force:
            report.refused = "errors"
        else:
            problems = write_stages(rendered, run.record)
            parts = {stage.name: rendered.keys[stage.name] for stage in stages} if _full_cards(settings) else None
            if parts is not None and not rendered.failed & {"cards", "boards"}:
                problems += keep_snapshot(game, job.source, run.record.out_dir, settings, parts,
                                          rendered.side.get("snapshot"))
            report.written = True
            report.findings += problems
            report.failed = sorted(rendered.failed)
            if settings.changed_since is None:  # a reprint depends on the earlier version too: no snapshot
                remember(run.record.out_dir, job.source, settings, job.load, report,
                         [p for s in stages for p in s.inputs], run.before, parts)
    for result in report.ran.values():
        result.outputs = []  # the bytes are written or dropped; the report travels between processes
    save_caches()  # what the data checks parsed and their templates read, for the next run
    return report


def _with_reprint(settings: BuildSettings, game: Game, source: GameSource, out_dir: Path, load: LoadOptions,
                  findings: list) -> BuildSettings:
    """``settings`` with the reprint since ``settings.changed_since`` (the pieces changed and
    added since that version); an earlier version that cannot be read is a ``versions.ref``
    error in ``findings`` (and the settings are returned as they are: no sheet is made)."""
    try:
        label, old = resolve_since(source, out_dir, settings.changed_since, load, "--changed-since")
        plan = reprint_plan(compare(label, old, current_snapshot(game, source)))
    except PnpError as exc:
        findings.append(stage_failure(exc))
        return settings
    return replace(settings, reprint=plan)


def _full_cards(settings: BuildSettings) -> bool:
    """Whether a build makes the full card sheets, boards and tokens (not a quick sheet, not a
    reprint), whose snapshot ``pnp diff`` compares with."""
    return (settings.outputs is None or {"cards", "boards"} <= set(settings.outputs)) and not settings.only \
        and settings.changed_since is None


def _checks_of(game: Game, source: GameSource, draft: bool) -> tuple[list, int, list[str]]:
    """The data checks of ``game`` (:func:`pnp.validate.check.data_checks`): its findings, the
    number of rules that ran and the files findings are ordered by."""
    with progress.step("checking the data"):
        checked = data_checks(game, source, draft)
    return checked.findings, checked.rules_checked, checked.files


def _snapshot_now(game: Game, source: GameSource, settings: BuildSettings) -> bytes:
    """The snapshot of what a build of ``game`` prints with where its faces go on the card
    sheets, as the file keeps them (:func:`~pnp.pipeline.versions.snapshot_document`). Raises as
    :func:`~pnp.pipeline.versions.current_snapshot`."""
    return snapshot_document(current_snapshot(game, source), sheet_positions(game, source, settings.sheet))


def _snapshot_beside(game: Game, source: GameSource, settings: BuildSettings) -> bytes:
    """:func:`_snapshot_now` compressed (zlib, level 1), as it is worked out beside the stages
    and handed back from another process: 1,280 cards' snapshot is 1 MB of text and 90 KB so,
    received while the card sheets are still held."""
    return zlib.compress(_snapshot_now(game, source, settings), 1)


def keep_snapshot(game: Game, source: GameSource, out_dir: Path, settings: BuildSettings = BuildSettings(),
                  parts: dict[str, str] | None = None, made: object = None) -> list:
    """Save the snapshot of what this build printed beside its build record
    (:func:`pnp.pipeline.versions.save_last`), with where each face is on the card sheets
    ``settings.sheet`` made (:func:`~pnp.pipeline.versions.sheet_positions`, for ``pnp diff
    --visual``) and the build's ``parts`` (stage name -> record key, for ``pnp release``); a
    ``build.write`` error finding when it cannot be written. ``made``: the snapshot already
    worked out beside the stages (:func:`_snapshot_beside`), or the exception that raised;
    None works it out now."""
    try:
        if isinstance(made, BaseException):
            raise made
        document = zlib.decompress(made) if made is not None else _snapshot_now(game, source, settings)
        save_last(out_dir, document, parts)
    except (OSError, PnpError) as exc:
        return [write_failure(exc)]
    return []


def _design_files(game: Game, source: GameSource) -> list[str]:
    """The design files findings are reported in, after the data files: layouts, boards,
    rulebook template."""
    if source.templates_dir is None:
        return []
    return [source.layouts_display, f"{source.templates_display}/{BOARDS_FILE}",
            f"{source.templates_display}/{RULEBOOK_FILE}"]


def run_jobs(jobs: list[BuildJob], workers: int | None = None,
             listener: Callable[[progress.Event], None] | None = None) -> list[GameReport]:
    """Run games side by side, one process per core (at most 2 by default), reports in the
    order of ``jobs``. ``listener`` receives every game's progress events
    (:mod:`pnp.core.progress`) in this process. A single game renders its stages side by side
    (:attr:`BuildJob.stage_workers`); several games are loaded here and every stage of every
    game shares one queue (:func:`_run_together`). Where processes cannot be forked, the games
    go to worker processes whole, the longest first by their last run's time
    (:mod:`pnp.pipeline.schedule`), or run here when workers cannot start; what each game
    writes is the same in any case and order."""
    cores = workers or default_workers()
    if len(jobs) == 1 and cores > 1:
        jobs = [replace(jobs[0], stage_workers=cores)]
    if len(jobs) > 1 and cores > 1 and can_fork():
        if listener is None:
            return _run_together(jobs, cores)
        with progress.relay(listener):
            return _run_together(jobs, cores)
    keys = [timing_key(job.source.path, job.write) for job in jobs]
    order = longest_first(keys) if 1 < cores < len(jobs) else list(range(len(jobs)))
    queued = [jobs[i] for i in order]
    if listener is None:
        timed = map_ordered(_timed_game, queued, workers)
    else:
        with progress.relay(listener) as queue:
            timed = map_ordered(_timed_game, queued, workers, initializer=progress.send_to, initargs=(queue,))
    reports: list[GameReport] = [None] * len(jobs)  # type: ignore[list-item]
    for i, (report, _) in zip(order, timed):
        reports[i] = report
    remember_timings({keys[i]: seconds for i, (_, seconds) in zip(order, timed) if _every_output(jobs[i].settings)})
    return reports


def _run_together(jobs: list[BuildJob], workers: int) -> list[GameReport]:
    """:func:`run_game` of every job, the games' stages and data checks rendered side by side
    in ``workers`` processes as one queue (:func:`~pnp.pipeline.stages.render_games`): every
    game is loaded here first (a few milliseconds each), so the forked workers inherit them,
    and a short game no longer leaves a core idle while a long one finishes. Each game is
    written here, in the order of ``jobs``, once all are rendered."""
    runs = [_prepare(job, beside=True) for job in jobs]
    todo = [run for run in runs if isinstance(run, _GameRun)]
    rendered = iter(render_games([GameStages(run.job.source.path.name, run.stages, run.record, dry=not run.job.write,
                                             reuse=run.reuse, side=run.side, load=run.job.load,
                                             roots=run.job.source.roots, place=run.place) for run in todo], workers))
    return [_finish(run, next(rendered)) if isinstance(run, _GameRun) else run for run in runs]


def _timed_game(job: BuildJob) -> tuple[GameReport, float]:
    """:func:`run_game` of ``job`` and how long it took (s, wall clock), for the next run's
    order (:mod:`pnp.pipeline.schedule`)."""
    start = time.perf_counter()
    report = run_game(job)
    return report, time.perf_counter() - start


def _every_output(settings: BuildSettings) -> bool:
    """Whether a run makes every output in full, the run whose time orders the next one."""
    return settings.outputs is None and not settings.only and settings.changed_since is None


def build_game(game: Game, source: GameSource, out_dir: Path, settings: BuildSettings = BuildSettings()
               ) -> tuple[dict[str, BuildResult], dict[str, list[Path]]]:
    """Render and write every part of one loaded game into ``out_dir`` without a verdict (the
    findings are in each result), keeping parts whose inputs are unchanged (every part is
    rendered with ``settings.force``). Returns the results of the parts rendered and the files
    of the parts kept."""
    record = BuildRecord(out_dir)
    rendered = render_stages(game_stages(OutputJob(game, source, out_dir, settings)), record,
                             dry=False, reuse=not settings.force, roots=source.roots)
    write_stages(rendered, record)
    return rendered.ran, rendered.kept
