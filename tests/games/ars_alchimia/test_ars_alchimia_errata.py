"""Ars Alchimia errata: the printed rulebook, cards and board say what the data says.

Each test reads a written PDF (pdfplumber); expected numbers and words come from
card_data/ars-alchimia, never typed twice.
"""

from __future__ import annotations

import re
from collections import Counter

import pdfplumber
import pytest

from bundled import bundled_source, flat, rulebook_prose
from pnp.design.layouts import game_layouts
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.boards import build_boards
from pnp.outputs.cards import build_cards
from pnp.core.units import to_mm

SOURCE = bundled_source("ars-alchimia")
GAME_DIR = SOURCE.path


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def text(game, tmp_path_factory) -> str:
    return rulebook_prose(game, SOURCE, tmp_path_factory.mktemp("ars-rb"))


def test_the_worker_limit_sentence_is_computed_from_the_data(game, text):
    r = game.manifest["rules"]
    gains = [f["workers_gained"] for f in game.components["factory"].rows]
    gains_3 = [f["workers_gained"] for f in game.components["factory"].rows if f["used_with_3_players"]]
    hired = r["rounds"] * max(gains)
    hired_3 = r["rounds"] * max(gains_3)
    over = r["starting_workers"] + hired - r["max_workers_4_players"]
    over_3 = r["starting_workers"] + hired_3 - r["max_workers_3_players"]
    assert (hired, over, over_3) == (16, 5, 3)      # 9 + 16 = 25 against 20; 9 + 12 = 21 against 18
    assert (f"a player can hire at most {hired} workers, which on top of the {r['starting_workers']} they start "
            f"with would make {r['starting_workers'] + hired}: the limit of {r['max_workers_4_players']} turns "
            f"the last {over} away") in text
    assert (f"With three players the best is {hired_3} more, {r['starting_workers'] + hired_3} in all, and the "
            f"limit of {r['max_workers_3_players']} turns {over_3} away") in text
    assert "stops most of them" not in text


def test_assistant_timing_has_one_vocabulary(game, text, tmp_path):
    # The cards print the words the rulebook explains: the timing column holds them.
    words = {w: w for w in game.manifest["components"]["assistants"]["columns"]["timing"]["values"]}
    for word in words.values():
        assert re.search(rf"\*?{re.escape(word)}\*?: ", text) or f"{word}:" in text, word
    result = build_cards(game, game_layouts(game, SOURCE), tmp_path, SheetOptions(paper="a4"))
    assert not [f for f in result.findings if f.severity == "error"]
    pdf = next(p for p in result.files if p.name.endswith("-cards.pdf"))
    printed = Counter()
    pattern = re.compile("ASSISTANT · (" + "|".join(sorted((w.upper() for w in words), key=len, reverse=True)) + ")")
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            printed.update(m.group(1) for m in pattern.finditer(page.extract_text() or ""))
        everything = " ".join(p.extract_text() or "" for p in doc.pages)
    want = Counter(words[a["timing"]].upper() for a in game.components["assistants"].rows for _ in range(a.copies))
    assert printed == want
    for old in ("ALWAYS ACTIVE", "USE ANY TIME", "TRIGGERED", "WHEN HIRED"):
        assert old not in everything


def test_the_tie_breaker_keeps_to_academic_rank(text):
    m = re.search(r"If players are tied, (.*?)\.(?: |$)(.*?)\.", text)
    assert m
    assert "higher academic rank wins: rank A is above rank B, and rank B above rank C" in text
    assert "more academic orders" not in text
    assert "tied players of the same rank share the victory" in text


def test_prose_names_spots_in_words_not_data_labels(game, text):
    for leak in ("slot 1", "slot 3", "(four players only)", "(face-down forge deck)", "(face-down location deck)",
                 "reserve forges (", "forges offers"):
        assert leak not in text, leak
    assert "the third assistant spot stays empty" in text
    assert "the face-down forge deck, the reserve forges" in text
    assert "round and round" not in text
    assert "Turns go by the numbers on the Factory cards, not by seats" in text
    assert "Along the bottom of your player board are" in text     # not the game board


