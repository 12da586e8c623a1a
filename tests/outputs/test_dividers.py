"""Card dividers (``--boxes``), measured on the printed sheet: each divider's cut outline, read
from the PDF's grey cut lines, is the card (or the sleeve) with a tab above it, the tabs
staggered across the width; the deck's name is printed inside its tab; the SVG holds the same
outlines."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.units import MM
from pnp.geometry.dividers import MIN_TAB_WIDTH, TAB_HEIGHT
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import BuildSettings, OutputJob, SheetOptions, write_result
from pnp.outputs.dividers import render_dividers
from pnp.render.canvas import CUT_GRAY

from cutoverlay import parse_path, svg_paths
from sheetgeom import open_pdf
from test_boxes import _add_deck

TOL = 0.05  # mm
TAB = TAB_HEIGHT / MM


def _build(game_dir: Path, out: Path, **settings):
    game = load_game(game_dir, "tiny")
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    job = OutputJob(game, source, out, BuildSettings(SheetOptions(), boxes=True, **settings))
    return write_result(render_dividers(job, False))


def _outlines(page):
    """Each divider's (left, bottom, right, top of its body, tab left, tab right, tab top) in mm, PDF y
    up, from the printed grey cut lines: the lines joined end to end into one outline per
    divider; its highest horizontal line is the tab's top, the next highest the body's top."""
    lines = []
    for line in page.lines:
        colour = line.get("stroking_color") or ()
        if len(colour) == 3 and all(abs(v - CUT_GRAY) < 0.002 for v in colour):
            (x1, y1), (x2, y2) = line["pts"][0], line["pts"][-1]
            lines.append((x1 / MM, (page.height - y1) / MM, x2 / MM, (page.height - y2) / MM))
    groups: list[list] = []
    for line in lines:  # join lines sharing an end
        ends = {(round(line[0], 3), round(line[1], 3)), (round(line[2], 3), round(line[3], 3))}
        touching = [g for g in groups if ends & g[0]]
        merged = [ends, [line]]
        for g in touching:
            merged[0] |= g[0]
            merged[1] += g[1]
            groups.remove(g)
        groups.append(merged)
    out = []
    for _, group in groups:
        xs = [x for ln in group for x in (ln[0], ln[2])]
        flat = sorted({round(ln[1], 3) for ln in group if abs(ln[1] - ln[3]) < 1e-6})
        tab = next(ln for ln in group if abs(ln[1] - ln[3]) < 1e-6 and abs(ln[1] - flat[-1]) < 1e-3)
        out.append((min(xs), flat[0], max(xs), flat[-2], min(tab[0], tab[2]), max(tab[0], tab[2]), flat[-1]))
    return sorted(out, key=lambda o: (-o[1], o[0]))


@pytest.fixture
def three(tiny: Path) -> Path:
    _add_deck(tiny, "more", "More cards")
    _add_deck(tiny, "extra", "Extra cards")
    return tiny


@pytest.mark.parametrize("sleeve", [None, (66.0, 91.0)])
def test_dividers_are_card_sized_with_staggered_tabs(three, tmp_path, sleeve):
    result = _build(three, tmp_path, sleeve_size=tuple(v * MM for v in sleeve) if sleeve else None)
    assert result.findings == [] and result.cards == 3 and result.sheets == 1
    w, h = sleeve or (63.5, 88.9)
    places = int(w // (MIN_TAB_WIDTH / MM))
    assert places == 3
    page = open_pdf(tmp_path / "tiny-dividers.pdf").pages[1]
    found = _outlines(page)
    assert len(found) == 3
    words = page.extract_words()
    for index, ((left, bottom, right, top, tab_left, tab_right, tab_top), name) in enumerate(
            zip(found, ["Action cards", "More cards", "Extra cards"])):
        assert right - left == pytest.approx(w, abs=TOL) and top - bottom == pytest.approx(h, abs=TOL)
        assert tab_right - tab_left == pytest.approx(w / places, abs=TOL)
        assert tab_top - top == pytest.approx(TAB, abs=TOL)
        assert tab_left - left == pytest.approx(index % places * w / places, abs=TOL)
        # the name on the tab: its letters inside the tab, above the body's top
        first = name.split()[0]
        on_tab = [wd for wd in words if wd["text"] == first and (page.height - wd["bottom"]) / MM > top]
        assert on_tab, name
        for wd in on_tab:
            assert tab_left - TOL <= wd["x0"] / MM and wd["x1"] / MM <= tab_right + TOL
            assert (page.height - wd["top"]) / MM <= top + TAB + TOL
    # the cut file: one closed outline per divider on the same lines
    svg = svg_paths(tmp_path / "dividers" / "tiny-dividers-01.svg")
    assert len(svg["cut"]) == 3
    for d, (left, bottom, right, top, _, _, tab_top) in zip(svg["cut"], found):
        points, _ = parse_path(d)
        xs = [x for x, _ in points]
        ys = [page.height / MM - y for _, y in points]
        assert min(xs) == pytest.approx(left, abs=TOL) and max(xs) == pytest.approx(right, abs=TOL)
        assert min(ys) == pytest.approx(bottom, abs=TOL) and max(ys) == pytest.approx(tab_top, abs=TOL)


def test_a_game_of_one_deck_gets_no_dividers(tiny, tmp_path):
    result = _build(tiny, tmp_path)
    assert result.outputs == [] and not (tmp_path / "tiny-dividers.pdf").exists()


def test_a_divider_larger_than_the_sheet_is_an_error_at_its_card_size(three, tmp_path):
    manifest = three / "game.toml"
    manifest.write_text(manifest.read_text().replace('card_size = "poker"', 'card_size = "210mm x 270mm"', 1))
    result = _build(three, tmp_path)
    assert [(f.rule, f.severity, f.line) for f in result.findings] == [("divider.fit", "error", 12)]
    assert "210.0 x 278.0 mm" in result.findings[0].message  # with its 8 mm tab


def test_a_long_deck_name_wraps_inside_its_divider(three, tmp_path):
    name = "The Extraordinarily Long-Winded Compendium of Action Cards for Everyone at the Table"
    manifest = three / "game.toml"
    manifest.write_text(manifest.read_text().replace('name = "Action cards"', f'name = "{name}"'))
    _build(three, tmp_path)
    page = open_pdf(tmp_path / "tiny-dividers.pdf").pages[1]
    bodies = _outlines(page)
    first = bodies[0]  # the long-named deck's divider comes first
    mine = [ch for ch in page.chars if first[0] <= ch["x0"] / MM <= first[2]
            and first[1] <= (page.height - ch["bottom"]) / MM <= first[3]]
    assert all(first[0] + 3 - TOL <= ch["x0"] / MM and ch["x1"] / MM <= first[2] - 3 + TOL for ch in mine)
    assert name.replace(" ", "") in "".join(ch["text"] for ch in mine).replace(" ", "")
    assert min(ch["bottom"] - ch["top"] for ch in mine) >= 6 - 1e-6  # never below 6 pt on the body
