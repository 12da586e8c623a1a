"""Boards and board tiling, measured in the real PDF (docs/print-specs.md §8 check 19).

The test game draws a 1 x 1 mm reference marker (#010203) at board (20 mm, 30 mm) and a
2 x 2 mm marker (#040506) at each position of its spots table. pdfplumber reports every drawn
rectangle with its page position, clipped or not, so each tile page's board-to-sheet offset is
read from the reference marker; the window each tile prints is read from the clip rectangle in
the page's content stream (pikepdf). Tolerance 0.05 mm.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import ImageDraw

from pnp.model.games import GameSource
from pnp.outputs.boards import build_boards, render_boards
from pnp.outputs.base import SheetOptions
from pnp.core.errors import BuildError, LayoutError
from pnp.model.load import load_game
from pnp.geometry.tiling import plan_board, tile_label
from pnp.core.units import MM, PAPER_SIZES, Size

TOL = 0.05 * MM
REF = (20 * MM, 30 * MM)

GAME = """
[game]
id = "bt"
title = "Board Test"
players = [2, 4]

[colors]
ink = "#222222"

[components.board]
kind = "board"
name = "Big board"
size = "{size}"
layout = "big"
table = "spots.csv"
id_column = "id"

[components.board.columns]
id = "id"
x = "length"
y = "length"
"""

SMALL = """
[components.small]
kind = "board"
name = "Small board"
size = "150mm x 100mm"
layout = "small"
"""

BOARDS = """
[layouts.big]
background = "#EEEEEE"

[layouts.big.boxes.ref]
type = "rect"
x = "20mm"
y = "30mm"
width = "1mm"
height = "1mm"
fill = "#010203"

[layouts.big.boxes.spots]
type = "repeat"
items = "rows"
layout = "spot"
x = "0mm"
y = "0mm"
width = "{{ board.width }}mm"
height = "10mm"
item_width = "2mm"
item_height = "2mm"
item_x = "{{ x }}pt"
item_y = "{{ y }}pt"

[layouts.spot.boxes.dot]
type = "rect"
area = "trim"
fill = "#040506"

[layouts.small]
background = "#DDDDDD"

