"""The Periodic Shed rulebook: built from the game's data, and rebuilt differently when the data
changes. Every check reads the text of the PDF that was written (pdfplumber)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber

from conftest import CARD_DATA, ROOT
from pnp.model.load import load_game
from pnp.model.games import GameSource
from pnp.outputs.rulebook import build_rulebook

GAME = "periodic-shed"
TEMPLATES = ROOT / "templates" / GAME


def page_texts(path: Path, only: set[int] | None = None) -> list[str]:
    """The text of each page ("" for pages left out of ``only``: reading the card art is slow)."""
    with pdfplumber.open(path) as pdf:
        return [(page.extract_text() or "") if only is None or i in only else ""
                for i, page in enumerate(pdf.pages)]


def build(game_dir: Path, out: Path) -> Path:
    game = load_game(game_dir, str(game_dir))
    templates = game_dir / "templates"
    result = build_rulebook(game, GameSource(game_dir, str(game_dir), templates, str(templates)), out, "a4", False)
    assert [p.name for p in result.files] == [f"{GAME}-rulebook.pdf"]
    return result.files[0]


def test_rulebook_built_from_the_data_follows_a_changed_csv(tmp_path):
    # A copy of the game folder with the templates inside it, as a designer's own game keeps
    # them (<folder>/templates), so the bundled files are never touched.
    game_dir = tmp_path / GAME
    shutil.copytree(CARD_DATA / GAME, game_dir)
    shutil.copytree(TEMPLATES, game_dir / "templates")

    pages = page_texts(build(game_dir, tmp_path / "before"))
    before = "\n".join(pages)

    # Facts the template computes from the CSV rows, never typed into it.
    assert re.search(r"Alkali Metals H, Li, Na, K, Rb, Cs, Fr 6 1 14–454", before)      # elements at a glance
    assert re.search(r"^300 2 of 92 Francium, 294\.15 Caesium, 301\.65$", before, re.M)  # Temperature table
    assert "37 elements are radioactive: Tc, Pm and everything from Po to Og" in before
    assert re.search(r"Technetium \(Tc\) ▬ Early Transition Metals 2430\.15 K radioactive", before)
    assert "128 118 elements, 2 Fission, 2 Fusion, 1 Event Horizon, 5" in before  # components

    # Francium now melts at 299 K: the 300 K row of the Temperature table follows the CSV.
    cards = game_dir / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    old = "fr,element,Francium,Fr,87,alkali,1,7,yes,294.15,"
    assert old in text
    cards.write_text(text.replace(old, old.replace("294.15", "299.00")), encoding="utf-8")

    # A number of the same width moves nothing, so only the Temperature table's page is read.
    table_page = next(i for i, t in enumerate(pages) if "Coolest that survives" in t)
    after_pdf = build(game_dir, tmp_path / "after")
    after = page_texts(after_pdf, only={table_page})
    assert len(after) == len(pages)
    assert re.search(r"^300 2 of 92 Francium, 299\.00 Caesium, 301\.65$", after[table_page], re.M)
    assert "294.15" not in after[table_page]
    assert after[table_page] != pages[table_page]
