"""``--cut-lines``: every face's trim outline drawn as a thin grey cut line, measured in the real
PDF against the trims its cards were drawn at (their marker rectangles, tests/sheetgeom.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.units import CARD_SIZES, MM
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import render_cards
from pnp.render.canvas import CUT_GRAY, CUT_WIDTH

from sheetgeom import open_pdf, trims

TOL = 0.05 * MM
POKER = CARD_SIZES["poker"]


def _pdf(game_dir: Path, out: Path, cut_lines: bool, **opts) -> bytes:
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    result = render_cards(game, layouts, out, SheetOptions(contact_sheets=False, **opts), cut_lines=cut_lines)
    assert [f for f in result.findings if f.severity == "error"] == []
    return result.outputs[0][1]


def _cut_rects(page) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) in PDF pt of every stroked, unfilled rectangle in the cut line grey."""
    out = []
    for r in page.rects:
        colour = r.get("stroking_color") or ()
        if not r.get("stroke") or r.get("fill"):
            continue
        if len(colour) != 3 or any(abs(v - CUT_GRAY) > 0.002 for v in colour):
            continue
        out.append((r["x0"], page.height - r["bottom"], r["width"], r["height"], r["linewidth"]))
    return out


@pytest.fixture
def eleven(tiny: Path) -> Path:
    """Eleven cards: a full sheet of nine and a sheet of two."""
    (tiny / "cards.csv").write_text(
        "id,title,cost,colour,text,copies\nfire,Fire,2,red,,5\nleaf,Leaf,1,green,,4\nsun,Sun,3,red,,2\n")
    return tiny


@pytest.mark.parametrize("paper, gap", [("letter", 0.0), ("a4", 4 * MM)])
def test_every_face_has_a_cut_line_on_its_trim(eleven, tmp_path, paper, gap):
    path = tmp_path / "cards.pdf"
    path.write_bytes(_pdf(eleven, tmp_path, True, paper=paper, gap=gap))
    pdf = open_pdf(path)
    counted = 0
    for index, page in enumerate(pdf.pages[2:], start=2):
        lines = _cut_rects(page)
        if index % 2:  # back sheets: the backs may be offset, they carry no cut lines
            assert lines == []
            continue
        cards = trims(page, back=False, card_h=POKER.height)
        assert len(lines) == len(cards) > 0
        for card in cards:
            match = [r for r in lines if abs(r[0] - card.x) <= TOL and abs(r[1] - card.y) <= TOL]
            assert len(match) == 1, (index, card)
            x, y, w, h, width = match[0]
            assert (w, h) == pytest.approx((POKER.width, POKER.height), abs=TOL)
            assert width == pytest.approx(CUT_WIDTH)
        counted += len(cards)
    assert counted == 11


def test_gutter_fold_cuts_the_faces_trims(eleven, tmp_path):
    path = tmp_path / "fold.pdf"
    path.write_bytes(_pdf(eleven, tmp_path, True, gutter_fold=True))
    page = open_pdf(path).pages[1]  # page 1 is the calibration page
    cards = trims(page, back=False, card_h=POKER.height)
    lines = _cut_rects(page)
    assert len(cards) == len(lines) > 0
    for card in cards:
        assert any(abs(r[0] - card.x) <= TOL and abs(r[1] - card.y) <= TOL for r in lines)


def test_off_by_default_draws_none(eleven, tmp_path):
    path = tmp_path / "plain.pdf"
    plain = _pdf(eleven, tmp_path, False)
    path.write_bytes(plain)
    assert all(_cut_rects(page) == [] for page in open_pdf(path).pages)
    assert plain != _pdf(eleven, tmp_path, True)
