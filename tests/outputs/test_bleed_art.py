"""Full-bleed art is placed against the card's whole bleed rectangle (trim + the layouts'
``bleed``) on every slot of every home sheet and in every PDF export, and clipped by the slot:
measured as the image placement in the written PDF, to 0.05 mm."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import FIXTURES
from pnp.core.units import MM
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards
from pnp.outputs.export import export_game

from sheetgeom import open_pdf

CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
TOL = 0.05 * MM

LAYOUTS = """
bleed = "{bleed}"

[layouts.action]
background = "white"

[layouts.action.boxes.art]
type = "image"
image = "art/full.png"
area = "bleed"
fit = "cover"

[layouts.action.boxes.marker]
type = "rect"
x = "2mm"
y = "3mm"
width = "1mm"
height = "1mm"
fill = "black"

[layouts.red]
background = "#C0392B"

[layouts.green]
background = "#27AE60"
"""


def art_game(tmp_path: Path, layout_bleed: str) -> Path:
    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    (game_dir / "art").mkdir()
    # the card's bleed rectangle at 1/8 in is 69.85 x 95.25 mm; a 2:3 picture is cropped by cover
    Image.new("RGB", (400, 600), (30, 90, 160)).save(game_dir / "art" / "full.png")
    (game_dir / "templates" / "layouts.toml").write_text(LAYOUTS.format(bleed=layout_bleed), encoding="utf-8")
    return game_dir


def loaded(game_dir: Path):
    game = load_game(game_dir, "tiny")
    return game, game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))


def placements(pdf_path: Path) -> list[tuple[tuple[float, float], tuple[float, float, float, float]]]:
    """(trim left, trim top) and the image placement (x0, top, x1, bottom) of every card face, in
    pt from the page's top-left, read from the PDF as drawn (the marker rect and the image)."""
    out = []
    with open_pdf(pdf_path) as pdf:
        for page in pdf.pages:
            marks = [(r["x0"] - 2 * MM, r["top"] - 3 * MM) for r in page.rects
                     if abs(r["width"] - MM) < 0.01 and abs(r["height"] - MM) < 0.01
                     and tuple(r.get("non_stroking_color") or ()) in ((0, 0, 0), (0,), (0, 0, 0, 1))]
            images = [(i["x0"], i["top"], i["x1"], i["bottom"]) for i in page.images]
            for left, top in marks:
                (image,) = [i for i in images if i[0] < left + 1 and i[2] > left + CARD_W - 1
                            and i[1] < top + 1 and i[3] > top + CARD_H - 1]
                out.append(((left, top), image))
    return out


def assert_against_full_bleed(found, bleed_mm: float) -> None:
    assert found
    b = bleed_mm * MM
    for (left, top), (x0, y0, x1, y1) in found:
        # cover on a 2:3 picture: the width fits the bleed rectangle exactly, the height overflows
        assert abs(x0 - (left - b)) <= TOL and abs(x1 - (left + CARD_W + b)) <= TOL
        middle = top + CARD_H / 2
        assert abs((y0 + y1) / 2 - middle) <= TOL
        assert abs((y1 - y0) - (CARD_W + 2 * b) * 1.5) <= TOL


@pytest.mark.parametrize("options", [
    SheetOptions(contact_sheets=False),                       # 1/8 in bleed on the sheet
    SheetOptions(contact_sheets=False, gap=2 * MM),           # 1 mm of room between cards
    SheetOptions(contact_sheets=False, bleed=1 * MM),         # a smaller sheet bleed
    SheetOptions(contact_sheets=False, paper="a4", gutter_fold=True),
], ids=["default", "gap-2mm", "sheet-bleed-1mm", "a4-gutter-fold"])
def test_bleed_art_is_placed_identically_on_every_home_sheet_slot(tmp_path, options):
    game, layouts = loaded(art_game(tmp_path, "0.125in"))
    result = build_cards(game, layouts, tmp_path / "out", options)
    (pdf_path,) = [f for f in result.files if f.suffix == ".pdf"]
    found = placements(pdf_path)
    assert len(found) == 5  # 3 fire + 2 leaf faces
    assert_against_full_bleed(found, 3.175)


@pytest.mark.parametrize("target", ["dtc", "eu"])
def test_bleed_art_in_pdf_exports_is_the_same_full_bleed_placement(tmp_path, target):
    game, layouts = loaded(art_game(tmp_path, "0.125in"))
    result = export_game(game, layouts, target, tmp_path / "out", jobs=1)
    (pdf_path,) = [f for f in result.files if f.suffix == ".pdf"]
    found = placements(pdf_path)
    assert len(found) == 5  # a face page per copy
    assert_against_full_bleed(found, 3.175)


def test_the_layouts_bleed_setting_moves_the_art_edge(tmp_path):
    game, layouts = loaded(art_game(tmp_path, "2mm"))
    assert abs(layouts.bleed - 2 * MM) < 1e-9
    build_cards(game, layouts, tmp_path / "out", SheetOptions(contact_sheets=False))
    assert_against_full_bleed(placements(tmp_path / "out" / "tiny-cards.pdf"), 2.0)


def test_a_negative_layout_bleed_is_refused_at_its_key(tmp_path):
    from pnp.core.errors import LayoutError
    game_dir = art_game(tmp_path, "-1mm")
    with pytest.raises(LayoutError, match="bleed cannot be negative") as caught:
        loaded(game_dir)
    assert str(caught.value.location).startswith("tiny/templates/layouts.toml:2")
