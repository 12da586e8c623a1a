"""Where the snapshot says each face is on the card sheets (``pnp diff --visual --since
last`` cuts the old faces out there): measured against the faces' markers in the real PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.units import CARD_SIZES, MM
from pnp.design.drawable import drawable_cards
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards, face_positions

from sheetgeom import open_pdf, trims

POKER = CARD_SIZES["poker"]


@pytest.mark.parametrize("opts", [dict(paper="letter"), dict(paper="a4", gap=3 * MM, flip="short"),
                                  dict(paper="letter", gutter_fold=True)])
def test_each_recorded_trim_is_where_its_face_is_drawn(tiny: Path, tmp_path, opts):
    (tiny / "cards.csv").write_text(  # 11 cards: two duplex sheets, three fold sheets
        "id,title,cost,colour,text,copies\nfire,Fire,2,red,,5\nleaf,Leaf,1,green,,4\nsun,Sun,3,red,,2\n")
    game = load_game(tiny, "tiny")
    layouts = game_layouts(game, GameSource(tiny, "tiny", tiny / "templates", "tiny/templates"))
    sheet = SheetOptions(**opts)
    build_cards(game, layouts, tmp_path, sheet)
    cards, _ = drawable_cards(game, layouts)
    recorded = face_positions(cards, sheet)
    pdf = open_pdf(tmp_path / ("tiny-cards-gutter-fold.pdf" if sheet.gutter_fold else "tiny-cards.pdf"))
    pages = sorted({page for page, _ in recorded})
    assert pages == ([1, 2, 3] if sheet.gutter_fold else [2, 4])  # after the calibration page(s)
    for index in pages:
        page = pdf.pages[index]
        drawn = [(p.x, p.y) for p in trims(page, back=False, card_h=POKER.height)
                 if not sheet.gutter_fold or p.y > page.height / 2]  # a fold sheet's faces are above the fold
        here = [(card, box) for card, (at, box) in zip(cards, recorded) if at == index]
        assert len(here) == len(drawn)
        for (x, y), (card, (x0, y0, x1, y1)) in zip(drawn, here):
            assert (x0, y0) == pytest.approx((x, y), abs=0.05 * MM)
            assert (x1 - x0, y1 - y0) == pytest.approx((POKER.width, POKER.height), abs=1e-6)
        titles = [w for w in page.extract_words() if w["text"] in ("Fire", "Leaf", "Sun")]
        for card, (x0, y0, x1, y1) in here:  # the card the snapshot names is the card drawn there
            assert any(w["text"] == card.face.row.values["title"] and x0 < w["x0"] < x1
                       and y0 < page.height - w["bottom"] < y1 for w in titles), card.face.name
