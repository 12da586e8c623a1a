"""Incremental builds: unchanged inputs re-render nothing; a changed input rebuilds what it feeds."""

from __future__ import annotations

from pnp.build import SheetOptions, build_game
from pnp.model import load_game


def build(tiny, out, force=False, opts=SheetOptions(contact_sheets=False)):
    game = load_game(tiny, "tiny")
    return build_game(game, tiny / "templates", "tiny/templates/layouts.toml", out, opts, force=force)


def test_unchanged_inputs_render_nothing(tiny, tmp_path):
    result, skipped = build(tiny, tmp_path)
    assert [p.name for p in result.files] == ["tiny-cards.pdf"] and skipped == {}
    pdf = tmp_path / "tiny-cards.pdf"
    stamp = pdf.stat().st_mtime_ns
    result, skipped = build(tiny, tmp_path)
    assert result.files == [] and list(skipped) == ["cards"]
    assert pdf.stat().st_mtime_ns == stamp


def test_changed_cell_layout_option_or_output_rebuilds(tiny, tmp_path):
    build(tiny, tmp_path)
    before = (tmp_path / "tiny-cards.pdf").read_bytes()
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    result, skipped = build(tiny, tmp_path)
    assert skipped == {} and (tmp_path / "tiny-cards.pdf").read_bytes() != before
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace("size = 14", "size = 13", 1))
    assert build(tiny, tmp_path)[1] == {}
    assert build(tiny, tmp_path, opts=SheetOptions(paper="a4", contact_sheets=False))[1] == {}
    (tmp_path / "tiny-cards.pdf").write_bytes(b"edited by hand")
    result, skipped = build(tiny, tmp_path, opts=SheetOptions(paper="a4", contact_sheets=False))
    assert skipped == {} and (tmp_path / "tiny-cards.pdf").read_bytes().startswith(b"%PDF")


def test_force_rebuilds(tiny, tmp_path):
    build(tiny, tmp_path)
    result, skipped = build(tiny, tmp_path, force=True)
    assert skipped == {} and result.files
