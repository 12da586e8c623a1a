"""Check-then-build orchestration: one game's outputs as stages (from every output in
:data:`pnp.outputs.OUTPUTS`), and several games side by side in worker processes.

A game is checked first (:mod:`pnp.validate.check`); with errors it is not built unless the
build is forced. Each game writes only its own folder, so a parallel build writes the same bytes
as a one-by-one build.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import PnpError
from ..core.findings import Finding
from ..core.parallel import map_ordered
from ..model.game import Game
from ..model.games import GameSource
from ..model.load import LoadOptions
from ..outputs import OUTPUTS
from ..outputs.base import BuildResult, BuildSettings, OutputJob
from ..validate.check import check_game
from .stages import run_stages


def build_game(game: Game, source: GameSource, out_dir: Path, settings: BuildSettings = BuildSettings()
               ) -> tuple[dict[str, BuildResult], dict[str, list[Path]]]:
    """Build every output of one game into ``out_dir``, skipping parts whose inputs are unchanged
    (every part with ``settings.force``).

    Returns the result of each part that was built and, for each part that was up to date, the
    files it had written. Parts, in order: ``cards``, ``boards`` (boards, tokens, dice),
    ``rulebook`` (single pages on A4 for A-series paper, else Letter), and ``export NAME`` for
    each target the manifest's ``[targets]`` lists.
    """
    job = OutputJob(game, source, out_dir, settings)
    stages = [stage for output in OUTPUTS.values() for stage in output.stages(job)]
    return run_stages(out_dir, stages, (settings.sheet, settings.max_image_pixels), force=settings.force)


@dataclass
class BuildJob:
    """Everything needed to check and build one game, in a form a worker process can receive:
    where the game is, the folder every game's subfolder goes in (``output``), the build
    settings and how its tables are read."""

    source: GameSource
    output: Path
    settings: BuildSettings = BuildSettings()
    load: LoadOptions = LoadOptions()


@dataclass
class BuildOutcome:
    """What building one game came to: refused (the check's errors), built, or an error."""

    title: str
    loaded: bool = False
    refused: list[Finding] | None = None
    ran: dict[str, BuildResult] = field(default_factory=dict)
    skipped: dict[str, list[Path]] = field(default_factory=dict)
    error: Exception | None = None


def build_job(job: BuildJob) -> BuildOutcome:
    """Check one game, then build it unless the check found errors (and ``force`` is off; a
    forced build also lifts the copies cap)."""
    force = job.settings.force
    try:
        load = replace(job.load, copies_cap=None) if force else job.load
        game, findings = check_game(job.source, load, job.settings.max_image_pixels)
        errors = [f for f in findings if f.severity == "error"]
        if game is None or (errors and not force):
            return BuildOutcome(game.title if game else job.source.display, game is not None, errors)
        ran, skipped = build_game(game, job.source, job.output / game.id, job.settings)
        return BuildOutcome(game.title, True, None, ran, skipped)
    except PnpError as exc:
        return BuildOutcome(job.source.display, error=exc)


def run_jobs(jobs: list[BuildJob], workers: int | None = None) -> list[BuildOutcome]:
    """Build games side by side, one process per core (at most 2 by default), outcomes in the
    order of ``jobs``. Falls back to building in this process when workers cannot start."""
    return map_ordered(build_job, jobs, workers)
