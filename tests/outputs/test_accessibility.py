"""Colour-blind, greyscale and contrast findings (docs/accessibility.md) on a one-deck game."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import typer_app

app = typer_app()
from pnp.core.tomlpos import toml_key_lines
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.access import access_findings
from pnp.render import vision
from pnp.render.ink import tint

RED, GREEN = "#C8322B", "#2E8B57"
"""A red and a green that deuteranopia brings to ΔE 12.4 apart (below 15)."""
BLUE, ORANGE = "#4F6FD0", "#A86420"
"""A blue and an orange of near equal luminance: far apart in colour, close in greyscale."""

CARDS = "id,name,suit,copies\nr1,One,a,1\nr2,Two,a,1\ng1,Three,b,1\ng2,Four,b,1\n"


def make_game(tmp: Path, colors: tuple[str, str], extra_boxes: str = "", icons: str = "",
              manifest_extra: str = "", text_color: str = "black") -> Path:
    """A game with one deck of four cards in two suits (a, b), each suit's colour filling a
    band; ``extra_boxes`` are added to the face layout."""
    game = tmp / "suits"
    (game / "templates").mkdir(parents=True)
    (game / "game.toml").write_text(textwrap.dedent(f"""\
        [game]
        id = "suits"
        title = "Suits"
        players = [2, 2]

        [colors]
        a = "{colors[0]}"
        b = "{colors[1]}"

        [components.cards]
        kind = "deck"
        name = "Suit cards"
        table = "cards.csv"
        id_column = "id"
        copies_column = "copies"
        card_size = "poker"
        layout = "face"
        back = "back"

        [components.cards.columns]
        id = "id"
        name = "str"
        suit = {{ type = "enum", values = ["a", "b"] }}
        copies = {{ type = "int", min = 0 }}
        """) + manifest_extra, encoding="utf-8")
    (game / "cards.csv").write_text(CARDS, encoding="utf-8")
    (game / "templates" / "layouts.toml").write_text(textwrap.dedent(f"""\
        {icons}
        [layouts.face]
        background = "white"

        [layouts.face.boxes.band]
        type = "rect"
        area = "bleed"
        fill = "{{{{ suit }}}}"

        [layouts.face.boxes.name]
        type = "text"
        text = "{{{{ name }}}}"
        x = "6mm"
        y = "6mm"
        width = "51.5mm"
        height = "10mm"
        size = 10
        color = "{text_color}"
        {extra_boxes}
        [layouts.back]
        background = "black"
        """), encoding="utf-8")
    return game


def findings(game: Path, strict: bool = False):
    source = GameSource(game, "suits", game / "templates", "suits/templates")
    loaded = load_game(game, "suits")
    return access_findings(loaded, game_layouts(loaded, source), None, strict)


ICON_BOX = """
[layouts.face.boxes.suit_icon]
type = "icons"
items = "[suit]"
x = "6mm"
y = "20mm"
width = "20mm"
height = "8mm"
"""
ICONS = """
[icons.a]
shape = "circle"
fill = "black"
label = "A"
label_color = "white"

