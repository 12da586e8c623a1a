"""Colour differences kept between runs: the same floats, and no colour science on a warm run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pnp.core.cachedir import CACHE_ENV
from pnp.render import vision

PAIRS = [("#c0392b", "#27ae60"), ("#2980b9", "#f1c40f"), ("#000000", "#ffffff")]


@pytest.fixture(autouse=True)
def new_process():
    """Each test starts, and leaves, as a process that has read no cache file yet."""
    vision._DIFFERENCES.forget()
    yield
    vision._DIFFERENCES.forget()


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


def _worked_out(a, b, view):
    import numpy as np

    return float(np.sqrt(np.sum((vision._ucs(vision.seen(a, view)) - vision._ucs(vision.seen(b, view))) ** 2)))


def test_a_saved_difference_reads_back_as_the_same_float(fresh, monkeypatch):
    first = {(a, b, v): vision.difference(a, b, v) for a, b in PAIRS for v in ("normal",) + vision.SIMULATIONS}
    assert all(value == _worked_out(*key) for key, value in first.items())
    vision.save_differences()
    files = list((fresh / "colour").iterdir())
    assert len(files) == 1 and len(json.loads(files[0].read_text())) == len(first)
    vision._DIFFERENCES.forget()  # a new run: read from the file
    monkeypatch.setattr(vision, "_ucs", None)  # nothing may be worked out again
    assert {key: vision.difference(*key) for key in first} == first


def test_a_warm_run_imports_neither_numpy_nor_colorspacious(fresh):
    script = textwrap.dedent(f"""
        import sys
        from pnp.render import vision
        values = [vision.difference(a, b, v) for a, b in {PAIRS!r} for v in ("normal",) + vision.SIMULATIONS]
        vision.save_differences()
        print(repr(values), "numpy" in sys.modules, "colorspacious" in sys.modules)
    """)
    env = {**os.environ, CACHE_ENV: str(fresh)}
    cold = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    warm = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert cold.split()[-2:] == ["True", "True"]
    assert warm.split()[-2:] == ["False", "False"]
    assert cold.rsplit(" ", 2)[0] == warm.rsplit(" ", 2)[0]  # the same values, digit for digit


def test_a_damaged_cache_file_is_worked_out_again_and_replaced(fresh):
    vision.difference(*PAIRS[0])
    vision.save_differences()
    path = next((fresh / "colour").iterdir())
    path.write_text('{"x": "not a number"')
    vision._DIFFERENCES.forget()
    assert vision.difference(*PAIRS[0]) == _worked_out(*PAIRS[0], "normal")
    vision.save_differences()
    assert list(json.loads(path.read_text()).values()) == [_worked_out(*PAIRS[0], "normal")]


def test_no_cache_folder_keeps_nothing_and_an_unknown_vision_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV, "")
    assert vision.difference(*PAIRS[1]) == _worked_out(*PAIRS[1], "normal")
    vision.save_differences()
    assert not vision._DIFFERENCES.unsaved and not any(Path(tmp_path).iterdir())
    with pytest.raises(KeyError):
        vision.difference(*PAIRS[1], "achromatopsia")