[layouts.small.boxes.ref]
type = "rect"
x = "20mm"
y = "30mm"
width = "1mm"
height = "1mm"
fill = "#010203"
"""


def make_game(tmp_path: Path, size: str = "500mm x 500mm", small: bool = True,
              boards: str | None = None) -> Path:
    game = tmp_path / "bt"
    (game / "templates").mkdir(parents=True)
    (game / "game.toml").write_text(GAME.format(size=size) + (SMALL if small else ""), encoding="utf-8")
    (game / "spots.csv").write_text("id,x,y\na,100mm,50mm\nb,250mm,400mm\nc,480mm,490mm\n", encoding="utf-8")
    text = BOARDS if boards is None else boards
    (game / "templates" / "boards.toml").write_text(text.replace("{{ board.width }}mm", "500mm"), encoding="utf-8")
    return game


def build(game_dir: Path, out: Path, overlap_mm: float | None = None, **opts):
    game = load_game(game_dir, "bt")
    kwargs = {} if overlap_mm is None else {"overlap": overlap_mm * MM}
    return build_boards(game, GameSource(game_dir, "bt", game_dir / "templates", "bt/templates"), out, SheetOptions(**opts),
                        **kwargs)


def colour_of(obj) -> tuple:
    return tuple(round(v * 255) for v in (obj.get("non_stroking_color") or ()))


def offset(page) -> tuple[float, float]:
    """(ox, oy): board point (bx, by) lies at sheet (ox + bx, oy - by), PDF coordinates."""
    refs = [r for r in page.rects if colour_of(r) == (1, 2, 3) and abs(r["width"] - MM) < 0.01]
    assert len(refs) == 1
    r = refs[0]
    return r["x0"] - REF[0], (page.height - r["top"]) + REF[1]


def clip_rect(doc: pikepdf.Pdf, index: int) -> tuple[float, float, float, float]:
    """The first clip rectangle (x, y, w, h) set on page ``index``."""
    ops = pikepdf.parse_content_stream(doc.pages[index])
    for i, (operands, op) in enumerate(ops):
        if str(op) == "re" and i + 1 < len(ops) and str(ops[i + 1][1]) in ("W", "W*"):
            return tuple(float(v) for v in operands)
    raise AssertionError("no clip rectangle on the page")


def tile_pages(pdf, doc):
    """{label: (page, offset, window in board coords (left, top, right, bottom))}."""
    out = {}
    for i, page in enumerate(pdf.pages):
        found = re.search(r"tile ([A-Z]+[0-9]+) of [0-9]+", page.extract_text() or "")
        if not found:
            continue
        label = found.group(1)
        ox, oy = offset(page)
        x, y, w, h = clip_rect(doc, i)
        out[label] = (page, (ox, oy), (x - ox, oy - (y + h), x + w - ox, oy - y), (x, y, w, h))
    return out


def marks(page, ox: float, oy: float) -> list[tuple[float, float]]:
    """Board coordinates of the alignment marks on a page: the midpoints of black 0.4 pt
    diagonal lines, two per mark."""
    centres: dict[tuple[int, int], tuple[float, float]] = {}
    for line in page.lines:
        if abs(line["linewidth"] - 0.4) > 0.01 or tuple(line.get("stroking_color") or ()) != (0.0, 0.0, 0.0):
            continue
        if abs(line["x1"] - line["x0"]) < 0.1 or abs(line["top"] - line["bottom"]) < 0.1:
            continue  # crop marks and cut ticks are horizontal or vertical
        mx = (line["x0"] + line["x1"]) / 2
        my = page.height - (line["top"] + line["bottom"]) / 2
        key = (round(mx * 10), round(my * 10))
        centres[key] = (mx - ox, oy - my)
    return sorted(centres.values())


@pytest.fixture(scope="module")
def tiled(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiled")
    game = make_game(tmp)
    result = build(game, tmp / "out")
    path = tmp / "out" / "bt-boards.pdf"
    return result, path, pdfplumber.open(path), pikepdf.open(path)


def test_a_large_board_is_tiled_with_an_assembly_map_and_labels(tiled):
    result, path, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    # letter: 500 mm + bleed needs 3 x 2 tiles; pages: cover, assembly map, 6 tiles, small board
    assert sorted(tiles) == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert len(pdf.pages) == 1 + 1 + 6 + 1
    assert "assembly map" in pdf.pages[1].extract_text()
    map_words = {w["text"] for w in pdf.pages[1].extract_words()}
    assert {"A1", "A2", "A3", "B1", "B2", "B3"} <= map_words
    assert result.files == [path]


def test_neighbouring_tiles_overlap_by_the_default_10mm(tiled):
    _, _, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    for r in "AB":
        for c in (1, 2):
            left, right = tiles[f"{r}{c}"][2], tiles[f"{r}{c + 1}"][2]
            assert left[2] - right[0] == pytest.approx(10 * MM, abs=TOL)
            assert left[1] == pytest.approx(right[1], abs=TOL) and left[3] == pytest.approx(right[3], abs=TOL)
    for c in (1, 2, 3):
        upper, lower = tiles[f"A{c}"][2], tiles[f"B{c}"][2]
        assert upper[3] - lower[1] == pytest.approx(10 * MM, abs=TOL)
    # together the tiles cover the board and its bleed, from corner to corner
    assert tiles["A1"][2][0] == pytest.approx(-9.0, abs=TOL) and tiles["A1"][2][1] == pytest.approx(-9.0, abs=TOL)
    assert tiles["B3"][2][2] == pytest.approx(500 * MM + 9, abs=TOL)
    assert tiles["B3"][2][3] == pytest.approx(500 * MM + 9, abs=TOL)


NEIGHBOURS = [(f"{r}{c}", f"{r}{c + 1}", "v") for r in "AB" for c in (1, 2)] + \
    [(f"A{c}", f"B{c}", "h") for c in (1, 2, 3)]
"""The bands of the 3 x 2 tiling: (left or upper tile, right or lower tile, axis)."""
GUIDE = 5 * MM
"""The guide strip between a tile's window and the margin, where the marks sit at its middle."""


