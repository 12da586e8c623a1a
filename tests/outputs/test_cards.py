"""Home print-and-play sheets, measured in the real PDF (docs/print-specs.md §8)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards
from pnp.geometry.impose import MARK_WIDTH, fit_fold, fit_grid
from pnp.model.load import load_game
from pnp.core.units import CARD_SIZES, MM, PAPER_SIZES, to_mm

from sheetgeom import art_boxes, extent, open_pdf, trims

TOL = 0.05 * MM  # 0.05 mm
POKER = CARD_SIZES["poker"]


def build_findings(game_dir: Path, out: Path, **opts) -> list:
    """Build the tiny game's cards with ``opts`` and return every finding."""
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    return build_cards(game, layouts, out, SheetOptions(**opts)).findings


def build(game_dir: Path, out: Path, **opts) -> Path:
    findings = build_findings(game_dir, out, **opts)
    assert [f for f in findings if f.severity != "info"] == []
    return out / ("tiny-cards-gutter-fold.pdf" if opts.get("gutter_fold") else "tiny-cards.pdf")


@pytest.fixture
def nine(tiny: Path) -> Path:
    """The tiny game with 11 cards: a full sheet of 9 and a partial sheet of 2, mixed backs."""
    (tiny / "cards.csv").write_text(
        "id,title,cost,colour,text,copies\nfire,Fire,2,red,,5\nleaf,Leaf,1,green,,4\nsun,Sun,3,red,,2\n")
    return tiny


@pytest.mark.parametrize("paper, left_mm, bottom_mm", [("letter", 12.7, 6.35), ("a4", 9.75, 15.15)])
def test_nine_up_grid_positions(nine, tmp_path, paper, left_mm, bottom_mm):
    pdf = open_pdf(build(nine, tmp_path, paper=paper))
    size = PAPER_SIZES[paper]
    page = pdf.pages[2]  # pages 1-2 are the calibration pair
    assert (page.width, page.height) == pytest.approx((size.width, size.height), abs=0.01)
    found = trims(page, back=False, card_h=POKER.height)
    assert len(found) == 9
    for i, placed in enumerate(found):
        row, col = divmod(i, 3)
        assert placed.x == pytest.approx(left_mm * MM + col * POKER.width, abs=TOL)
        assert placed.y == pytest.approx(bottom_mm * MM + (2 - row) * POKER.height, abs=TOL)


def test_crop_marks_lie_outside_every_trim_and_on_the_cut_lines(nine, tmp_path):
    pdf = open_pdf(build(nine, tmp_path, paper="a4"))
    page = pdf.pages[2]
    cards = trims(page, back=False, card_h=POKER.height)
    lines = page.lines
    assert len(lines) >= 16
    cut_x = {round(c.x, 2) for c in cards} | {round(c.x + POKER.width, 2) for c in cards}
    cut_y = {round(c.y, 2) for c in cards} | {round(c.y + POKER.height, 2) for c in cards}
    for line in lines:
        assert line["linewidth"] == pytest.approx(MARK_WIDTH)
        assert 0.425 <= line["linewidth"] <= 1.0  # docs/print-specs.md §8 check 12
        x0, x1 = line["x0"], line["x1"]
        y0, y1 = page.height - line["bottom"], page.height - line["top"]
        for c in cards:  # no mark segment enters a trim's interior
            assert x1 <= c.x + 1e-6 or x0 >= c.x + POKER.width - 1e-6 or \
                y1 <= c.y + 1e-6 or y0 >= c.y + POKER.height - 1e-6
        if abs(x0 - x1) < 1e-6:
            assert any(abs(x0 - v) <= TOL for v in cut_x)
        else:
            assert any(abs(y0 - v) <= TOL for v in cut_y)
        for v in (x0, x1):  # the ink-free margin (check 11)
            assert 5 * MM - 1e-3 <= v <= page.width - 5 * MM + 1e-3
        for v in (y0, y1):
            assert 5 * MM - 1e-3 <= v <= page.height - 5 * MM + 1e-3


def test_long_edge_backs_mirror_the_columns(nine, tmp_path):
    pdf = open_pdf(build(nine, tmp_path, paper="letter"))
    assert len(pdf.pages) == 2 + 4  # calibration pair + two front/back pairs
    for front_i, count in ((2, 9), (4, 2)):
        front = trims(pdf.pages[front_i], back=False, card_h=POKER.height)
        back = trims(pdf.pages[front_i + 1], back=True, card_h=POKER.height)
        assert len(front) == len(back) == count
        w = pdf.pages[front_i].width
        mirrored = sorted((w - f.x - POKER.width, f.y) for f in front)
        got = sorted((b.x, b.y) for b in back)
        assert [v for p in got for v in p] == pytest.approx([v for p in mirrored for v in p], abs=TOL)


