"""``pnp build`` and ``pnp check`` run without Typer (pnp.cli.runs, read by pnp.cli.startup):
the same option values, the same bytes printed and the same exit status as the Typer commands,
and neither Typer nor pydantic imported."""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import runs, startup, typer_app
from tests.cli.test_startup import QUICK, TYPER, imported, run

COMMANDS = {"build": runs.run_build, "check": runs.run_check}
APP = typer_app()
"""Every command registered in the application's own order, before a test imports one command's
module (importing it first would register that command first, and reorder the help)."""


def typer_values(monkeypatch, command: str, args: list[str]) -> dict:
    """The keyword arguments the Typer command passes to its run function for ``args``."""
    module = __import__(f"pnp.cli.{command}", fromlist=["x"])
    seen: dict = {}

    def capture(*positional, **kwargs):
        names = list(inspect.signature(COMMANDS[command]).parameters)
        seen.update(zip(names, positional), **kwargs)
        return 0

    monkeypatch.setattr(module, f"run_{command}", capture)
    result = CliRunner().invoke(APP, [command, *args])
    assert result.exit_code == 0, result.output
    return seen


def bound(command: str, values: dict) -> dict:
    """``values`` with every argument the run function was not given at its default; the
    games and --only lists as the run functions read them (none: None)."""
    call = inspect.signature(COMMANDS[command]).bind(**values)
    call.apply_defaults()
    got = dict(call.arguments)
    for key in ("games", "only"):
        if key in got:
            got[key] = list(got[key]) if got[key] else None
    return got


@pytest.mark.parametrize("command", ["build", "check"])
def test_the_run_functions_take_the_typer_commands_defaults(monkeypatch, command):
    from_typer = typer_values(monkeypatch, command, [])
    assert set(from_typer) == set(inspect.signature(COMMANDS[command]).parameters)
    assert bound(command, from_typer) == bound(command, {})


@pytest.mark.parametrize("command,args", [
    ("build", ["g1", "g2"]), ("build", ["--force", "-q", "--strict", "-o", "out"]),
    ("build", ["--no-contact-sheets", "--contact-sheets", "--no-contact-sheets"]),
    ("build", ["g", "--only", "cards", "--only=cards/a1", "--jobs", "3"]), ("build", ["--jobs=02", "--output=o"]),
    ("check", ["g", "--format", "json", "--strict", "--jobs", "1"]), ("check", ["-q", "-o", "x", "g"]),
])
def test_a_command_line_read_without_typer_gives_typer_s_values(monkeypatch, command, args):
    quick = startup.parse_run(command, args)
    assert quick is not None
    assert bound(command, quick) == bound(command, typer_values(monkeypatch, command, args))


@pytest.mark.parametrize("command,args", [
    ("build", ["--jobs", "0"]), ("build", ["--jobs", "x"]), ("build", ["--jobs", "1", "--jobs", "2"]),
    ("build", ["--jobs"]), ("build", ["--jobs", "-1"]), ("build", ["--jobs", "\u0663"]), ("build", ["--only"]),
    ("build", ["--only", "--force"]), ("build", ["--paper", "a4"]), ("build", ["-o", "--force"]),
    ("check", ["--only", "cards"]), ("check", ["--force"]), ("check", ["--format", "JSON"]),
    ("build", ["--", "g"]), ("build", ["--watch"]), ("check", ["--analysis"]),
    ("build", ["g", "-o", "--jobs", "2", "out"]), ("build", ["-o", "--only", "cards", "g"]),
    ("build", ["g", "-o", "--force", "out"]), ("check", ["--format", "--jobs", "2", "json", "g"]),
    ("build", ["--jobs", "9" * 4301]), ("build", ["--jobs", "10000"]),
])
def test_anything_else_goes_to_typer(command, args):
    assert startup.parse_run(command, args) is None


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


@pytest.mark.parametrize("args", [["--force"], ["--force", "-q", "--no-contact-sheets"],
                                  ["--only", "cards", "--jobs", "1"]])
def test_a_build_run_without_typer_prints_and_writes_what_typer_does(tiny, tmp_path, args):
    quick = run(QUICK, "build", str(tiny), "-o", str(tmp_path / "a"), *args, importtime=True)
    full = run(TYPER, "build", str(tiny), "-o", str(tmp_path / "b"), *args)
    assert quick.returncode == full.returncode == 0, quick.stdout + quick.stderr
    assert quick.stdout.replace(str(tmp_path / "a"), "OUT") == full.stdout.replace(str(tmp_path / "b"), "OUT")
    assert "wrote" in quick.stdout or "-q" in args
    assert not {"typer", "pydantic"} & imported(quick.stderr)
    made, made_by_typer = outputs(tmp_path / "a"), outputs(tmp_path / "b")
    assert made and made == made_by_typer


def test_a_failing_game_and_a_missing_one_end_as_under_typer(tiny, tmp_path):
    rows = (tiny / "cards.csv").read_text(encoding="utf-8").splitlines()
    header, first = rows[0].split(","), rows[1].split(",")
    first[header.index("cost")] = "12"  # above the column's max of 9
    (tiny / "cards.csv").write_text("\n".join([rows[0], ",".join(first), *rows[2:]]) + "\n", encoding="utf-8")
    for argv in (["build", str(tiny), "-o", str(tmp_path / "o"), "--force"], ["check", str(tiny), "--strict"],
                 ["check", str(tiny), "--format", "json"], ["build", str(tmp_path / "nowhere"), "--force"]):
        quick = run(QUICK, *argv, importtime=True, cwd=tmp_path)
        full = run(TYPER, *argv, cwd=tmp_path)
        assert (quick.returncode, quick.stdout) == (full.returncode, full.stdout), argv
        assert quick.returncode == (2 if "nowhere" in argv[1] else 1), argv
        assert "typer" not in imported(quick.stderr), argv
        error = [line for line in quick.stderr.splitlines() if not line.startswith("import time")]
        assert error == full.stderr.splitlines(), argv
    assert not (tmp_path / "o").exists()  # the build refused: nothing written


def test_inside_a_game_folder_the_run_finds_the_game_as_typer_does(tiny, tmp_path):
    twin = tmp_path / "twin"
    shutil.copytree(tiny, twin)
    quick = run(QUICK, "build", "--force", "-q", cwd=tiny)
    full = run(TYPER, "build", "--force", "-q", cwd=twin)
    assert quick.returncode == full.returncode == 0 and quick.stdout == full.stdout
    assert outputs(tiny / "output") == outputs(twin / "output") != {}


def test_an_option_as_the_value_of_output_is_refused_as_typer_refuses_it(tiny, tmp_path):
    argv = ["build", str(tiny), "-o", "--force", "out"]  # click reads '--force' as the folder
    quick, full = run(QUICK, *argv, cwd=tmp_path), run(TYPER, *argv, cwd=tmp_path)
    assert (quick.returncode, quick.stdout, quick.stderr) == (full.returncode, full.stdout, full.stderr)
    assert quick.returncode == 2 and "no game 'out'" in quick.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "--force").exists()


def test_a_reader_that_went_away_ends_the_run_silently_as_under_typer(tiny, tmp_path):
    import os
    import subprocess
    import sys

    ends = []
    for code in (QUICK, TYPER):
        read, write = os.pipe()
        os.close(read)
        proc = subprocess.run([sys.executable, "-c", code, "check", str(tiny), "--format", "json"], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=300, cwd=tmp_path)
        os.close(write)
        ends.append((proc.returncode, proc.stderr))
    assert ends[0] == ends[1] == (1, "")
