"""Print-and-cut (``--cut PROFILE``), measured in the real files: every cut path of a sheet's SVG
and DXF lies on the trim its piece was printed at (read from the PDF: the tiny game's marker
rectangles, tests/sheetgeom.py), within 0.1 mm, and the registration marks sit where the
profile's TOML says (read with tomllib, not through pnp)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import ezdxf
import pikepdf
import pytest

from pnp.core.units import CARD_SIZES, MM, PAPER_SIZES
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import BuildSettings, OutputJob, SheetOptions, write_result
from pnp.outputs.cut import render_cut
from pnp.outputs.cut.profile import PROFILES

from cutoverlay import overlay, parse_path, svg_paths
from sheetgeom import art_boxes, open_pdf

TOL = 0.1  # mm
POKER = CARD_SIZES["poker"]
RADIUS = 0.125 * 25.4  # the default --corner-radius, mm


def _build(game_dir: Path, out: Path, profile: str, paper: str = "letter", dry: bool = False):
    game = load_game(game_dir, "tiny")
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(paper=paper), cut=profile)
    result = render_cut(OutputJob(game, source, out, settings), dry)
    return result if dry else write_result(result)


@pytest.fixture
def five(tiny: Path) -> Path:
    """Five poker cards (the tiny game's 20 mm coins come after them)."""
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,3\nleaf,Leaf,1,green,,2\n")
    return tiny


def _printed_trims(page, paper_h):
    """Per card printed on a pdfplumber page, its trim (left, top, right, bottom, mm from the
    top-left) if upright and if turned a quarter counter-clockwise, from its marker (1 x 1 mm,
    2 mm from the trim's left edge and 3 mm below its top, tests/sheetgeom.py)."""
    out = []
    for r in page.rects:
        colour = tuple(round(v, 4) for v in (r.get("non_stroking_color") or ()))
        if abs(r["width"] - MM) > 0.01 or abs(r["height"] - MM) > 0.01 or colour != (0, 0, 0):
            continue
        left, top = r["x0"] / MM - 2, r["top"] / MM - 3  # upright: mm from the sheet's top-left
        upright = (left, top, left + POKER.width / MM, top + POKER.height / MM)
        x, bottom = r["x0"] / MM - 3, r["bottom"] / MM + 2  # turned: the card's left edge is the slot's bottom
        turned = (x, bottom - POKER.width / MM, x + POKER.height / MM, bottom)
        out.append((upright, turned))
    return out


def _bbox(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _close(a, b, tol=TOL):
    return all(abs(u - v) <= tol for u, v in zip(a, b))


@pytest.mark.parametrize("profile, paper", [("silhouette", "letter"), ("silhouette", "a4"), ("cricut", "letter"),
                                            ("generic", "a4")])
def test_cut_paths_lie_on_the_printed_trims(five, tmp_path, profile, paper):
    _check_sheet(five, tmp_path, profile, paper)


def test_cards_turn_a_quarter_when_that_takes_fewer_sheets(five, tmp_path):
    manifest = five / "game.toml"  # cards alone: five turned fit one A4 sheet, upright only four
    manifest.write_text(manifest.read_text().replace("copies = 10\n", "copies = 0\n"))
    printed = _check_sheet(five, tmp_path, "silhouette", "a4")
    assert len(printed) == 5 and all(t[2] - t[0] > t[3] - t[1] for t in printed)
    assert not (tmp_path / "cut" / "tiny-cut-silhouette-02.svg").exists()


def _check_sheet(five, tmp_path, profile, paper):
    """Build ``profile`` on ``paper`` and hold sheet 1's cut paths (SVG and DXF) to the trims
    printed on it; returns those trims (mm from the top-left)."""
    result = _build(five, tmp_path, profile, paper)
    assert [f for f in result.findings if f.severity == "error"] == []
    folder = tmp_path / "cut"
    pdf = open_pdf(folder / f"tiny-cut-{profile}.pdf")
    paper_h = PAPER_SIZES[paper].height
    page = pdf.pages[1]  # page 0 is the cover
    candidates = _printed_trims(page, paper_h)
    assert candidates, "no card found on the first sheet"
    svg = svg_paths(folder / f"tiny-cut-{profile}-01.svg")
    root = (folder / f"tiny-cut-{profile}-01.svg").read_text()
    assert f'viewBox="0 0 {PAPER_SIZES[paper].width / MM:.4f}'.rstrip("0") in root or "viewBox=\"0 0 " in root
    assert 'width="%smm"' % f"{PAPER_SIZES[paper].width / MM:.4f}".rstrip("0").rstrip(".") in root
    from svglib.svglib import svg2rlg  # an independent SVG reader takes the file at its size in mm

    drawing = svg2rlg(str(folder / f"tiny-cut-{profile}-01.svg"))
    assert (drawing.width / MM, drawing.height / MM) == pytest.approx(
        (PAPER_SIZES[paper].width / MM, PAPER_SIZES[paper].height / MM), abs=0.01)
    shapes = [parse_path(d) for d in svg["cut"]]
    rects = [(_bbox(points), arcs) for points, arcs in shapes if len(arcs) == 4]
    circles = [(points, arcs) for points, arcs in shapes if len(arcs) == 2]
    assert len(rects) == len(candidates)
    printed = []  # each card's trim as printed: upright or turned, whichever a cut path lies on
    for pair in candidates:
        on = [trim for trim in pair if any(_close(box, trim) for box, _ in rects)]
        assert len(on) == 1, pair
        printed += on
    turned = sum(1 for trim in printed if trim[2] - trim[0] > trim[3] - trim[1])
    assert turned in (0, len(printed))  # a sheet's cards all one way
    for trim in printed:  # each printed card has exactly one cut path on its trim, corners true arcs
        match = [(box, arcs) for box, arcs in rects if _close(box, trim)]
        assert len(match) == 1, trim
        for cx, cy, r in match[0][1]:
            assert r == pytest.approx(RADIUS, abs=1e-3)
            assert min(abs(cx - trim[0]), abs(cx - trim[2])) == pytest.approx(RADIUS, abs=TOL)
            assert min(abs(cy - trim[1]), abs(cy - trim[3])) == pytest.approx(RADIUS, abs=TOL)
    for points, arcs in circles:  # the coins: 20 mm circles
        assert arcs[0][2] == pytest.approx(10.0, abs=1e-3)
    # the DXF holds the same cuts, y up from the bottom edge, in mm
    doc = ezdxf.readfile(folder / f"tiny-cut-{profile}-01.dxf")
    assert doc.units == ezdxf.units.MM
    polylines = [e for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == "CUT"]
    assert len(polylines) == len(printed)
    for line in polylines:
        pts = list(line.get_points("xyb"))
        assert sum(1 for *_, b in pts if abs(b - math.tan(math.pi / 8)) < 1e-9) == 4  # four 90° arcs
        left, bottom, right, top = _bbox([(x, y) for x, y, _ in pts])
        box = (left, paper_h / MM - top, right, paper_h / MM - bottom)
        assert any(_close(box, trim) for trim in printed)
    dxf_circles = [e for e in doc.modelspace() if e.dxftype() == "CIRCLE"]
    assert len(dxf_circles) == len(circles)
    return printed


@pytest.mark.parametrize("profile, paper", [("silhouette", "letter"), ("silhouette", "a4"), ("generic", "letter"),
                                            ("cricut", "a4")])
def test_registration_marks_sit_at_the_profiles_positions(five, tmp_path, profile, paper):
    _build(five, tmp_path, profile, paper)
    spec = tomllib.loads((PROFILES / f"{profile}.toml").read_text())
    marks = spec["paper"][paper]["marks"]
    page = open_pdf(tmp_path / "cut" / f"tiny-cut-{profile}.pdf").pages[1]
    squares = [(r["x0"] / MM, r["top"] / MM, r["width"] / MM) for r in page.rects
               if r.get("fill") and tuple(r.get("non_stroking_color") or ()) in ((0, 0, 0), (0,), [0, 0, 0])
               and abs(r["width"] - r["height"]) < 0.01 and abs(r["width"] / MM - spec.get("square", 5)) < 0.01]
    lines = [line for line in page.lines if abs(line["linewidth"] / MM - spec.get("line_width", 0.3)) < 1e-3]
    for mark in marks:
        if mark["kind"] == "square":
            assert any(_close((x, y), (mark["x"], mark["y"]), 0.05) and w == pytest.approx(spec["square"], abs=0.05)
                       for x, y, w in squares), mark
        else:  # an L: two strokes corner_mark long from the mark's point
            ends = [((ln["x0"] / MM, ln["top"] / MM), (ln["x1"] / MM, ln["bottom"] / MM)) for ln in lines]
            at = [e for e in ends if _close(e[0], (mark["x"], mark["y"]), 0.05) or _close(e[1], (mark["x"], mark["y"]), 0.05)]
            assert len(at) == 2, mark
            for (x0, y0), (x1, y1) in at:
                assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(spec["corner_mark"], abs=0.05)
    assert len(squares) == sum(1 for m in marks if m["kind"] == "square")
    if not marks:  # Cricut: Design Space prints its own frame, the sheet none
        assert squares == [] and lines == []
    # every piece's art (the clip of its trim and bleed) stays inside the registration area
    area = spec["paper"][paper]["area"]
    paper_h = PAPER_SIZES[paper].height
    doc = pikepdf.open(tmp_path / "cut" / f"tiny-cut-{profile}.pdf")
    clips = [box for index in range(1, len(doc.pages)) for box in art_boxes(doc, index)]
    assert len(clips) >= 5  # the five cards at least, on every sheet
    for x0, y0, x1, y1 in clips:
        assert x0 / MM >= area["left"] - 0.05 and (paper_h - y1) / MM >= area["top"] - 0.05
        assert x1 / MM <= area["left"] + area["width"] + 0.05
        assert (paper_h - y0) / MM <= area["top"] + area["height"] + 0.05


def test_a_shorter_run_removes_the_cut_files_of_sheets_it_no_longer_makes(five, tmp_path):
    stale = tmp_path / "cut" / "tiny-cut-silhouette-09.svg"
    stale.parent.mkdir(parents=True)
    stale.write_text("<svg/>")
    _build(five, tmp_path, "silhouette")
    assert not stale.exists() and (tmp_path / "cut" / "tiny-cut-silhouette-01.svg").exists()


def test_a_piece_larger_than_the_area_is_the_same_finding_in_check_and_build(tiny, tmp_path):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text().replace('card_size = "poker"', 'card_size = "190mm x 100mm"'))
    found = [f for f in _build(tiny, tmp_path, "silhouette", "a4", dry=True).findings if f.rule == "cut.fit"]
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].file.endswith("game.toml") and found[0].line == 12
    assert "registration area on a4 paper (190.00 x 277.00 mm)" in found[0].message
    cli = subprocess.run([sys.executable, "-m", "pnp", "check", str(tiny), "--cut", "silhouette", "--paper", "a4",
                          "--format", "json", "-o", str(tmp_path / "out")], capture_output=True, text=True)
    reported = [f for f in json.loads(cli.stdout)[0]["findings"] if f["rule"] == "cut.fit"]
    assert cli.returncode == 1
    assert [(f["line"], f["message"]) for f in reported] == [(found[0].line, found[0].message)]
    build = subprocess.run([sys.executable, "-m", "pnp", "build", str(tiny), "--cut", "silhouette", "--paper", "a4",
                            "-o", str(tmp_path / "out"), "-q"], capture_output=True, text=True)
    assert build.returncode == 1 and "cut.fit" in build.stdout
    assert not (tmp_path / "out" / "cut").exists()


