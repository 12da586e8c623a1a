"""The package's shape (docs/architecture.md): layers importing only downwards, no cycles, no
imports hidden in functions below the CLI, and modules small enough to read."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pnp"
LAYERS = ["cli", "preview", "pipeline", "outputs", "validate", "render", "design", "geometry", "model", "core"]
"""Top to bottom; outputs and validate are one layer, geometry and model another."""
RANK = {"cli": 0, "preview": 1, "pipeline": 2, "outputs": 3, "validate": 3, "render": 4, "design": 5, "geometry": 6,
        "model": 6, "core": 7}
SIBLINGS = {"outputs": "validate", "validate": "outputs", "geometry": "model", "model": "geometry"}


def test_the_import_contracts_hold():
    """import-linter's layers, forbidden-library and acyclic contracts (pyproject.toml)."""
    linter = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize("layer", LAYERS)
def test_importing_a_layer_loads_nothing_above_it(layer):
    """Every module of a layer, imported in a fresh interpreter, pulls in no module of a layer
    above it nor of its independent sibling (the contracts above read the source; this runs it)."""
    code = (
        "import importlib, json, pkgutil, sys\n"
        f"import pnp.{layer} as top\n"
        "for m in pkgutil.walk_packages(top.__path__, top.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted({n.split('.')[1] for n in sys.modules if n.startswith('pnp.')})))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout)) - {"__main__"}
    above = {name for name in loaded if name in RANK and (RANK[name] < RANK[layer] or name == SIBLINGS.get(layer))}
    assert not above, f"importing pnp.{layer} loads {sorted(above)}"


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def test_no_package_import_hides_in_a_function_below_the_cli():
    """Only the CLI imports the layers it drives inside its commands (for start-up speed), and
    the outputs registry its own members (made on first use, so that a build whose inputs are
    unchanged does not import the renderers)."""
    hidden = []
    for path in _modules():
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "cli" or rel.as_posix() == "outputs/__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.level > 0 or (inner.module or "").startswith("pnp")):
                    hidden.append(f"{rel}:{inner.lineno}")
                elif isinstance(inner, ast.Import) and any(a.name.startswith("pnp") for a in inner.names):
                    hidden.append(f"{rel}:{inner.lineno}")
    assert not hidden, "imports of pnp inside functions: " + ", ".join(hidden)


def test_every_module_is_at_most_500_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


def test_every_layer_is_a_package_with_a_docstring():
    for layer in LAYERS:
        init = PACKAGE / layer / "__init__.py"
        assert init.is_file(), layer
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"pnp/{layer}/__init__.py"
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith("_")) == sorted(LAYERS)


def test_no_merge_conflict_markers_are_left_in_the_tree():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    marked = []
    for name in tracked:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".j2", ".csv", ".txt", ".json", ".cfg"} or not path.is_file():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "=======":
                marked.append(f"{name}:{n}")
    assert marked == []
