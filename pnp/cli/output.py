"""What the commands share: the consoles, resolving GAME arguments and printing reports."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..core.errors import PnpError
from .streams import ASCII, fall_back_to_ascii  # noqa: F401  (re-exported)
from .settings import duplicate_id, output_root, resolve_games  # noqa: F401  (the commands' helpers)

MAX_LISTED = 8
"""A part that wrote more files than this is reported as a count and their folder."""

MAX_ERRORS = 50
"""An error listing more problems than this prints this many, then how many more."""

for _stream in (sys.stdout, sys.stderr):
    fall_back_to_ascii(_stream)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def print_error(exc: PnpError) -> None:
    """How every command shows an error the user caused, on the error stream: ``error``, in
    red, its rule id (as the findings of ``pnp check`` show theirs, to look it up in
    docs/validation.md), then its message and hint; an error listing several problems
    (``errors``) so for each, up to :data:`MAX_ERRORS`. The caller exits with status 2."""
    errors = getattr(exc, "errors", None) or [exc]
    for each in errors[:MAX_ERRORS]:
        err.print(f"[red]error[/red] [dim]{escape(each.rule)}[/dim]: {escape(each.render())}")
    if len(errors) > MAX_ERRORS:
        err.print(f"... and {len(errors) - MAX_ERRORS} more")


def print_lines(lines, console: Console | None = None) -> None:
    """Print (indent, Rich Text) lines whole: wrapped to the width of a terminal under their
    indent, and never wrapped nor cut when the output goes to a pipe or a file."""
    from rich.padding import Padding
    from rich.text import Text

    console = console or out
    if not console.is_terminal:  # one print for the whole report: a long one prints in a blink
        lines = list(lines)
        if lines:
            console.print(Text("\n").join(Text(" " * indent) + text for indent, text in lines), soft_wrap=True)
        return
    for indent, text in lines:
        console.print(Padding(text, (0, 0, 0, indent), expand=False), soft_wrap=False)


def print_report(report, strict: bool = False, infos: bool = True) -> None:
    """The findings report of one game (:func:`pnp.validate.report.report_lines`)."""
    from ..validate.report import report_lines

    print_lines(report_lines(report, strict, infos))


@contextmanager
def progress_bars(quiet: bool = False):
    """Progress bars for the long work of ``build``, ``check``, ``export`` and ``rulebook``:
    one line per game (its current step, how far it is, the time taken), drawn on the error
    stream while the games run and cleared when they are done, so the report follows on a
    clean screen. Yields a listener for :func:`pnp.pipeline.build.run_jobs` that draws them, or
    None when there is to be no progress: with ``quiet``, or when the error stream is not a
    terminal (a pipe, a log file, CI)."""
    if quiet or not err.is_terminal:
        yield None
        return
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as bars:
        tasks: dict[str, int] = {}
        steps: dict[str, str] = {}

        def listener(event) -> None:
            description = f"[bold]{escape(event.game)}[/bold] {escape(event.step)}"
            task = tasks.get(event.game)
            if task is None:
                tasks[event.game] = bars.add_task(description, total=event.total or None, completed=event.done)
            else:
                # a step begun is drawn at once: the parts of several games share the processes,
                # so a game's short step may begin and end between two of the bars' refreshes
                bars.update(task, description=description, total=event.total or None, completed=event.done,
                            refresh=steps.get(event.game) != event.step)
            steps[event.game] = event.step

        yield listener


def language_runs(sources, lang: str | None) -> list[tuple]:
    """(source, language) per run: one run per game without ``--lang`` (language None); with
    ``--lang all``, one per language each game lists (one plain run for a game that lists
    none); else that language for every game (a game without it reports why)."""
    if not lang:
        return [(source, None) for source in sources]
    from ..model.games import game_languages

    if lang == "all":
        return [(source, code) for source in sources for code in (game_languages(source.path) or (None,))]
    return [(source, lang) for source in sources]


def run_games(sources, output, settings, load, *, write: bool, reuse: bool = True, quiet: bool = False,
              lang: str | None = None):
    """Run the check-and-build pipeline (:func:`pnp.pipeline.build.run_game`) for each game,
    side by side, reports in order, with a progress bar per game on a terminal (none when
    ``quiet``). Refuses two games with one id when writing (their files would overwrite each
    other)."""
    from ..pipeline.fresh import fresh_report

    gid = duplicate_id(sources) if write else None
    if gid is not None:
        raise PnpError(f"two of the games given have the id {gid!r}; their files would overwrite each other",
                       hint="give them one at a time with different --output folders, or change one id",
                       rule="cli.option")
    from dataclasses import replace

    runs = [(source, replace(settings, language=code)) for source, code in language_runs(sources, lang)]
    reports = [fresh_report(source, output, s, load, write=write) if reuse and not settings.force else None
               for source, s in runs]
    todo = [run for run, report in zip(runs, reports) if report is None]
    if not todo:
        return reports  # nothing to do: answered from the build records, no renderer imported
    from ..pipeline.build import BuildJob, run_jobs

    jobs = [BuildJob(source, output, s, load, write=write, reuse=reuse) for source, s in todo]
    with progress_bars(quiet) as listener:
        made = iter(run_jobs(jobs, settings.jobs, listener))
    return [report if report is not None else next(made) for report in reports]


def _list_files(verb: str, files: list[Path], many: str, one: str) -> None:
    """Print each of ``files`` on its own line after ``verb``, or, past :data:`MAX_LISTED`, how
    many there are under their common folder."""
    if len(files) > MAX_LISTED:
        folder = Path(os.path.commonpath([str(f.parent) for f in files]))
        out.print(f"    {verb} {len(files)} files under {escape(str(folder))}{many}")
    else:
        for f in files:
            out.print(f"    {verb} {escape(str(f))}{one}")


def print_build(report, strict: bool, describe, quiet: bool = False) -> bool:
    """Print one game's build: its outcome line, each part (``describe(name, result)`` says what
    it made) with the files written or kept (not when ``quiet``; a refused run lists only what it
    kept), then its findings (infos
    counted on one line). The files a part wrote are listed even when another part failed.
    Returns whether the build failed: the game did not load, the verdict refused to write (an
    error, or with ``strict`` a warning), or a part could not be made at all (a forced build
    writes the rest despite errors, and fails only then)."""
    from ..validate.report import report_lines

    lines = report_lines(report, strict, infos=False)
    print_lines(lines[:1])
    made = {} if quiet or report.refused else report.ran  # a refused run made nothing to list
    for name, result in made.items():
        what = describe(name, result)
        if what:
            out.print(f"  {escape(name)}: {what}")
        _list_files("wrote", result.files, "", "")
        _list_files("removed", result.removed, " that this build no longer makes", " (this build no longer makes it)")
    for name, files in ({} if quiet else report.kept).items():
        if files:
            out.print(f"  {escape(name)}: inputs unchanged, kept {len(files)} file(s) (--force rebuilds)")
    print_lines(lines[1:])
    if not report.loaded:
        out.print("  [red]nothing written[/red]: the data did not load; fix the errors above "
                  "(the previous outputs stay as they were)")
    elif report.refused == "errors":
        out.print("  [red]nothing written[/red]: fix the errors above, or write anyway with --force")
    elif report.refused == "strict":
        out.print("  [red]nothing written[/red]: --strict counts warnings as errors")
    elif report.failed:
        out.print(f"  [red]not made[/red]: {escape(', '.join(report.failed))} (see the errors above)")
    return not report.loaded or bool(report.refused) or bool(report.failed)
