"""Tuck boxes (``--boxes``), measured on the printed net: the fold lines read from the PDF give
the panels, which must be the computed stack (cards x thickness) and card size plus the
tolerance; the SVG's cut and fold layers hold the same outline and folds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.core.units import MM
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import BuildSettings, OutputJob, SheetOptions, write_result
from pnp.outputs.boxes import render_boxes
from pnp.render.canvas import FOLD_GRAY

from cutoverlay import parse_path, svg_paths
from sheetgeom import open_pdf

TOL = 0.05  # mm


def _build(game_dir: Path, out: Path, paper: str = "letter", dry: bool = False, **settings):
    game = load_game(game_dir, "tiny")
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    job = OutputJob(game, source, out, BuildSettings(SheetOptions(paper=paper), boxes=True, **settings))
    result = render_boxes(job, dry)
    return result if dry else write_result(result)


def _folds(page):
    """(x positions of vertical folds, y positions of horizontal folds) in mm on a pdfplumber
    page, PDF y up: the dashed lines in the fold grey."""
    xs, ys = set(), set()
    for line in page.lines:
        colour = line.get("stroking_color") or ()
        if len(colour) != 3 or any(abs(v - FOLD_GRAY) > 0.002 for v in colour):
            continue
        if abs(line["x0"] - line["x1"]) < 1e-6:
            xs.add(round(line["x0"] / MM, 3))
        else:
            ys.add(round((page.height - line["top"]) / MM, 3))
    return sorted(xs), sorted(ys)


@pytest.mark.parametrize("thickness, sleeve, tolerance", [(0.30, 0.0, 1.0), (0.35, 0.1, 2.0)])
def test_the_printed_net_holds_the_computed_stack(tiny, tmp_path, thickness, sleeve, tolerance):
    (tiny / "cards.csv").write_text(
        "id,title,cost,colour,text,copies\nfire,Fire,2,red,,5\nleaf,Leaf,1,green,,4\nsun,Sun,3,red,,2\n")
    result = _build(tiny, tmp_path, card_thickness=thickness * MM, sleeve_thickness=sleeve * MM,
                    box_tolerance=tolerance * MM)
    assert result.findings == []
    cards = 11  # the tiny game's deck: 5 + 4 + 2 copies
    width, height = 63.5 + tolerance, 88.9 + tolerance
    depth = cards * (thickness + sleeve) + tolerance
    page = open_pdf(tmp_path / "tiny-boxes.pdf").pages[1]
    xs, ys = _folds(page)
    # four body folds: glue|back, back|side, side|front, front|side
    assert len(xs) == 4
    assert xs[1] - xs[0] == pytest.approx(width, abs=TOL)   # back
    assert xs[2] - xs[1] == pytest.approx(depth, abs=TOL)   # side
    assert xs[3] - xs[2] == pytest.approx(width, abs=TOL)   # front
    # horizontal folds: the body's bottom and top edge, and the lid's top
    assert len(ys) == 3
    assert ys[1] - ys[0] == pytest.approx(height, abs=TOL)
    assert ys[2] - ys[1] == pytest.approx(depth, abs=TOL)   # the lid is the box's depth
    # the cut file: one closed outline on the cut layer and the same folds on the fold layer
    svg = svg_paths(tmp_path / "boxes" / "tiny-box-cards.svg")
    assert len(svg["cut"]) == 1 and len(svg["fold"]) == len(page.lines) - sum(
        1 for line in page.lines if (line.get("stroking_color") or ()) == (0, 0, 0))
    points, _ = parse_path(svg["cut"][0])
    left = min(x for x, _ in points)
    right = max(x for x, _ in points)
    assert right - left == pytest.approx(12 + 2 * width + 2 * depth, abs=TOL)  # 12 mm glue tab
    assert min(abs(x - xs[0]) for x, _ in points) < TOL  # the glue tab's fold is on the outline


def test_a_box_too_large_for_one_sheet_is_split_in_two(tiny, tmp_path):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text().replace('card_size = "poker"', 'card_size = "150mm x 200mm"'))
    result = _build(tiny, tmp_path)
    assert result.findings == [] and result.sheets == 2
    pdf = open_pdf(tmp_path / "tiny-boxes.pdf")
    assert len(pdf.pages) == 3
    back, wrap = (_folds(page) for page in pdf.pages[1:])
    assert len(back[0]) == 2 and back[0][1] - back[0][0] == pytest.approx(151.0, abs=TOL)  # tab|back|tab
    assert len(wrap[0]) == 2 and wrap[0][1] - wrap[0][0] == pytest.approx(151.0, abs=TOL)  # side|front|side
    assert sorted(p.name for p in (tmp_path / "boxes").iterdir()) == ["tiny-box-cards-1.svg", "tiny-box-cards-2.svg"]


def test_a_box_that_fits_no_sheet_is_an_error_check_finds_first(tiny, tmp_path):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text().replace('card_size = "poker"', 'card_size = "300mm x 400mm"'))
    found = _build(tiny, tmp_path, dry=True).findings
    assert [(f.rule, f.severity, f.line) for f in found] == [("box.fit", "error", 12)]
    cli = subprocess.run([sys.executable, "-m", "pnp", "check", str(tiny), "--boxes", "--format", "json",
                          "-o", str(tmp_path / "out")], capture_output=True, text=True)
    reported = [f for f in json.loads(cli.stdout)[0]["findings"] if f["rule"] == "box.fit"]
    assert cli.returncode == 1 and [(f["line"], f["message"]) for f in reported] == [(12, found[0].message)]


def test_sleeves_size_the_box_for_the_sleeve(tiny, tmp_path):
    result = _build(tiny, tmp_path, sleeve_size=(66 * MM, 91 * MM), sleeve_thickness=0.1 * MM)
    assert result.findings == []
    xs, ys = _folds(open_pdf(tmp_path / "tiny-boxes.pdf").pages[1])
    assert xs[1] - xs[0] == pytest.approx(66 + 1, abs=TOL)
    assert ys[1] - ys[0] == pytest.approx(91 + 1, abs=TOL)
    assert xs[2] - xs[1] == pytest.approx(5 * (0.30 + 0.1) + 1, abs=TOL)  # the tiny deck's 5 cards


def test_a_sleeve_smaller_than_the_card_is_an_error(tiny, tmp_path):
    found = _build(tiny, tmp_path, dry=True, sleeve_size=(60 * MM, 91 * MM)).findings
    assert [(f.rule, f.line) for f in found] == [("box.sleeve", 12)]


MORE_DECK = '''
[components.{id}]
kind = "deck"
name = "{name}"
table = "cards.csv"
id_column = "id"
copies_column = "copies"
card_size = "{size}"
back_column = "colour"
layout = "action"

[components.{id}.columns]
id = "id"
title = "str"
cost = {{ type = "int", min = 0, max = 9 }}
colour = {{ type = "enum", values = ["red", "green"] }}
text = {{ type = "text", required = false }}
copies = {{ type = "int", min = 0 }}
'''
FACE_LAYOUT = '''
[layouts.box-front]
background = "#1F4E79"

[layouts.box-front.boxes.marker]
type = "rect"
x = "2mm"
y = "3mm"
width = "1mm"
height = "1mm"
fill = "black"

[layouts.box-front.boxes.title]
type = "text"
text = "{{ box.name }}: {{ box.cards }} cards"
x = "4mm"
y = "10mm"
width = "55mm"
height = "10mm"
size = 12
color = "white"
'''


def _add_deck(game_dir: Path, deck: str, name: str, size: str = "poker") -> None:
    """A second (third ...) deck of the tiny game's five cards, from its own table."""
    with (game_dir / "game.toml").open("a") as f:
        f.write(MORE_DECK.format(id=deck, name=name, size=size))