def test_the_same_sheet_gives_the_same_bytes(five, tmp_path):
    one = _build(five, tmp_path / "a", "silhouette", dry=True)
    two = _build(five, tmp_path / "a", "silhouette", dry=True)
    assert [d for _, d in one.outputs] == [d for _, d in two.outputs]


def test_an_overlay_of_the_cut_file_on_the_sheet_renders(five, tmp_path):
    _build(five, tmp_path, "silhouette")
    out = tmp_path / "overlay.png"
    overlay(tmp_path / "cut" / "tiny-cut-silhouette.pdf", 1, tmp_path / "cut" / "tiny-cut-silhouette-01.svg", out)
    from PIL import Image

    image = Image.open(out).convert("RGB")
    assert image.size == (2550, 3300) or image.size == (2550, 3301)
    assert (255, 0, 255) in {image.getpixel((x, y)) for x in range(0, 2550, 3) for y in range(300, 1500, 3)}


def test_hexagon_tokens_are_cut_as_regular_hexagons_in_both_files(five, tmp_path):
    manifest = five / "game.toml"
    manifest.write_text(manifest.read_text().replace('shape = "circle"', 'shape = "hexagon"'))
    result = _build(five, tmp_path, "silhouette", "a4")
    assert [f for f in result.findings if f.severity == "error"] == []
    hexagons = []
    for path in sorted((tmp_path / "cut").glob("*.svg")):
        for d in svg_paths(path)["cut"]:
            points, arcs = parse_path(d)
            if not arcs:
                hexagons.append(points[:-1])
    assert len(hexagons) == 10  # the tiny game's ten coins
    for points in hexagons:
        assert len(points) == 6
        cx, cy = sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6
        assert all(math.hypot(x - cx, y - cy) == pytest.approx(20 / math.sqrt(3), abs=1e-3) for x, y in points)
        assert max(p[0] for p in points) - min(p[0] for p in points) == pytest.approx(20.0, abs=1e-3)  # across flats
    dxf = [e for path in sorted((tmp_path / "cut").glob("*.dxf")) for e in ezdxf.readfile(path).modelspace()
           if e.dxftype() == "LWPOLYLINE" and len(e) == 6]
    assert len(dxf) == 10 and all(e.closed for e in dxf)