def test_alignment_marks_sit_at_identical_board_coordinates_on_both_tiles(tiled):
    # two marks per overlap, on its centre line, beyond both ends of the overlap in the middle
    # of the guide strips: outside every window, at the same board coordinates on both tiles
    _, _, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    found = {label: marks(page, *off) for label, (page, off, _, _) in tiles.items()}
    claimed = {label: 0 for label in tiles}
    for first, second, axis in NEIGHBOURS:
        w1, w2 = tiles[first][2], tiles[second][2]
        band = (max(w1[0], w2[0]), max(w1[1], w2[1]), min(w1[2], w2[2]), min(w1[3], w2[3]))
        if axis == "v":
            centre = (band[0] + band[2]) / 2
            want = [(centre, band[1] - GUIDE / 2), (centre, band[3] + GUIDE / 2)]
        else:
            centre = (band[1] + band[3]) / 2
            want = [(band[0] - GUIDE / 2, centre), (band[2] + GUIDE / 2, centre)]
        for label in (first, second):
            on = [m for m in found[label] if any(abs(m[0] - x) <= TOL and abs(m[1] - y) <= TOL for x, y in want)]
            assert len(on) == 2 and all(any(abs(m[0] - x) <= TOL and abs(m[1] - y) <= TOL for m in on)
                                        for x, y in want), (label, axis, on, want)
            claimed[label] += len(on)
            left, top, right, bottom = tiles[label][2]
            for x, y in on:  # outside the tile's window
                assert not (left < x < right and top < y < bottom), (label, x, y)
    # and no other mark anywhere
    assert claimed == {label: len(found[label]) for label in tiles}


def visible_area(tiles, label: str, board=(500 * MM, 500 * MM)) -> tuple[float, float, float, float]:
    """The part of the board (left, top, right, bottom, board pt) that ``label`` shows on the
    assembled board: inside the trim, from the centre of its left and top overlaps (where it
    is trimmed) to the centre of its right and bottom ones (where its neighbours cover it).
    The overlaps are read from the windows the tiles print."""
    row, col = label[0], int(label[1:])
    left, top, right, bottom = tiles[label][2]
    west, east = f"{row}{col - 1}", f"{row}{col + 1}"
    north, south = f"{chr(ord(row) - 1)}{col}", f"{chr(ord(row) + 1)}{col}"
    return (max(0.0, (left + tiles[west][2][2]) / 2 if west in tiles else left),
            max(0.0, (top + tiles[north][2][3]) / 2 if north in tiles else top),
            min(board[0], (right + tiles[east][2][0]) / 2 if east in tiles else right),
            min(board[1], (bottom + tiles[south][2][1]) / 2 if south in tiles else bottom))


def test_no_alignment_mark_shows_on_the_finished_board(tiled):
    # the test board is flat #EEEEEE but for its markers: rendered at 300 dpi, every pixel of
    # the part of each tile left in sight once assembled is that grey, so no mark is printed there
    _, path, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    art = [(REF[0], REF[1], 1 * MM), (100 * MM, 50 * MM, 2 * MM), (250 * MM, 400 * MM, 2 * MM),
           (480 * MM, 490 * MM, 2 * MM)]
    rendered = pdfium.PdfDocument(str(path))
    scale = 300 / 72
    checked = 0
    for label, (page, (ox, oy), _, _) in tiles.items():
        image = rendered[page.page_number - 1].render(scale=scale).to_pil().convert("L")
        paint = ImageDraw.Draw(image)
        for x, y, size in art:  # the board's own markers, painted over in the background grey
            paint.rectangle(((ox + x) * scale - 3, (page.height - oy + y) * scale - 3,
                             (ox + x + size) * scale + 3, (page.height - oy + y + size) * scale + 3), fill=0xEE)
        left, top, right, bottom = visible_area(tiles, label)
        box = (round((ox + left) * scale) + 1, round((page.height - oy + top) * scale) + 1,
               round((ox + right) * scale) - 1, round((page.height - oy + bottom) * scale) - 1)
        low, high = image.crop(box).getextrema()
        assert 0xEE - 2 <= low and high <= 0xEE + 2, f"ink other than the board's in sight on {label}: {low}-{high}"
        checked += (box[2] - box[0]) * (box[3] - box[1])
    rendered.close()
    board_px = (500 * MM * scale) ** 2
    assert checked == pytest.approx(board_px, rel=0.01)  # the visible parts make up the whole board


