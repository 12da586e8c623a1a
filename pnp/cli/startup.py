"""Quick answers of the command line, made without Typer (and its pydantic layer) and, where
the output is not a terminal, without Rich: ``pnp --help``, ``pnp COMMAND --help`` and
``pnp --version`` from the help Typer rendered ahead of time (:mod:`pnp.cli.helptext`,
written by ``python -m pnp.cli.helpgen``), a ``pnp build`` or ``pnp check`` with nothing
to do from the answer written down last time (:mod:`pnp.cli.quick`) or else from the games'
run snapshots (:mod:`pnp.pipeline.fresh`), and ``pnp list GAME...``.
A ``build`` or ``check`` that must run, with only the options :func:`parse_run` reads, is run
here too (:mod:`pnp.cli.runs`, the functions the Typer commands call), without Typer.

Each answer is exactly what the full command line prints (tests/cli/test_startup.py and
tests/cli/test_runs.py compare them): anything else, or anything these cannot answer that way
(help rendered from sources that have changed since, a terminal narrower than the help, other
options, a value Typer would refuse), is left to the full command line. The one difference is
a crash: a run without Typer shows Python's own traceback, not Typer's.
"""

from __future__ import annotations

import os
import sys

from .streams import fall_back_to_ascii

HELP_COLUMNS = 80
"""Terminal columns the help was rendered at. Click wraps help at ``min(columns, 80) - 2``, so
the same text holds on any terminal at least this wide, and in a pipe (80 columns assumed)."""

HELP_SOURCES = ("cli", "core/units.py", "render/art.py", "__init__.py")
"""What the help is made of, under the package: the commands' options and help (every module
of ``cli`` but the help itself), the paper names, the art size guard's default, the version."""

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def answer(args: list[str]) -> int | None:
    """Answer the command line ``args`` (without the program name) when it is one of the quick
    answers: returns the exit status, having printed what Typer would print; None when the
    full command line must answer."""
    if not args or args == ["--help"] or (len(args) == 2 and args[1] == "--help" and not args[0].startswith("-")):
        return _help(args)
    if args == ["--version"]:
        from .. import __version__

        _write(sys.stdout, f"pnp {__version__}\n")
        return 0
    if args[0] in ("build", "check"):
        code = _quick(args[0], args[1:])
        if code is None:
            code = _fresh(args[0], args[1:])
        return code if code is not None else _run(args[0], args[1:])
    if args[0] == "list" and not any(arg.startswith("-") for arg in args[1:]):
        return _list(args[1:])
    return None


