"""Periodic Shed errata: element facts decided from cited sources, and a rulebook and player aids
that say the same thing everywhere.

Text, positions and sizes are read from the written PDFs (pdfplumber); expected values come from
card_data/periodic-shed.
"""

from __future__ import annotations

import re

import pdfplumber
import pytest

from bundled import built_rulebook, bundled_source, flat, page_texts
from pnp.design.layouts import game_layouts
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards

SOURCE = bundled_source("periodic-shed")
GAME_DIR = SOURCE.path


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def elements(game):
    return {r.id: r for r in game.components["cards"].rows if r["kind"] == "element"}


@pytest.fixture(scope="module")
def rulebook(game, tmp_path_factory):
    pdf = built_rulebook(game, SOURCE, tmp_path_factory.mktemp("ps-rb"))
    return pdf, page_texts(pdf)


@pytest.fixture(scope="module")
def text(rulebook) -> str:
    return flat("\n".join(rulebook[1][1:]))


def test_element_facts_follow_the_decisions(elements):
    # tin melts (white tin, 505.08 K); only sublimation keeps carbon without a value
    assert elements["sn"]["melting_point_k"] == pytest.approx(505.08, abs=0.01)
    assert elements["c"]["melting_point_k"] is None and elements["he"]["melting_point_k"] is None
    for el, k in (("p", 317.30), ("s", 388.36), ("se", 493.95)):
        assert elements[el]["melting_point_k"] == pytest.approx(k, abs=0.01), el
    # polonium is a metal (and still radioactive); its badge says so
    po = elements["po"]
    assert po["metal"] is True and po["radioactive"] is True and "metal" in po["icons"]
    # La and Ac are f-block cards like their series: no group printed, so none says "Group 3"
    for el in ("la", "ac", "lu", "lr"):
        assert elements[el]["group"] is None, el
    # British (IUPAC) spellings
    assert elements["al"]["title"] == "Aluminium" and elements["cs"]["title"] == "Caesium"


def test_the_worked_example_melts_tin(game, elements, text):
    t600 = 600
    assert elements["sn"]["melting_point_k"] <= t600
    m = re.search(r"Cleo turns up the heat\.(.*?)current card, because action cards never are", text)
    assert m
    said = m.group(1)
    assert re.search(r"Tin \(505\.08 K\)", said)
    assert not re.search(r"K\) and \w+ \([\d.]+ K\) and", said)       # a list, not "A and B and C"
    assert "has no melting point on its card" not in said
    assert "Lead needs 600.61 K" in said


def test_every_f_block_card_prints_no_group(game, tmp_path):
    result = build_cards(game, game_layouts(game, SOURCE), tmp_path, SheetOptions(paper="a4"))
    assert not [f for f in result.findings if f.severity == "error"]
    pdf = next(p for p in result.files if p.name.endswith("-cards.pdf"))
    with pdfplumber.open(pdf) as doc:
        printed = flat(" ".join(p.extract_text() or "" for p in doc.pages))
    assert "Group 3 · Period 6" not in printed and "Group 3 · Period 7" not in printed
    assert "Aluminium" in printed and "Caesium" in printed and "Cesium" not in printed


def test_lists_and_the_quick_reference(game, text):
    magnets = [r["symbol"] for r in game.components["cards"].rows if r["kind"] == "element" and r["ferromagnetic"]]
    assert f"takes {', '.join(magnets)} from all other hands" in text
    assert "play an action card (any time)" not in text
    assert "play an action card (on your turn, whatever the current card is)" in text
    assert "Cesium" not in text and "Aluminum" not in text


def test_decay_is_counted_without_showing_the_card(game, text):
    m = re.search(r"Radioactive decay (.*?)When the draw pile runs out", text)
    assert m
    decay = m.group(1)
    assert "sideways in your hand" not in decay
    assert "slip of paper" in decay and "nobody sees which card" in decay
    rounds = game.manifest["rules"]["decay_full_rounds"]
    words = ["zero", "one", "two", "three", "four", "five"][rounds]
    assert f"{words} marks" in decay
    assert "quarter" not in text