def test_every_tile_stays_inside_the_printable_margin(tiled):
    _, path, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    for label, (page, _, _, (x, y, w, h)) in tiles.items():
        assert x >= 5 * MM and y >= 5 * MM
        assert x + w <= page.width - 5 * MM and y + h <= page.height - 5 * MM
        for obj in page.lines + page.chars:
            x0, x1 = obj["x0"], obj["x1"]
            assert x0 >= 5 * MM - TOL and x1 <= page.width - 5 * MM + TOL, label
            assert obj["top"] >= 5 * MM - TOL and obj["bottom"] <= page.height - 5 * MM + TOL, label
    rendered = pdfium.PdfDocument(str(path))
    band = round(5 * 72 / 25.4 * 72 / 72) - 1  # 5 mm at 72 dpi, less a pixel for anti-aliasing
    for i in range(len(rendered)):
        image = rendered[i].render(scale=1).to_pil().convert("L")
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert image.crop(box).getextrema()[0] >= 250, f"ink in the margin on page {i + 1}"
    rendered.close()


def test_repeat_boxes_place_each_row_from_its_columns(tiled):
    _, _, pdf, doc = tiled
    tiles = tile_pages(pdf, doc)
    want = [(100 * MM, 50 * MM), (250 * MM, 400 * MM), (480 * MM, 490 * MM)]
    page, (ox, oy), _, _ = tiles["A1"]
    dots = sorted((r["x0"] - ox, oy - (page.height - r["top"])) for r in page.rects if colour_of(r) == (4, 5, 6))
    assert len(dots) == 3
    for (x, y), (wx, wy) in zip(dots, want):
        assert x == pytest.approx(wx, abs=TOL) and y == pytest.approx(wy, abs=TOL)


def test_a_board_that_fits_stays_on_one_sheet_with_crop_marks(tiled):
    _, _, pdf, _ = tiled
    page = pdf.pages[-1]
    assert "Small board" in page.extract_text() and "tile" not in page.extract_text()
    ox, oy = offset(page)
    # centred on the letter sheet
    assert ox == pytest.approx((612 - 150 * MM) / 2, abs=TOL)
    assert oy == pytest.approx((792 + 100 * MM) / 2, abs=TOL)
    verticals = sorted({round(l["x0"], 3) for l in page.lines if abs(l["x0"] - l["x1"]) < 0.01})
    horizontals = sorted({round(page.height - l["top"], 3) for l in page.lines if abs(l["top"] - l["bottom"]) < 0.01})
    assert verticals == pytest.approx([ox, ox + 150 * MM], abs=TOL)
    assert horizontals == pytest.approx([oy - 100 * MM, oy], abs=TOL)


@pytest.mark.parametrize("overlap_mm, paper", [(15, "a4"), (25.4, "letter")])
def test_overlap_is_configurable(tmp_path, overlap_mm, paper):
    game = make_game(tmp_path, size="420mm x 300mm", small=False)
    build(game, tmp_path / "out", overlap_mm=overlap_mm, paper=paper)
    path = tmp_path / "out" / "bt-boards.pdf"
    pdf, doc = pdfplumber.open(path), pikepdf.open(path)
    tiles = tile_pages(pdf, doc)
    assert len(tiles) >= 2
    checked = 0
    for label, (_, _, window, _) in tiles.items():
        right = label[0] + str(int(label[1:]) + 1)
        below = chr(ord(label[0]) + 1) + label[1:]
        if right in tiles:
            assert window[2] - tiles[right][2][0] == pytest.approx(overlap_mm * MM, abs=TOL)
            checked += 1
        if below in tiles:
            assert window[3] - tiles[below][2][1] == pytest.approx(overlap_mm * MM, abs=TOL)
            checked += 1
    assert checked >= 1


def test_same_input_same_bytes(tmp_path):
    game = make_game(tmp_path, size="300mm x 300mm")
    build(game, tmp_path / "one")
    build(game, tmp_path / "two")
    one = hashlib.sha256((tmp_path / "one" / "bt-boards.pdf").read_bytes()).hexdigest()
    two = hashlib.sha256((tmp_path / "two" / "bt-boards.pdf").read_bytes()).hexdigest()
    assert one == two


