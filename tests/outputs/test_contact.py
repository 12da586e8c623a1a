"""Contact sheets: one PNG per deck, each face a tile at whole-pixel places; a build after an
edit draws only the tiles whose keys changed, and writes the bytes a clean build writes."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from pnp.model.games import GameSource, find_game
from pnp.model.load import LoadOptions, load_game
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.outputs.contact import CONTACT_DPI, INDEX, SheetLayout
from pnp.pipeline.build import BuildJob, run_game
from pnp.render.raster import render_page_rows, rows_png, unfiltered_png, unfiltered_rows


def build(game: Path, out: Path, force: bool = False, templates: Path | None = None):
    templates = templates or game / "templates"
    source = GameSource(game, game.name, templates, f"{game.name}/templates")
    return run_game(BuildJob(source, out, BuildSettings(SheetOptions(contact_sheets=True), force=force), LoadOptions()))


def contact_note(report) -> list[str]:
    return report.ran["contact"].notes


def sheet(out: Path, game: str, deck: str) -> bytes:
    return (out / game / "contact" / f"{deck}.png").read_bytes()


def test_one_edited_cell_redraws_one_tile_and_writes_a_clean_builds_bytes(tiny, tmp_path):
    build(tiny, tmp_path / "out")
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    again = build(tiny, tmp_path / "out")
    # the Leaf card's face; the deck's back, drawn from the first card's row, reads none of it
    assert contact_note(again) == ["1 drawn, 3 unchanged since the last build"]
    build(tiny, tmp_path / "clean")
    assert sheet(tmp_path / "out", "tiny", "cards") == sheet(tmp_path / "clean", "tiny", "cards")
    picture = Image.open(io.BytesIO(sheet(tmp_path / "out", "tiny", "cards")))
    deck = next(c for c in load_game(tiny, "tiny") if c.kind == "deck")
    assert picture.mode == "RGB" and picture.size == SheetLayout.of(deck.card_size, 4, CONTACT_DPI).size


def test_a_forced_build_and_a_changed_sheet_draw_every_tile(tiny, tmp_path):
    out = tmp_path / "out"
    first = build(tiny, out)
    assert contact_note(first) == []  # drawn whole: nothing to say
    assert contact_note(build(tiny, out, force=True)) == []
    target = out / "tiny" / "contact" / "cards.png"
    original = target.read_bytes()
    target.write_bytes(b"a sheet the designer replaced")  # not the sheet the index describes
    again = build(tiny, out)
    assert contact_note(again) == [] and target.read_bytes() == original


@pytest.mark.parametrize("index", ["not json", "[]", '{"format": 99, "decks": {}}',
                                   '{"format": 1, "decks": {"cards": {"file": 7}}}',
                                   '{"format": 1, "decks": {"cards": {"file": "contact/cards.png", "sha256": "x"}}}'])
def test_an_index_of_another_shape_reuses_nothing_and_breaks_nothing(tiny, tmp_path, index):
    out = tmp_path / "out"
    build(tiny, out)
    expected = sheet(out, "tiny", "cards")
    (out / "tiny" / INDEX).write_text(index)
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    again = build(tiny, out)
    assert contact_note(again) == []  # every tile drawn again
    build(tiny, tmp_path / "clean")
    assert sheet(out, "tiny", "cards") == sheet(tmp_path / "clean", "tiny", "cards") != expected


def test_a_referenced_rows_cell_redraws_the_tiles_that_show_it(tmp_path):
    """Periodic Shed's element cards print their family's glyph, a cell of families.csv that
    each card reaches through its ``family`` reference."""
    source = find_game("periodic-shed")
    game = tmp_path / "periodic-shed"
    shutil.copytree(source.path, game)
    shutil.copytree(source.templates_dir, game / "templates")
    out = tmp_path / "out"
    build(game, out)
    families = game / "families.csv"
    text = families.read_text(encoding="utf-8")
    assert ",circle,●," in text
    families.write_text(text.replace(",circle,●,", ",circle,◆,", 1), encoding="utf-8")
    again = build(game, out)
    drawn = int(contact_note(again)[0].split()[0])
    alkali = sum(1 for line in (game / "cards.csv").read_text(encoding="utf-8").splitlines()
                 if ",alkali," in line)
    assert alkali <= drawn < 100  # the alkali cards (and what shows them), not every card
    build(game, tmp_path / "clean")
    for deck in ("cards", "reference"):
        assert sheet(out, "periodic-shed", deck) == sheet(tmp_path / "clean", "periodic-shed", deck)


def test_no_contact_sheets_removes_them_and_their_index_is_left_unused(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    report = run_game(BuildJob(source, out, BuildSettings(SheetOptions(contact_sheets=False)), LoadOptions()))
    assert not (out / "tiny" / "contact" / "cards.png").exists()
    assert [p.name for p in report.ran["contact"].removed] == ["cards.png"]
    assert {"cards", "boards"} <= set(report.kept)  # no printed part depends on the contact sheets
    again = build(tiny, out)
    assert contact_note(again) == [] and (out / "tiny" / "contact" / "cards.png").is_file()
    assert json.loads((out / "tiny" / INDEX).read_text())["decks"]["cards"]["file"] == "contact/cards.png"


def test_rows_round_trip_and_match_the_unfiltered_png_of_the_same_pixels():
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(72, 36))
    c.setFillColorRGB(0.2, 0.5, 0.8)
    c.rect(10, 5, 30, 20, stroke=0, fill=1)
    c.showPage()
    c.save()
    rows = render_page_rows(buf.getvalue(), (100, 50))
    assert len(rows) == 50 * (100 * 3 + 1) and rows[::301] == bytes(50)
    png = rows_png(rows, 100, 50)
    pixels = b"".join(rows[r * 301 + 1:(r + 1) * 301] for r in range(50))
    assert png == unfiltered_png(pixels, 100, 50, compress_level=1)
    picture = Image.open(io.BytesIO(png))
    assert picture.tobytes() == pixels and picture.getpixel((0, 0)) == (255, 255, 255)
    assert picture.getpixel((30, 25)) == (51, 128, 204)
    assert unfiltered_rows(png) == unfiltered_rows(png, (100, 50)) == (100, 50, rows)
    assert unfiltered_rows(png, (100, 51)) is None  # not the size asked for: not inflated
    # painted over earlier rows, a page shows them where it paints nothing
    blank = io.BytesIO()
    empty = Canvas(blank, pagesize=(72, 36))
    empty.showPage()
    empty.save()
    assert render_page_rows(blank.getvalue(), (100, 50), bytearray(rows)) == rows


def test_rows_of_other_pngs_are_not_read():
    out = io.BytesIO()
    Image.new("RGB", (8, 4), (1, 2, 3)).save(out, format="PNG")  # Pillow filters its rows
    filtered = out.getvalue()
    assert unfiltered_rows(filtered) is None or unfiltered_rows(filtered)[2][::25] == bytes(4)
    alpha = io.BytesIO()
    Image.new("RGBA", (8, 4)).save(alpha, format="PNG")
    assert unfiltered_rows(alpha.getvalue()) is None
    assert unfiltered_rows(b"not a png") is None
    good = unfiltered_png(bytes(8 * 4 * 3), 8, 4)
    assert unfiltered_rows(good[:-20]) is None  # cut short


def test_art_moved_to_where_a_card_looks_for_it_redraws_its_tile(tiny, tmp_path):
    """Files are told apart by where they are in the game folder, not by name alone: a picture
    moved into the folder a card draws from changes the tile."""
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text() + '\n[layouts.action.boxes.pic]\ntype = "image"\n'
                       'image = "art/{{ id }}.png"\nx = "6mm"\ny = "28mm"\nwidth = "20mm"\nheight = "11mm"\n'
                       'overlap = true\n')
    (tiny / "art").mkdir()
    (tiny / "incoming").mkdir()
    names = [line.split(",")[0] for line in (tiny / "cards.csv").read_text().splitlines()[1:] if line]
    for name in names:
        Image.new("RGB", (30, 30), (200, 40, 40)).save(tiny / "incoming" / f"{name}.png")
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=True), draft=True)  # missing art: a placeholder
    run_game(BuildJob(source, tmp_path / "out", settings, LoadOptions()))
    for name in names:
        (tiny / "incoming" / f"{name}.png").rename(tiny / "art" / f"{name}.png")
    again = run_game(BuildJob(source, tmp_path / "out", settings, LoadOptions()))
    assert contact_note(again) == []  # every tile drawn again
    run_game(BuildJob(source, tmp_path / "clean", settings, LoadOptions()))
    assert sheet(tmp_path / "out", "tiny", "cards") == sheet(tmp_path / "clean", "tiny", "cards")


def test_an_index_nested_past_reading_is_no_index(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    (out / "tiny" / INDEX).write_text("[" * 100_000 + "]" * 100_000)
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    again = build(tiny, out)
    assert not [f for f in again.findings if f.severity == "error"] and contact_note(again) == []


def test_no_contact_sheets_leave_no_index_and_no_folder(tiny, tmp_path):
    out = tmp_path / "out"
    build(tiny, out)
    assert (out / "tiny" / INDEX).is_file() and (out / "tiny" / "contact").is_dir()
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    run_game(BuildJob(source, out, BuildSettings(SheetOptions(contact_sheets=False)), LoadOptions()))
    assert not (out / "tiny" / INDEX).exists() and not (out / "tiny" / "contact").exists()


def test_a_build_inside_the_game_folder_removes_the_contact_folder_it_empties(tiny, monkeypatch):
    # run inside the game folder, the output folder is the relative "output": the sheets'
    # folder goes with them as it does under any other output folder
    monkeypatch.chdir(tiny)
    source = GameSource(Path("."), "tiny", Path("templates"), "tiny/templates")
    for wanted in (True, False):
        run_game(BuildJob(source, Path("output"), BuildSettings(SheetOptions(contact_sheets=wanted)), LoadOptions()))
        assert (tiny / "output" / "tiny" / "contact" / "cards.png").is_file() is wanted
    assert not (tiny / "output" / "tiny" / "contact").exists()
    assert (tiny / "output" / "tiny" / "tiny-cards.pdf").is_file()


def test_a_referenced_column_named_like_a_method_of_str_counts_by_its_value():
    from types import SimpleNamespace

    from pnp.design.names import _freeze
    from pnp.model.context import Ref

    def frozen(title: str):
        return _freeze({"family": Ref("a", SimpleNamespace(values={"title": title, "count": 3}))}, {})

    assert frozen("Alkali") != frozen("Alkali metals")
    assert "Alkali" in repr(frozen("Alkali")) and "callable" not in repr(frozen("Alkali"))


def test_a_deck_of_more_faces_than_a_sheet_holds_gets_more_sheets(tiny, tmp_path, monkeypatch):
    from pnp.outputs import contact

    monkeypatch.setattr(contact, "SHEET_TILES", 3)  # the tiny deck's four tiles: 3 and 1
    out = tmp_path / "out"
    first = build(tiny, out)
    assert first.ran["contact"].sheets == 2 and first.ran["contact"].cards == 4
    one, two = (Image.open(out / "tiny" / "contact" / name) for name in ("cards.png", "cards (2).png"))
    assert one.size == SheetLayout.of(load_game(tiny, "tiny").components["cards"].card_size, 3, CONTACT_DPI).size
    assert two.size[0] < one.size[0]  # one tile wide
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    assert contact_note(build(tiny, out)) == ["1 drawn, 3 unchanged since the last build"]
    build(tiny, tmp_path / "clean")
    for name in ("cards.png", "cards (2).png"):
        assert (out / "tiny" / "contact" / name).read_bytes() == (tmp_path / "clean" / "tiny" / "contact" / name).read_bytes()
    monkeypatch.setattr(contact, "SHEET_TILES", 200)
    build(tiny, out)
    assert not (out / "tiny" / "contact" / "cards (2).png").exists()  # one sheet again: the second removed