def test_each_back_matches_its_own_deck(nine, tmp_path):
    pdf = open_pdf(build(nine, tmp_path, paper="letter"))
    back = pdf.pages[5]  # the partial sheet: two red "sun" cards in slots (0,0) and (0,1)
    fills = {tuple(round(v, 3) for v in r["non_stroking_color"]) for r in back.rects
             if r["width"] > 100}
    assert (round(0xC0 / 255, 3), round(0x39 / 255, 3), round(0x2B / 255, 3)) in fills
    assert (round(0x27 / 255, 3), round(0xAE / 255, 3), round(0x60 / 255, 3)) not in fills
    placed = trims(back, back=True, card_h=POKER.height)
    assert [round(to_mm(p.x), 2) for p in placed] == [76.2, 139.7]  # columns 1 and 2, mirrored


def test_short_edge_backs_mirror_the_rows(nine, tmp_path):
    pdf = open_pdf(build(nine, tmp_path, paper="letter", flip="short"))
    front = trims(pdf.pages[4], back=False, card_h=POKER.height)
    page = pdf.pages[5]
    # backs are turned 180°, so the marker sits 2 mm from the right and 3 mm above the bottom
    backs = []
    for r in page.rects:
        if abs(r["width"] - MM) < 0.01 and tuple(round(v, 4) for v in r["non_stroking_color"]) == (0, 0, round(1 / 255, 4)):
            backs.append((r["x1"] + 2 * MM - POKER.width, page.height - r["bottom"] - 3 * MM))
    h = page.height
    expected = sorted((f.x, h - f.y - POKER.height) for f in front)
    got = sorted(backs)
    assert len(got) == len(expected) == 2
    assert [v for p in got for v in p] == pytest.approx([v for p in expected for v in p], abs=TOL)


def test_back_offset_moves_only_backs(nine, tmp_path):
    plain = open_pdf(build(nine, tmp_path / "a", paper="letter"))
    moved = open_pdf(build(nine, tmp_path / "b", paper="letter", back_offset=(0.7 * MM, -0.4 * MM)))
    for i, back in ((2, False), (3, True)):
        p = trims(plain.pages[i], back=back, card_h=POKER.height)
        m = trims(moved.pages[i], back=back, card_h=POKER.height)
        dx, dy = (0.7 * MM, -0.4 * MM) if back else (0, 0)
        for a, b in zip(p, m):
            assert b.x - a.x == pytest.approx(dx, abs=0.01 * MM)
            assert b.y - a.y == pytest.approx(dy, abs=0.01 * MM)


def back_room(path: Path, index: int, top: float | None = None) -> dict[str, float]:
    """Room in mm between the art of the backs on page ``index`` (the clip rectangles below
    ``top``, pt, when given: the backs half of a gutter-fold sheet) and the 5 mm margin, or,
    upwards, ``top``."""
    with pikepdf.open(path) as doc:
        boxes = art_boxes(doc, index)
        page_w, page_h = (float(v) for v in doc.pages[index].mediabox[2:])
    if top is not None:
        boxes = [b for b in boxes if b[3] <= top + 0.01]
    x0, y0, x1, y1 = extent(boxes)
    upper = page_h - 5 * MM if top is None else top
    return {"left": to_mm(x0) - 5, "right": to_mm(page_w - 5 * MM - x1), "bottom": to_mm(y0) - 5,
            "top": to_mm(upper - y1)}


ROOM = re.compile(r"they have ([\d.]+) mm of room on the left, ([\d.]+) mm on the right, ([\d.]+) mm "
                  r"(?:at the top|up to the fold) and ([\d.]+) mm at the bottom")
DIRECTIONS = {"right": (1, 0), "left": (-1, 0), "top": (0, 1), "bottom": (0, -1)}