def test_tile_plan_geometry():
    letter = PAPER_SIZES["letter"]
    plan = plan_board(Size(500 * MM, 500 * MM), letter, margin=5 * MM, bleed=9.0)
    assert (plan.rows, plan.cols) == (2, 3)
    assert len(plan.marks()) == 2 * len(plan.bands()) == 2 * 7
    one = plan_board(Size(190 * MM, 260 * MM), letter, margin=5 * MM, bleed=9.0)
    assert not one.tiled and one.paper == letter
    landscape = plan_board(Size(240 * MM, 160 * MM), letter, margin=5 * MM, bleed=9.0)
    assert not landscape.tiled and landscape.paper.width > landscape.paper.height
    assert [tile_label(0, 0), tile_label(1, 2), tile_label(26, 0)] == ["A1", "B3", "AA1"]
    with pytest.raises(BuildError, match="too small"):
        plan_board(Size(900 * MM, 900 * MM), letter, margin=5 * MM, bleed=9.0, overlap=1 * MM)


def test_a_board_without_a_size_is_reported_with_its_key(tmp_path):
    game = make_game(tmp_path, small=False)
    text = (game / "game.toml").read_text().replace('size = "500mm x 500mm"\n', "")
    (game / "game.toml").write_text(text)
    with pytest.raises(BuildError) as exc:
        build(game, tmp_path / "out")
    assert "components.board.size" in exc.value.render()


@pytest.mark.parametrize("change, message", [
    ('item_x = "{{ x }}pt"', "item_x"),
    ('items = "rows"', "not a list"),
])
def test_repeat_box_errors_name_the_box(tmp_path, change, message):
    bad = {'item_x = "{{ x }}pt"': 'item_x = "{{ x }}"', 'items = "rows"': 'items = "rows[0]"'}[change]
    game = make_game(tmp_path, small=False, boards=BOARDS.replace(change, bad))
    result = build(game, tmp_path / "out")
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and all(f.rule == "layout.render" and f.piece == "board" for f in errors)
    assert any("layouts.big.boxes.spots" in f.location and message in f.location + f.message for f in errors)


def test_a_repeat_box_needs_its_settings(tmp_path):
    game = make_game(tmp_path, small=False, boards=BOARDS.replace('layout = "spot"\n', ""))
    with pytest.raises(LayoutError, match="needs layout"):
        build(game, tmp_path / "out")


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    from pnp.model.games import data_root, templates_root

    out = {}
    for gid in ("atomic-assembly", "ars-alchimia"):
        game = load_game(data_root() / gid, f"card_data/{gid}")
        dest = tmp_path_factory.mktemp(gid)
        result = build_boards(game, GameSource(data_root() / gid, f"card_data/{gid}", templates_root() / gid, f"templates/{gid}"),
                              dest, SheetOptions())
        out[gid] = (game, result, pdfplumber.open(dest / f"{gid}-boards.pdf"))
    return out


def test_atomic_assembly_track_is_drawn_from_its_34_spaces(bundled):
    game, result, pdf = bundled["atomic-assembly"]
    assert result.findings == []
    # cover, the blueprint reference sheet, then the track board's assembly map and tiles
    sheet, track = pdf.pages[1].extract_text(), pdf.pages[2]
    assert "the 12 blueprints" in sheet
    for row in game.components["blueprints"].rows:
        assert row["name"] in sheet
    assert "Track board: assembly map" in track.extract_text()
    words = [w["text"] for w in track.extract_words()]
    spaces = game.components["track"].rows
    assert words.count("HAZARD") == sum(r["kind"] == "hazard" for r in spaces) == 2
    assert words.count("WILD") == sum(r["kind"] == "wild" for r in spaces) == 2
    assert "START" in words
    for n in range(1, 35):
        assert str(n) in words


