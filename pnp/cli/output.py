"""What the commands share: the consoles, resolving GAME arguments and printing reports."""

from __future__ import annotations

import codecs
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..core.errors import PnpError

MAX_LISTED = 8
"""A part that wrote more files than this is reported as a count and their folder."""

ASCII = {"→": "->", "←": "<-", "✓": "ok", "✔": "ok", "✗": "x", "✘": "x", "×": "x", "…": "...", "·": "-",
         "–": "-", "—": "--", "−": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "≤": "<=", "≥": ">=",
         "°": " deg", "•": "*", "★": "*"}
"""What a message's characters become on a console that cannot show them (Windows' cp1252, a
C-locale pipe); anything else prints as ``\\u2603``-style escapes, never as an error."""


def _ascii(exc: UnicodeError):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(ASCII.get(ch) or ch.encode("ascii", "backslashreplace").decode() for ch in text), exc.end


codecs.register_error("pnp-ascii", _ascii)


def fall_back_to_ascii(stream) -> None:
    """Let ``stream`` (stdout, stderr) print any message: where its encoding lacks a character,
    that character is written as its ASCII stand-in (:data:`ASCII`) instead of raising
    UnicodeEncodeError."""
    if getattr(stream, "errors", "strict") == "strict" and hasattr(stream, "reconfigure"):
        try:
            "→✓…".encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            stream.reconfigure(errors="pnp-ascii")


for _stream in (sys.stdout, sys.stderr):
    fall_back_to_ascii(_stream)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def resolve_games(games: list[str] | None):
    """The :class:`~pnp.model.games.GameSource` of each GAME argument. With none, the game
    folder the command runs in (the current directory or a parent holding game.toml), else
    every bundled game."""
    from ..model.games import bundled_ids, find_game, local_game

    if not games:
        here = local_game()
        if here is not None:
            return [here]
    names = games or bundled_ids()
    if not names:
        raise PnpError("no bundled games found", hint="give a path to a game folder")
    return [find_game(g) for g in names]


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


def output_root(output: Path | None, games: list[str] | None) -> Path:
    """Where outputs go: ``--output`` when given; inside a game folder with no GAME argument,
    that folder's own ``output/``; else ``output/`` here."""
    if output is not None:
        return output
    if not games:
        from ..model.games import local_game

        here = local_game()
        if here is not None:
            return Path(here.display) / "output"
    return Path("output")


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

        def listener(event) -> None:
            description = f"[bold]{escape(event.game)}[/bold] {escape(event.step)}"
            task = tasks.get(event.game)
            if task is None:
                tasks[event.game] = bars.add_task(description, total=event.total or None, completed=event.done)
            else:
                bars.update(task, description=description, total=event.total or None, completed=event.done)

        yield listener


def run_games(sources, output, settings, load, *, write: bool, reuse: bool = True, quiet: bool = False):
    """Run the check-and-build pipeline (:func:`pnp.pipeline.build.run_game`) for each game,
    side by side, reports in order, with a progress bar per game on a terminal (none when
    ``quiet``). Refuses two games with one id when writing (their files would overwrite each
    other)."""
    from ..model.games import game_id
    from ..pipeline.fresh import fresh_report

    if write:
        ids = [game_id(source.path) for source in sources]
        for gid in ids:
            if gid is not None and ids.count(gid) > 1:
                raise PnpError(f"two of the games given have the id {gid!r}; their files would overwrite each other",
                               hint="give them one at a time with different --output folders, or change one id")
    reports = [fresh_report(source, output, settings, load, write=write) if reuse and not settings.force else None
               for source in sources]
    todo = [source for source, report in zip(sources, reports) if report is None]
    if not todo:
        return reports  # nothing to do: answered from the build records, no renderer imported
    from ..pipeline.build import BuildJob, run_jobs

    jobs = [BuildJob(source, output, settings, load, write=write, reuse=reuse) for source in todo]
    with progress_bars(quiet) as listener:
        made = iter(run_jobs(jobs, settings.jobs, listener))
    return [report if report is not None else next(made) for report in reports]


def print_build(report, strict: bool, describe, quiet: bool = False) -> bool:
    """Print one game's build: its outcome line, each part (``describe(name, result)`` says what
    it made) with the files written or kept (not when ``quiet``), then its findings (infos
    counted on one line). The files a part wrote are listed even when another part failed.
    Returns whether the build failed: the game did not load, the verdict refused to write (an
    error, or with ``strict`` a warning), or a part could not be made at all (a forced build
    writes the rest despite errors, and fails only then)."""
    from ..validate.report import report_lines

    lines = report_lines(report, strict, infos=False)
    print_lines(lines[:1])
    for name, result in ({} if quiet else report.ran).items():
        what = describe(name, result)
        if what:
            out.print(f"  {escape(name)}: {what}")
        if len(result.files) > MAX_LISTED:
            folder = Path(os.path.commonpath([str(f.parent) for f in result.files]))
            out.print(f"    wrote {len(result.files)} files under {escape(str(folder))}")
        else:
            for f in result.files:
                out.print(f"    wrote {escape(str(f))}")
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