@pytest.mark.parametrize("side", list(DIRECTIONS))
@pytest.mark.parametrize("fold", [False, True])
def test_a_back_offset_past_the_margin_is_refused_naming_the_room(nine, tmp_path, side, fold):
    # the room is measured on the zero-offset sheets: from the backs' clipped art to the margin
    # (or, on a gutter-fold sheet, up to the fold)
    plain = build(nine, tmp_path / "plain", paper="letter", gutter_fold=fold)
    room = back_room(plain, 2, top=PAPER_SIZES["letter"].width / 2) if fold else back_room(plain, 3)
    if not fold:
        assert room == pytest.approx({"left": 12.7 - 3.175 - 5, "right": 12.7 - 3.175 - 5,
                                      "top": 1.35, "bottom": 1.35}, abs=0.01)
    dx, dy = DIRECTIONS[side]
    kind = {"gutter_fold": fold}
    # up to the room, the backs move as asked and stay out of the margin
    fits = (room[side] - 0.01) * MM
    path = build(nine, tmp_path / "fits", paper="letter", back_offset=(dx * fits, dy * fits), **kind)
    moved = back_room(path, 2, top=PAPER_SIZES["letter"].width / 2) if fold else back_room(path, 3)
    assert moved[side] == pytest.approx(0.01, abs=0.005)
    # past it, an error that names the offset, how far past and the room on every side
    over = (room[side] + 0.1) * MM
    findings = build_findings(nine, tmp_path / "over", paper="letter", back_offset=(dx * over, dy * over), **kind)
    errors = [f for f in findings if f.severity == "error"]
    assert [f.rule for f in errors] == ["sheet.back-offset"]
    err = errors[0]
    assert err.location == "tiny-cards.pdf (63.5 x 88.9 mm cards on letter)" and err.field == "--back-offset"
    assert err.message.startswith(f"--back-offset {dx * (room[side] + 0.1):g},{dy * (room[side] + 0.1):g} "
                                  "moves the backs 0.10 mm ")
    where = "past the fold" if fold and side == "top" else f"into the 5 mm margin at the {side}"
    assert f"0.10 mm {where};" in err.message
    said = dict(zip(("left", "right", "top", "bottom"), (float(v) for v in ROOM.search(err.message).groups())))
    assert said == pytest.approx(room, abs=0.006)
    assert "never reduced" in err.hint and "--margin" in err.hint


@pytest.mark.parametrize("option, rule, severity", [
    (["--back-offset", "0,1.5"], "sheet.back-offset", "error"),
    (["--gap", "0.25in"], "sheet.gap-bleed", "warning"),
])
def test_check_and_build_report_the_same_sheet_finding(nine, tmp_path, option, rule, severity):
    manifest = nine / "game.toml"  # the stated totals of the 11 cards, so that only the option is wrong
    manifest.write_text(manifest.read_text().replace("count = 5", "count = 11").replace("count = 3", "count = 7"))
    out = tmp_path / "out"
    args = ["--paper", "letter", *option]
    checked = subprocess.run([sys.executable, "-m", "pnp", "check", str(nine), "--format", "json", *args],
                             capture_output=True, text=True)
    assert checked.returncode == (1 if severity == "error" else 0), checked.stdout + checked.stderr
    found = [f for f in json.loads(checked.stdout)[0]["findings"] if f["severity"] != "info"]
    assert [(f["severity"], f["rule"], f["location"]) for f in found] == [
        (severity, rule, "tiny-cards.pdf (63.5 x 88.9 mm cards on letter)")]
    built = subprocess.run([sys.executable, "-m", "pnp", "build", str(nine), "-o", str(out), "--no-contact-sheets",
                            *args], capture_output=True, text=True, env=dict(os.environ, COLUMNS="300"))
    assert f"{severity}  {rule}" in built.stdout and found[0]["location"] in built.stdout
    assert found[0]["message"] in built.stdout.replace("\n", " ")
    # an error writes nothing; a warning writes, unless --strict
    assert built.returncode == (1 if severity == "error" else 0)
    assert (out / "tiny" / "tiny-cards.pdf").exists() == (severity != "error")


def card_boxes(path: Path, index: int) -> list[tuple[tuple[float, float], tuple[float, float, float, float]]]:
    """(trim left-bottom, art box) of each card on page ``index``: trims from the cards' markers,
    art boxes from the clip rectangles the PDF draws each card's art through."""
    page = open_pdf(path).pages[index]
    found = trims(page, back=False, card_h=POKER.height)
    with pikepdf.open(path) as doc:
        boxes = art_boxes(doc, index)
    out = []
    for t in found:
        box = [b for b in boxes if b[0] <= t.x + 1 and b[1] <= t.y + 1 and b[2] >= t.x + POKER.width - 1
               and b[3] >= t.y + POKER.height - 1]
        assert len(box) == 1
        out.append(((t.x, t.y), box[0]))
    return out


