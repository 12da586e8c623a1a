"""The preview's pieces and findings, without a server: each piece drawn alone where the card
sheets draw it (measured in its PDF and its PNG), redrawn only when its inputs change, and the
findings exactly those `pnp check` reports."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from pnp.model.games import find_game
from pnp.outputs.base import SheetOptions
from pnp.preview.pieces import piece_pdf, piece_png
from pnp.preview.session import PreviewSession, check_in_background

MM = 72 / 25.4
BLEED = 9.0  # pt: the tiny layouts keep the default 1/8 in
CARD = (63.5 * MM, 88.9 * MM)


def _session(game: Path) -> PreviewSession:
    session = PreviewSession(find_game(str(game)), output=game.parent / "build")
    session.refresh()
    return session


def _items(session: PreviewSession) -> dict[str, dict]:
    return {item["id"]: item for section in session.state()["sections"] for item in section["items"]}


def _keys(session: PreviewSession) -> dict[tuple[str, str], str]:
    return {(i, side["side"]): side["key"] for i, item in _items(session).items() for side in item["sides"]}


def _draw_all(session: PreviewSession) -> None:
    for key in _keys(session).values():
        assert session.png(key)[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_card_is_listed_once_with_its_copies_face_and_back(tiny):
    items = _items(_session(tiny))
    assert [(i["id"], i["copies"], [s["side"] for s in i["sides"]]) for i in items.values()] == [
        ("cards/fire", 3, ["face", "back"]), ("cards/leaf", 2, ["face", "back"]), ("tokens/tokens", 10, ["face"])]
    assert items["cards/leaf"]["where"].endswith("cards.csv:4")


def test_a_card_is_drawn_alone_as_on_its_sheet(tiny):
    """The face's page is the trim and 1/8 in of bleed; the tiny layouts' 1 x 1 mm marker sits
    2 mm right of the trim's left edge and 3 mm below its top (tests/sheetgeom.py), measured in
    the PDF to 0.05 mm and in the PNG at 300 dpi to a pixel (0.085 mm)."""
    session = _session(tiny)
    key = _keys(session)[("cards/fire", "face")]
    recipe = session.listing.recipes[key]
    pdf, art = piece_pdf(recipe)
    assert art == []
    path = tiny.parent / "fire.pdf"
    path.write_bytes(pdf)
    with pdfplumber.open(path) as doc:
        page = doc.pages[0]
        assert abs(page.width - (CARD[0] + 2 * BLEED)) < 0.05 * MM
        assert abs(page.height - (CARD[1] + 2 * BLEED)) < 0.05 * MM
        (marker,) = [r for r in page.rects if abs(r["width"] - MM) < 0.01 and abs(r["height"] - MM) < 0.01
                     and tuple(r["non_stroking_color"]) == (0, 0, 0)]
        assert abs(marker["x0"] - (BLEED + 2 * MM)) < 0.05 * MM
        assert abs(marker["top"] - (BLEED + 3 * MM)) < 0.05 * MM
    png, _ = piece_png(recipe, dpi=300)
    png_path = tiny.parent / "fire.png"
    png_path.write_bytes(png)
    image = Image.open(png_path).convert("RGB")
    px = 300 / 72
    assert image.size == (round((CARD[0] + 2 * BLEED) * px), round((CARD[1] + 2 * BLEED) * px))
    dark = [(x, y) for x in range(40, 110) for y in range(40, 110) if sum(image.getpixel((x, y))) < 60]
    assert abs(min(x for x, _ in dark) - (BLEED + 2 * MM) * px) <= 1
    assert abs(min(y for _, y in dark) - (BLEED + 3 * MM) * px) <= 1
    assert abs(max(x for x, _ in dark) + 1 - (BLEED + 3 * MM) * px) <= 1


def test_an_edit_redraws_only_the_pieces_it_touches(tiny):
    session = _session(tiny)
    _draw_all(session)
    before, drawn = _keys(session), session.renders
    assert drawn == 5
    _draw_all(session)
    assert session.renders == drawn  # cached
    cards = tiny / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("leaf,Leaf,", "leaf,Oak leaf,"), encoding="utf-8")
    session.refresh()
    after = _keys(session)
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {("cards/leaf", "face")}  # the back reads the game's title only
    _draw_all(session)
    assert session.renders == drawn + 1


def test_an_art_file_change_redraws_the_pieces_that_drew_it(tiny):
    art = tiny / "art"
    art.mkdir()
    Image.new("RGB", (60, 60), (10, 20, 200)).save(art / "fire.png")
    Image.new("RGB", (60, 60), (200, 20, 10)).save(art / "leaf.png")
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + """
[layouts.action.boxes.art]
type = "image"
image = "art/{{ id }}.png"
x = "20mm"
y = "60mm"
width = "20mm"
height = "20mm"
""", encoding="utf-8")
    session = _session(tiny)
    _draw_all(session)
    session.refresh()  # the keys now cover the art each face drew
    first, drawn = _keys(session), session.renders
    _draw_all(session)
    assert session.renders == drawn  # the images were kept under their new keys
    Image.new("RGB", (60, 60), (10, 200, 20)).save(art / "leaf.png")
    session.refresh()
    after = _keys(session)
    assert {k for k in first if first[k] != after[k]} == {("cards/leaf", "face")}
    _draw_all(session)
    assert session.renders == drawn + 1
    image = Image.open(__import__("io").BytesIO(session.png(after[("cards/leaf", "face")]))).convert("RGB")
    centre = ((BLEED + 30 * MM) / 72 * 100, (BLEED + 70 * MM) / 72 * 100)  # the art box, at 100 dpi
    assert image.getpixel((round(centre[0]), round(centre[1]))) == (10, 200, 20)


def test_a_broken_edit_keeps_the_last_good_pieces_and_says_where(tiny):
    session = _session(tiny)
    good = _keys(session)
    cards = tiny / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("leaf,Leaf,1,", "leaf,Leaf,one,"), encoding="utf-8")
    session.refresh()
    state = session.state()
    assert not state["loaded"] and _keys(session) == good
    (error,) = state["errors"]
    assert (error["rule"], error["line"], error["column"], error["field"]) == ("schema.type", 4, 3, "cost")
    assert error["items"] == ["cards/leaf"]


def _check_json(game: Path, out: Path) -> list[dict]:
    result = subprocess.run([sys.executable, "-m", "pnp", "check", str(game), "--format", "json", "-o", str(out)],
                            capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)[0]["findings"]


@pytest.mark.parametrize("edit", ["totals", "layout"])
def test_the_findings_are_those_pnp_check_reports(tiny, edit):
    """The page's findings (rule, place, words) are those of ``pnp check --format json``, each
    beside the pieces it names."""
    if edit == "totals":
        cards = tiny / "cards.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("leaf,Leaf,1,green", "leaf,Leaf,1,red"),
                         encoding="utf-8")
    else:  # a colour the game does not have, on the leaf card only
        layouts = tiny / "templates" / "layouts.toml"
        layouts.write_text(layouts.read_text(encoding="utf-8").replace(
            'text = "{{ title }}"', 'text = "{{ title }}"\ncolor = "{{ \'mauve\' if id == \'leaf\' else \'black\' }}"'),
            encoding="utf-8")
    session = _session(tiny)
    session.apply_check(check_in_background(session.check_job(), ""))
    shown = json.loads(json.dumps(session.state()["findings"]))  # as the page receives them
    expected = _check_json(tiny, tiny.parent / "build")
    assert [{k: v for k, v in f.items() if k not in ("items", "section")} for f in shown] == expected
    if edit == "totals":
        (total,) = [f for f in shown if f["rule"] == "totals.stated" and "red" in f["message"]]
        assert total["file"].endswith("game.toml")
    else:
        (colour,) = [f for f in shown if "mauve" in f["message"]]
        assert colour["items"] == ["cards/leaf"] and colour["section"] == "cards"


def test_a_broken_layouts_file_is_shown_as_a_build_reports_it(tiny, tmp_path):
    """A layouts.toml that is not valid TOML: the error the card stage of `pnp check` reports (same
    rule, file and line), and the last good pieces stay."""
    session = _session(tiny)
    good = _keys(session)
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace('size = 14\nalign = "center"\nvalign',
                                                                   'size = 14\nalign = "center\nvalign', 1),
                       encoding="utf-8")
    session.refresh()
    state = session.state()
    assert not state["loaded"] and _keys(session) == good
    (error,) = state["errors"]
    checked = [f for f in _check_json(tiny, tmp_path / "build") if f["severity"] == "error"]
    assert [(f["rule"], f["file"], f["line"]) for f in checked] == [(error["rule"], error["file"], error["line"])]
    assert error["file"].endswith("layouts.toml") and error["line"]


def test_a_language_is_previewed_from_its_catalogue_and_a_language_the_game_lacks_is_shown_at_its_line(tmp_path):
    """``pnp preview --lang de``: the cards are listed and drawn with the catalogue's words
    (read back from the drawn face), and a language game.toml does not list is the error
    ``pnp check --lang`` gives."""
    from pnp.outputs.base import BuildSettings
    from tests.unit.model.test_i18n import GERMAN, _extract, _tiny, _translate_po

    game = _tiny(tmp_path)
    _translate_po(_extract(game), GERMAN)
    session = PreviewSession(find_game(str(game)), output=tmp_path / "build",
                             settings=BuildSettings(SheetOptions(contact_sheets=False), language="de"))
    session.refresh()
    assert session.errors == [] and session.title.endswith("[de]")
    recipe = session.listing.recipes[_keys(session)[("cards/spark", "face")]]
    pdf, _art = piece_pdf(recipe)
    path = tmp_path / "spark.pdf"
    path.write_bytes(pdf)
    with pdfplumber.open(path) as doc:
        words = doc.pages[0].extract_text()
    assert "Funke" in words and "Spark" not in words

    french = PreviewSession(find_game(str(game)), output=tmp_path / "build",
                            settings=BuildSettings(SheetOptions(contact_sheets=False), language="fr"))
    french.refresh()
    [error] = french.errors
    assert error["rule"] == "i18n.language" and error["location"].endswith("tide/game.toml:8 (game.languages)")


def test_the_rulebook_pages_shown_are_the_built_rulebook_s_pages(tmp_path):
    """The background check hands the page the rulebook's pages as PNGs (a dry run makes no PDF,
    so they are drawn from a real render of the rulebook stage): one per page of the built
    rulebook, and none again while the rulebook's inputs are unchanged."""
    import pypdfium2 as pdfium

    session = PreviewSession(find_game("periodic-shed"), output=tmp_path / "build")
    result = check_in_background(session.check_job(), "", dpi=20)
    assert result.loaded and result.rulebook_key
    built = subprocess.run([sys.executable, "-m", "pnp", "rulebook", "periodic-shed", "-o", str(tmp_path / "out")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    pdf = pdfium.PdfDocument(tmp_path / "out" / "periodic-shed" / "periodic-shed-rulebook.pdf")
    assert len(result.rulebook_pages) == len(pdf) > 1
    for png in result.rulebook_pages:
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size[0] > 100 and image.getextrema() != ((255, 255),) * 3
    again = check_in_background(session.check_job(), result.rulebook_key, dpi=20)
    assert again.rulebook_pages is None  # the page already shows them