def test_ars_alchimia_board_has_its_16_spots_and_four_player_boards(bundled):
    game, result, pdf = bundled["ars-alchimia"]
    assert result.findings == []
    page = pdf.pages[1]
    text = page.extract_text()
    assert "Game board: assembly map" in text
    words = [w["text"] for w in page.extract_words()]
    spots = [r for r in game.components["board_spots"].rows if r["worker_spot"]]
    assert len(spots) == 16
    headings = ("GATHER RESOURCES", "TRANSMUTE AT A FORGE", "HIRE AN ASSISTANT")  # the board's rule panels
    for area in ("order", "location", "forge", "assistant"):
        in_headings = sum(h.split().count(area.upper()) for h in headings)
        assert words.count(area.upper()) - in_headings == sum(r["area"] == area for r in spots)
    squeezed = re.sub(r"\s", "", text)  # small type on the map: words may run together
    assert squeezed.count("4PLAYERSONLY") == sum(r["four_player_only"] for r in spots) == 1
    assert squeezed.count("FACE-DOWNDECK") == sum(r["face_down_deck"] for r in spots) == 2
    assert "TOWNSQUARE" in squeezed
    boards = [p for p in pdf.pages[-4:] if "ALCHEMIST'S WORKSHOP" in (p.extract_text() or "")]
    assert len(boards) == game.components["player_board"].copies == 4


def test_board_art_over_the_pixel_limit_is_refused(tmp_path):
    from PIL import Image

    art = BOARDS + '\n[layouts.small.boxes.art]\ntype = "image"\nimage = "art/map.png"\narea = "trim"\n'
    game_dir = make_game(tmp_path, boards=art)
    (game_dir / "art").mkdir()
    Image.new("RGB", (300, 200), (10, 90, 40)).save(game_dir / "art" / "map.png")
    game = load_game(game_dir, "bt")
    source = GameSource(game_dir, "bt", game_dir / "templates", "bt/templates")
    assert build_boards(game, source, tmp_path / "ok", SheetOptions()).files
    result = render_boards(game, source, tmp_path / "refused", SheetOptions(), max_image_pixels=50_000)
    (error,) = [f for f in result.findings if f.severity == "error"]
    assert error.rule == "layout.art-unreadable" and error.piece == "small"
    assert "'art/map.png' is 300 x 200 = 60,000 pixels, more than the limit of 50,000" in error.message


def test_an_error_in_a_card_icon_drawn_on_a_board_names_the_card_layouts_file(tmp_path):
    import shutil

    from conftest import FIXTURES

    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    manifest = game_dir / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + '\n[components.board]\nkind = "board"\n'
                        'name = "Board"\nsize = "100mm x 100mm"\nlayout = "plain"\n', encoding="utf-8")
    boards = game_dir / "templates" / "boards.toml"
    boards.write_text(boards.read_text(encoding="utf-8") +
                      '[layouts.plain.boxes.legend]\ntype = "text"\ntext = "Burn :fire: here"\narea = "trim"\n',
                      encoding="utf-8")
    layouts = game_dir / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace('fill = "red"', 'fill = "{{ heat }}"', 1),
                       encoding="utf-8")
    game = load_game(game_dir, "tiny")
    result = render_boards(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"),
                           tmp_path / "out", SheetOptions())
    (error,) = [f for f in result.findings if f.severity == "error"]
    assert error.location == "tiny/templates/layouts.toml:3 (icons.fire.fill)" and error.message == "'heat' is undefined"


@pytest.mark.parametrize("boards, expected", [
    ('[icons.star]\nshape = "sta"\n', "tiny/templates/boards.toml:2 (icons.star.shape): shape 'sta' is not one of"),
    ('[icons.star]\nlabel_scale = 3\n', "tiny/templates/boards.toml:2 (icons.star.label_scale): label_scale must be"),
    ('[icons.star]\nfil = "red"\n', "tiny/templates/boards.toml:2 (icons.star.fil): unknown icon setting 'fil'"),
    ('[layouts.plain]\nbackgrund = "white"\n', "tiny/templates/boards.toml:2 (layouts.plain.backgrund): "
                                               "unknown layout setting 'backgrund'"),
    ('safe = "3mm"\n', "tiny/templates/boards.toml:1 (safe): unknown top-level setting 'safe'"),
])
def test_layouts_file_settings_are_checked_with_their_line(tmp_path, boards, expected):
    import shutil

    from conftest import FIXTURES

    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    (game_dir / "templates" / "boards.toml").write_text(boards, encoding="utf-8")
    from pnp.design.layouts import board_layouts

    with pytest.raises(LayoutError) as caught:
        board_layouts(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    assert caught.value.render().startswith(expected), caught.value.render()
