"""The `pnp` command line: a thin Typer shell over the stages in this package.

Errors a user causes are shown as their message (file, line, column, hint) with exit status 2;
``pnp check`` exits 1 when it finds errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .errors import PnpError

app = typer.Typer(
    help="Print-and-play sheets, print-shop files and checks for tabletop games kept as CSV.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

GameArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Bundled game id or path to a game folder; none means every bundled game.",
                   show_default=False),
]


EncodingOpt = Annotated[str, typer.Option(help="Text encoding of the CSV files, e.g. cp1252 for files saved by older Excel.")]
DelimiterOpt = Annotated[Optional[str], typer.Option(help="CSV delimiter; detected from the header line when not given (comma or semicolon).", show_default=False)]


def _delimiter(value: str | None) -> str | None:
    """--delimiter as typed: one character, or tab written as 'tab' or a backslash-t."""
    if value is None:
        return None
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}
    value = named.get(value.lower(), value)
    if len(value) != 1:
        raise PnpError(f"--delimiter {value!r} is not one character",
                       hint="use --delimiter ';', --delimiter , or --delimiter tab")
    return value


def _game_id(path: Path) -> str | None:
    """A game folder's id from its manifest, or None when it cannot be read (the check says why)."""
    import tomllib

    try:
        gid = tomllib.loads((path / "game.toml").read_text(encoding="utf-8-sig"))["game"]["id"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return str(gid)


def _templates(path: Path, display: str) -> tuple[Path, str] | None:
    """The templates folder of a game (None when the manifest cannot be read for its id)."""
    from .games import templates_for

    gid = _game_id(path)
    return None if gid is None else templates_for(path, display, gid)


def _version(value: bool) -> None:
    if value:
        out.print(f"pnp {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Print-and-play sheets, print-shop files and checks for tabletop games kept as CSV."""


def _games(games: list[str] | None) -> list[tuple[Path, str]]:
    from .games import bundled_ids, resolve

    names = games or bundled_ids()
    if not names:
        raise PnpError("no bundled games found", hint="give a path to a game folder")
    return [resolve(g) for g in names]


@app.command("list")
def list_games(games: GameArg = None, encoding: EncodingOpt = "utf-8", delimiter: DelimiterOpt = None) -> None:
    """Show games, their components and piece counts."""
    from .model import load_game

    for path, display in _games(games):
        game = load_game(path, display, encoding=encoding, delimiter=_delimiter(delimiter))
        table = Table(title=escape(f"{game.title}  ({game.id}, {game.players_min}-{game.players_max} players)"),
                      title_justify="left")
        table.add_column("component")
        table.add_column("kind")
        table.add_column("name")
        table.add_column("rows", justify="right")
        table.add_column("pieces", justify="right")
        table.add_column("size / table")
        for comp in game:
            size = ""
            if comp.card_size is not None:
                size = f"{comp.card_size_name} ({comp.card_size})"
            elif comp.table_display:
                size = comp.table_display.split("/")[-1]
            table.add_row(escape(comp.id), comp.kind, escape(comp.name), str(len(comp.rows)) if comp.table else "",
                          str(comp.pieces) if comp.kind != "table" else "", escape(size))
        table.add_section()
        table.add_row("total", "", "", "", str(game.pieces), "")
        out.print(table)
        if game.totals:
            stated = Table(title="Totals the rulebook states", title_justify="left")
            for col in ("what", "stated", "in data", "source"):
                stated.add_column(col)
            for t in game.totals:
                have = game.count(t)
                mark = "" if have == t.count else "  [red]differs[/red]"
                stated.add_row(escape(t.label), str(t.count), f"{have}{mark}", escape(t.source))
            out.print(stated)
        out.print()


@app.command()
def check(
    games: GameArg = None,
    format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
    analysis: Annotated[bool, typer.Option("--analysis", help="Also show the composition: pieces per deck by colour, family, type or rank; cost curves; what each cost needs against what the game supplies.")] = False,
    plots: Annotated[Optional[Path], typer.Option("--plots", help="Write the composition charts as PNG files into DIR/<game>/ (implies --analysis).", metavar="DIR", show_default=False)] = None,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
) -> None:
    """Check games' data against their manifests, the rulebook's totals and each game's rules.

    Exits 1 when a game has errors (or warnings, with --strict), 0 otherwise.
    """
    from .check import check_game_full, report_dict, report_renderables
    from .findings import failing

    if format not in ("text", "json"):
        raise PnpError(f"unknown format {format!r}", hint="use --format text or --format json")
    results = []
    for path, display in _games(games):
        results.append(check_game_full(path, display, _templates(path, display), encoding=encoding,
                                       delimiter=_delimiter(delimiter)))
    bad = any(failing(r.findings, strict) for r in results)
    analyses: dict = {}
    written: dict = {}
    if analysis or plots is not None:
        from .analysis import analyze, write_plots

        for r in results:
            if r.game is not None:
                analyses[r.display] = analyze(r.game, r.book)
                if plots is not None:
                    written[r.display] = write_plots(analyses[r.display], plots / r.game.id)
    if format == "json":
        payload = []
        for r in results:
            item = report_dict(r)
            if r.display in analyses:
                item["analysis"] = analyses[r.display].as_dict()
            if r.display in written:
                item["plots"] = [str(p) for p in written[r.display]]
            payload.append(item)
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for r in results:
            for part in report_renderables(r, strict):
                out.print(part)
            if r.display in analyses:
                from .analysis import analysis_renderables

                for part in analysis_renderables(analyses[r.display]):
                    out.print(part)
            for path in written.get(r.display, []):
                out.print(f"  wrote {escape(str(path))}")
            if len(results) > 1:
                out.print()
        if strict and bad:
            out.print("--strict: warnings count as errors", style="yellow", highlight=False)
    if bad:
        raise typer.Exit(1)


def _offset(text: str) -> tuple[float, float]:
    from .units import parse_length

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise PnpError(f"--back-offset {text!r} needs two values, X,Y",
                       hint="for example --back-offset 0.5,-0.3 (mm) or 0.02in,0in")
    out = []
    for part in parts:
        try:
            out.append(parse_length(part if part[-1:].isalpha() else part + "mm"))
        except (ValueError, IndexError):
            raise PnpError(f"--back-offset: {part!r} is not a length",
                           hint="give millimetres (0.5) or a length with a unit (0.02in)") from None
    limit = parse_length("10mm")
    if any(abs(v) > limit for v in out):
        raise PnpError(f"--back-offset {text!r} moves the backs more than 10 mm",
                       hint="printers misregister by a millimetre or two; measure it on the calibration sheet")
    return out[0], out[1]


@app.command()
def build(
    games: GameArg = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write into; each game gets a subfolder.")] = Path("output"),
    paper: Annotated[str, typer.Option(help="Paper: letter or a4 (also a3, a5, legal, tabloid, half-letter).")] = "letter",
    flip: Annotated[str, typer.Option(help="Duplex flip: long (backs mirror the columns) or short (backs mirror the rows, turned).")] = "long",
    gutter_fold: Annotated[bool, typer.Option("--gutter-fold", help="Faces and backs on one sheet, to fold and glue; no duplex printing.")] = False,
    back_offset: Annotated[str, typer.Option(help="Move every back by X,Y mm to correct a printer's misregistration (measure it with the calibration page).")] = "0,0",
    margin: Annotated[str, typer.Option(help="Ink-free margin at the paper edge.")] = "5mm",
    gap: Annotated[str, typer.Option(help="Space between cards; bleed fills up to half of it.")] = "0mm",
    bleed: Annotated[str, typer.Option(help="Largest bleed past each trim, where the space allows.")] = "0.125in",
    contact_sheets: Annotated[bool, typer.Option("--contact-sheets/--no-contact-sheets", help="Write a contact sheet PNG per deck.")] = True,
    force: Annotated[bool, typer.Option("--force", help="Rebuild everything, even parts whose inputs are unchanged and data that pnp check finds errors in.")] = False,
    max_image_pixels: Annotated[int, typer.Option(help="Refuse art with more pixels than this (a guard against decompression bombs).")] = 89_478_485,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when the build reports warnings (text that does not fit, missing glyphs, low-resolution art).")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
) -> None:
    """Check each game, then render every card into print-and-play PDFs under OUTPUT/<game>/."""
    from .build import SheetOptions
    from .units import parse_length

    if flip not in ("long", "short"):
        raise PnpError(f"--flip {flip!r} is not long or short")
    lengths = {}
    for name, value in (("margin", margin), ("gap", gap), ("bleed", bleed)):
        try:
            lengths[name] = parse_length(value)
        except ValueError as exc:
            raise PnpError(f"--{name}: {exc}") from None
        if lengths[name] < 0:
            raise PnpError(f"--{name} cannot be negative")
    opts = SheetOptions(paper=paper.lower(), flip=flip, gutter_fold=gutter_fold, back_offset=_offset(back_offset),
                        contact_sheets=contact_sheets, **lengths)
    opts.paper_size()
    from .build import BuildJob, run_jobs

    jobs = [BuildJob(path, display, _templates(path, display), output, opts, force, max_image_pixels,
                     encoding, _delimiter(delimiter)) for path, display in _games(games)]
    ids = [_game_id(job.path) for job in jobs]
    for gid in ids:
        if gid is not None and ids.count(gid) > 1:
            raise PnpError(f"two of the games given have the id {gid!r}; their files would overwrite each other",
                           hint="build them one at a time with different --output folders, or change one id")
    failed = False
    failing = {"error", "warning"} if strict else {"error"}
    for job, outcome in zip(jobs, run_jobs(jobs)):
        if outcome.error is not None:
            raise outcome.error
        if outcome.refused is not None:
            errors = outcome.refused
            out.print(f"[bold]{escape(outcome.title)}[/bold]: [red]not built[/red], pnp check found {len(errors)} error(s)")
            _print_findings(errors)
            if outcome.loaded:
                out.print("  hint: fix the data, or build anyway with --force")
            failed = True
            continue
        out.print(f"[bold]{escape(outcome.title)}[/bold]")
        for name, result in outcome.ran.items():
            if not result.files:
                continue
            count = {"cards": f"{result.cards} cards on {result.sheets} sheet(s)",
                     "boards": f"{result.sheets} sheet(s) of boards, tokens and dice",
                     "rulebook": f"{result.sheets} page(s)"}.get(name, f"{result.cards} cards in {len(result.files)} file(s)")
            out.print(f"  {name}: {count}")
            for f in result.files:
                out.print(f"    wrote {escape(str(f))}")
            _print_findings(result.findings)
            failed = failed or any(f.severity in failing for f in result.findings)
        for name, files in outcome.skipped.items():
            out.print(f"  {name}: inputs unchanged, kept {len(files)} file(s) (--force rebuilds)")
    if failed:
        raise typer.Exit(1)


def checked_game(path: Path, display: str, templates, force: bool, verb: str):
    """Check a game before a command makes files from it. Returns the game, or None after
    printing why nothing was made ("not built", "not exported", ...) when the check found errors
    (and ``force`` is off) or the game did not load."""
    from .check import check_game
    from .model import COPIES_CAP

    game, findings = check_game(path, display, templates, copies_cap=None if force else COPIES_CAP)
    errors = [f for f in findings if f.severity == "error"]
    if game is not None and (not errors or force):
        return game
    out.print(f"[bold]{escape(game.title if game else display)}[/bold]: [red]not {verb}[/red], "
              f"pnp check found {len(errors)} error(s)")
    _print_findings(errors)
    if game is not None:
        out.print("  hint: fix the data, or use --force to go ahead anyway")
    return None


def _print_findings(findings) -> None:
    for f in findings:
        colour = {"error": "red", "warning": "yellow"}.get(f.severity, "cyan")
        out.print(f"  [{colour}]{f.severity}[/{colour}] {escape(f.rule)}  {escape(f.location)}: {escape(f.message)}")
        if f.hint:
            out.print(f"    hint: {escape(f.hint)}")


PLUGIN_COMMANDS = ("pnp.cmd_rulebook", "pnp.cmd_export")
"""Modules that add commands to ``app`` with a ``register(app)`` function."""


def _register_commands() -> None:
    import importlib
    import importlib.util

    for name in PLUGIN_COMMANDS:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_commands()


def main() -> None:
    """Entry point of the `pnp` console script."""
    try:
        app()
    except PnpError as exc:
        err.print(f"[red]error:[/red] {escape(exc.render())}")
        sys.exit(2)


if __name__ == "__main__":
    main()
