"""The quick answers of the command line (pnp.cli.startup): the same bytes and exit status as
the Typer application gives, without importing Typer, Rich or the renderers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.cli import helpgen, startup

HEAVY = {"typer", "rich", "pydantic", "reportlab", "jinja2", "PIL", "msgspec"}
"""What a quick answer must not import (the point of answering quickly)."""

QUICK = "import sys; from pnp.cli import main; sys.argv = ['pnp', *sys.argv[1:]]; main()"
"""The console script's entry point, as the `pnp` script runs it (prog name ``pnp``)."""

TYPER = ("import sys; from pnp.cli import typer_app; from pnp.cli.output import print_error; "
         "from pnp.core.errors import PnpError; sys.argv = ['pnp', *sys.argv[1:]]\n"
         "try:\n    typer_app()()\nexcept PnpError as exc:\n    print_error(exc); sys.exit(2)")
"""The Typer application alone, as :func:`pnp.cli.main` runs it when no quick answer applies."""


def env(**extra: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", **extra}


def run(code: str, *args: str, cwd=None, importtime: bool = False, **extra: str) -> subprocess.CompletedProcess:
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run([sys.executable, *flags, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          env=env(**extra), timeout=300)


def imported(stderr: str) -> set[str]:
    """Top-level packages named in ``-X importtime`` output."""
    return {line.split("|")[-1].strip().split(".")[0] for line in stderr.splitlines() if line.startswith("import time")}


def test_the_written_help_is_what_typer_renders_now():
    with open(helpgen.HELPTEXT, encoding="utf-8") as f:
        written = f.read()
    assert written == helpgen.module_text(), "the help is out of date: run python -m pnp.cli.helpgen"


@pytest.mark.parametrize("prog", ["pnp", "python -m pnp"])
def test_every_command_s_help_is_typer_s_own(prog):
    rendered = helpgen.render(prog)
    import typer.main

    from pnp.cli import typer_app

    assert set(rendered) == {""} | set(typer.main.get_command(typer_app()).commands)  # every command
    for command, text in rendered.items():
        assert startup.help_text(command, prog) == text, command
        assert "Usage: " + prog in text


def test_help_and_version_are_answered_without_typer_and_say_what_typer_says():
    for args in (["--help"], ["build", "--help"], ["check", "--help"], ["list", "--help"], ["--version"], []):
        quick = run(QUICK, *args, importtime=True)
        full = run(TYPER, *args)
        assert (quick.returncode, quick.stdout) == (full.returncode, full.stdout), args
        assert quick.stderr.count("Usage:") == full.stderr.count("Usage:"), args  # no arguments: help on stderr
        assert not HEAVY & imported(quick.stderr), (args, sorted(HEAVY & imported(quick.stderr)))
    bare, typer_bare = run(QUICK), run(TYPER)  # no command: the help on the error stream, status 2
    assert (bare.returncode, bare.stdout, bare.stderr) == (typer_bare.returncode, "", typer_bare.stderr)
    assert bare.returncode == 2 and bare.stderr.startswith("Usage: pnp [OPTIONS] COMMAND")


def test_a_narrow_terminal_gets_typer_s_own_wrapping():
    quick = run(QUICK, "build", "--help", COLUMNS="60")
    full = run(TYPER, "build", "--help", COLUMNS="60")
    assert quick.stdout == full.stdout and max(len(line) for line in quick.stdout.splitlines()) <= 60


def test_help_from_changed_sources_is_rendered_again(monkeypatch):
    monkeypatch.setattr(startup, "sources_digest", lambda: "changed")
    assert startup.help_text("build", "pnp") is None


@pytest.mark.parametrize("command,args", [
    ("build", ["--force"]), ("build", ["--paper", "a4"]), ("build", ["-o"]), ("build", ["-o", "a", "-o", "b"]),
    ("build", ["--format", "json"]), ("check", ["--format", "JSON"]), ("check", ["--analysis"]),
    ("check", ["-t", "tgc"]), ("build", ["--", "game"]), ("build", ["-qo", "out"]),
])
def test_options_the_quick_answer_does_not_take_go_to_typer(command, args):
    assert startup.parse(command, args) is None


def test_the_options_it_takes():
    assert startup.parse("check", ["g1", "--output=out", "-q", "g2", "--strict", "--format", "json"]) == {
        "games": ["g1", "g2"], "output": "out", "quiet": True, "strict": True, "format": "json"}


@pytest.fixture
def built(tiny: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    first = run(QUICK, "build", str(tiny), "-o", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    return out


@pytest.mark.parametrize("args", [["build"], ["build", "-q", "--strict"], ["check", "--strict"],
                                  ["check", "--format", "json"]])
def test_a_run_with_nothing_to_do_prints_what_typer_prints(tiny, built, args):
    argv = [*args, str(tiny), "-o", str(built)]
    quick = run(QUICK, *argv, importtime=True)
    full = run(TYPER, *argv)
    assert (quick.returncode, quick.stdout) == (full.returncode, full.stdout)
    assert ("inputs unchanged" in quick.stdout) == (args == ["build"])
    assert not HEAVY & imported(quick.stderr), sorted(HEAVY & imported(quick.stderr))
    if args[-1] == "json":
        return
    # with colours forced, Rich prints it (styles and all), still without Typer
    coloured = run(QUICK, *argv, importtime=True, FORCE_COLOR="1", COLUMNS="100")
    assert coloured.stdout == run(TYPER, *argv, FORCE_COLOR="1", COLUMNS="100").stdout
    assert "\x1b[" in coloured.stdout and "typer" not in imported(coloured.stderr)


def test_inside_a_game_folder_the_game_and_its_own_output_folder_are_found(tiny):
    first = run(QUICK, "build", cwd=tiny)
    assert first.returncode == 0, first.stdout + first.stderr
    quick = run(QUICK, "build", cwd=tiny, importtime=True)
    assert quick.stdout == run(TYPER, "build", cwd=tiny).stdout
    assert "inputs unchanged" in quick.stdout and "typer" not in imported(quick.stderr)


def test_a_changed_game_is_run_again(tiny, built):
    (tiny / "note.txt").write_text("a new file\n", encoding="utf-8")
    quick = run(QUICK, "build", str(tiny), "-o", str(built), importtime=True)
    assert quick.returncode == 0 and "| pnp.pipeline.build" in quick.stderr  # not answered from the snapshot
    assert "typer" not in imported(quick.stderr)  # a plain command line: run without Typer (test_runs.py)


def test_list_without_options_is_answered_without_typer(tiny):
    quick = run(QUICK, "list", str(tiny), importtime=True, COLUMNS="120")
    full = run(TYPER, "list", str(tiny), COLUMNS="120")
    assert (quick.returncode, quick.stdout) == (full.returncode, full.stdout)
    assert not {"typer", "pydantic"} & imported(quick.stderr)
    missing = run(QUICK, "list", str(tiny / "nowhere"))
    assert missing.returncode == 2 and missing.stderr == run(TYPER, "list", str(tiny / "nowhere")).stderr


def test_the_fall_back_for_a_console_without_the_characters_matches_rich(tiny, built):
    argv = ["check", str(tiny), "-o", str(built)]
    quick = run(QUICK, *argv, PYTHONIOENCODING="ascii")
    assert quick.stdout == run(TYPER, *argv, PYTHONIOENCODING="ascii").stdout


def test_the_program_name_is_click_s(monkeypatch):
    monkeypatch.setattr(sys, "argv", [os.path.join("bin", "pnp"), "--help"])
    monkeypatch.setitem(sys.modules, "__main__", type(sys)("__main__"))
    assert startup.program_name() == "pnp"
    monkeypatch.setattr(sys, "argv", ["bin/other", "--help"])
    assert startup.program_name() is None
