"""Shared fixtures: paths to the repository's game folders and a copy helper for mutations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A writable copy of the tiny test game folder."""
    dest = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", dest)
    return dest
