"""Golden outputs: every file pnp writes for the bundled games, and what it says about broken
ones, reduced to SHA-256 hashes kept in ``tests/golden/hashes.json``.

A refactor changes none of these hashes; a behaviour change that alters an output updates them
in the commit that explains why. Each *variant* is one set of commands run as a designer runs
them (whole ``pnp`` processes, in a scratch folder), and its result is a mapping of file name
(relative to the scratch folder) to hash. Printed text counts as a file too: ``<name>.out``
holds a command's exit status, standard output and standard error.

Run ``python tests/golden_outputs.py --update`` to write the hashes anew (after a deliberate
change), or ``python tests/golden_outputs.py VARIANT --diff`` to see which files differ.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HASHES = Path(__file__).resolve().parent / "golden" / "hashes.json"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BAD_INPUTS = Path(__file__).resolve().parent / "cases" / "bad_inputs"
GAMES = ("ars-alchimia", "assemble", "atomic-assembly", "periodic-shed")
TARGETS = ("tgc", "mpc", "dtc", "eu", "tts")
URL_PREFIX = "https://example.invalid/pnp/"
"""Tabletop Simulator image URLs are file:/// paths by default; a fixed prefix keeps them the
same wherever the test runs."""


def _log(cwd: Path, log: str, code: int, stdout: str, stderr: str) -> None:
    (cwd / log).write_text(f"exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}", encoding="utf-8")


def _run_here(args: list[str], cwd: Path, log: str) -> None:
    """Run ``pnp ARGS`` in this process (many short runs: no start-up cost each time)."""
    from pnp.cli import main

    old_cwd, old_argv = os.getcwd(), sys.argv
    out, err = io.StringIO(), io.StringIO()
    code = 0
    os.chdir(cwd)
    sys.argv = ["pnp", *args]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(old_cwd)
        sys.argv = old_argv
    _log(cwd, log, code, out.getvalue(), err.getvalue())


def _run(args: list[str], cwd: Path, log: str | None = None) -> None:
    """Run ``pnp ARGS`` in ``cwd``; with ``log``, keep what it printed as ``cwd/log``."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", TERM="dumb", PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    if log is None:
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"pnp {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
        return
    _log(cwd, log, proc.returncode, proc.stdout, proc.stderr)


def variant_build(work: Path, extra: list[str]) -> None:
    _run(["build", "--force", "-o", "out", *extra, *GAMES], work, "build.out")


def variant_rulebook(work: Path, paper: str) -> None:
    _run(["rulebook", "--booklet", "--paper", paper, "-o", "out", *GAMES], work, "rulebook.out")


def variant_export(work: Path, target: str) -> None:
    _run(["export", "-t", target, "-o", "out", "--url-prefix", URL_PREFIX, *GAMES], work, "export.out")


def variant_check(work: Path) -> None:
    _run(["check", "--format", "json", "--analysis", "--plots", "plots", *GAMES], work, "check.out")
    _run(["check", "--analysis", *GAMES], work, "check-text.out")
    _run(["list", *GAMES], work, "list.out")


def variant_bad_inputs(work: Path) -> None:
    """Every case of tests/bad_inputs as a game folder: what check says (JSON) and what build
    says and writes."""
    for case in sorted(p for p in BAD_INPUTS.iterdir() if p.is_dir()):
        game = work / case.name
        shutil.copytree(FIXTURES / "tiny", game)
        for path in case.rglob("*"):
            if path.is_file() and path.name != "case.toml":
                target = game / path.relative_to(case)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
        spec = tomllib.loads((case / "case.toml").read_text(encoding="utf-8"))
        extra = (["--boxes"] if spec.get("boxes") else []) + (["--cut", f"{case.name}/{spec['cut']}"] if "cut" in spec
                                                              else [])
        _run_here(["check", "--format", "json", *extra, case.name], work, f"{case.name}.check.out")
        if spec["run"] == "build":
            _run_here(["build", "-o", f"out-{case.name}", "--no-contact-sheets", *extra, case.name], work,
                 f"{case.name}.build.out")


VARIANTS = {
    "build-letter": lambda w: variant_build(w, ["--contact-sheets"]),
    "build-a4-short": lambda w: variant_build(w, ["--paper", "a4", "--flip", "short", "--back-offset", "0.5,-0.3",
                                                  "--no-contact-sheets"]),
    "build-gutter-fold": lambda w: variant_build(w, ["--gutter-fold", "--gap", "2mm", "--no-contact-sheets"]),
    "rulebook-letter": lambda w: variant_rulebook(w, "letter"),
    "rulebook-a4": lambda w: variant_rulebook(w, "a4"),
    **{f"export-{t}": (lambda w, t=t: variant_export(w, t)) for t in TARGETS},
    "check": variant_check,
    "bad-inputs": variant_bad_inputs,
}
"""Variant name -> what it runs in a fresh scratch folder."""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hashes_of(work: Path) -> dict[str, str]:
    """Every file under ``work`` (relative POSIX path -> SHA-256), the game copies, the
    snapshots of whole runs and the answers written down from them (this machine's paths and
    file times, not outputs) excepted."""
    from pnp.cli.quick import QUICK_FILE
    from pnp.pipeline.fresh import RUN_FILE

    out = {}
    for path in sorted(work.rglob("*")):
        rel = path.relative_to(work)
        if path.is_file() and path.name not in (RUN_FILE, QUICK_FILE) and not (rel.parts[0] in BAD_CASE_NAMES and len(rel.parts) > 1):
            out[rel.as_posix()] = digest(path)
    return out


BAD_CASE_NAMES = {p.name for p in BAD_INPUTS.iterdir() if p.is_dir()}


def run_variant(name: str, keep: Path | None = None) -> dict[str, str]:
    """Run variant ``name`` in a scratch folder and return its file hashes (``keep``: a folder to
    run in and leave behind, for looking at the files)."""
    if keep is not None:
        if keep.exists():
            shutil.rmtree(keep)
        keep.mkdir(parents=True)
        VARIANTS[name](keep)
        return hashes_of(keep)
    with tempfile.TemporaryDirectory(prefix="pnp-golden-") as tmp:
        work = Path(tmp)
        VARIANTS[name](work)
        return hashes_of(work)


def load_hashes() -> dict[str, dict[str, str]]:
    return json.loads(HASHES.read_text(encoding="utf-8")) if HASHES.is_file() else {}


def differences(want: dict[str, str], got: dict[str, str]) -> list[str]:
    """Lines naming every file that is new, missing or different."""
    lines = []
    for name in sorted(set(want) | set(got)):
        if name not in got:
            lines.append(f"missing: {name}")
        elif name not in want:
            lines.append(f"new:     {name}")
        elif want[name] != got[name]:
            lines.append(f"changed: {name}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="variants to run (default: all)")
    parser.add_argument("--update", action="store_true", help="write the hashes of the variants run")
    parser.add_argument("--keep", type=Path, help="run in this folder and leave the files there")
    args = parser.parse_args(argv)
    names = args.variants or list(VARIANTS)
    stored = load_hashes()
    status = 0
    for name in names:
        got = run_variant(name, args.keep / name if args.keep else None)
        diff = differences(stored.get(name, {}), got)
        print(f"{name}: {len(got)} files, " + (f"{len(diff)} differ" if diff else "all as recorded"))
        for line in diff[:40]:
            print("  " + line)
        if diff:
            status = 1
        stored[name] = got
    if args.update:
        HASHES.parent.mkdir(parents=True, exist_ok=True)
        HASHES.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {HASHES.relative_to(ROOT)}")
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