[icons.b]
shape = "star"
fill = "black"
label = "B"
label_color = "white"
"""


def test_red_and_green_suits_are_a_deuteranopia_finding(tmp_path):
    found = findings(make_game(tmp_path, (RED, GREEN)))
    blind = [f for f in found if f.rule == "access.color-blind"]
    assert any("deuteranopia" in f.message for f in blind), [f.message for f in found]
    f = next(f for f in blind if "deuteranopia" in f.message)
    assert "suit = a and suit = b" in f.message and "band" in f.message and "layout face" in f.message
    assert f.severity == "info" and f.file.endswith("templates/layouts.toml")
    assert f.line == toml_key_lines((tmp_path / "suits/templates/layouts.toml").read_text())["layouts.face.boxes.band.fill"]
    assert set(f.pieces) == {"cards/r1", "cards/r2", "cards/g1", "cards/g2"}
    assert vision.difference(RED, GREEN, "deuteranopia") < vision.DISTINCT <= vision.difference(RED, GREEN)


def test_a_distinct_icon_per_suit_removes_it(tmp_path):
    found = findings(make_game(tmp_path, (RED, GREEN), ICON_BOX, ICONS))
    assert not [f for f in found if f.rule in ("access.color-blind", "access.greyscale")], [f.message for f in found]


def test_the_same_icon_for_both_suits_does_not(tmp_path):
    same = ICON_BOX.replace('"[suit]"', "['a']")
    found = findings(make_game(tmp_path, (RED, GREEN), same, ICONS))
    assert any(f.rule == "access.color-blind" for f in found)


def test_equal_luminance_is_a_greyscale_finding_and_an_icon_removes_it(tmp_path):
    assert abs(vision.luminance(BLUE) - vision.luminance(ORANGE)) < 0.02
    found = findings(make_game(tmp_path / "1", (BLUE, ORANGE)))
    grey = [f for f in found if f.rule == "access.greyscale"]
    assert grey and "printed in greyscale" in grey[0].message
    assert not [f for f in found if f.rule == "access.color-blind" and "deuteranopia" in f.message]
    fixed = findings(make_game(tmp_path / "2", (BLUE, ORANGE), ICON_BOX, ICONS))
    assert not [f for f in fixed if f.rule == "access.greyscale"]


def test_low_contrast_text_is_found_at_its_colour_setting(tmp_path):
    game = make_game(tmp_path, ("#777777", "#787878"), text_color="#8A8A8A")
    found = [f for f in findings(game) if f.rule == "access.contrast"]
    assert found and "below the WCAG minimum of 4.5:1" in found[0].message
    lines = toml_key_lines((game / "templates/layouts.toml").read_text())
    assert found[0].line == lines["layouts.face.boxes.name.color"]
    assert vision.contrast("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert vision.min_contrast(18, False) == vision.min_contrast(14, True) == 3.0
    assert vision.min_contrast(13.5, True) == 4.5


def test_accept_entries_keep_the_finding_as_an_accepted_info(tmp_path):
    accept = textwrap.dedent("""
        [accessibility]
        accept = [
          { rule = "access.color-blind", categories = ["suit = a", "suit = b"], reason = "the suit is named in the text" },
          { rule = "access.greyscale", reason = "colour print only" },
          { rule = "access.contrast", box = "nothing", reason = "stale" },
        ]
        """)
    found = findings(make_game(tmp_path, (RED, GREEN), manifest_extra=accept), strict=True)
    blind = [f for f in found if f.rule == "access.color-blind"]
    assert blind and all(f.severity == "info" and "(accepted: the suit is named" in f.message for f in blind)
    stale = [f for f in found if f.rule == "access.accept"]
    assert len(stale) == 1 and stale[0].severity == "warning" and "entry 3" in stale[0].message


def test_accept_without_a_reason_is_an_error(tmp_path):
    accept = '\n[accessibility]\naccept = [{ rule = "access.color-blind" }]\n'
    found = findings(make_game(tmp_path, (RED, GREEN), manifest_extra=accept))
    bad = [f for f in found if f.rule == "access.accept"]
    assert bad and bad[0].severity == "error" and "no reason" in bad[0].message and bad[0].line


def test_check_accessibility_makes_them_warnings(tmp_path):
    game = make_game(tmp_path, (RED, GREEN))
    runner = CliRunner()
    plain = json.loads(runner.invoke(app, ["check", str(game), "--format", "json"]).stdout)
    strict = runner.invoke(app, ["check", str(game), "--format", "json", "--accessibility", "--strict"])
    rules = {(f["rule"], f["severity"]) for f in plain[0]["findings"]}
    assert ("access.color-blind", "info") in rules
    assert ("access.color-blind", "warning") in {(f["rule"], f["severity"]) for f in json.loads(strict.stdout)[0]["findings"]}
    assert strict.exit_code == 1


def test_multi_line_strings_keep_later_key_lines():
    text = "a = '''x {{ y | replace('p', '\n') }}'''\nb = 1 # it's '''\nc = 2\n"
    assert toml_key_lines(text) == {"a": 1, "b": 3, "c": 4}


@pytest.mark.parametrize("simulation", ["deuteranopia", "greyscale"])
def test_build_simulate_writes_only_the_preview_as_seen(tmp_path, simulation):
    import pypdfium2 as pdfium

    game = make_game(tmp_path, (RED, GREEN))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(game), "-o", str(out), "--simulate", simulation, "-q"])
    assert result.exit_code == 0, result.stdout
    written = sorted(p.name for p in (out / "suits").iterdir() if not p.name.startswith("."))
    assert written == [f"suits-simulated-{simulation}.pdf"]
    doc = pdfium.PdfDocument(str(out / "suits" / written[0]))
    assert len(doc) == 4  # the calibration sheet (front and back), the faces, the backs
    w, h = doc[2].get_width(), doc[2].get_height()
    assert (round(w), round(h)) == (612, 792)  # Letter, as the sheets
    image = doc[2].render(scale=1).to_pil().convert("RGB")
    text = doc[2].get_textpage().get_text_range()
    assert f"Simulated {simulation}" in text and "not for print" in text
    # the first card's band (red, bleed area) beside its white name panel: as the vision sees red
    want = tuple(round(v * 255) for v in vision.seen(RED, simulation))
    px = _band_pixel(image)
    assert all(abs(a - b) <= 3 for a, b in zip(px, want)), (px, want)
    if simulation == "greyscale":
        import numpy as np

        pixels = np.asarray(image)
        assert (pixels[..., 0] == pixels[..., 1]).all() and (pixels[..., 1] == pixels[..., 2]).all()


def _band_pixel(image):
    """A pixel inside the first card (top left of the grid), 3 mm inside its trim corner."""
    from pnp.core.units import MM

    return image.getpixel((int(image.width / 2 - 1.5 * 63.5 * MM + 3 * MM), int(image.height / 2 - 1.5 * 88.9 * MM + 3 * MM)))


def _colour_not_k(pdf_path: Path) -> list[str]:
    """Every k/K operator with cyan, magenta or yellow, and every CMYK picture holding them,
    on every page and in every form (recursively)."""
    import numpy as np
    import pikepdf
    from pikepdf import PdfImage

    found, seen = [], set()

    def holder(obj, path):
        if obj.objgen != (0, 0):
            if obj.objgen in seen:
                return
            seen.add(obj.objgen)
        res = obj.get("/Resources") or {}
        for operands, op in pikepdf.parse_content_stream(obj):
            if str(op) in ("k", "K") and any(float(v) for v in operands[:3]):
                found.append(f"{path}: {op} {[float(v) for v in operands]}")
        for name, xobject in (res.get("/XObject") or {}).items():
            if xobject.get("/Subtype") == "/Form":
                holder(xobject, f"{path} {name}")
            elif xobject.get("/Subtype") == "/Image" and xobject.get("/ColorSpace") == "/DeviceCMYK":
                pixels = np.asarray(PdfImage(xobject).as_pil_image())
                if pixels[..., :3].any():
                    found.append(f"{path} {name}: CMYK picture with C, M or Y")

    with pikepdf.open(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages, start=1):
            holder(page.obj, f"p{i}")
    return found


def test_greyscale_edition_has_no_colour(tmp_path):
    import numpy as np
    import pypdfium2 as pdfium

    from pdfwalk import rgb_uses

    game = make_game(tmp_path, (RED, GREEN), ICON_BOX, ICONS.replace('fill = "black"', 'fill = "a"'))
    art = game / "art.png"
    from PIL import Image

    Image.new("RGB", (40, 40), (200, 30, 30)).save(art)  # a red picture: art is converted too
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text() + textwrap.dedent("""
        [layouts.face.boxes.picture]
        type = "image"
        image = "art.png"
        x = "40mm"
        y = "60mm"
        width = "10mm"
        height = "10mm"
        """))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(game), "-o", str(out), "--ink", "greyscale"])
    assert result.exit_code == 0, result.stdout
    pdf = out / "suits" / "suits-cards-greyscale.pdf"
    assert sorted(p.name for p in (out / "suits").iterdir() if not p.name.startswith(".")) == [pdf.name]
    assert "ink per page, default -> greyscale" in result.stdout
    assert rgb_uses(pdf) == []
    assert _colour_not_k(pdf) == []
    doc = pdfium.PdfDocument(str(pdf))
    for i in range(len(doc)):
        pixels = np.asarray(doc[i].render(scale=1).to_pil().convert("RGB"))
        assert (pixels[..., 0] == pixels[..., 1]).all() and (pixels[..., 1] == pixels[..., 2]).all(), i
    # the red suit's band is painted with the black ink of its luminance
    band = _band_pixel(doc[2].render(scale=1).to_pil().convert("RGB"))
    want = round(vision.grey(RED)[0] * 255)
    assert abs(band[0] - want) <= 3, (band, want)


@pytest.mark.slow
def test_low_ink_edition_of_a_bundled_deck_takes_half_the_ink():
    from pnp.model.games import find_game
    from pnp.outputs.base import SheetOptions
    from pnp.outputs.cards import render_cards
    from pnp.render.ink import LowInk, coverage

    source = find_game("atomic-assembly")
    game = load_game(source.path, source.display)
    layouts = game_layouts(game, source)

    def sheets(color_convert):
        result = render_cards(game, layouts, source.path / "output", SheetOptions(contact_sheets=False),
                              only=("elements",), color_convert=color_convert)
        pdf = next(data for path, data in result.outputs if path.suffix == ".pdf")
        return coverage(pdf, dpi=150)[2:]  # the card sheets, after the calibration sheet

    default, low = sheets(None), sheets(LowInk(layouts.low_ink_tint, layouts.low_ink))
    assert len(default) == len(low) >= 2
    assert sum(low) <= 0.5 * sum(default), (sum(low), sum(default))


def _low_ink_sheet(game: Path):
    from pnp.outputs.base import SheetOptions
    from pnp.outputs.cards import render_cards
    from pnp.render.ink import LowInk

    source = GameSource(game, "suits", game / "templates", "suits/templates")
    loaded = load_game(game, "suits")
    layouts = game_layouts(loaded, source)
    result = render_cards(loaded, layouts, game / "output", SheetOptions(contact_sheets=False),
                          color_convert=LowInk(layouts.low_ink_tint, layouts.low_ink))
    return next(data for path, data in result.outputs if path.suffix == ".pdf")


@pytest.mark.parametrize("mode", ["lighten", "outline"])
def test_low_ink_lightens_or_outlines_large_fills_and_keeps_text_readable(tmp_path, mode):
    import pypdfium2 as pdfium

    game = make_game(tmp_path, (RED, GREEN), text_color="white")
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(f'low_ink = "{mode}"\n' + layouts.read_text())
    doc = pdfium.PdfDocument(_low_ink_sheet(game))
    image = doc[2].render(scale=1).to_pil().convert("RGB")
    band = _band_pixel(image)
    if mode == "lighten":
        want = tuple(round(v * 255) for v in vision.rgb(tint(RED, 0.25)))
        assert all(abs(a - b) <= 3 for a, b in zip(band, want)), (band, want)
    else:
        assert band == (255, 255, 255)
    # the white name on the red band is drawn in red now (white on pale red would not read)
    from pnp.core.units import MM

    x0 = int(image.width / 2 - 1.5 * 63.5 * MM + 6 * MM)
    y0 = int(image.height / 2 - 1.5 * 88.9 * MM + 6 * MM)
    box = image.crop((x0, y0, x0 + int(51.5 * MM), y0 + int(10 * MM)))
    import numpy as np

    pixels = np.asarray(box).reshape(-1, 3)
    darkest = tuple(int(v) for v in pixels[pixels.sum(axis=1).argmin()])
    assert vision.contrast(vision.to_hex(tuple(v / 255 for v in darkest)), "#FFFFFF") > 3, darkest


def test_low_ink_settings_are_checked(tmp_path):
    from pnp.core.errors import LayoutError

    game = make_game(tmp_path, (RED, GREEN))
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text('low_ink = "erase"\n' + layouts.read_text())
    with pytest.raises(LayoutError, match="low_ink 'erase' is not lighten or outline"):
        findings(game)


def test_coverage_is_measured_from_the_pixels():
    from pnp.core.units import Size
    from pnp.render.canvas import new_canvas
    from pnp.render.ink import coverage

    buf = io.BytesIO()
    c = new_canvas(buf, Size(72, 72))
    c.showPage()  # blank
    c.setFillColorRGB(0, 0, 0)
    c.rect(0, 0, 36, 72, stroke=0, fill=1)  # half the page black
    c.showPage()
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 72, 72, stroke=0, fill=1)  # red: magenta and yellow
    c.showPage()
    c.save()
    blank, half, red = coverage(buf.getvalue(), dpi=72)
    assert blank == pytest.approx(0, abs=0.1) and half == pytest.approx(50, abs=1) and red == pytest.approx(200, abs=1)


def test_greyscale_edition_hatches_categories_greyscale_merges(tmp_path):
    import numpy as np
    import pypdfium2 as pdfium

    from pnp.core.units import MM

    game = make_game(tmp_path, (BLUE, ORANGE))
    assert any(f.rule == "access.greyscale" for f in findings(game))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(game), "-o", str(out), "--ink", "greyscale", "-q"])
    assert result.exit_code == 0, result.stdout
    doc = pdfium.PdfDocument(str(out / "suits" / "suits-cards-greyscale.pdf"))
    image = np.asarray(doc[2].render(scale=2).to_pil().convert("L"), dtype=float)
    left, top = image.shape[1] / 2 - 1.5 * 63.5 * MM * 2, image.shape[0] / 2 - 1.5 * 88.9 * MM * 2

    def band(index: int):  # the strip of band above the name box of the card in grid slot index
        x = left + index * 63.5 * MM * 2
        return image[int(top + 1 * MM * 2):int(top + 5 * MM * 2), int(x + 3 * MM * 2):int(x + 60 * MM * 2)]

    plain, hatched = band(0), band(2)  # suit a (blue, the lighter grey) and suit b (orange)
    assert plain.std() < 2 and hatched.std() > 20, (plain.std(), hatched.std())


def test_faces_that_paint_alike_share_what_the_walk_found(tmp_path):
    from pnp.outputs.access import pieces_shown

    game = make_game(tmp_path, ("#c0392b", "#27ae60"))
    source = GameSource(game, "suits", game / "templates", "suits/templates")
    loaded = load_game(game, "suits")
    faces = pieces_shown(loaded, game_layouts(loaded, source), None)["deck cards, faces"]
    by_suit: dict = {}
    for shown in faces:
        by_suit.setdefault(shown.piece.context["suit"], []).append(shown)
    assert sorted(by_suit) == ["a", "b"] and all(len(group) > 1 for group in by_suit.values())
    for group in by_suit.values():
        first, other = group[0], group[1]
        assert other.paints["band.fill"] is first.paints["band.fill"]  # one Paint for every face of the suit
        assert other.texts[0] is first.texts[0] and other.cues["name.text"] != first.cues["name.text"]
    a, b = by_suit["a"][0].paints["band.fill"], by_suit["b"][0].paints["band.fill"]
    assert (a.hex, b.hex) == ("#C0392B", "#27AE60")


def test_missing_art_in_an_outlined_low_ink_edition_is_outlined_too(tmp_path):
    """The placeholder of missing art is a white box on the default print; the low-ink
    edition's outline mode fills no large box, so the placeholder is outlined and crossed on
    the paper, and the only finding is the missing art."""
    from pnp.outputs.base import SheetOptions
    from pnp.outputs.cards import render_cards
    from pnp.render.ink import LowInk

    game = make_game(tmp_path, (RED, GREEN), text_color="white")
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text('low_ink = "outline"\n' + layouts.read_text() + '\n[layouts.face.boxes.art]\ntype = "image"\n'
                       'image = "art/nothere.png"\nx = "5mm"\ny = "20mm"\nwidth = "50mm"\nheight = "40mm"\n')
    source = GameSource(game, "suits", game / "templates", "suits/templates")
    loaded = load_game(game, "suits")
    sets = game_layouts(loaded, source)
    result = render_cards(loaded, sets, game / "output", SheetOptions(contact_sheets=False), draft=True,
                          color_convert=LowInk(sets.low_ink_tint, sets.low_ink))
    assert {f.rule for f in result.findings if f.severity in ("error", "warning")} == {"layout.art-missing"}
    # and on the page: the placeholder's magenta outline, diagonals and name
    import numpy as np
    import pypdfium2 as pdfium

    pdf = next(data for path, data in result.outputs if path.suffix == ".pdf")
    pixels = np.asarray(pdfium.PdfDocument(pdf)[2].render(scale=2).to_pil().convert("RGB")).astype(int)
    magenta = (abs(pixels - (0xE4, 0x00, 0x7C)).sum(axis=2) < 60)
    assert magenta.sum() > 2000  # four sides and two diagonals of 50 x 40 mm on each card, 0.75 pt wide
