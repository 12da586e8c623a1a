"""pnp check is a dry run of pnp build: for each kind of mistake, a small game folder is checked
and built, and both report the same finding with the same rule id and location; the build
writes nothing when it finds an error, and --strict fails check and build alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pnp.core.findings import failing
from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

HEADER = "id,title,cost,colour,text,copies\n"


def runs(game: Path, out: Path, strict: bool = False):
    """The dry run (pnp check) and the build (pnp build) of ``game``."""
    source = GameSource(game, "g", game / "templates", "g/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False), strict=strict)
    return (run_game(BuildJob(source, out, settings, write=False)),
            run_game(BuildJob(source, out, settings, write=True)))


def placed(findings) -> set[tuple[str, str, str]]:
    """(severity, rule, location) of every finding but the infos."""
    return {(f.severity, f.rule, f.location) for f in findings if f.severity != "info"}


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def art_box(image: str) -> str:
    return f'\n[layouts.action.boxes.art]\ntype = "image"\nimage = "{image}"\nx = "5mm"\ny = "30mm"\n' \
           'width = "20mm"\nheight = "20mm"\n'


def no_boards_file(game: Path) -> None:
    (game / "templates" / "boards.toml").unlink()


def art_missing_on_the_fifth_card(game: Path) -> None:
    (game / "cards.csv").write_text(HEADER + "".join(f"c{i},Card {i},1,red,,1\n" for i in range(1, 6)),
                                    encoding="utf-8")
    (game / "art").mkdir()
    for i in range(1, 5):
        Image.new("RGB", (240, 240), (10, 20 * i, 30)).save(game / "art" / f"c{i}.png")
    append(game / "templates" / "layouts.toml", art_box("art/{{ id }}.png"))
    text = (game / "game.toml").read_text(encoding="utf-8").replace("count = 3", "count = 5")
    (game / "game.toml").write_text(text, encoding="utf-8")


def board_image_missing(game: Path) -> None:
    append(game / "game.toml", '\n[components.board]\nkind = "board"\nname = "Board"\nsize = "100mm x 100mm"\n'
                               'layout = "board"\n')
    append(game / "templates" / "boards.toml", '\n[layouts.board.boxes.map]\ntype = "image"\nimage = "art/map.png"\n'
                                               'area = "trim"\n')


def overflow_on_one_card_of_twenty(game: Path) -> None:
    rows = [f"c{i:02},Card {i},1,{'red' if i <= 3 else 'green'},Short,1\n" for i in range(1, 21)]
    rows[11] = "c12,Card 12,1,green," + '"' + " ".join(["overflowing"] * 120) + '"' + ",1\n"
    (game / "cards.csv").write_text(HEADER + "".join(rows), encoding="utf-8")
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("count = 5", "count = 20"), encoding="utf-8")


def glyph_missing_on_one_card(game: Path) -> None:
    path = game / "cards.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("leaf,Leaf,1,green,,2", "leaf,Leaf,1,green,Ok 漢,2"),
                    encoding="utf-8")


def misspelt_icon_on_a_card(game: Path) -> None:
    path = game / "cards.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("leaf,Leaf,1,green,,2", "leaf,Leaf,1,green,Pay :fier:,2"),
                    encoding="utf-8")


def misspelt_icon_in_the_rulebook(game: Path) -> None:
    (game / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\nPay :fier: to play.\n", encoding="utf-8")


def rulebook_template_error(game: Path) -> None:
    (game / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\n{{ game.titel }}\n", encoding="utf-8")


def unknown_key_in_rules_toml(game: Path) -> None:
    (game / "rules.toml").write_text('[[rule]]\nid = "cards.cheap"\nfor_each = "cards"\nasert = "cost < 5"\n'
                                     'source = "Components"\n', encoding="utf-8")


def unused_rules_key(game: Path) -> None:
    append(game / "game.toml", "\n[rules]\nhand_limt = 7\n")


def printed_number_contradicts_the_data(game: Path) -> None:
    append(game / "game.toml", "\n[rules]\nhand_limit = 7\n")
    (game / "templates" / "rulebook.md.j2").write_text(
        "# {{ game.title }}\n\nFor {{ game.players }} players. The hand limit is {{ rules.hand_limit }}.\n\n"
        "## Ending\n\nRemember: the hand limit is 8.\n", encoding="utf-8")


CASES = {
    # case: (mutation, the finding both must report)
    "missing boards.toml": (no_boards_file, ("error", "layout.file", "g/templates")),
    "art missing on the 5th card": (art_missing_on_the_fifth_card,
                                    ("warning", "layout.art-missing", "g/templates/layouts.toml:94 (layouts.action.boxes.art.image)")),
    "missing board image": (board_image_missing,
                            ("warning", "layout.art-missing", "g/templates/boards.toml:16 (layouts.board.boxes.map.image)")),
    "overflow on one card of 20": (overflow_on_one_card_of_twenty,
                                   ("warning", "preflight.text-overflow", "g/cards.csv:13:5 (text)")),
    "a glyph missing on one card": (glyph_missing_on_one_card,
                                    ("warning", "preflight.missing-glyph", "g/cards.csv:4:5 (text)")),
    "a misspelt icon on a card": (misspelt_icon_on_a_card, ("error", "layout.icon-unknown", "g/cards.csv:4:5 (text)")),
    "a misspelt icon in the rulebook": (misspelt_icon_in_the_rulebook,
                                        ("error", "layout.icon-unknown", "g/templates/rulebook.md.j2:3")),
    "a rulebook template error": (rulebook_template_error,
                                  ("error", "rulebook.template", "g/templates/rulebook.md.j2:3")),
    "an unknown key in rules.toml": (unknown_key_in_rules_toml, ("error", "rules.file", "g/rules.toml:4 (rule[0].asert)")),
    "a [rules] key nothing reads": (unused_rules_key,
                                    ("warning", "rules.unused-key", "g/game.toml:50 (rules.hand_limt)")),
    "a printed number that contradicts the data": (printed_number_contradicts_the_data,
                                                   ("warning", "facts.printed", "g/templates/rulebook.md.j2:7")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_check_and_build_report_the_same_finding(case, tiny, tmp_path):
    mutate, expected = CASES[case]
    mutate(tiny)
    out = tmp_path / "out"
    dry, built = runs(tiny, out)
    assert placed(dry.findings) == placed(built.findings)
    assert expected in placed(dry.findings), sorted(placed(dry.findings))
    if expected[0] == "error":
        assert built.refused == "errors" and not out.exists()  # nothing written
    else:
        assert built.written
        strict_dry, strict_built = runs(tiny, tmp_path / "strict", strict=True)
        assert failing(strict_dry.findings, strict=True) and strict_built.refused == "strict"
        assert not (tmp_path / "strict" / "tiny").exists()


def test_a_harmless_edit_raises_no_finding(tiny, tmp_path):
    before = placed(runs(tiny, tmp_path / "a")[0].findings)
    path = tiny / "cards.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("Leaf", "Leaves"), encoding="utf-8")
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('green = "#27AE60"', 'green = "#2ECC71"'),
                        encoding="utf-8")
    assert before == set() and placed(runs(tiny, tmp_path / "b")[0].findings) == set()


def test_a_draft_prints_missing_art_as_a_placeholder_and_an_export_refuses_it(tiny, tmp_path):
    import pypdfium2

    art_missing_on_the_fifth_card(tiny)
    source = GameSource(tiny, "g", tiny / "templates", "g/templates")
    where = ("layout.art-missing", "g/templates/layouts.toml:94 (layouts.action.boxes.art.image)")
    built = run_game(BuildJob(source, tmp_path / "out", BuildSettings(SheetOptions(contact_sheets=False))))
    assert built.written and ("warning",) + where in placed(built.findings)
    pdf = pypdfium2.PdfDocument(tmp_path / "out" / "tiny" / "tiny-cards.pdf")
    text = "".join(page.get_textpage().get_text_range() for page in pdf)
    assert text.count("c5.png") == 1 and "c4.png" not in text  # only the missing picture is marked
    # the check of an export, and the export, call it an error at the same cell and write nothing
    export = BuildSettings(outputs=("export",), targets=("tgc",), manifest_targets=False, draft=False)
    dry = run_game(BuildJob(source, tmp_path / "x", export, write=False))
    assert ("error",) + where in placed(dry.findings)
    refused = run_game(BuildJob(source, tmp_path / "x", export))
    assert refused.refused == "errors" and not (tmp_path / "x").exists()
    check = BuildSettings(SheetOptions(contact_sheets=False), targets=("tgc",))
    # the check of a build with a target: one finding, the export's error (which names why)
    both = [f for f in run_game(BuildJob(source, tmp_path / "c", check, write=False)).findings
            if (f.rule, f.location) == where]
    assert [f.severity for f in both] == ["error"] and "an export or a --strict build prints no placeholder" in both[0].message


def test_strict_is_no_draft_missing_art_is_an_error_in_its_check_and_build(tiny, tmp_path):
    """--strict refuses missing art, so it is an error in check --strict and build --strict
    alike, worded as what happens (no placeholder), not the draft's warning."""
    art_missing_on_the_fifth_card(tiny)
    dry, built = runs(tiny, tmp_path / "out", strict=True)
    where = ("layout.art-missing", "g/templates/layouts.toml:94 (layouts.action.boxes.art.image)")
    for report in (dry, built):
        found = [f for f in report.findings if (f.rule, f.location) == where]
        assert [(f.severity, f.message) for f in found] == [
            ("error", "no file 'art/c5.png' in the game folder; an export or a --strict build prints no placeholder")]
    assert built.refused == "strict" and not (tmp_path / "out" / "tiny").exists()


@pytest.mark.parametrize("case", list(CASES))
def test_with_contact_sheets_a_build_finds_nothing_its_check_does_not(case, tiny, tmp_path):
    """The contact sheets draw the card sheets' pieces again (a dry run skips them): a build
    that makes them reports exactly what its check reports."""
    CASES[case][0](tiny)
    source = GameSource(tiny, "g", tiny / "templates", "g/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=True))
    dry = run_game(BuildJob(source, tmp_path / "out", settings, write=False))
    built = run_game(BuildJob(source, tmp_path / "out", settings, write=True))
    assert placed(dry.findings) == placed(built.findings) and placed(dry.findings)
    assert "contact" in built.ran and (built.refused or (tmp_path / "out" / "tiny" / "contact" / "cards.png").is_file())