def test_a_gap_without_room_for_the_outer_bleed_gives_up_a_column(nine, tmp_path):
    # 6.35 mm gaps give every card 3.175 mm of bleed between cards, but leave 1.35 mm beside 3
    # columns on Letter: the sheets hold 2 columns, centred, with the full bleed on every edge
    gap = 6.35 * MM
    findings = build_findings(nine, tmp_path, paper="letter", gap=gap)
    path = tmp_path / "tiny-cards.pdf"
    warned = [f for f in findings if f.severity != "info"]
    assert [(f.severity, f.rule, f.location, f.field) for f in warned] == [
        ("warning", "sheet.gap-bleed", "tiny-cards.pdf (63.5 x 88.9 mm cards on letter)", "--gap")]
    assert warned[0].message == (
        "--gap 6.35 mm leaves 1.35 mm beside 3 columns of cards, no room for the 3.18 mm of bleed it gives each "
        "card and a crop mark at the left and right edges: the sheets hold 2 columns instead, 4 cards a sheet "
        "instead of 6, so that every card keeps its bleed on every edge")
    assert "3 columns with a --gap of 4.46 mm or less" in warned[0].hint
    cards = card_boxes(path, 2)
    assert len(cards) == 4
    left = (215.9 - 2 * 63.5 - 6.35) / 2
    bottom = (279.4 - 2 * 88.9 - 6.35) / 2
    for i, ((x, y), box) in enumerate(cards):
        row, col = divmod(i, 2)
        assert x == pytest.approx((left + col * (63.5 + 6.35)) * MM, abs=TOL)
        assert y == pytest.approx((bottom + (1 - row) * (88.9 + 6.35)) * MM, abs=TOL)
        # the art runs 1/8 in past the trim on every side, the outer edges too
        assert [x - box[0], y - box[1], box[2] - x - POKER.width, box[3] - y - POKER.height] == \
            pytest.approx([9.0] * 4, abs=TOL)
    # and the crop marks start beyond it, in the margin outside every card's art
    page = open_pdf(path).pages[2]
    marks = [ln for ln in page.lines if abs(ln["linewidth"] - MARK_WIDTH) < 0.01]
    assert marks
    for ln in marks:
        x0, x1, y0, y1 = ln["x0"], ln["x1"], page.height - ln["bottom"], page.height - ln["top"]
        assert x0 >= 5 * MM - TOL and y0 >= 5 * MM - TOL
        for _, box in cards:
            assert x1 <= box[0] + TOL or x0 >= box[2] - TOL or y1 <= box[1] + TOL or y0 >= box[3] - TOL


def test_a_gap_the_grid_has_room_for_keeps_its_bleed_on_the_outer_edges(nine, tmp_path):
    # 4.4 mm gaps leave 3.3 mm beside 3 columns on Letter: room for the 2.2 mm of bleed they give
    # each card and a 0.6 mm crop mark, so the grid stays 3 columns wide with that bleed outside
    gap = 4.4 * MM
    findings = build_findings(nine, tmp_path, paper="letter", gap=gap)
    assert [f for f in findings if f.severity != "info"] == []
    path = tmp_path / "tiny-cards.pdf"
    cards = card_boxes(path, 2)
    assert len(cards) == 6  # 3 columns, 2 rows
    for i, ((x, y), box) in enumerate(cards):
        col = i % 3
        assert x == pytest.approx(((215.9 - 3 * 63.5 - 2 * 4.4) / 2 + col * (63.5 + 4.4)) * MM, abs=TOL)
        assert x - box[0] == pytest.approx(2.2 * MM, abs=TOL)
        assert box[2] - x - POKER.width == pytest.approx(2.2 * MM, abs=TOL)
    page = open_pdf(path).pages[2]
    side = [ln for ln in page.lines if abs(ln["linewidth"] - MARK_WIDTH) < 0.01 and ln["x1"] <= 10 * MM
            and abs(ln["top"] - ln["bottom"]) < 0.01]  # the marks of the horizontal cuts, left of the grid
    assert side and all(ln["x0"] == pytest.approx(5 * MM, abs=TOL) and
                        ln["x1"] - ln["x0"] == pytest.approx(0.6 * MM, abs=TOL) for ln in side)