def _printed_lines(page, grey):
    """The straight strokes of one grey on a pdfplumber page, as (x1, y1, x2, y2) in mm from
    the top-left corner, y down (as the SVG)."""
    out = []
    for line in page.lines:
        colour = line.get("stroking_color") or ()
        if len(colour) == 3 and all(abs(v - grey) < 0.002 for v in colour):
            (x1, y1), (x2, y2) = line["pts"][0], line["pts"][-1]
            out.append((x1 / MM, y1 / MM, x2 / MM, y2 / MM))
    return out


def _on_a_line(seg, lines, tol=TOL):
    """Whether segment ``seg`` is one of ``lines`` (either way round), to ``tol`` mm."""
    x1, y1, x2, y2 = seg
    return any(_close((x1, y1, x2, y2), line, tol) or _close((x2, y2, x1, y1), line, tol) for line in lines)


def test_die_nets_are_cut_on_their_printed_outline_and_folded_on_their_folds(five, tmp_path):
    from pnp.render.canvas import CUT_GRAY, FOLD_GRAY

    manifest = five / "game.toml"
    manifest.write_text(manifest.read_text().replace("copies = 10\n", "copies = 0\n")
                        + '\n[components.die]\nkind = "die"\nname = "Score die"\nsize = "18mm"\ncopies = 2\n')
    result = _build(five, tmp_path, "silhouette")
    assert [f for f in result.findings if f.severity == "error"] == []
    folder = tmp_path / "cut"
    pdf = open_pdf(folder / "tiny-cut-silhouette.pdf")
    nets = []
    for number in range(1, len(pdf.pages)):
        svg = folder / f"tiny-cut-silhouette-{number:02d}.svg"
        titled = _titles(svg)
        dies = [d for d, title in titled if title.startswith("die/")]
        if not dies:
            continue
        page = pdf.pages[number]
        printed_cut, printed_fold = _printed_lines(page, CUT_GRAY), _printed_lines(page, FOLD_GRAY)
        folds = [parse_path(d)[0] for d in svg_paths(svg)["fold"]]
        assert len(folds) == 12 * len(dies)  # per net: 5 edges between faces and 7 tab edges
        for points in folds:
            assert _on_a_line((*points[0], *points[1]), printed_fold)
        for d in dies:
            points, arcs = parse_path(d)
            assert not arcs and points[0] == points[-1]
            segments = list(zip(points, points[1:]))
            # every side of the outline lies along printed cut lines: its ends and middle on one
            for (ax, ay), (bx, by) in segments:
                for t in (0.0, 0.5, 1.0):
                    px, py = ax + (bx - ax) * t, ay + (by - ay) * t
                    assert any(_point_on(px, py, line) for line in printed_cut), (px, py)
            box = _bbox(points)
            edge = 18.0
            tab = min(6.0, edge * 0.3)
            assert box[2] - box[0] == pytest.approx(3 * edge + 2 * tab, abs=TOL)
            assert box[3] - box[1] == pytest.approx(4 * edge + tab, abs=TOL)
            nets.append(box)
        # the DXF holds each net as one closed polyline on CUT and its folds on FOLD
        doc = ezdxf.readfile(svg.with_suffix(".dxf"))
        polylines = [e for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE" and len(e) > 8]
        assert len(polylines) == len(dies) and all(e.closed and e.dxf.layer == "CUT" for e in polylines)
        assert sum(1 for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer == "FOLD") == 12 * len(dies)
    assert len(nets) == 2


def _point_on(px, py, line, tol=TOL):
    x1, y1, x2, y2 = line
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy or 1e-12
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length2))
    return math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)) <= tol


