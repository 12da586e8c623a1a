"""Token sheets, standees and die nets, measured in the real PDF.

Each test token layout draws a 1 x 1 mm marker at its trim centre, #0A0B0C on faces and
#0D0E0F on backs, so every placed piece can be found with pdfplumber. Cut guides are the thin
grey (50 %) 0.3 pt outlines on each piece's trim, one per piece. Tolerance 0.05 mm.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from pnp.model.games import GameSource
from pnp.outputs.boards import build_boards
from pnp.outputs.base import SheetOptions
from pnp.core.errors import BuildError
from pnp.model.load import load_game
from pnp.geometry.packing import CAPTION
from pnp.render.canvas import CUT_GRAY, CUT_WIDTH
from pnp.core.units import MM, PAPER_SIZES

TOL = 0.05 * MM
BLEED = 9.0

GAME = """
[game]
id = "tt"
title = "Token Test"
players = [2, 4]

[components.discs]
kind = "tokens"
name = "Discs"
table = "discs.csv"
id_column = "id"
copies_column = "copies"
layout = "disc"
back = "disc-back"
shape = "circle"
size = "20mm"

[components.discs.columns]
id = "id"
colour = "color"
copies = { type = "int", min = 0 }

[components.tiles]
kind = "tokens"
name = "Hex tiles"
copies = 9
layout = "hex"
shape = "hexagon"
size = "25mm"

[components.squares]
kind = "tokens"
name = "Squares"
copies = 10
layout = "square"
back = "square-back"
shape = "square"
size = "15mm"

[components.meeples]
kind = "tokens"
name = "Standees"
copies = 3
layout = "standee"
shape = "standee"
width = "20mm"
height = "30mm"

[components.die]
kind = "die"
name = "Die"
copies = 2
size = "18mm"
"""


def marker_layout(name: str, w: float, h: float, colour: str, background: str = "#EEEEEE") -> str:
    return f"""
