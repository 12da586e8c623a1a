"""The Ars Alchimia rulebook: built from the bundled data, its text carries the data's numbers,
and a changed CSV value in a copy of the game folder changes the built text."""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from conftest import CARD_DATA, ROOT
from pnp.model.load import load_game
from pnp.model.games import GameSource
from pnp.outputs.rulebook import build_rulebook

GAME = "ars-alchimia"
TEMPLATES = ROOT / "templates" / GAME


def pdf_text(path: Path, only_pages_with: tuple[str, ...] = ()) -> str:
    """The text of the PDF, extracted with pdfplumber. With ``only_pages_with``, only the pages
    that mention one of those words are extracted (found quickly with pdfium), to save time."""
    pages = None
    if only_pages_with:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(str(path))
        try:
            pages = [i + 1 for i in range(len(doc))
                     if any(w in doc[i].get_textpage().get_text_range() for w in only_pages_with)]
        finally:
            doc.close()
        assert pages, only_pages_with
    with pdfplumber.open(path, pages=pages) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def rows(name: str) -> list[dict[str, str]]:
    with open(CARD_DATA / GAME / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def build(game_dir: Path, templates: Path, out: Path, only_pages_with: tuple[str, ...] = ()) -> tuple[str, int]:
    """Single A4 pages only (no booklet): the text of the PDF and its page count."""
    result = build_rulebook(load_game(game_dir, GAME), GameSource(game_dir, GAME, templates, f"templates/{GAME}"), out,
                            "a4", False)
    assert len(result.files) == 1
    return pdf_text(result.files[0], only_pages_with), result.sheets


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    return build(CARD_DATA / GAME, TEMPLATES, tmp_path_factory.mktemp("ars"))


def test_rulebook_builds_with_every_section(bundled):
    text, pages = bundled
    assert pages >= 8
    for heading in ("What is in the box", "Setting up", "A year of play", "The four actions",
                    "Final scoring", "The end of the game", "A worked example", "Quick reference"):
        assert heading in text, heading
    assert "Kuro" in text  # the original design is credited


def test_data_facts_appear_in_the_text(bundled):
    text, _ = bundled
    # every order of the catalogue, with its rank, type and points, as the CSV has them
    for o in rows("order_cards.csv"):
        assert re.search(rf"^{o['rank']} {re.escape(o['item_name'])} {o['type']} {o['points']}\b", text, re.M), \
            o["item_name"]
    # locations with their die thresholds, forges with their transmutations and thresholds
    for loc in rows("location_cards.csv"):
        assert re.search(rf"^{re.escape(loc['name'])} .* {loc['bonus_threshold']}\+$", text, re.M), loc["name"]
    for f in rows("forge_cards.csv"):
        assert re.search(rf"^{re.escape(f['name'])} {f['transmutations']} {f['perfect_threshold']}\+$", text, re.M)
    # the player board capacities and the component counts
    for r in rows("player_board_resources.csv"):
        assert re.search(rf"^{r['name']} \w+ {r['starting_amount']} {r['capacity']} ", text, re.M), r["name"]
    assert re.search(r"^Order cards 42 20 of rank C, 14 of rank B, 8 of rank A$", text, re.M)
    assert re.search(r"^Speciality bonus \+0 \+1 \+3 \+6 \+9 \+12$", text, re.M)


def test_changed_csv_value_changes_the_rulebook(bundled, tmp_path):
    before, _ = bundled
    assert re.search(r"^A Crucible of Proof academic 13 ", before, re.M)
    assert re.search(r"^Points 2–4 6–8 10–14$", before, re.M)
    assert re.search(r"^Copper Athanor 1 3\+$", before, re.M)

    game_dir = tmp_path / GAME
    shutil.copytree(CARD_DATA / GAME, game_dir)
    shutil.copytree(TEMPLATES, game_dir / "templates")  # a game folder keeps its own templates
    orders = game_dir / "order_cards.csv"
    text = orders.read_text(encoding="utf-8")
    old = "order-a-08,Crucible of Proof,A,academic,13,"
    assert old in text
    orders.write_text(text.replace(old, "order-a-08,Crucible of Proof,A,academic,17,"), encoding="utf-8")
    forges = game_dir / "forge_cards.csv"
    text = forges.read_text(encoding="utf-8")
    assert "copper-athanor,Copper Athanor,1,3,1" in text
    forges.write_text(text.replace("copper-athanor,Copper Athanor,1,3,1", "copper-athanor,Copper Athanor,1,2,1"),
                      encoding="utf-8")

    after, _ = build(game_dir, game_dir / "templates", tmp_path / "out",
                     only_pages_with=("Crucible of Proof", "Copper Athanor", "Resources in the recipe"))
    assert re.search(r"^A Crucible of Proof academic 17 ", after, re.M)
    assert not re.search(r"^A Crucible of Proof academic 13 ", after, re.M)
    assert re.search(r"^Points 2–4 6–8 10–17$", after, re.M)  # the per-rank summary follows the CSV
    assert re.search(r"^Copper Athanor 1 2\+$", after, re.M)
