"""Assemble! errata: the worked example follows El Número Uno's ability, the insignia and icon
descriptions name the glyphs that are drawn, and the prose keeps names and counts right.

Text and positions are read from the written PDFs (pdfplumber); expected values come from
card_data/assemble and templates/assemble/layouts.toml.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata

import pdfplumber
import pytest

from bundled import bundled_source, flat, rulebook_prose
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.boards import build_boards

SOURCE = bundled_source("assemble")
GAME_DIR = SOURCE.path
SHAPES = ("hexagon", "diamond", "square", "octagon", "circle", "triangle", "star")
# words of a Unicode character name that say nothing about what is drawn
FILLER = {"BLACK", "WHITE", "HEAVY", "SIGN", "MARK", "WITH", "AND", "OF", "THE", "LEFT", "RIGHT",
          "POINTING", "RIGHTWARDS", "QUOTATION", "LAST", "QUARTER", "HALF", "DIGIT"}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def text(game, tmp_path_factory) -> str:
    return rulebook_prose(game, SOURCE, tmp_path_factory.mktemp("as-rb"))


def test_the_example_gives_the_token_to_whoever_recruited_el_numero_uno(game, text):
    uno = next(h for h in game.components["heroes"].rows if h["special"])
    assert "take the 1st Player token" in uno["maverick"]
    m = re.search(r"(\w+) recruited El Número Uno in round 2.*?(\w+) holds the token, so the recruiting order is "
                  r"(\w+), (\w+), (\w+)\.", text)
    assert m, "the opening of One round at the table"
    taker, holder, *order = m.groups()
    assert holder == taker == order[0] == "Ben"
    assert order == ["Ben", "Cleo", "Ada"]            # clockwise from Ben
    # this round's recruit of El Número Uno moves the token on, and the new holder leads round 4
    r = re.search(r"(\w+) takes El Número Uno: the 1st Player token moves from (\w+) to (\w+),.*?and (\w+) will "
                  r"recruit first in round 4", text)
    assert r and r.group(2) == "Ben" and r.group(1) == r.group(3) == r.group(4) == "Cleo"
    assert "Cleo holds the 1st Player token" not in text


def _glyph_words(ch: str) -> set[str]:
    return {w for w in re.split(r"[ -]", unicodedata.name(ch)) if w not in FILLER} or {unicodedata.name(ch)}


def test_each_description_names_the_glyph_drawn(game):
    layouts = tomllib.loads((SOURCE.templates_dir / "layouts.toml").read_text(encoding="utf-8"))["icons"]
    for table, words_col in (("insignias", "emblem"), ("icons", "glyph")):
        for row in game.components[table].rows:
            icon = layouts[row.id]
            assert icon["label"] == row["symbol"], (row.id, icon["label"], row["symbol"])
            said = set(re.findall(r"[a-z]+", row[words_col].lower().replace("-", " ")))
            if row["symbol"].isdigit():
                said |= set(row[words_col])
                assert row["symbol"] in said or "one" in said, row.id
            else:
                named = {w.lower() for w in _glyph_words(row["symbol"])}
                assert named & said, (row.id, row[words_col], unicodedata.name(row["symbol"]))
            if table == "insignias":
                colour, shape = row["badge"].rsplit(" ", 1)
                assert shape in SHAPES and icon["shape"] == shape, row.id
                assert icon["fill"] == row.id


def test_the_reference_sheet_prints_each_glyph_beside_its_words(game, tmp_path):
    result = build_boards(game, SOURCE, tmp_path, SheetOptions(paper="a4"))
    assert not [f for f in result.findings if f.severity == "error"]
    pdf = next(p for p in result.files if "sheet" in p.name or "boards" in p.name)
    with pdfplumber.open(pdf) as doc:
        page = next(p for p in doc.pages if "insignias and icons" in (p.extract_text() or ""))
        chars = page.chars
        lines = flat(page.extract_text())
    for row in game.components["insignias"].rows:
        assert f"Emblem: {row['emblem']}" in lines, row.id
        glyph = [c for c in chars if c["text"] == row["symbol"]]
        words = page.search(f"Emblem: {row['emblem']}", regex=False)
        assert glyph and words, row.id
        # the glyph sits on the same line of the sheet as its words (left of them, within 20 mm)
        w = words[0]
        assert any(c["x1"] <= w["x0"] and w["x0"] - c["x1"] < 20 / 25.4 * 72 and
                   c["top"] < w["bottom"] + 12 and c["bottom"] > w["top"] - 30 for c in glyph), row.id
    for row in game.components["icons"].rows:
        assert f"drawn as {row['glyph']}" in lines, row.id
    for old in ("round shield", "comet with a three-line tail", "paw print", "clenched fist", "open eye",
                "winged boot", "domino mask"):
        assert old not in lines


def test_rulebook_badges_and_symbols_come_from_the_tables(game, text):
    for row in game.components["insignias"].rows:
        if row.id != "uno":
            assert f"{row['name']} {row['badge']}, {row['symbol']}" in text, row.id
    for row in game.components["icons"].rows:
        assert re.search(rf"{row['name']} {re.escape(row['symbol'])} \d+", text), row.id


def test_names_keep_their_capitals_and_counts_their_number(game, text):
    forge = next(t for t in game.components["insignias"].rows if t.id == "forge")
    assert "forge heroes" not in text
    assert forge["team_score"][1:] in text            # "... on your Forge heroes." as printed
    heroes = [h for h in game.components["heroes"].rows if not h["special"]]
    low = min(h["power"] for h in heroes)
    weakest = [h for h in heroes if h["power"] == low]
    if len(weakest) == 1:
        assert f"the weakest is {weakest[0]['name']} ({low})" in text
        assert "the weakest heroes have" not in text


def test_your_heroes_means_the_whole_hand_and_display(game, text):
    # the hand holds drawn cards as well as recruited ones: the aids and the book say so in the
    # same words, and "team" stays the word for an insignia group
    clarification = game.components["reference_cards"].by_id()["clarification"]["text"]
    assert "every card in your hand or faceup in front of you" in clarification
    assert "every card you recruited" not in clarification and "adds his stars" not in clarification
    assert "Lay out all your heroes, from your hand and from in front of you" in text
    assert "counts as part of your force" in text and "counts as part of your team" not in text