def _titles(svg):
    """(path data, title) of each path on the cut layer of an SVG file."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(svg).getroot()
    layer = next(g for g in root.iter(f"{ns}g") if g.get("id") == "cut")
    return [(p.get("d"), p.findtext(f"{ns}title") or "") for p in layer.iter(f"{ns}path")]


def test_a_misspelt_cutter_profile_suggests_the_closest():
    from pnp.core.errors import BuildError
    from pnp.outputs.cut.profile import load_profile

    with pytest.raises(BuildError) as info:
        load_profile("silhuette")
    assert info.value.rule == "cut.profile" and info.value.message == "no cutter profile 'silhuette'"
    assert info.value.hint.startswith("did you mean 'silhouette'? --cut cricut, generic, silhouette")


BAD_PROFILE = """title = "Bad"
bleed = -1.0
sqare = 5.0
corner_mark = "20"

[paper.letter]
marks = [
  { kind = "square", x = 10.0, y = 10.0 },
  { kind = "corner", x = 300.0, y = 10.0, toward = "left-down" },
]
area = { left = 10.0, top = 10.0, width = 0, height = 259.4 }
keepouts = [
  { left = 10.0, top = 10.0, width = 8.0, height = -8.0 },
]
"""


def test_a_malformed_cutter_profile_reports_every_problem_at_its_line(tmp_path):
    from pnp.outputs.cut.profile import CutterProfileErrors, load_profile

    path = tmp_path / "bad.toml"
    path.write_text(BAD_PROFILE)
    with pytest.raises(CutterProfileErrors) as info:
        load_profile(str(path))
    said = [(e.rule, e.location.line, e.location.column_name, e.message) for e in info.value.errors]
    assert said == [
        ("cut.profile", 2, "bleed", "bleed must be more than 0 mm, not -1.0"),
        ("cut.profile", 3, "sqare", "unknown key 'sqare' in a cutter profile"),
        ("cut.profile", 4, "corner_mark", 'corner_mark must be a number of mm, not "20"'),
        ("cut.profile", 9, "paper.letter.marks[1].x", "x 300.0 mm is off the paper, which is 215.9 mm wide"),
        ("cut.profile", 11, "paper.letter.area.width", "width must be more than 0 mm, not 0"),
        ("cut.profile", 13, "paper.letter.keepouts[0].height", "height must be more than 0 mm, not -8.0"),
    ]
    assert info.value.errors[1].hint == ("did you mean 'square'? keys: bleed, corner_mark, line_width, paper, "
                                         "square, title")
    assert all(str(e.location.file) == str(path) for e in info.value.errors)


def test_a_malformed_cutter_profile_is_the_same_findings_in_check_and_build(tiny, tmp_path):
    from pnp.pipeline.build import BuildJob, run_game

    path = tmp_path / "bad.toml"
    path.write_text(BAD_PROFILE)
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False), cut=str(path))
    dry = run_game(BuildJob(source, tmp_path / "out", settings, write=False))
    built = run_game(BuildJob(source, tmp_path / "out", settings, write=True))
    lines = [(f.rule, f.line, f.field) for f in dry.findings if f.severity == "error"]
    assert lines == [(f.rule, f.line, f.field) for f in built.findings if f.severity == "error"]
    assert [line for _, line, _ in lines] == [2, 3, 4, 9, 11, 13]
    assert not (tmp_path / "out" / "cut").exists()


def test_a_changed_cutter_profile_makes_the_cut_sheets_again(five, tmp_path):
    from pnp.pipeline.build import BuildJob, run_game

    path = tmp_path / "mine.toml"
    path.write_text((PROFILES / "generic.toml").read_text())
    source = GameSource(five, "tiny", five / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False), cut=str(path), outputs=("cut",))
    assert "cut-mine" in run_game(BuildJob(source, tmp_path / "out", settings)).ran
    assert "cut-mine" in run_game(BuildJob(source, tmp_path / "out", settings)).kept  # nothing changed
    path.write_text(path.read_text().replace("bleed = 1.0", "bleed = 1.5"))
    assert "cut-mine" in run_game(BuildJob(source, tmp_path / "out", settings)).ran


PAPER = '[paper.letter]\nmarks = []\narea = { left = 10, top = 10, width = 100, height = 100 }\nkeepouts = []\n'


@pytest.mark.parametrize("text, key, message", [
    (PAPER.replace("marks = []", "marks = [{ x = 1, y = 1 }]"), "paper.letter.marks[0].kind",
     "a mark needs kind: 'square' or 'corner'"),
    (PAPER.replace("marks = []", 'marks = [{ kind = "corner", x = 1, y = 1, toward = "down" }]'),
     "paper.letter.marks[0].toward", "toward must be where a corner mark's arms point, not \"down\""),
    (PAPER.replace("keepouts = []", "keepouts = { left = 1 }"), "paper.letter.keepouts",
     "keepouts must be a list [...] of tables, not { left = 1 }"),
    (PAPER.replace("[paper.letter]", "[paper.leter]"), "paper.leter", "unknown paper 'leter' in [paper.leter]"),
    (PAPER.replace("width = 100", "width = 300"), "paper.letter.area",
     "the rectangle paper.letter.area runs off the paper: its right edge is 310 mm and its bottom edge 110 mm "
     "from the top-left corner, on a sheet 215.9 x 279.4 mm"),
    ("square = true\n" + PAPER, "square", "square must be a number of mm, not true"),
    ("line_width = 0\n" + PAPER, "line_width", "line_width must be more than 0 mm, not 0"),
])
def test_each_kind_of_profile_problem_is_said_at_its_key(tmp_path, text, key, message):
    from pnp.outputs.cut.profile import CutterProfileErrors, load_profile

    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(CutterProfileErrors) as info:
        load_profile(str(path))
    assert [(e.location.column_name, e.message) for e in info.value.errors] == [(key, message)]


def test_a_dxf_cut_file_is_the_same_bytes_whatever_the_string_hashing():
    # ezdxf lists the entity types in use from a set; Python seeds its string hashing afresh in
    # every process unless PYTHONHASHSEED says otherwise, so the test runs one process a seed
    script = ("import hashlib; from pnp.outputs.cut.files import Outline, write_dxf; print(hashlib.sha256(write_dxf(["
              "Outline('a', 'rect', 10, 10, 180, 252, 9, folds=((10, 136, 190, 136),)), "
              "Outline('b', 'circle', 300, 100, radius=40), "
              "Outline('c', 'polygon', 0, 0, points=((0, 0), (50, 0), (25, 40)))])).hexdigest())")
    digests = set()
    for seed in ("0", "4", "7", "10"):  # seeds that listed them in two orders
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1, digests