[layouts.{name}]
background = "{background}"
[layouts.{name}.boxes.mark]
type = "rect"
x = "{w / 2 - 0.5:.5f}mm"
y = "{h / 2 - 0.5:.5f}mm"
width = "1mm"
height = "1mm"
fill = "{colour}"
"""


BOARDS = "".join([
    marker_layout("disc", 20, 20, "#0A0B0C", "{{ colour }}"),
    marker_layout("disc-back", 20, 20, "#0D0E0F"),
    marker_layout("hex", 25, 2 * 25 / math.sqrt(3), "#0A0B0C"),
    marker_layout("square", 15, 15, "#0A0B0C"),
    marker_layout("square-back", 15, 15, "#0D0E0F"),
    marker_layout("standee", 20, 30, "#0A0B0C"),
])


def make_game(tmp_path: Path) -> Path:
    game = tmp_path / "tt"
    (game / "templates").mkdir(parents=True)
    (game / "game.toml").write_text(GAME, encoding="utf-8")
    (game / "discs.csv").write_text("id,colour,copies\nred,#C0392B,7\nblue,#2471A3,5\n", encoding="utf-8")
    (game / "templates" / "boards.toml").write_text(BOARDS, encoding="utf-8")
    return game


def build(game_dir: Path, out: Path, **opts):
    game = load_game(game_dir, "tt")
    result = build_boards(game, GameSource(game_dir, "tt", game_dir / "templates", "tt/templates"), out, SheetOptions(**opts))
    return result, pdfplumber.open(out / "tt-tokens.pdf")


def rgb255(colour) -> tuple:
    return tuple(round(v * 255) for v in (colour or ()))


def centres(page, back: bool) -> list[tuple[float, float]]:
    """Centres (PDF pt) of the pieces on a page, from their 1 mm markers."""
    want = (13, 14, 15) if back else (10, 11, 12)
    return sorted((round((r["x0"] + r["x1"]) / 2, 4), round(page.height - (r["top"] + r["bottom"]) / 2, 4))
                  for r in page.rects if rgb255(r.get("non_stroking_color")) == want
                  and abs(r["width"] - MM) < 0.01)


def guides(page) -> Counter:
    """Cut guides on a page by size (w x h in mm, rounded to 0.1)."""
    out: Counter = Counter()
    for obj in page.rects + page.curves:
        if not obj.get("stroke") or abs(obj["linewidth"] - CUT_WIDTH) > 0.01:
            continue
        if tuple(round(v, 3) for v in obj.get("stroking_color") or ()) != (CUT_GRAY,) * 3:
            continue
        out[(round(obj["width"] / MM, 1), round(obj["height"] / MM, 1))] += 1
    return out


@pytest.fixture(scope="module")
def long_flip(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tokens")
    game = make_game(tmp)
    return build(game, tmp / "out")


def test_every_copy_is_on_the_sheets_once(long_flip):
    result, pdf = long_flip
    total: Counter = Counter()
    for page in pdf.pages:
        total += guides(page)
    assert total[(20.0, 20.0)] == 7 + 5
    assert total[(25.0, 28.9)] == 9
    assert total[(15.0, 15.0)] == 10
    assert total[(20.0, 84.0)] == 3  # base 12 + front 30 + back 30 + base 12
    assert result.cards == 12 + 9 + 10 + 3
    faces = sum(len(centres(p, back=False)) for p in pdf.pages)
    assert faces == 12 + 9 + 10 + 2 * 3  # a standee shows its face on its front and back panels


def test_pieces_are_packed_without_overlap_inside_the_margin(long_flip):
    _, pdf = long_flip
    letter = PAPER_SIZES["letter"]
    checked = 0
    for page in pdf.pages:
        pieces = []
        for obj in page.rects + page.curves:
            if not obj.get("stroke") or abs(obj["linewidth"] - CUT_WIDTH) > 0.01:
                continue
            # the piece with its bleed stays inside the 5 mm margin
            assert obj["x0"] - BLEED >= 5 * MM - TOL and obj["x1"] + BLEED <= letter.width - 5 * MM + TOL
            assert obj["top"] - BLEED >= 5 * MM - TOL and obj["bottom"] + BLEED <= letter.height - 5 * MM + TOL
            pieces.append(((obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2,
                           obj["width"], obj["height"], obj["object_type"]))
        for i, (x1, y1, w1, h1, t1) in enumerate(pieces):
            for x2, y2, w2, h2, t2 in pieces[i + 1:]:
                if t1 == t2 == "curve" and abs(w1 - w2) < 0.01:
                    # circles and hexagons (across the flats = width): centres at least one
                    # piece plus both bleeds apart
                    assert math.hypot(x1 - x2, y1 - y2) >= w1 + 2 * BLEED - TOL
                else:
                    apart_x = abs(x1 - x2) >= (w1 + w2) / 2 + 2 * BLEED - TOL
                    apart_y = abs(y1 - y2) >= (h1 + h2) / 2 + 2 * BLEED - TOL
                    assert apart_x or apart_y
                checked += 1
    assert checked > 100


def test_circles_are_packed_in_offset_rows(long_flip):
    _, pdf = long_flip
    page = next(p for p in pdf.pages if guides(p)[(20.0, 20.0)])
    pitch = 20 * MM + 2 * BLEED
    rows = sorted({y for _, y in centres(page, back=False)}, reverse=True)
    disc_rows = [y for y in rows if any(abs(y2 - y) < 0.01 for _, y2 in centres(page, back=False))][:2]
    assert disc_rows[0] - disc_rows[1] == pytest.approx(pitch * math.sqrt(3) / 2, abs=TOL)
    first = sorted(x for x, y in centres(page, back=False) if abs(y - disc_rows[0]) < 0.01)
    second = sorted(x for x, y in centres(page, back=False) if abs(y - disc_rows[1]) < 0.01)
    assert first[1] - first[0] == pytest.approx(pitch, abs=TOL)
    assert second[0] - first[0] == pytest.approx(pitch / 2, abs=TOL)


def same_points(got, want) -> None:
    assert len(got) == len(want)
    for (x1, y1), (x2, y2) in zip(sorted(got), sorted(want)):
        assert abs(x1 - x2) <= TOL and abs(y1 - y2) <= TOL, ((x1, y1), (x2, y2))


def _front_back_pairs(pdf):
    pages = pdf.pages
    for i, page in enumerate(pages[:-1]):
        backs = centres(pages[i + 1], back=True)
        if backs and centres(page, back=False):
            yield page, pages[i + 1]


def test_long_edge_backs_mirror_the_fronts(long_flip):
    _, pdf = long_flip
    pairs = list(_front_back_pairs(pdf))
    assert pairs, "no double-sided sheet found"
    seen = 0
    for front, back in pairs:
        doubles = [c for c in centres(front, back=False)]
        mirrored = sorted((round(front.width - x, 4), y) for x, y in doubles)
        same_points(centres(back, back=True), mirrored)
        seen += len(doubles)
    assert seen == 12 + 10


@pytest.mark.parametrize("opts, expect", [
    ({"flip": "short"}, lambda w, h, x, y: (x, h - y)),
    ({"back_offset": (1.5 * MM, -0.8 * MM)}, lambda w, h, x, y: (w - x + 1.5 * MM, y - 0.8 * MM)),
])
def test_short_edge_flip_and_back_offset(tmp_path, opts, expect):
    game = make_game(tmp_path)
    _, pdf = build(game, tmp_path / "out", **opts)
    pairs = list(_front_back_pairs(pdf))
    assert pairs
    for front, back in pairs:
        want = sorted(tuple(round(v, 4) for v in expect(front.width, front.height, x, y))
                      for x, y in centres(front, back=False))
        same_points(centres(back, back=True), want)
    names = {str(v) for v in pdf.doc.catalog["ViewerPreferences"].resolve().values()}
    assert any(("DuplexFlipShortEdge" if opts.get("flip") == "short" else "DuplexFlipLongEdge") in n for n in names)


def ink_in_margin(path: Path, margin_mm: float = 5.0, dpi: int = 150) -> list[tuple[int, str]]:
    """(page, edge) of every page rendered with ink (a pixel darker than 250 of 255) within
    ``margin_mm`` of a paper edge (less a pixel for anti-aliasing)."""
    import pypdfium2 as pdfium

    found = []
    doc = pdfium.PdfDocument(str(path))
    band = int(margin_mm * dpi / 25.4) - 1
    for i in range(len(doc)):
        image = doc[i].render(scale=dpi / 72).to_pil().convert("L")
        w, h = image.size
        for edge, box in (("top", (0, 0, w, band)), ("bottom", (0, h - band, w, h)), ("left", (0, 0, band, h)),
                          ("right", (w - band, 0, w, h))):
            if image.crop(box).getextrema()[0] < 250:
                found.append((i + 1, edge))
    doc.close()
    return found


@pytest.mark.parametrize("opts, expect", [
    ({"back_offset": (6 * MM, 6 * MM)}, lambda w, h, x, y: (w - x + 6 * MM, y + 6 * MM)),
    ({"back_offset": (-6 * MM, -6 * MM)}, lambda w, h, x, y: (w - x - 6 * MM, y - 6 * MM)),
    ({"flip": "short", "back_offset": (6 * MM, 6 * MM)}, lambda w, h, x, y: (x + 6 * MM, h - y + 6 * MM)),
    ({"flip": "short", "back_offset": (-6 * MM, -6 * MM)}, lambda w, h, x, y: (x - 6 * MM, h - y - 6 * MM)),
])
def test_backs_moved_by_the_offset_stay_inside_the_margin(tmp_path, opts, expect):
    # the fronts of double-sided sheets leave the room the offset needs, so the backs keep the
    # whole offset and the margin both
    game = make_game(tmp_path)
    _, pdf = build(game, tmp_path / "out", **opts)
    pairs = list(_front_back_pairs(pdf))
    assert pairs
    for front, back in pairs:
        want = [expect(front.width, front.height, x, y) for x, y in centres(front, back=False)]
        same_points(centres(back, back=True), want)
    assert ink_in_margin(tmp_path / "out" / "tt-tokens.pdf") == []


def test_gutter_fold_backs_moved_by_the_offset_stay_inside_the_margin(tmp_path):
    game = make_game(tmp_path)  # enough discs to fill the upper half down to the fold clearance
    (game / "discs.csv").write_text("id,colour,copies\nred,#C0392B,30\nblue,#2471A3,25\n", encoding="utf-8")
    _, pdf = build(game, tmp_path / "out", gutter_fold=True, back_offset=(6 * MM, 8 * MM))
    folded = [p for p in pdf.pages if centres(p, back=True)]
    assert folded
    for page in folded:
        fronts = centres(page, back=False)
        # every front's bleed keeps 5 mm from the fold, and so does every back's, moved up 8 mm
        assert all(y - 10 * MM - BLEED >= page.height / 2 + 5 * MM + 8 * MM - TOL for _, y in fronts)
        same_points(centres(page, back=True), [(x + 6 * MM, page.height - y + 8 * MM) for x, y in fronts])
        # every sheet, a group's continuation too, fills from the top: the first row's bleed just
        # under the caption line below the margin
        cut = [obj["top"] for obj in page.rects + page.curves
               if obj.get("stroke") and abs(obj["linewidth"] - CUT_WIDTH) < 0.01]
        assert min(cut) - BLEED == pytest.approx(5 * MM + CAPTION, abs=TOL)
    assert len(folded) >= 2
    assert ink_in_margin(tmp_path / "out" / "tt-tokens.pdf") == []


def test_gutter_fold_puts_backs_below_the_fold(tmp_path):
    game = make_game(tmp_path)
    _, pdf = build(game, tmp_path / "out", gutter_fold=True)
    folded = [p for p in pdf.pages if centres(p, back=True)]
    assert folded
    for page in folded:
        fronts = centres(page, back=False)
        assert all(y > page.height / 2 + 5 * MM for _, y in fronts)
        want = sorted((x, round(page.height - y, 4)) for x, y in fronts)
        same_points(centres(page, back=True), want)


def test_a_die_net_has_six_faces_and_seven_glue_tabs(long_flip):
    _, pdf = long_flip
    die_pages = [p for p in pdf.pages if "glue the tabs" in (p.extract_text() or "")]
    assert len(die_pages) == 1
    page = die_pages[0]
    tabs = [o for o in page.curves + page.rects if o.get("fill") and not o.get("stroke")
            and tuple(round(v, 2) for v in o.get("non_stroking_color") or ()) == (0.9, 0.9, 0.9)]
    assert len(tabs) == 2 * 7
    pip_r = 18 * MM * 0.09
    pips = [c for c in page.curves if c.get("fill") and abs(c["width"] - 2 * pip_r) < 0.05]
    assert len(pips) == 2 * (1 + 2 + 3 + 4 + 5 + 6)


@pytest.mark.parametrize("change, message", [
    ('shape = "circle"\nsize = "20mm"\n', "components.discs.shape"),
    ('shape = "circle"\n', "is not one of"),
])
def test_bad_token_settings_are_reported_with_their_key(tmp_path, change, message):
    game = make_game(tmp_path)
    replacement = "" if "size" in change else 'shape = "oval"\n'
    text = (game / "game.toml").read_text().replace(change, replacement, 1)
    (game / "game.toml").write_text(text)
    with pytest.raises(BuildError) as exc:
        build(game, tmp_path / "out")
    assert message in exc.value.render()


def test_tokens_without_a_layout_are_reported_not_dropped(tmp_path):
    game = make_game(tmp_path)
    text = (game / "game.toml").read_text().replace('layout = "hex"\n', "")
    (game / "game.toml").write_text(text)
    result, _ = build(game, tmp_path / "out")
    assert [f.rule for f in result.findings] == ["tokens.no-layout"]
    assert "Hex tiles" in result.findings[0].message


@pytest.mark.parametrize("gid, want", [
    ("atomic-assembly", {(25.0, 25.0): 12, (20.0, 20.0): 16, (25.0, 114.0): 4, (18.0, 18.0): 4}),
    ("ars-alchimia", {(15.0, 15.0): 80, (20.0, 20.0): 4, (12.0, 12.0): 20}),
])
def test_bundled_token_counts_equal_the_data(tmp_path, gid, want):
    from pnp.model.games import data_root, templates_root

    game = load_game(data_root() / gid, f"card_data/{gid}")
    result = build_boards(game, GameSource(data_root() / gid, f"card_data/{gid}", templates_root() / gid, f"templates/{gid}"),
                          tmp_path, SheetOptions())
    assert result.findings == []
    pdf = pdfplumber.open(tmp_path / f"{gid}-tokens.pdf")
    total: Counter = Counter()
    for page in pdf.pages:
        total += guides(page)
    tokens = [c for c in game if c.kind == "tokens"]
    assert sum(want.values()) == sum(c.pieces for c in tokens)
    for size, count in want.items():
        assert total[size] == count
