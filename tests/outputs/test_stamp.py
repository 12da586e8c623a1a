"""The version stamp, measured in the real card sheets: inside the safe zone (or in the slug
below the trim) of every card, the game's version and the face's hash, and off by default."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pdfplumber
import pytest
from typer.testing import CliRunner

from bundled import bundled_source
from pnp.cli import typer_app

app = typer_app()
from pnp.model.scaffold import new_game
from stampgeom import MM, cell_of, cuts, stamps

TOL = 0.05 * MM


def _game(tmp_path: Path, version: str | None = "1.2") -> Path:
    game = tmp_path / "tiny"
    new_game(game)
    if version:
        toml = game / "game.toml"
        toml.write_text(toml.read_text().replace("players = [2, 4]", f'players = [2, 4]\nversion = "{version}"'))
    return game


def _build(game: Path, out: Path, *args: str) -> Path:
    done = CliRunner().invoke(app, ["build", str(game), "-o", str(out), "--no-contact-sheets", "-q", *args])
    assert done.exit_code == 0, done.output
    return out / game.name / f"{game.name}-cards.pdf"


def _face_pages(pdf: Path):
    doc = pdfplumber.open(pdf)
    return doc, [p for i, p in enumerate(doc.pages) if i >= 2 and i % 2 == 0]


def _assert_in_safe_zone(pdf: Path, safe: float) -> int:
    """Every stamp of the face sheets lies inside the safe zone of the trim that holds it, and
    each trim holds one; returns how many stamps there are."""
    doc, pages = _face_pages(pdf)
    n = 0
    with doc:
        for page in pages:
            xs, ys = cuts(page)
            found = stamps(page)
            cells = [cell_of(s, xs, ys) for s in found]
            assert len(set(cells)) == len(found), f"page {page.page_number}: two stamps on one card"
            for s, (x0, y0, x1, y1) in zip(found, cells):
                assert s.x0 >= x0 + safe - TOL and s.x1 <= x1 - safe + TOL, (page.page_number, s, x0, x1)
                assert s.y0 >= y0 + safe - TOL and s.y1 <= y1 - safe + TOL, (page.page_number, s, y0, y1)
            n += len(found)
    return n


def test_the_stamp_is_off_by_default(tmp_path):
    doc, pages = _face_pages(_build(_game(tmp_path), tmp_path / "out"))
    with doc:
        assert pages and all(stamps(p) == [] for p in pages)


def test_every_card_has_its_stamp_in_the_safe_zone_with_version_and_face_hash(tmp_path):
    from pnp.design.layouts import game_layouts
    from pnp.design.stamp import face_hash
    from pnp.model.games import GameSource
    from pnp.model.load import load_game
    from pnp.model.pieces import card_instances

    game_dir = _game(tmp_path)
    pdf = _build(game_dir, tmp_path / "out", "--stamp")
    assert _assert_in_safe_zone(pdf, 0.125 * 72) == 6  # three cards, two copies each
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, source)
    want = {f"v1.2 · {face_hash(layouts, c.face, c.size, game_dir)[:6]}" for c in card_instances(game)}
    doc, pages = _face_pages(pdf)
    with doc:
        assert {s.text for p in pages for s in stamps(p)} == want
    assert len(want) == 3  # copies print the same face


def test_bottom_left_and_a_game_without_a_version(tmp_path):
    game_dir = _game(tmp_path, version=None)
    layouts = game_dir / "templates" / "layouts.toml"
    layouts.write_text('stamp = "safe-bottom-left"\n' + layouts.read_text())
    pdf = _build(game_dir, tmp_path / "out", "--stamp")
    doc, pages = _face_pages(pdf)
    with doc:
        page = pages[0]
        xs, _ = cuts(page)
        _, ys = cuts(page)
        found = stamps(page)
        assert found
        for s in found:
            assert len(s.text) == 6 and not s.text.startswith("v")
            left = max(x for x in xs if x <= s.x0)
            bottom = max(y for y in ys if y <= s.y0)
            # the starter's frame (area = "safe", radius 2 mm, stroke 1 pt): the glyph box's corner
            # sits 0.2 mm inside the frame's inner arc, clear of its stroke
            half, inner = 0.5, 2 * MM - 0.5
            centre = 0.125 * 72 + half + inner
            dx, dy = centre - (s.x0 - left), centre - (s.y0 - bottom)
            assert abs(dx - dy) < TOL and abs((dx * dx + dy * dy) ** 0.5 - (inner - 0.2 * MM)) < TOL


def test_slug_stamps_lie_below_the_trim_and_no_room_is_a_warning(tmp_path):
    game_dir = _game(tmp_path)
    layouts = game_dir / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace('[layouts.card]\n', '[layouts.card]\nstamp = "slug"\n', 1))
    pdf = _build(game_dir, tmp_path / "out", "--stamp", "--gap", "6mm")
    doc, pages = _face_pages(pdf)
    with doc:
        found = [(s, cuts(p)) for p in pages for s in stamps(p)]
        assert len(found) == 6
        for s, (xs, ys) in found:
            x0, y0, x1, y1 = cell_of(s, xs, ys)
            assert s.y1 <= y0 + TOL and s.x0 >= x0 and s.x1 <= x1  # under its card, outside the trim
    # cards edge to edge leave no slug between rows: check says so, as the build does
    checked = CliRunner().invoke(app, ["check", str(game_dir), "--stamp", "--format", "json"])
    assert "stamp.slug-room" in checked.output and "--gap of at least" in checked.output


def test_an_unknown_stamp_position_is_a_located_error(tmp_path):
    game_dir = _game(tmp_path)
    layouts = game_dir / "templates" / "layouts.toml"
    layouts.write_text('stamp = "slugg"\n' + layouts.read_text())
    checked = CliRunner().invoke(app, ["check", str(game_dir), "--format", "json"])
    assert checked.exit_code == 1
    (finding,) = [f for r in __import__("json").loads(checked.output) for f in r["findings"]]
    assert (finding["rule"], finding["line"], finding["field"]) == ("layout.file", 1, "stamp")
    assert "'slugg'" in finding["message"] and "'slug'" in finding["hint"]


def test_the_game_toml_build_table_turns_the_stamp_on(tmp_path):
    game_dir = _game(tmp_path)
    toml = game_dir / "game.toml"
    toml.write_text(toml.read_text() + "\n[build]\nstamp = true\n")
    doc, pages = _face_pages(_build(game_dir, tmp_path / "out"))
    with doc:
        assert len(stamps(pages[0])) == 6
    doc, pages = _face_pages(_build(game_dir, tmp_path / "out2", "--no-stamp"))
    with doc:
        assert stamps(pages[0]) == []


def _safe_zone(gid: str) -> float:
    from pnp.core.units import parse_length

    data = tomllib.loads((bundled_source(gid).templates_dir / "layouts.toml").read_text())
    return parse_length(str(data.get("safe_zone", "0.125in")))


@pytest.mark.slow
@pytest.mark.parametrize("gid", ["ars-alchimia", "assemble", "atomic-assembly", "periodic-shed"])
def test_every_card_of_the_bundled_games_has_its_stamp_in_the_safe_zone(tmp_path, gid):
    from pnp.model.load import load_game

    pdf = _build(Path(gid), tmp_path / "out", "--stamp", "--no-contact-sheets")
    game = load_game(bundled_source(gid).path, gid)
    cards = sum(r.copies for c in game if c.kind == "deck" for r in c.rows)
    assert cards > 0 and _assert_in_safe_zone(pdf, _safe_zone(gid)) == cards


def test_round_tokens_carry_their_stamp_inside_the_cut_line(tmp_path):
    game = tmp_path / "bg"
    new_game(game, "board-game")
    _build(game, tmp_path / "out", "--stamp")
    with pdfplumber.open(tmp_path / "out" / "bg" / "bg-tokens.pdf") as pdf:
        page = pdf.pages[1]
        found = stamps(page)
        # the cut guides: the grey circles of the trims (16 mm across)
        guides = [c for c in page.curves if abs((c["x1"] - c["x0"]) - 16 * MM) < 0.1 * MM]
        assert len(found) == 4 and len(guides) >= 4
        for s in found:
            (g,) = [g for g in guides if g["x0"] <= s.x0 and s.x1 <= g["x1"]
                    and page.height - g["bottom"] <= s.y0 and s.y1 <= page.height - g["top"]]
            cx, cy, r = (g["x0"] + g["x1"]) / 2, page.height - (g["top"] + g["bottom"]) / 2, 8 * MM
            for x, y in ((s.x0, s.y0), (s.x1, s.y0), (s.x0, s.y1), (s.x1, s.y1)):
                assert (x - cx) ** 2 + (y - cy) ** 2 < r ** 2
            assert abs((s.x0 + s.x1) / 2 - cx) < TOL  # centred: a corner of the safe zone is off the piece


def test_a_stamp_too_wide_for_a_small_token_shrinks_to_fit_and_check_says_so(tmp_path):
    """15 mm round tokens (the board-game starter's markers, made smaller): the 5 pt stamp is
    wider than the safe zone's circle, so it prints smaller, inside that circle, and ``pnp
    check --stamp`` reports ``stamp.fit`` at the layout, as the build does; 8 mm tokens leave
    no room even at the smallest size: a warning, and the stamp is clipped at the safe zone."""
    import json

    from pnp.render.stamp import STAMP_MIN_SIZE

    game = tmp_path / "bg"
    new_game(game, "board-game")
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("players = [2, 4]", 'players = [2, 4]\nversion = "1.0"')
                    .replace('size = "16mm"', 'size = "15mm"'))
    checked = CliRunner().invoke(app, ["check", str(game), "--stamp", "--format", "json"])
    assert checked.exit_code == 0, checked.output
    (fit,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["rule"] == "stamp.fit"]
    boards = (game / "templates" / "boards.toml").read_text().splitlines()
    assert fit["severity"] == "info" and fit["file"].endswith("boards.toml")
    assert boards[fit["line"] - 1].strip() == "[layouts.marker]" and "prints at 3." in fit["message"]
    _build(game, tmp_path / "out", "--stamp")
    record = json.loads((tmp_path / "out" / "bg" / ".pnp-build.json").read_text())
    (made,) = [f for e in record.values() for f in e["findings"] if f["rule"] == "stamp.fit"]
    assert {k: made[k] for k in ("file", "line", "message")} == {k: fit[k] for k in ("file", "line", "message")}
    safe = 0.125 * 72
    with pdfplumber.open(tmp_path / "out" / "bg" / "bg-tokens.pdf") as pdf:
        page = pdf.pages[1]
        found = stamps(page)
        sizes = {round(c["size"], 2) for c in page.chars if c["text"] in "v1.0" and c["size"] < 5.01}
        guides = [c for c in page.curves if abs((c["x1"] - c["x0"]) - 15 * MM) < 0.1 * MM]
        assert len(found) == 4 and len(guides) >= 4 and all(STAMP_MIN_SIZE <= z < 5 for z in sizes)
        for s in found:
            (g,) = [g for g in guides if g["x0"] <= s.x0 and s.x1 <= g["x1"]]
            cx, cy = (g["x0"] + g["x1"]) / 2, page.height - (g["top"] + g["bottom"]) / 2
            for x, y in ((s.x0, s.y0), (s.x1, s.y0), (s.x0, s.y1), (s.x1, s.y1)):
                assert ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= 7.5 * MM - safe - 0.2 * MM + TOL
            assert abs((s.x0 + s.x1) / 2 - cx) < TOL and s.y1 <= cy + TOL  # centred, in the lower half
    toml.write_text(toml.read_text().replace('size = "15mm"', 'size = "8mm"'))
    checked = CliRunner().invoke(app, ["check", str(game), "--stamp", "--format", "json"])
    (tight,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["rule"] == "stamp.fit"]
    assert tight["severity"] == "warning" and "cut off at the safe zone" in tight["message"]