def _add_boxes(game_dir: Path, toml: str) -> None:
    with (game_dir / "game.toml").open("a") as f:
        f.write("\n" + toml)


def test_a_group_is_one_box_as_deep_as_its_decks_and_as_large_as_their_largest_card(tiny, tmp_path):
    _add_deck(tiny, "minis", "Mini cards", "mini")
    _add_boxes(tiny, '[boxes.starter]\nname = "Starter decks"\ndecks = ["cards", "minis"]\n')
    result = _build(tiny, tmp_path)
    assert result.findings == [] and result.cards == 1
    xs, ys = _folds(open_pdf(tmp_path / "tiny-boxes.pdf").pages[1])
    assert xs[1] - xs[0] == pytest.approx(63.5 + 1, abs=TOL)  # the poker cards, larger than the minis
    assert ys[1] - ys[0] == pytest.approx(88.9 + 1, abs=TOL)
    assert xs[2] - xs[1] == pytest.approx(10 * 0.30 + 1, abs=TOL)  # five cards in each deck
    assert sorted(p.name for p in (tmp_path / "boxes").iterdir()) == ["tiny-box-starter.svg"]


def test_a_face_layout_is_drawn_in_the_front_panel_and_a_picture_in_the_back(tiny, tmp_path):
    from PIL import Image

    from sheetgeom import markers

    _add_deck(tiny, "more", "More cards")
    with (tiny / "templates" / "layouts.toml").open("a") as f:
        f.write(FACE_LAYOUT)
    (tiny / "art").mkdir()
    Image.new("RGB", (800, 1100), (200, 40, 40)).save(tiny / "art" / "back.png")
    _add_boxes(tiny, '[boxes.all]\ndecks = ["cards", "more"]\nfront = { layout = "box-front" }\n'
                     'back = { image = "art/back.png" }\n')
    result = _build(tiny, tmp_path)
    assert [f for f in result.findings if f.severity != "info"] == []
    page = open_pdf(tmp_path / "tiny-boxes.pdf").pages[1]
    xs, ys = _folds(page)
    found = markers(page, back=False)
    assert len(found) == 1  # the front layout's marker, 2 mm in and 3 mm down from the panel's top-left
    left, top = found[0]
    assert left / MM == pytest.approx(xs[2], abs=TOL) and top / MM == pytest.approx(ys[1], abs=TOL)
    words = " ".join(page.extract_text().split())
    assert "Action cards + More cards: 10 cards" in words  # the layout sees the box's name and count
    image = page.images[0]  # the picture covers the back panel (x from the glue fold to the next)
    assert image["x0"] / MM <= xs[0] + TOL and image["x1"] / MM >= xs[1] - TOL
    assert (page.height - image["bottom"]) / MM <= ys[0] + TOL and (page.height - image["top"]) / MM >= ys[1] - TOL