def test_gutter_fold(nine, tmp_path):
    pdf = open_pdf(build(nine, tmp_path, paper="letter", gutter_fold=True))
    page = pdf.pages[1]
    assert page.width > page.height  # landscape Letter holds 4 poker cards per fold sheet
    fold_y = page.height / 2
    front = trims(page, back=False, card_h=POKER.height)
    assert len(front) == 4
    for f in front:
        assert f.y - fold_y >= 5 * MM  # every bleed edge >= 5 mm from the fold (check 18)
    dashed = [ln for ln in page.lines if abs(page.height - ln["top"] - fold_y) < 0.01]
    assert dashed, "the fold line is drawn at the sheet centre"
    fold = fit_fold(PAPER_SIZES["letter"].landscape, POKER)
    for col in range(4):
        x, y, w, h = fold.back_trim(col)
        fx, fy, _, _ = fold.front_trim(col)
        assert x == pytest.approx(fx) and (y + h + fy) / 2 == pytest.approx(fold_y)


def test_viewer_preferences_metadata_and_calibration(nine, tmp_path):
    path = build(nine, tmp_path, paper="a4", flip="short")
    with pikepdf.open(path) as pdf:
        prefs = pdf.Root.ViewerPreferences
        assert prefs.PrintScaling == pikepdf.Name("/None")
        assert prefs.Duplex == pikepdf.Name("/DuplexFlipShortEdge")
        assert pdf.check_pdf_syntax() == []  # qpdf's structural check finds nothing
        for page in pdf.pages:  # and every content stream parses
            assert pikepdf.parse_content_stream(page)
        assert str(pdf.docinfo["/Title"]) == "Tiny Test Game - cards"
    page = open_pdf(path).pages[0]
    black = [r for r in page.rects if tuple(r["non_stroking_color"]) == (0, 0, 0)]
    assert any(abs(r["width"] - 50 * MM) < 0.1 * MM for r in black)  # the 50 mm bar
    assert any(abs(r["width"] - 72) < 0.1 * MM and abs(r["height"] - 72) < 0.1 * MM for r in black)
    assert "Print at 100 % / Actual size" in page.extract_text()


def test_fonts_embedded_and_no_standard_fonts(nine, tmp_path):
    reader = PdfReader(build(nine, tmp_path, paper="letter"))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None:  # composite fonts keep the descriptor on the descendant
                desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            desc = desc.get_object()
            assert "/FontFile2" in desc, font["/BaseFont"]
            names.add(str(font["/BaseFont"]))
    assert names and all("+" in n for n in names)  # subset fonts carry a tag
    assert not any(n.lstrip("/").startswith(("Helvetica", "Times", "Courier")) for n in names)


def test_same_input_same_bytes(nine, tmp_path):
    a = build(nine, tmp_path / "a", paper="letter").read_bytes()
    b = build(nine, tmp_path / "b", paper="letter").read_bytes()
    assert a == b
    env = dict(os.environ, PYTHONHASHSEED="123")
    subprocess.run([sys.executable, "-m", "pnp", "build", str(nine), "-o", str(tmp_path / "c"),
                    "--no-contact-sheets", "--force"], check=True, env=env, capture_output=True)
    assert hashlib.sha256((tmp_path / "c" / "tiny" / "tiny-cards.pdf").read_bytes()).hexdigest() == \
        hashlib.sha256(a).hexdigest()


def test_no_ink_within_the_margin(nine, tmp_path):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(build(nine, tmp_path, paper="letter"))
    dpi = 150
    band = int(5 * dpi / 25.4) - 1
    for i in range(len(pdf)):
        image = pdf[i].render(scale=dpi / 72).to_pil().convert("L")
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert image.crop(box).getextrema()[0] >= 250, (i, box)


def test_grid_fit_is_three_by_three_for_poker():
    for paper in ("letter", "a4"):
        grid = fit_grid(PAPER_SIZES[paper], POKER)
        assert (grid.cols, grid.rows) == (3, 3)
    eu = fit_grid(PAPER_SIZES["a4"], CARD_SIZES["eu-poker"])
    assert to_mm(eu.origin_x) == pytest.approx((210 - 189) / 2)


def test_copies_and_a_shared_back_are_stored_once(tiny, tmp_path):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,18\n")
    path = build(tiny, tmp_path, paper="letter")
    reader = PdfReader(path)
    forms = set()
    for page in reader.pages[2:]:
        for name, x in page["/Resources"].get("/XObject", {}).items():
            if x.get_object()["/Subtype"] == "/Form":
                forms.add(x.idnum)
    assert len(forms) == 2  # one face, one back, for 18 cards on 2 sheets
    fronts = [trims(open_pdf(path).pages[i], back=False, card_h=POKER.height) for i in (2, 4)]
    assert [len(f) for f in fronts] == [9, 9]
