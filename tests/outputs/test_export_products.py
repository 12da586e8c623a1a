"""The Game Crafter's boards and tokens (docs/export.md, "Boards and tokens"): each piece matched
to a product of the tgc profile, exported at the product's template size, listed in the
manifest; a piece no product takes is an ``export.no-product`` warning that ``pnp check -t tgc``
reports first, at the same place."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import FIXTURES
from pnp.core.units import INCH, MM, Size
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.export import export_game, load_profile, render_export
from pnp.outputs.export.products import match

BOARD = """

[layouts.track]
background = "#2E86C1"

[layouts.track.boxes.name]
type = "text"
text = "TRACK"
area = "safe"
size = 40
align = "center"
valign = "middle"

[layouts.aid]
background = "#27AE60"
"""

COMPONENTS = """
[components.track]
kind = "board"
name = "Score track"
size = "100mm x 100mm"
layout = "track"

[components.aid]
kind = "board"
name = "Player aid"
size = "240mm x 160mm"
layout = "aid"
"""


def tiny_with_boards(dest: Path) -> tuple[Path, GameSource]:
    shutil.copytree(FIXTURES / "tiny", dest)
    with open(dest / "templates" / "boards.toml", "a", encoding="utf-8") as fh:
        fh.write(BOARD)
    text = (dest / "game.toml").read_text(encoding="utf-8")
    (dest / "game.toml").write_text(text.replace("[[totals]]", COMPONENTS + "\n[[totals]]", 1), encoding="utf-8")
    return dest, GameSource(dest, "tiny", dest / "templates", "tiny/templates")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The tiny game with a 200 mm square board, a 240 x 160 mm board and 20 mm coins,
    exported once for The Game Crafter (and checked: a dry run)."""
    root = tmp_path_factory.mktemp("tgc")
    game_dir, source = tiny_with_boards(root / "tiny")
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, source)
    result = export_game(game, layouts, "tgc", root / "out", jobs=1, source=source)
    dry = render_export(game, layouts, "tgc", root / "dry", jobs=1, source=source, dry=True)
    folder = root / "out" / "export" / "tgc"
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return result, dry, folder, rows, doc, game_dir


def test_a_board_is_a_png_at_the_products_template_size(exported):
    _, _, folder, rows, _, _ = exported
    row = next(r for r in rows if r["deck"] == "track")
    # 100 mm fits the Small Square Board (4 in trim, 1275 x 1275 px template), the smallest it fits
    assert (row["product"], row["file"], row["copies"]) == ("Small Square Board", "track/track.png", "1")
    with Image.open(folder / row["file"]) as im:
        assert im.size == (1275, 1275)
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        px = np.asarray(im.convert("RGB"))
    blue = np.all(px == (0x2E, 0x86, 0xC1), axis=2)
    # the board's own art fills the template to its edges (its bleed, scaled with it) ...
    assert blue[:4].all() and blue[-4:].all() and blue[:, :4].all() and blue[:, -4:].all()
    # ... and its TRACK text sits centred: the ink's middle is the template's to a pixel or two
    ys, xs = np.nonzero(~blue)
    assert xs.mean() == pytest.approx(637, abs=3) and ys.mean() == pytest.approx(637, abs=6)
    assert (row["width_px"], row["height_px"], row["size"]) == ("1275", "1275", "101.6 x 101.6 mm")


def test_tokens_are_pngs_of_their_chit_with_the_copy_count(exported):
    _, _, folder, rows, doc, _ = exported
    coin = [r for r in rows if r["deck"] == "tokens"]
    # a 20 mm coin fits the Medium Circle Chit (0.75 in = 19.05 mm trim, 300 x 300 px)
    assert [(r["side"], r["product"], r["copies"], r["width_px"]) for r in coin] == [
        ("face", "Medium Circle Chit", "10", "300")]
    with Image.open(folder / coin[0]["file"]) as im:
        assert im.size == (300, 300)
        assert im.getpixel((150, 20))[:3] == (0xF1, 0xC4, 0x0F)
    listed = {f["file"]: f for f in doc["files"]}
    assert listed[coin[0]["file"]]["width_px"] == 300
    assert "product" in doc["entries"][0]