@pytest.mark.slow
def test_group_and_face_errors_are_located_with_a_hint_and_check_finds_them_first(tiny, tmp_path):
    _add_deck(tiny, "more", "More cards")
    _add_boxes(tiny, '[boxes.all]\ndecks = ["cards", "mroe"]\nfront = { layout = "box-frnt" }\n')
    found = _build(tiny, tmp_path, dry=True).findings
    errors = [(f.rule, f.line, f.message, f.hint) for f in found if f.severity == "error"]
    lines = (tiny / "game.toml").read_text().splitlines()
    decks_line = next(i for i, line in enumerate(lines, 1) if line.startswith('decks = ["cards", "mroe"]'))
    assert errors[0][:3] == ("box.group", decks_line, "no deck 'mroe'") and errors[0][3].startswith("did you mean 'more'?")
    assert errors[1][:3] == ("box.face", decks_line + 1, "the layout 'box-frnt' is not defined in tiny/templates/layouts.toml")
    cli = subprocess.run([sys.executable, "-m", "pnp", "check", str(tiny), "--boxes", "--format", "json",
                          "-o", str(tmp_path / "out")], capture_output=True, text=True)
    reported = [(f["rule"], f["line"], f["message"].split(" in ")[0]) for f in json.loads(cli.stdout)[0]["findings"]
                if f["rule"].startswith("box.")]
    assert cli.returncode == 1 and reported == [(r, line, m.split(" in ")[0]) for r, line, m, _ in errors]


def _box_errors(game_dir: Path, tmp_path: Path) -> list[tuple[str, str, str]]:
    return [(f.rule, f.message, f.hint) for f in _build(game_dir, tmp_path, dry=True).findings
            if f.severity == "error"]


def test_a_group_named_after_one_of_its_decks_is_no_error(tiny, tmp_path):
    _add_deck(tiny, "more", "More cards")
    _add_boxes(tiny, '[boxes.cards]\ndecks = ["cards", "more"]\n')
    result = _build(tiny, tmp_path)
    assert [f for f in result.findings if f.severity == "error"] == [] and result.cards == 1
    assert sorted(p.name for p in (tmp_path / "boxes").iterdir()) == ["tiny-box-cards.svg"]


def test_a_group_of_no_real_deck_says_so_and_nothing_about_its_name(tiny, tmp_path):
    _add_boxes(tiny, '[boxes.all]\ndecks = ["crads", "Action cards", "tokens", "zebra"]\n')
    errors = _box_errors(tiny, tmp_path)
    assert [m for _, m, _ in errors] == ["no deck 'crads'", "no deck 'Action cards'",
                                         "no deck 'tokens': 'tokens' is a tokens component, not a deck",
                                         "no deck 'zebra'"]
    assert errors[0][2] == "did you mean 'cards'? decks: cards"
    assert errors[1][2].startswith("did you mean 'cards'? a group names its decks by id")
    assert errors[2][2] == "a box holds decks of cards; decks: cards"
    assert errors[3][2] == "decks: cards"  # nothing close: no guess


def test_a_face_naming_a_board_layout_is_told_it_is_one_and_unrelated_names_get_no_guess(tiny, tmp_path):
    _add_boxes(tiny, '[boxes.cards]\ndecks = ["cards"]\nfront = { layout = "coin" }\nback = { layout = "gren" }\n'
                     'sides = { layout = "actor" }\n')
    errors = _box_errors(tiny, tmp_path)
    assert [m for _, m, _ in errors] == [
        "the layout 'coin' is a board layout of tiny/templates/boards.toml, not a card layout of "
        "tiny/templates/layouts.toml: a box holds decks (decks: cards), and its faces are drawn as their cards are",
        "the layout 'gren' is not defined in tiny/templates/layouts.toml",
        "the layout 'actor' is not defined in tiny/templates/layouts.toml"]
    assert errors[0][2].endswith("or give an image; layouts: action, base, green, red")
    assert errors[1][2] == "did you mean 'green'? layouts: action, base, green, red"
    assert errors[2][2] == "layouts: action, base, green, red"  # 'actor' is not close enough to 'action' to guess


