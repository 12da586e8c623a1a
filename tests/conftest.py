"""Shared fixtures: paths to the repository's game folders and a copy helper for mutations."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _ctrl_c_reaches() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


CTRL_C_REACHES = {"preexec_fn": _ctrl_c_reaches} if os.name == "posix" else {}
"""``subprocess.Popen`` arguments for a command a test stops with Ctrl-C (SIGINT): the signal
at its default in the child, as in a terminal. A test run started with SIGINT ignored (a
background job of a shell script) would otherwise pass the ignoring on, and the command would
never see the Ctrl-C."""


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A writable copy of the tiny test game folder."""
    dest = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", dest)
    return dest
