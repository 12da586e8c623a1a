"""The bundled games as tests read them: their sources, their rulebooks built and read back."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber

from conftest import CARD_DATA, ROOT
from pnp.model.games import GameSource
from pnp.outputs.rulebook import build_rulebook


def bundled_source(gid: str) -> GameSource:
    """The :class:`GameSource` of bundled game ``gid``: its data folder and its templates."""
    return GameSource(CARD_DATA / gid, gid, ROOT / "templates" / gid, f"templates/{gid}")


def flat(text: str) -> str:
    """``text`` with every run of white space (line breaks included) one space."""
    return re.sub(r"\s+", " ", text)


def built_rulebook(game, source: GameSource, folder: Path) -> Path:
    """Build ``game``'s Letter rulebook into ``folder`` and return the PDF; fails on an error."""
    result = build_rulebook(game, source, folder, "letter", False)
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    (pdf,) = result.files
    return pdf


def page_texts(pdf: Path) -> list[str]:
    """The text of every page of ``pdf``, as pdfplumber reads it."""
    with pdfplumber.open(pdf) as doc:
        return [p.extract_text() or "" for p in doc.pages]


def rulebook_prose(game, source: GameSource, folder: Path) -> str:
    """The text of ``game``'s Letter rulebook after its cover page, white space made single
    spaces: what a sentence test searches."""
    return flat("\n".join(page_texts(built_rulebook(game, source, folder))[1:]))