LONG_NAME = "The Extraordinarily Long-Winded Compendium of Action Cards for Everyone at the Table"


def _rename_deck(game_dir: Path, name: str, copies: int = 20) -> None:
    manifest = game_dir / "game.toml"
    manifest.write_text(manifest.read_text().replace('name = "Action cards"', f'name = "{name}"'))
    (game_dir / "cards.csv").write_text(f"id,title,cost,colour,text,copies\nfire,Fire,2,red,,{copies}\n"
                                        f"leaf,Leaf,1,green,,{copies}\n")


def test_a_long_deck_name_is_made_smaller_and_wrapped_inside_every_panel(tiny, tmp_path):
    _rename_deck(tiny, LONG_NAME)  # 40 cards: a side 13 mm deep, which shows the name too
    result = _build(tiny, tmp_path)
    assert [f for f in result.findings if f.rule == "box.text-fit"] == []
    page = open_pdf(tmp_path / "tiny-boxes.pdf").pages[1]
    xs, ys = _folds(page)
    depth = xs[2] - xs[1]
    panels = {"back": (xs[0], xs[1]), "side": (xs[1], xs[2]), "front": (xs[2], xs[3]),
              "side-2": (xs[3], xs[3] + depth)}
    chars = page.chars
    # a character's size: its box's height, or for a turned one its width (pdfminer's boxes)
    assert min(ch["bottom"] - ch["top"] if ch["upright"] else ch["x1"] - ch["x0"] for ch in chars) >= 6 - 1e-6
    held = {name: "" for name in panels}
    for ch in chars:
        left, right = ch["x0"] / MM, ch["x1"] / MM
        low, high = (page.height - ch["bottom"]) / MM, (page.height - ch["top"]) / MM
        inside = [name for name, (x0, x1) in panels.items()
                  if x0 - TOL <= left and right <= x1 + TOL and ys[0] - TOL <= low and high <= ys[1] + TOL]
        assert inside, f"{ch['text']!r} at x {left:.1f}-{right:.1f} mm, y {low:.1f}-{high:.1f} mm is on no panel"
        held[inside[0]] += ch["text"].strip()
    for name in panels:  # every panel shows the whole name, wrapped over several lines
        assert LONG_NAME.replace(" ", "") in held[name], (name, held[name])
    assert "40cards" in held["front"] and "TinyTestGame" in held["back"]


def test_a_name_that_cannot_fit_its_panels_is_a_warning_check_finds_too(tiny, tmp_path):
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2  # one word, wider than a panel at 6 pt
    _rename_deck(tiny, word)
    dry = [f for f in _build(tiny, tmp_path, dry=True).findings if f.rule == "box.text-fit"]
    built = [f for f in _build(tiny, tmp_path).findings if f.rule == "box.text-fit"]
    assert [(f.severity, f.line, f.field, f.message) for f in dry] == \
        [(f.severity, f.line, f.field, f.message) for f in built]
    lines = (tiny / "game.toml").read_text().splitlines()
    name_line = next(i for i, line in enumerate(lines, 1) if line.startswith(f'name = "{word}"'))
    assert [(f.severity, f.line, f.field) for f in dry] == [("warning", name_line, "components.cards.name")] * 3
    assert [f.message.split(" panel")[0] for f in dry] == [
        "the name and the count do not fit the front", "the name and the game's title do not fit the back",
        "the name does not fit the sides"]
    assert all("(deck cards)" in f.message and "even at 6 pt" in f.message for f in dry)
    assert dry[0].hint.startswith('a shorter name, or give the box one of its own: [boxes.cards]')


def test_a_contents_entry_longer_than_the_cover_wraps_inside_its_margins(tiny, tmp_path):
    _add_deck(tiny, "more", "More cards with a name that goes on and on")
    _add_boxes(tiny, f'[boxes.all]\nname = "{LONG_NAME}"\ndecks = ["cards", "more"]\n')
    result = _build(tiny, tmp_path)
    assert [f for f in result.findings if f.severity == "error"] == []
    cover = open_pdf(tmp_path / "tiny-boxes.pdf").pages[0]
    right = cover.width - 5 * MM - 5 * MM  # the default --margin, and the cover's own 5 mm
    assert max(ch["x1"] for ch in cover.chars) <= right + 0.01
    words = " ".join(cover.extract_text().split())
    assert f"{LONG_NAME} (Action cards, More cards with a name that goes on and on): 10 cards" in words
