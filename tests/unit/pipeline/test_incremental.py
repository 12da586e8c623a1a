"""Incremental builds: unchanged inputs re-render nothing; a changed input rebuilds what it feeds."""

from __future__ import annotations

from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import build_game
from pnp.model.load import load_game


def build(tiny, out, force=False, opts=SheetOptions(contact_sheets=False)):
    game = load_game(tiny, "tiny")
    return build_game(game, GameSource(tiny, "tiny", tiny / "templates", "tiny/templates"), out,
                      BuildSettings(opts, force=force))


def test_unchanged_inputs_render_nothing(tiny, tmp_path):
    ran, skipped = build(tiny, tmp_path)
    assert [p.name for p in ran["cards"].files] == ["tiny-cards.pdf"] and skipped == {}
    pdf = tmp_path / "tiny-cards.pdf"
    stamp = pdf.stat().st_mtime_ns
    ran, skipped = build(tiny, tmp_path)
    assert ran == {} and set(skipped) == {"cards", "contact", "boards", "accessibility", "rulebook"}
    assert pdf.stat().st_mtime_ns == stamp


def test_changed_cell_layout_option_or_output_rebuilds(tiny, tmp_path):
    build(tiny, tmp_path)
    before = (tmp_path / "tiny-cards.pdf").read_bytes()
    csv = tiny / "cards.csv"
    csv.write_text(csv.read_text().replace("Leaf", "Leaves"))
    ran, skipped = build(tiny, tmp_path)
    assert "cards" in ran and (tmp_path / "tiny-cards.pdf").read_bytes() != before
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace("size = 14", "size = 13", 1))
    assert "cards" in build(tiny, tmp_path)[0]
    assert "cards" in build(tiny, tmp_path, opts=SheetOptions(paper="a4", contact_sheets=False))[0]
    (tmp_path / "tiny-cards.pdf").write_bytes(b"edited by hand")
    ran, skipped = build(tiny, tmp_path, opts=SheetOptions(paper="a4", contact_sheets=False))
    assert "cards" in ran and (tmp_path / "tiny-cards.pdf").read_bytes().startswith(b"%PDF")


def test_a_readme_edit_rebuilds_nothing(tiny, tmp_path):
    build(tiny, tmp_path)
    (tiny / "README.md").write_text("notes for the team\n")
    assert build(tiny, tmp_path)[0] == {}


def test_files_a_part_no_longer_makes_are_removed(tiny, tmp_path):
    build(tiny, tmp_path, opts=SheetOptions(contact_sheets=True))
    assert (tmp_path / "contact" / "cards.png").is_file()
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text().replace("components.cards", "components.actions")
                        .replace('component = "cards"', 'component = "actions"'))
    build(tiny, tmp_path, opts=SheetOptions(contact_sheets=True))
    assert not (tmp_path / "contact" / "cards.png").exists()
    assert (tmp_path / "contact" / "actions.png").is_file()


def test_force_rebuilds(tiny, tmp_path):
    build(tiny, tmp_path)
    ran, skipped = build(tiny, tmp_path, force=True)
    assert skipped == {} and ran["cards"].files


def test_targets_in_the_manifest_are_exported_by_build(tiny, tmp_path):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text() + "\n[targets.tgc]\n")
    ran, skipped = build(tiny, tmp_path)
    pngs = sorted(p.name for p in ran["export tgc"].files if p.suffix == ".png")
    assert len(pngs) >= 2 and (tmp_path / "export" / "tgc" / "manifest.json").is_file()
    assert "export tgc" in build(tiny, tmp_path)[1]


def test_a_record_of_another_shape_is_read_as_far_as_it_is_sound(tiny, tmp_path):
    import json

    build(tiny, tmp_path)
    record = tmp_path / ".pnp-build.json"
    sound = json.loads(record.read_text())
    for damaged in ({"cards": "x"}, None, "str", {"rulebook": 7}, {"cards": {"files": 5, "key": "k"}}, [1, 2],
                    {**sound, "cards": {**sound["cards"], "files": {"tiny-cards.pdf": 3}}}):
        record.write_text(json.dumps(damaged))
        ran, kept = build(tiny, tmp_path)  # never a crash: what cannot be read is built again
        assert "cards" in ran and (tmp_path / "tiny-cards.pdf").read_bytes().startswith(b"%PDF")
        if isinstance(damaged, dict) and "boards" in damaged:
            assert "boards" in kept  # the sound entries still hold


def test_a_file_changed_since_its_stage_wrote_it_is_not_removed(tiny, tmp_path):
    build(tiny, tmp_path, opts=SheetOptions(contact_sheets=True))
    sheet = tmp_path / "contact" / "cards.png"
    sheet.write_bytes(b"the designer's own notes")
    build(tiny, tmp_path, opts=SheetOptions(contact_sheets=False))  # makes no contact sheet any more
    assert sheet.read_bytes() == b"the designer's own notes"


def test_another_table_encoding_rebuilds_what_the_tables_feed(tiny, tmp_path):
    from pnp.model.load import LoadOptions
    from pnp.pipeline.build import BuildJob, run_game

    table = tiny / "cards.csv"
    table.write_bytes(table.read_bytes().replace(b"Leaf,1", b"Leaf \x80,1"))  # a euro sign in cp1252
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False))

    def build_as(encoding, out):
        return run_game(BuildJob(source, out, settings, LoadOptions(encoding=encoding)))

    build_as("latin-1", tmp_path / "out")
    again = build_as("cp1252", tmp_path / "out")
    assert "cards" in again.ran and "rulebook" in again.ran  # the same bytes read as other text
    build_as("cp1252", tmp_path / "clean")
    assert (tmp_path / "out" / "tiny" / "tiny-cards.pdf").read_bytes() == \
        (tmp_path / "clean" / "tiny" / "tiny-cards.pdf").read_bytes()
    assert build_as("cp1252", tmp_path / "out").ran == {}  # and kept from then on


def test_a_picture_moved_into_the_folder_a_card_draws_from_rebuilds_the_cards(tiny, tmp_path):
    """Input files count by their place in the game folder, not by name alone: the same picture
    moved from art/old/ into art/, where the cards look for it, is a changed input."""
    from PIL import Image

    from pnp.model.load import LoadOptions
    from pnp.pipeline.build import BuildJob, run_game

    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text() + '\n[layouts.action.boxes.pic]\ntype = "image"\n'
                       'image = "art/{{ id }}.png"\nx = "6mm"\ny = "28mm"\nwidth = "20mm"\nheight = "11mm"\n'
                       'overlap = true\n')
    (tiny / "art" / "old").mkdir(parents=True)
    names = ["fire", "leaf"]
    for name in names:
        Image.new("RGB", (30, 30), (200, 40, 40)).save(tiny / "art" / "old" / f"{name}.png")
    source = GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False), draft=True)  # missing art: a placeholder
    run_game(BuildJob(source, tmp_path / "out", settings, LoadOptions()))
    for name in names:
        (tiny / "art" / "old" / f"{name}.png").rename(tiny / "art" / f"{name}.png")
    again = run_game(BuildJob(source, tmp_path / "out", settings, LoadOptions()))
    assert "cards" in again.ran
    run_game(BuildJob(source, tmp_path / "clean", settings, LoadOptions()))
    assert (tmp_path / "out" / "tiny" / "tiny-cards.pdf").read_bytes() == \
        (tmp_path / "clean" / "tiny" / "tiny-cards.pdf").read_bytes()