def test_no_half_empty_page_before_the_card_pictures(rulebook):
    # "Reading an element card" starts on the page of "What is in the box", not on a page of its own
    pages = rulebook[1]
    box = next(i for i, t in enumerate(pages) if "What is in the box" in t and i > 0)
    reading = next(i for i, t in enumerate(pages) if "Reading an element card" in t and i > 0)
    assert reading == box


# --------------------------------------------------------------------------------------------
# The reference cards are player aids: every text on them, family glyphs included, at 8 pt or more.

AID_MIN_PT = 8.0


@pytest.fixture(scope="module")
def reference_sheets(game):
    """The card sheets of the reference deck alone, as the build draws them (faces and backs),
    and what the drawing found."""
    from pnp.outputs.cards import render_cards

    result = render_cards(game, game_layouts(game, SOURCE), GAME_DIR, SheetOptions(paper="letter"),
                          only=("reference",))
    ((_, pdf),) = result.outputs
    return pdf, result.findings


def _printed_chars(pdf: bytes):
    """(page index, character, font size in pt) for every printed character of ``pdf``, read
    with pdfium (its size is the one the text is set in on the page)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            text = doc[i].get_textpage()
            for j in range(text.count_chars()):
                if raw.FPDFText_IsGenerated(text, j) == 1:
                    continue
                ch = chr(raw.FPDFText_GetUnicode(text, j) or 32)
                if not ch.isspace():
                    yield i, ch, raw.FPDFText_GetFontSize(text, j)
            text.close()
    finally:
        doc.close()


def test_reference_cards_print_every_text_at_8_pt_or_more(game, reference_sheets):
    pdf, findings = reference_sheets
    assert not [f for f in findings if f.rule in ("preflight.text-overflow", "preflight.small-text")], findings
    chars = list(_printed_chars(pdf))
    pages: dict[int, list[tuple[str, float]]] = {}
    for i, ch, size in chars:
        pages.setdefault(i, []).append((ch, size))
    # the first two pages are the calibration sheet and its back; every later one holds reference cards
    card_pages = {i: v for i, v in pages.items() if i >= 2}
    assert card_pages and "".join(ch for ch, _ in pages[0]).startswith("PeriodicShed:cards")
    titles = [r["title"].replace(" ", "") for r in game.components["reference"].rows]
    for i, printed in card_pages.items():
        joined = "".join(ch for ch, _ in printed)
        assert "REFERENCE" in joined or any(t in joined for t in titles), i
        small = sorted({(ch, round(size, 2)) for ch, size in printed if size < AID_MIN_PT - 1e-6})
        assert not small, f"page {i + 1}: {small[:12]}"
    # the family glyphs beside the element symbols are text too, and were measured above
    glyphs = {f["glyph"] for f in game.components["families"].rows}
    on_cards = {ch for v in card_pages.values() for ch, _ in v}
    assert {"●", "■", "◆"} <= glyphs & on_cards


def test_reference_cards_list_every_molecule_from_the_table(game, reference_sheets):
    pdf, _ = reference_sheets
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    printed = flat(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))))
    doc.close()
    for m in game.components["molecules"].rows:
        assert m["formula"] in printed and m["name"] in printed, m.id
    for r in game.components["reference"].rows:
        assert r["title"] in printed, r.id


def test_reference_card_count_agrees_with_the_rulebook(game, rulebook):
    ref = game.components["reference"]
    total = sum(r.copies for r in ref.rows)
    designs = [r["title"] for r in ref.rows]
    assert total == len(designs) * game.players_max      # one of each design per seat
    for t in game.manifest.get("totals", []):
        if t["component"] == "reference":
            assert t["count"] == total
    text = flat(" ".join(rulebook[1]))
    listed = ", ".join(f"{r.copies} × {r['title']}" for r in ref.rows)
    assert f"{ref.name} {total} {listed}" in text
    assert "Give each player one of each reference card (" + ", ".join(designs) + ")" in text


def test_the_box_contents_print_the_sheet_size_in_words(game, text):
    size = game.manifest["components"]["families"]["sheet"]["size"]
    assert size not in text
    w, h = (part.strip().removesuffix("mm") for part in size.split("x"))
    assert f"{w} × {h} mm" in text