def test_a_board_with_no_product_is_a_warning_at_its_size_key_found_by_check_first(exported):
    result, dry, _, rows, doc, game_dir = exported
    assert not [r for r in rows if r["deck"] == "aid"]
    found = [f for f in result.findings if f.rule == "export.no-product"]
    assert len(found) == 1
    f = found[0]
    assert (f.severity, f.field, f.component) == ("warning", "components.aid.size", "aid")
    assert f.file == "tiny/game.toml"
    assert (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()[f.line - 1] == 'size = "240mm x 160mm"'
    assert "240 x 160 mm" in f.message and "Half Board" in f.hint
    same = [g for g in dry.findings if g.rule == "export.no-product"]
    assert [(g.location, g.message, g.hint) for g in same] == [(f.location, f.message, f.hint)]
    assert any(g["rule"] == "export.no-product" for g in doc["findings"])


def test_matching_takes_the_smallest_product_within_the_stated_tolerance():
    p = load_profile("tgc")
    assert p.fit_tolerance == pytest.approx(2 * MM) and p.max_enlargement == 1.5

    def best(kind, shape, w, h):
        fit = match(p.products, kind, shape, Size(w * MM, h * MM), p.fit_tolerance, p.max_enlargement)
        return fit and (fit.product.name, fit.turned, round(fit.scale, 4))

    assert best("board", "rect", 500, 500) == ("Large Quad Fold Board", False, round(20 * INCH / (500 * MM), 4))
    assert best("board", "rect", 205, 205)[0] == "Square Board"       # 2 mm over 203.2 mm: still fits
    assert best("board", "rect", 206, 206)[0] == "Large Square Board"  # 2.8 mm over: the next one
    assert best("board", "rect", 457.2, 228.6) == ("Bi Fold Board", True, 1.0)  # landscape: turned
    assert best("board", "rect", 240, 160) is None                    # no 3:2 board within 1.5 x
    assert best("token", "circle", 15, 15) == ("Medium Circle Chit", False, round(19.05 / 15, 4))
    assert best("token", "square", 12, 12)[0] == "Small Square Chit"
    assert best("token", "circle", 100, 100) is None


def test_every_product_template_is_its_trim_plus_the_eighth_inch_bleed():
    p = load_profile("tgc")
    assert len([q for q in p.products.values() if q.kind == "board"]) == 15
    for q in p.products.values():
        bx, by = q.bleed()
        assert bx == pytest.approx(9.0) and by == pytest.approx(9.0), q.key


def test_a_game_sets_its_own_tolerance_and_enlargement_limit(tmp_path):
    game_dir, _ = tiny_with_boards(tmp_path / "tiny")
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[targets.tgc]\nfit_tolerance = "1mm"\nmax_enlargement = 1.2\n')
    p = load_profile("tgc", load_game(game_dir, "tiny"))
    assert (p.fit_tolerance, p.max_enlargement) == (pytest.approx(1 * MM), 1.2)
    assert len(p.products) == len(load_profile("tgc").products)
    # 15 mm circles need 1.27 x for the Medium Circle Chit: over 1.2, so no product now
    assert match(p.products, "token", "circle", Size(15 * MM, 15 * MM), p.fit_tolerance, p.max_enlargement) is None


def test_a_turned_board_page_has_the_products_trim_box_inside_the_template(tmp_path):
    from pypdf import PdfReader

    from pnp.design.layouts import board_layouts
    from pnp.model.pieces import board_pieces
    from pnp.outputs.export.job import ExportJob
    from pnp.outputs.export.pages import book_of
    from pnp.outputs.export.writers.pieces import piece_page
    from pnp.render.renderer import Renderer

    game_dir, source = tiny_with_boards(tmp_path / "tiny")
    game = load_game(game_dir, "tiny")
    p = load_profile("tgc")
    bp = next(b for b in board_pieces(game)[0] if b.component == "track")
    wide = Size(8 * INCH, 4 * INCH)  # drawn as a landscape board: the Domino Board turned
    fit = match(p.products, "board", "rect", wide, p.fit_tolerance, p.max_enlargement)
    assert (fit.product.name, fit.turned, fit.px) == ("Domino Board", True, (2475, 1275))
    renderer = Renderer(board_layouts(game, source), game.path)
    job = ExportJob(game, renderer.layouts, p, tmp_path / "out", renderer, None)
    index, _, px = piece_page(book_of(job), renderer, bp.piece, wide, fit, job)
    assert px == (2475, 1275) and index == 0
    page = PdfReader(io.BytesIO(book_of(job).pdf())).pages[index]
    to_in = [float(v) / 72 for v in page.trimbox]
    assert to_in == pytest.approx([0.125, 0.125, 8.125, 4.125], abs=1e-4)
    assert [float(v) / 72 for v in page.mediabox] == pytest.approx([0, 0, 8.25, 4.25], abs=1e-4)
    assert list(page.bleedbox) == list(page.mediabox)


def _boxed(tmp_path: Path) -> Path:
    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[boxes.all]\nname = "Everything"\ndecks = ["cards"]\n')
    return game_dir


def test_boxes_asked_of_an_export_are_warnings_at_each_box(tmp_path):
    game_dir = _boxed(tmp_path)
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    game = load_game(game_dir, "tiny")
    result = render_export(game, game_layouts(game, source), "tgc", tmp_path / "out", dry=True, source=source,
                           boxes=True)
    found = [f for f in result.findings if f.rule == "export.no-box"]
    assert len(found) == 1  # the one deck is in the group: one box
    f = found[0]
    assert (f.severity, f.field, f.component) == ("warning", "boxes.all", "cards")
    assert (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()[f.line - 1] == "[boxes.all]"
    assert "Everything (Action cards)" in f.message and "The Game Crafter export has no box products" in f.message
    assert "panel layout" in f.hint and "pnp build --boxes" in f.hint
    plain = render_export(game, game_layouts(game, source), "tgc", tmp_path / "out", dry=True, source=source)
    assert not [g for g in plain.findings if g.rule == "export.no-box"]  # only when boxes are asked for
    mpc = render_export(game, game_layouts(game, source), "mpc", tmp_path / "out", dry=True, source=source, boxes=True)
    assert [g.hint for g in mpc.findings if g.rule == "export.no-box"] == [
        "the MakePlayingCards export makes no boxes: print the box with pnp build --boxes"]


@pytest.mark.slow
def test_check_finds_the_boxes_an_export_leaves_out_first(tmp_path):
    from clirun import run

    game_dir = _boxed(tmp_path)
    checked = run("check", "--format", "json", "-t", "tgc", "--boxes", str(game_dir), ok=False)
    found = [x for r in json.loads(checked.output) for x in r["findings"] if x["rule"] == "export.no-box"]
    assert len(found) == 1 and found[0]["field"] == "boxes.all" and found[0]["severity"] == "warning"
    exported = run("export", "-t", "tgc", "--boxes", "-o", str(tmp_path / "o"), str(game_dir))
    assert "export.no-box" in exported.output and found[0]["message"] in " ".join(exported.output.split())
    plain = run("export", "-t", "tgc", "-o", str(tmp_path / "p"), str(game_dir))
    assert "export.no-box" not in plain.output


BAD_TGC = """
[targets.tgc]
fit_tolerance = "2 parsecs"
max_enlargement = 50
dpi = 10
bleed = "-1mm"
"""


def test_every_bad_setting_of_a_target_table_is_reported_at_once_and_check_agrees(tmp_path):
    from pnp.outputs.export import ProfileError

    from clirun import run

    game_dir, _ = tiny_with_boards(tmp_path / "tiny")
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write(BAD_TGC)
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    with pytest.raises(ProfileError) as refused:
        load_profile("tgc", load_game(game_dir, "tiny"))
    each = refused.value.errors
    keys = [e.location.column_name for e in each]
    assert keys == ["targets.tgc.fit_tolerance", "targets.tgc.max_enlargement", "targets.tgc.dpi", "targets.tgc.bleed"]
    for e in each:  # at the line of its key, naming its value, with a hint
        key = e.location.column_name.rsplit(".", 1)[1]
        assert lines[e.location.line - 1].startswith(f"{key} = ")
        assert lines[e.location.line - 1].split(" = ", 1)[1].strip('"') in e.message, e.message
        assert e.hint and e.rule == "export.profile"
    report = json.loads(run("check", str(game_dir), "-t", "tgc", "--format", "json", ok=False).output)[0]
    found = [(f["rule"], f["line"], f["field"]) for f in report["findings"] if f["rule"] == "export.profile"]
    assert found == [(e.rule, e.location.line, e.location.column_name) for e in each]


def test_a_fit_tolerance_over_10_mm_is_refused_at_its_line(tmp_path):
    from pnp.outputs.export import ProfileError

    game_dir, _ = tiny_with_boards(tmp_path / "tiny")
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[targets.tgc]\nfit_tolerance = "12mm"\n')
    with pytest.raises(ProfileError) as refused:
        load_profile("tgc", load_game(game_dir, "tiny"))
    assert refused.value.location.column_name == "targets.tgc.fit_tolerance" and refused.value.location.line
    assert "'12mm' is 12 mm, more than the 10 mm" in refused.value.message and "at most 10mm" in refused.value.hint
    (game_dir / "game.toml").write_text((game_dir / "game.toml").read_text().replace('"12mm"', '"10mm"'))
    assert load_profile("tgc", load_game(game_dir, "tiny")).fit_tolerance == pytest.approx(10 * MM)


def test_a_boards_safe_zone_finding_names_its_game_toml_line_in_check_and_export(tmp_path):
    from clirun import run

    game_dir, source = tiny_with_boards(tmp_path / "tiny")
    boards = game_dir / "templates" / "boards.toml"
    boards.write_text(boards.read_text(encoding="utf-8").replace('area = "safe"\nsize = 40\nalign = "center"\n'
                                                                 'valign = "middle"',
                                                                 'area = "trim"\nsize = 40\nalign = "left"\n'
                                                                 'valign = "top"'), encoding="utf-8")
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    game = load_game(game_dir, str(game_dir))
    dry = render_export(game, game_layouts(game, source), "tgc", tmp_path / "out", jobs=1, source=source, dry=True)
    (found,) = [f for f in dry.findings if f.rule == "preflight.safe-zone"]
    assert (found.component, found.piece, found.field) == ("track", "track", "components.track")
    assert found.file == f"{game_dir}/game.toml" and lines[found.line - 1] == "[components.track]"
    assert "'TRACK'" in found.message and found.hint
    report = json.loads(run("check", str(game_dir), "-t", "tgc", "--format", "json").output)[0]
    checked = [(f["location"], f["message"], f["piece"]) for f in report["findings"] if f["rule"] == "preflight.safe-zone"]
    assert checked == [(found.location, found.message, found.piece)]


def test_a_tokens_safe_zone_finding_names_its_component_in_check_and_export(tmp_path):
    from clirun import run

    game_dir, source = tiny_with_boards(tmp_path / "tiny")
    boards = game_dir / "templates" / "boards.toml"
    boards.write_text(boards.read_text(encoding="utf-8").replace('text = "1"\narea = "safe"\nsize = 14\n'
                                                                 'align = "center"\nvalign = "middle"',
                                                                 'text = "1"\narea = "trim"\nsize = 14\n'
                                                                 'align = "left"\nvalign = "top"'), encoding="utf-8")
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    game = load_game(game_dir, str(game_dir))
    dry = render_export(game, game_layouts(game, source), "tgc", tmp_path / "out", jobs=1, source=source, dry=True)
    (found,) = [f for f in dry.findings if f.rule == "preflight.safe-zone"]
    # the coins have no table: the finding is at their [components.tokens] table
    assert (found.component, found.field) == ("tokens", "components.tokens")
    assert found.file == f"{game_dir}/game.toml" and lines[found.line - 1] == "[components.tokens]"
    assert "'1'" in found.message and found.hint
    report = json.loads(run("check", str(game_dir), "-t", "tgc", "--format", "json").output)[0]
    checked = [(f["location"], f["piece"]) for f in report["findings"] if f["rule"] == "preflight.safe-zone"]
    assert checked == [(found.location, found.piece)]
