"""A sheet that is not full: a card edge with no neighbour gets the bleed asked for, on the
face sheet and on its back sheet, measured as the clip of each card's art in the written PDF
(to 0.05 mm) and as printed colour past the trim in a 300 dpi render."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from pnp.core.units import CARD_SIZES, MM, PAPER_SIZES, to_mm
from pnp.design.layouts import game_layouts
from pnp.geometry.impose import DEFAULT_BLEED, fit_grid
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards

from sheetgeom import art_boxes, open_pdf, trims

TOL = 0.05 * MM
POKER = CARD_SIZES["poker"]
ASKED = to_mm(DEFAULT_BLEED)
FRONTS = (2, 4)
"""The page indices of the two face sheets (after the cover and the calibration page; each
face sheet is followed by its back sheet)."""


@pytest.fixture
def eleven(tiny: Path) -> Path:
    """The tiny game with 11 cards on 3 x 3 Letter sheets: a full sheet, then one of 2 cards."""
    (tiny / "cards.csv").write_text(
        "id,title,cost,colour,text,copies\nfire,Fire,2,red,,5\nleaf,Leaf,1,green,,4\nsun,Sun,3,red,,2\n")
    return tiny


def build(game_dir: Path, out: Path, **opts) -> Path:
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    result = build_cards(game, layouts, out, SheetOptions(paper="letter", **opts))
    assert [f for f in result.findings if f.severity == "error"] == []
    return out / "tiny-cards.pdf"


def bleeds(path: Path, index: int, back: bool) -> list[dict[str, float]]:
    """Each card's bleed in mm (left, bottom, right, top) on page ``index``: from its trim, read
    from the marker the layout draws, to the clip of its art, in reading order."""
    with open_pdf(path) as pdf:
        placed = trims(pdf.pages[index], back, POKER.height)
    with pikepdf.open(path) as doc:
        boxes = art_boxes(doc, index)
    out = []
    for p in placed:
        box = next(b for b in boxes if b[0] <= p.x + TOL and b[2] >= p.x + POKER.width - TOL
                   and b[1] <= p.y + TOL and b[3] >= p.y + POKER.height - TOL)
        out.append({"left": to_mm(p.x - box[0]), "bottom": to_mm(p.y - box[1]),
                    "right": to_mm(box[2] - p.x - POKER.width), "top": to_mm(box[3] - p.y - POKER.height)})
    return out


def near(got: dict[str, float], want: dict[str, float]) -> bool:
    return all(abs(got[k] - want[k]) <= to_mm(TOL) for k in want)


def test_the_open_edges_of_a_partial_sheet_get_the_bleed_asked_for(eleven, tmp_path):
    path = build(eleven, tmp_path / "out")
    grid = fit_grid(PAPER_SIZES["letter"], POKER)
    ox, oy = (to_mm(v) for v in grid.bleed_outer)
    assert (grid.cols, grid.rows) == (3, 3) and ox == pytest.approx(ASKED)
    # the full sheet: butted cards share their edges, so the first card has no bleed below it
    assert near(bleeds(path, FRONTS[0], back=False)[0], {"left": ox, "bottom": 0, "right": 0, "top": oy})
    # the sheet of 2: nothing below either card, nothing right of the second
    first, second = bleeds(path, FRONTS[1], back=False)
    assert near(first, {"left": ox, "bottom": ASKED, "right": 0, "top": oy})
    assert near(second, {"left": 0, "bottom": ASKED, "right": ASKED, "top": oy})
    # its back sheet (long-edge flip mirrors the columns): the backs sit in columns 3 and 2, so
    # the back of the second card has nothing on its left
    backs = sorted(bleeds(path, FRONTS[1] + 1, back=True), key=lambda b: b["left"])
    assert near(backs[0], {"left": 0, "bottom": ASKED, "right": ox, "top": oy})
    assert near(backs[1], {"left": ASKED, "bottom": ASKED, "right": 0, "top": oy})


def test_the_bleed_below_a_partial_row_is_printed(eleven, tmp_path):
    path = build(eleven, tmp_path / "out")
    with open_pdf(path) as pdf:
        first = trims(pdf.pages[FRONTS[1]], False, POKER.height)[0]
    scale = 300 / 72
    image = pdfium.PdfDocument(str(path))[FRONTS[1]].render(scale=scale).to_pil().convert("RGB")
    page_h = PAPER_SIZES["letter"].height
    x = (first.x + POKER.width / 2) * scale
    inside = image.getpixel((int(x), int((page_h - first.y - 1 * MM) * scale)))
    below = image.getpixel((int(x), int((page_h - first.y + 2.5 * MM) * scale)))
    past = image.getpixel((int(x), int((page_h - first.y + ASKED * MM + 1 * MM) * scale)))
    # the card's colour band runs 2.5 mm past its bottom trim; 1 mm past the bleed is paper
    assert inside[0] > 150 and inside[1] < 100  # the red band at the trim
    assert max(abs(a - b) for a, b in zip(below, inside)) <= 2
    assert past == (255, 255, 255)