def test_the_board_prints_player_words_and_uses_its_space(game, tmp_path):
    opts = SheetOptions(paper="a4")
    result = build_boards(game, SOURCE, tmp_path, opts)
    assert not [f for f in result.findings if f.severity == "error"]
    pdf = next(p for p in result.files if p.name.endswith("-boards.pdf"))
    with pdfplumber.open(pdf) as doc:
        board = flat(" ".join(p.extract_text() or "" for p in doc.pages))
    assert not re.search(r"slot \d", board, re.I)
    assert "Rank C order" in board and "Magic portal" in board and "Reserve forges" in board
    # the free cells beside the spot rows carry the rules of their row in large type (at least
    # 14 pt on the board), rather than small print in empty parchment
    with pdfplumber.open(pdf) as doc:
        sizes = {}
        for page in doc.pages:
            for w in page.extract_words(extra_attrs=["size"]):
                if w["text"] in ("GATHER", "TRANSMUTE", "HIRE", "YEARS", "SEASON"):
                    sizes.setdefault(w["text"], set()).add(round(w["size"], 1))
    assert set(sizes) == {"GATHER", "TRANSMUTE", "HIRE", "YEARS", "SEASON"}
    assert all(max(v) >= 14 for v in sizes.values()), sizes   # (the assembly map shows the board small)
    # the year panel prints the Factory cards' turn order and new workers from their table
    for f in game.components["factory"].rows:
        assert f"+{f['workers_gained']} worker" in board, f.id
    assert f"EACH OF THE {game.manifest['rules']['rounds']} YEARS" in board


def test_no_third_of_the_board_is_left_bare(game, tmp_path):
    """The board put back together from its printed tiles: inside the score track, every cell of
    a 3 x 3 grid is mostly drawn on (slots, panels, the town square), not bare parchment."""
    import numpy as np

    from pnp.geometry.tiling import DEFAULT_OVERLAP, plan_board
    from pnp.model.pieces import board_pieces
    from sheetgeom import stitched_board

    opts = SheetOptions(paper="a4")
    result = build_boards(game, SOURCE, tmp_path, opts)
    pdf = next(p for p in result.files if p.name.endswith("-boards.pdf"))
    pieces, _ = board_pieces(game)
    board = next(bp for bp in pieces if bp.component == "board")
    assert pieces.index(board) == 0          # cover, then this board's assembly map, then its tiles
    plan = plan_board(board.size, opts.paper_size(), margin=opts.margin, bleed=opts.bleed, overlap=DEFAULT_OVERLAP)
    assert plan.tiled
    scale = 1.0
    pixels = np.asarray(stitched_board(pdf, plan, 2, scale)).astype(int)
    parchment = np.array([int(game.manifest["colors"]["parchment"][i:i + 2], 16) for i in (1, 3, 5)])
    drawn = np.abs(pixels - parchment).sum(axis=2) > 30
    # the parchment panel inside the score track (24.5 mm in from each edge: layout main-board)
    mm = scale * 72 / 25.4
    lo, hi = round(24.5 * mm), round((to_mm(board.size.width) - 24.5) * mm)
    step = (hi - lo) / 3
    cover = [[float(drawn[round(lo + r * step):round(lo + (r + 1) * step),
                          round(lo + c * step):round(lo + (c + 1) * step)].mean()) for c in range(3)]
             for r in range(3)]
    assert min(min(row) for row in cover) >= 0.6, cover
    for third in range(3):
        column = drawn[lo:hi, round(lo + third * step):round(lo + (third + 1) * step)].mean()
        row = drawn[round(lo + third * step):round(lo + (third + 1) * step), lo:hi].mean()
        assert column >= 0.75 and row >= 0.75, (third, column, row)
