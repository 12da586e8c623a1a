"""Atomic Assembly errata: what the printed rulebook, board, tokens and reference card say agrees
with the data and with each other. Every fact is read from the written PDFs (pdfplumber for text
and positions); expected values come from card_data/atomic-assembly, never typed twice.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from bundled import built_rulebook, bundled_source, flat, page_texts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.boards import build_boards
from pnp.validate.check import check_game

SOURCE = bundled_source("atomic-assembly")
GAME_DIR = SOURCE.path


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def rulebook(game, tmp_path_factory) -> Path:
    return built_rulebook(game, SOURCE, tmp_path_factory.mktemp("aa-rb"))


@pytest.fixture(scope="module")
def pages(rulebook) -> list[str]:
    return page_texts(rulebook)


@pytest.fixture(scope="module")
def text(pages) -> str:
    return flat("\n".join(pages[1:]))


@pytest.fixture(scope="module")
def pieces(game, tmp_path_factory) -> dict[str, Path]:
    result = build_boards(game, SOURCE, tmp_path_factory.mktemp("aa-boards"), SheetOptions(paper="a4"))
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    return {p.name: p for p in result.files}


def test_hand_limit_and_discard_count_every_card(game, text):
    # The hand limit counts all cards (the source rule), Wild cards too; Discard takes any card.
    limit = game.manifest["rules"]["hand_limit"]
    m = re.search(r"Hand limit\. (.*?)Tokens are not cards", text)
    assert m, "the Hand limit paragraph"
    assert "element cards" not in m.group(1)
    assert "every card in your hand, Wild cards included" in m.group(1)
    assert re.search(r"Discard\. Put one card from your hand on the discard pile: an element card or a Wild card", text)
    assert f"Hand limit {limit} (Wild cards included)" in text
    # the reference card uses the same words
    card = game.components["reference"].rows[0]["text"]
    assert f"Hand limit {limit}, Wild cards included" in card
    assert "one element card" not in card


def test_check_warns_when_the_reference_card_narrows_the_hand_limit(tmp_path):
    copy = tmp_path / "atomic-assembly"
    shutil.copytree(GAME_DIR, copy)
    ref = copy / "reference.csv"
    ref.write_text(ref.read_text(encoding="utf-8").replace(", Wild cards included", ""), encoding="utf-8")
    _, findings = check_game(GameSource(copy, "atomic-assembly"))
    hits = [f for f in findings if f.rule == "reference.hand-limit-all-cards"]
    assert len(hits) == 1 and hits[0].severity == "warning"
    assert "reference.csv" in hits[0].location


def test_a_shared_draw_is_not_a_tie_breaker(game, text):
    breakers = game.manifest["rules"]["tie_breakers"]
    listed = re.search(r"the tied players compare, in order: (.*?) Still level", text)
    assert listed, "the list of tie breakers"
    numbered = re.findall(r"(\d)\. ([^.]+)\.", listed.group(1))
    assert [int(n) for n, _ in numbered] == list(range(1, len(breakers) + 1))
    assert [t.lower() for _, t in numbered] == [b.lower() for b in breakers]
    assert "draw" not in listed.group(1).lower()
    assert f"the game ends in a {game.manifest['rules']['still_tied']}" in text


def test_typography_follows_the_cards(game, text):
    assert "500 × 500 mm" in text and "500mm x 500mm" not in text
    penalty = game.manifest["rules"]["hazard_penalty"]
    assert f"−{penalty} (not below 0)" in text                 # a minus sign, U+2212
    assert not re.search(rf"(?<![\w−])-{penalty}\b", text)
    # formulas print with subscripts, as the tokens and blueprints do
    assert "H₂O" in text and "NH₃" in text
    assert "H2O" not in text and "NH3" not in text
    # the components row names the Wild Tokens, not the label printed on them
    wild = next(t for t in game.components["tokens"].rows if t["token_type"] == "wild")
    assert f"{wild.copies} Wild Tokens" in text
    assert f"{wild.copies} {wild['label']}" not in text


def test_deck_pictures_keep_their_caption(rulebook):
    # The row of deck backs is never alone at the top of a page: its caption follows it on the
    # same page, right under it.
    with pdfplumber.open(rulebook) as pdf:
        for page in pdf.pages[1:]:
            words = page.extract_words()
            backs = [w for w in words if w["text"] == "YELLOW" and any(
                v["text"] == "DECK" and abs(v["top"] - w["top"]) < 1 for v in words)]
            if not backs:
                continue
            row_bottom = max(b["bottom"] for b in backs)
            caption = page.search("From the left: the backs of the Red, Green, Yellow decks", regex=False)
            assert caption, "the caption is on the page of the deck pictures"
            assert row_bottom < caption[0]["top"]
            assert caption[0]["top"] - row_bottom < 20 / 25.4 * 72      # right under the row
            break
        else:
            pytest.fail("no page shows the deck backs")


def test_the_victory_points_track_is_used_and_has_markers(game, text, pieces):
    lo, hi = game.manifest["rules"]["score_track"]
    markers = game.components["score_markers"]
    assert markers.pieces == game.players_max
    assert "paper" not in text.lower()
    assert f"on space {lo} of the Victory Points track" in text
    assert "Score markers" in text and "Victory Points track" in text
    # the board prints the track 0 to 99 and the note for going round
    with pdfplumber.open(pieces["atomic-assembly-boards.pdf"]) as pdf:
        board = flat(" ".join(p.extract_text() or "" for p in pdf.pages))
    assert "VICTORY POINTS" in board
    assert f"Move your score marker as you score. Past {hi}" in board
    # the token sheets hold one VP marker per player
    with pdfplumber.open(pieces["atomic-assembly-tokens.pdf"]) as pdf:
        vp = sum(1 for p in pdf.pages for w in p.extract_words() if w["text"] == "VP")
    assert vp == markers.pieces


def test_check_counts_score_markers_per_player(tmp_path):
    copy = tmp_path / "atomic-assembly"
    shutil.copytree(GAME_DIR, copy)
    table = copy / "score-markers.csv"
    lines = table.read_text(encoding="utf-8").splitlines()
    table.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    _, findings = check_game(GameSource(copy, "atomic-assembly"))
    assert [f.rule for f in findings if f.severity == "error"] == ["players.score-markers"]