def sources_digest() -> str:
    """SHA-256 of the files the help is rendered from (:data:`HELP_SOURCES`, line ends as
    ``\\n``): help rendered from other sources is not shown."""
    import hashlib

    names: list[str] = []
    for source in HELP_SOURCES:
        path = os.path.join(PACKAGE, *source.split("/"))
        if os.path.isdir(path):
            names += sorted(os.path.join(source, n) for n in os.listdir(path)
                            if n.endswith(".py") and n != "helptext.py")
        else:
            names.append(source)
    digest = hashlib.sha256()
    for name in names:
        with open(os.path.join(PACKAGE, *name.replace("\\", "/").split("/")), "rb") as f:
            data = f.read().replace(b"\r\n", b"\n")
        digest.update(f"{name.replace(os.sep, '/')}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()


def program_name() -> str | None:
    """How click names the program in a usage line (its ``_detect_program_name``): ``pnp``
    for the console script, ``python -m pnp`` for the module; None for anything else."""
    main = sys.modules.get("__main__")
    package = getattr(main, "__package__", None)
    name = os.path.basename(sys.argv[0]) if sys.argv else ""
    if package in (None, ""):
        return "pnp" if name == "pnp" else None
    if package == "pnp" and os.path.splitext(name)[0] == "__main__":
        return "python -m pnp"
    return None


def terminal_columns() -> int:
    """Columns as click sees them (``shutil.get_terminal_size``: ``COLUMNS``, else standard
    output's terminal, else 80)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


def help_text(command: str, prog: str) -> str | None:
    """The help Typer prints for ``pnp COMMAND --help`` (``command`` empty: ``pnp --help``)
    at :data:`HELP_COLUMNS`, named ``prog``; None when there is none, or it was rendered from
    other sources."""
    from . import helptext

    text = helptext.HELP.get(command)
    if text is None or helptext.SOURCES != sources_digest():
        return None
    return text if prog == "pnp" else text.replace("Usage: pnp ", f"Usage: {prog} ", 1)


def _help(args: list[str]) -> int | None:
    prog = program_name()
    if prog is None or terminal_columns() < HELP_COLUMNS:
        return None
    text = help_text(args[0] if len(args) == 2 else "", prog)
    if text is None or not text.isascii():
        return None
    if not args:  # no command: click shows the help on the error stream, status 2
        _write(sys.stderr, text)
        return 2
    _write(sys.stdout, text)
    return 0


def _write(stream, text: str) -> None:
    fall_back_to_ascii(stream)
    stream.write(text)
    stream.flush()


def parse(command: str, args: list[str]) -> dict | None:
    """The games and options of a ``build`` or ``check`` command line that the quick answer
    takes (games, ``-o``/``--output``, ``-q``/``--quiet``, ``--strict``, and for check
    ``--format``); None for anything else."""
    got: dict = {"games": [], "output": None, "quiet": False, "strict": False, "format": "text"}
    rest = iter(args)
    valued = {"-o": "output", "--output": "output"}
    if command == "check":
        valued["--format"] = "format"
    seen = set()
    for arg in rest:
        name, eq, value = arg.partition("=")
        if arg in valued or (eq and name in valued and name.startswith("--")):
            key = valued[name if eq else arg]
            if not eq:
                value = next(rest, None)
            if key in seen or not value or value.startswith("-"):
                return None
            seen.add(key)
            got[key] = value
        elif arg in ("-q", "--quiet"):
            got["quiet"] = True
        elif arg == "--strict":
            got["strict"] = True
        elif arg.startswith("-"):
            return None
        else:
            got["games"].append(arg)
    if got["format"] not in ("text", "json"):
        return None
    return got


RUN_FLAGS = {
    "build": {"--force": ("force", True), "--contact-sheets": ("contact_sheets", True),
              "--no-contact-sheets": ("contact_sheets", False)},
    "check": {},
}
"""The flags a ``build`` or ``check`` run without Typer takes besides those of :func:`parse`
(option -> setting, value); the last of a pair given twice wins, as click has it."""


def parse_run(command: str, args: list[str]) -> dict | None:
    """The games and options of a ``build`` or ``check`` command line that is run without Typer
    (:func:`_run`): those of :func:`parse`, the flags of :data:`RUN_FLAGS`, ``--jobs N`` (a
    whole number from 1 to 9999) and, for build, ``--only DECK[/ID]`` (repeatable), as keyword
    arguments of :func:`pnp.cli.runs.run_build` or :func:`~pnp.cli.runs.run_check`; None for
    anything else, and for a value Typer would refuse, which Typer then reports."""
    flags = RUN_FLAGS[command]
    plain: list[str] = []
    got: dict = {}
    only: list[str] = []
    rest = iter(args)
    for arg in rest:
        name, eq, value = arg.partition("=")
        if arg in flags:
            key, setting = flags[arg]
            got[key] = setting
        elif arg in ("-o", "--output", "--format"):  # click takes the next word as the value, whatever it is
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
            plain += [arg, value]
        elif name in ("--jobs", "--only") and (eq or arg == name):
            if command == "check" and name == "--only":
                return None
            if not eq:
                value = next(rest, None)
            if not value or value.startswith("-"):
                return None
            if name == "--only":
                only.append(value)
            elif "jobs" in got or not (value.isascii() and value.isdigit() and len(value) <= 4 and int(value) >= 1):
                return None
            else:
                got["jobs"] = int(value)
        else:
            plain.append(arg)
    common = parse(command, plain)
    if common is None:
        return None
    fmt = common.pop("format")
    games = common.pop("games")
    if command == "check":
        got["format"] = fmt
    if only:
        got["only"] = only
    output = common.pop("output")
    if output is not None and os.path.exists(output) and not os.access(output, os.R_OK):
        return None  # Typer refuses a folder it cannot read
    from pathlib import Path

    return {"games": games or None, "output": Path(output) if output is not None else None, **common, **got}


def _run(command: str, args: list[str]) -> int | None:
    """``pnp build`` or ``pnp check`` of a command line :func:`parse_run` reads, run without
    Typer, reported as the Typer command reports it; None for any other command line. An
    interruption is said as click says it (``Aborted!``, status 1)."""
    got = parse_run(command, args)
    if got is None:
        return None
    from ..core.errors import PnpError
    from .output import print_error
    from .runs import run_build, run_check

    try:
        code = (run_build if command == "build" else run_check)(**got)
    except PnpError as exc:
        print_error(exc)
        return 2
    except (KeyboardInterrupt, EOFError):
        sys.stderr.write("\nAborted!\n")
        return 1
    if command == "build" and code == 0 and set(got) <= PLAIN_BUILD and got.get("contact_sheets") is None:
        plain = list(got["games"] or []) + (["-o", str(got["output"])] if got["output"] is not None else [])
        _fresh("build", plain, show=False)  # what a plain build prints next time, written down
    return code


PLAIN_BUILD = {"games", "output", "quiet", "strict", "force", "jobs", "contact_sheets"}
"""The settings of a build run by :func:`_run` whose outputs a plain ``pnp build`` (the same
games and ``-o``) keeps: ``--force`` and ``--jobs`` change how a build is made, not what."""


def _quick(command: str, args: list[str]) -> int | None:
    """``pnp build`` or ``pnp check`` of games with nothing to do, answered by :mod:`pnp.cli.quick`
    (a plain command line, not ``--strict``, text to a plain output); None otherwise."""
    got = parse(command, args)
    if got is None or got["strict"] or got["format"] != "text" or not plain_output(sys.stdout):
        return None
    from .quick import answer as quick_answer

    answered = quick_answer(command, got["games"], got["output"], got["quiet"])
    if answered is None:
        return None
    text, code = answered
    fall_back_to_ascii(sys.stderr)
    _write(sys.stdout, text)
    return code


def _fresh(command: str, args: list[str], *, show: bool = True) -> int | None:
    """``pnp build`` or ``pnp check`` of games whose runs have nothing to do: the reports from
    their snapshots, printed as the commands print them (not when ``show`` is False), and, for
    a build, written down for :mod:`pnp.cli.quick` to answer next time."""
    got = parse(command, args)
    if got is None:
        return None
    from pathlib import Path

    from ..core.errors import PnpError
    from ..pipeline.fresh import fresh_run
    from . import settings as cli

    write = command == "build"
    games = got["games"] or None
    settings = _plain_settings(command, got["strict"])
    load = cli.load_options(cli.ENCODING, None)
    try:
        sources = cli.resolve_games(games)
        root = cli.output_root(Path(got["output"]) if got["output"] is not None else None, games)
        if write and cli.duplicate_id(sources) is not None:
            return None
    except PnpError:
        return None  # the full command line reports it
    runs = []
    for source in sources:
        fresh = fresh_run(source, root, settings, load, write=write)
        report = None if fresh is None else fresh[0]
        if report is None or not report.loaded or report.ran or report.refused or report.failed:
            return None
        runs.append((source, *fresh))
    reports = [report for _source, report, _run, _out in runs]
    code = 0
    if show:
        for stream in (sys.stdout, sys.stderr):
            fall_back_to_ascii(stream)
        code = _print_builds(reports, got["strict"], got["quiet"]) if write else \
            _print_checks(reports, got["strict"], got["format"])
    if write and not got["strict"]:
        _write_down(runs, load)
    return code


def _plain_settings(command: str, strict: bool):
    """The settings of a plain ``pnp build`` or ``pnp check`` (no option but ``--strict``)."""
    from ..render.art import DEFAULT_MAX_PIXELS
    from . import settings as cli

    if command == "build":
        return cli.build_settings(cli.default_sheet_options(contact_sheets=None), DEFAULT_MAX_PIXELS,
                                  False, strict, None, None)
    return cli.check_settings(cli.default_sheet_options(contact_sheets=False), DEFAULT_MAX_PIXELS,
                              None, None, None, strict=strict)


def _write_down(runs, load) -> None:
    """Write down, for :mod:`pnp.cli.quick`, the answers of plain builds and checks of the games
    of ``runs`` ((source, report, snapshot run, output folder), answered from their build
    snapshots): what each prints, without --strict."""
    from ..core.findings import failing
    from ..pipeline.fresh import settings_key
    from .quick import record

    check_settings = _plain_settings("check", False)
    for source, report, run, out_dir in runs:
        check = run.get("check_key") == settings_key(source, check_settings, load, for_check=True)
        texts = {"build": _build_text(report, False), "build-quiet": _build_text(report, True),
                 "check": _check_text(report, False) if check else None}
        record(out_dir, source, run, texts, failing(report.findings, False))


def _build_text(report, quiet: bool, strict: bool = False) -> str | None:
    """What ``pnp build`` prints to a plain output of a game with nothing to do; None when Rich
    would print it otherwise (a character it expands, strips or reads as markup)."""
    from ..validate.report import report_spans

    lines = _plain_lines(report_spans(report, strict, infos=False))
    if lines is None:
        return None
    chunks = [lines[0]]
    for name, files in ({} if quiet else report.kept).items():
        if files:
            if not _safe(name, markup=True):
                return None
            chunks.append(f"  {name}: inputs unchanged, kept {len(files)} file(s) (--force rebuilds)\n")
    return "".join(chunks + lines[1:])


def _check_text(report, strict: bool) -> str | None:
    """What ``pnp check`` prints to a plain output of one game (before the blank line that
    follows each of several); None as :func:`_build_text`."""
    from ..validate.report import report_spans

    lines = _plain_lines(report_spans(report, strict))
    return None if lines is None else "".join(lines)


def _list(games: list[str]) -> int:
    """``pnp list GAME...`` (no options): the command's tables, without Typer; to a plain
    output, the tables written down last time when the games are as they were then
    (:func:`pnp.cli.quick.list_answer`), else the tables made, printed and written down."""
    plain = plain_output(sys.stdout)
    if plain:
        from .quick import list_answer

        text = list_answer(games)
        if text is not None:
            _write(sys.stdout, text)
            return 0
    from ..core.errors import PnpError
    from .output import out, print_error
    from .settings import ENCODING
    from .tables import show_games

    if not plain:
        try:
            show_games(games or None, ENCODING, None)
        except PnpError as exc:
            print_error(exc)
            return 2
        return 0
    from .quick import list_inputs, remember_list

    before = list_inputs(games)
    shown: list = []
    failed = None
    with out.capture() as captured:
        try:
            show_games(games or None, ENCODING, None, shown)
        except PnpError as exc:
            failed = exc
    text = captured.get()
    _write(sys.stdout, text)
    if failed is not None:
        print_error(failed)
        return 2
    remember_list(games, before, [comp.table for game in shown for comp in game if comp.table is not None], text)
    return 0


def plain_output(stream) -> bool:
    """Whether Rich would print to ``stream`` without styles or wrapping: not a terminal, and
    no ``FORCE_COLOR`` or ``TTY_COMPATIBLE`` saying otherwise."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return False


def _safe(text: str, markup: bool = False) -> bool:
    """Whether Rich prints ``text`` as it is: printable (no tab or control character Rich would
    expand or strip) and, in a markup string, nothing Rich reads as markup or an emoji code."""
    return text.isprintable() and not (markup and any(c in text for c in "[]\\:"))


def _plain_lines(spans) -> list[str] | None:
    lines = []
    for indent, _style, text in spans:
        strings = [text] if isinstance(text, str) else [part for part, _ in text]
        if not all(_safe(s) for s in strings):
            return None
        lines.append(" " * indent + "".join(strings) + "\n")
    return lines


def _print_builds(reports, strict: bool, quiet: bool) -> int:
    """What ``pnp build`` prints of builds with nothing to do (:func:`pnp.cli.output.print_build`)."""
    texts = [_build_text(report, quiet, strict) for report in reports] if plain_output(sys.stdout) else [None]
    if None not in texts:
        _write(sys.stdout, "".join(texts))
        return 0
    from .output import print_build

    for report in reports:
        print_build(report, strict, lambda name, result: "", quiet)
    return 0


def _print_checks(reports, strict: bool, format: str) -> int:
    """What ``pnp check`` prints of checks answered from the snapshots (:mod:`pnp.cli.check`)."""
    from ..core.findings import failing

    bad = any(failing(r.findings, strict) for r in reports)
    if format == "json":
        import json

        from ..validate.report import report_dict

        _write(sys.stdout, json.dumps([report_dict(r) for r in reports], indent=2, ensure_ascii=False) + "\n")
        return 1 if bad else 0
    chunks: list[str] | None = [] if plain_output(sys.stdout) else None
    for report in reports:
        text = _check_text(report, strict) if chunks is not None else None
        if text is None:
            chunks = None
            break
        chunks.append(text + ("\n" if len(reports) > 1 else ""))
    if chunks is not None:
        if strict and bad:
            chunks.append("--strict: warnings count as errors\n")
        _write(sys.stdout, "".join(chunks))
        return 1 if bad else 0
    from .output import out, print_report

    for report in reports:
        print_report(report, strict)
        if len(reports) > 1:
            out.print()
    if strict and bad:
        out.print("--strict: warnings count as errors", style="yellow", highlight=False)
    return 1 if bad else 0
