"""SVG art as printed: in embedded fonts only (docs/print-specs.md §6 and §8 check 6), its text where
the SVG puts it, its gradients painted, measured in the PDFs a build writes for the SVG test
game (tests/fixtures/svgart: SVG art on cards, a back, tokens and in the rulebook, one SVG with
<text> in fonts pnp does not have, a linear and a radial gradient)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import FIXTURES
from pdfwalk import fonts, unembedded
from pnp.core.units import MM, Size
from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game
from pnp.core.errors import BuildError
from pnp.render.art import font_families, load_svg
from pnp.render.canvas import new_canvas
from pnp.render.svg import draw_svg, face_for
from sheetgeom import trims

ART = FIXTURES / "svgart" / "art"
CARD_H = 3.5 * 72


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The SVG test game's cards, tokens and rulebook, built (``<out>/svgart``)."""
    game = tmp_path_factory.mktemp("game") / "svgart"
    shutil.copytree(FIXTURES / "svgart", game)
    out = tmp_path_factory.mktemp("out")
    settings = BuildSettings(SheetOptions(contact_sheets=False), outputs=("cards", "boards", "rulebook"))
    report = run_game(BuildJob(GameSource(game, "svgart", game / "templates", "svgart/templates"), out, settings))
    assert report.written, report.findings
    return out / "svgart"


@pytest.mark.parametrize("name", ["svgart-cards.pdf", "svgart-tokens.pdf", "svgart-rulebook.pdf"])
def test_no_page_of_a_build_with_svg_art_uses_a_font_that_is_not_embedded(built, name):
    found = fonts(built / name)
    assert found and unembedded(built / name) == []
    assert not any(u.base_font.lstrip("/").startswith(("Helvetica", "Times", "Courier")) for u in found)


def _page_ops(pdf_bytes: bytes):
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        page = pdf.pages[0]
        return [(str(op), list(operands)) for operands, op in pikepdf.parse_content_stream(page)], \
            sorted(str(k) for k in (page.Resources.get("/Font") or {}).keys())


def _draw(svg: str) -> bytes:
    buf = io.BytesIO()
    c = new_canvas(buf, Size(200, 200), scratch=True)
    art = load_svg(ART / svg, svg)
    draw_svg(c, art.drawing, 10, 10)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_an_svg_without_text_sets_no_font(tmp_path):
    """A rulebook page with nothing but an SVG without text (a gradient and shapes) has no Tf
    operator and no font resource: reportlab's renderer used to set Helvetica 10 pt before
    every drawing."""
    game = tmp_path / "svgart"
    shutil.copytree(FIXTURES / "svgart", game)
    (game / "templates" / "rulebook.md.j2").write_text('![sky](../art/sky.svg "30mm")\n', encoding="utf-8")
    settings = BuildSettings(SheetOptions(contact_sheets=False), outputs=("rulebook",))
    report = run_game(BuildJob(GameSource(game, "svgart", game / "templates", "svgart/templates"), tmp_path, settings))
    assert report.written, report.findings
    ops, font_names = _page_ops((tmp_path / "svgart" / "svgart-rulebook.pdf").read_bytes())
    assert "sh" in [op for op, _ in ops]  # the gradient is drawn
    assert [op for op, _ in ops].count("Tf") == 0
    assert font_names == []


def test_svg_text_is_set_in_the_bundled_face_of_its_family():
    ops, _ = _page_ops(_draw("label.svg"))
    assert [op for op, _ in ops].count("Tf") == 3  # one per string: Arial, Georgia bold, mono
    with pikepdf.open(io.BytesIO(_draw("label.svg"))) as pdf:
        faces = sorted(str(f.BaseFont).split("+")[1] for f in pdf.pages[0].Resources.Font.values())
    assert faces == ["DejaVuSans", "DejaVuSansMono-Bold", "DejaVuSerif-Bold"]


@pytest.mark.parametrize("family, weight, style, face", [
    ("Arial", "normal", "normal", "sans"), ("Helvetica", "bold", "italic", "sans-bold-italic"),
    ("Georgia", "700", "normal", "serif-bold"), ("Times New Roman", "normal", "oblique", "serif-italic"),
    ("serif", "bold", "italic", "serif-bold"), ("Courier New", "normal", "italic", "mono"),
    ("DejaVu Sans Mono", "bolder", "normal", "mono-bold"), ("Open Sans", "300", "normal", "sans"),
])
def test_every_family_maps_to_a_bundled_face(family, weight, style, face):
    assert face_for(family, weight, style) == face


def test_a_font_pnp_does_not_have_is_named_in_a_finding(built):
    art = load_svg(ART / "label.svg", "art/label.svg")
    assert art.problems == ["font-family 'Arial' is drawn in DejaVu Sans, a font pnp embeds",
                            "font-family 'Georgia' is drawn in DejaVu Serif, a font pnp embeds"]
    assert load_svg(ART / "sky.svg", "art/sky.svg").problems == []


@pytest.mark.parametrize("value, families", [
    ("Comic Sans MS", ["Comic Sans MS"]), ("  Comic   Sans MS , serif", ["Comic Sans MS", "serif"]),
    ("'Times New Roman', \"Open Sans\", serif", ["Times New Roman", "Open Sans", "serif"]),
    ("'a, b', c", ["a, b", "c"]), ("Arial, Arial", ["Arial"]), ("", []),
])
def test_a_font_family_list_is_split_on_commas_only(value, families):
    assert font_families(value) == families


def test_an_unquoted_family_with_spaces_is_one_family_in_one_finding(tmp_path):
    """CSS splits font-family on commas only: 'Comic Sans MS' is one family, not four."""
    svg = tmp_path / "web.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40">'
                   '<text x="5" y="20" font-family="Comic Sans MS">Hi</text>'
                   '<text x="5" y="35" font-family="Gill Sans, serif">Ho</text></svg>', encoding="utf-8")
    assert load_svg(svg, "art/web.svg").problems == [
        "font-family 'Comic Sans MS' is drawn in DejaVu Sans, a font pnp embeds",
        "font-family 'Gill Sans' is drawn in DejaVu Sans, a font pnp embeds"]


def test_an_svg_that_is_not_well_formed_is_an_error_at_its_line_and_column(tmp_path):
    """svglib reads XML with recovery and would draw the part before the break: the file is
    refused instead, with the XML error's place (1-based) in the file."""
    svg = tmp_path / "web.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140">\n'
                   '  <rect width="5" height="5"/></g><<<>>>&&&<text x="10" font-fa', encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        load_svg(svg, "art/web.svg")
    assert caught.value.rule == "layout.art-unreadable"
    assert caught.value.message == "the SVG 'art/web.svg' is not well-formed XML: mismatched tag at line 2, column 33"
    assert "export it again" in caught.value.hint


def test_svg_text_lands_where_the_svg_puts_it_in_the_face_it_names(built):
    """The label box is 22 x 9 mm at (33 mm, 30 mm) from the card's top left; the 100 x 40
    SVG covers it at 0.225 mm per SVG unit (22.5 x 9 mm, centred: 0.25 mm cut off each side).
    "Fire & Ice" is centred on x = 50 with its baseline at y = 17; "Serif" starts at x = 8 on
    the baseline y = 33. Positions to 0.05 mm, read from the glyphs in the PDF."""
    unit = 0.225 * MM
    left = 33 * MM - 0.25 * MM
    with pdfplumber.open(built / "svgart-cards.pdf") as pdf:
        page = pdf.pages[2]  # the first sheet of faces
        cards = trims(page, back=False, card_h=CARD_H)
        assert len(cards) == 5
        for card in cards:
            top = card.y + CARD_H

            def run(fontname: str, size: float) -> list[dict]:
                return [ch for ch in page.chars if ch["fontname"].endswith(fontname)
                        and abs(ch["size"] - size) < 0.01 and card.x < ch["x0"] < card.x + 2.5 * 72
                        and card.y < page.height - ch["bottom"] < top]

            title = run("DejaVuSans", 12 * unit)
            assert "".join(ch["text"] for ch in title) == "Fire & Ice"
            centre = (title[0]["x0"] + title[-1]["x1"]) / 2
            assert abs(centre - (card.x + left + 50 * unit)) / MM < 0.05
            baseline = title[0]["matrix"][5]
            assert abs(baseline - (top - 30 * MM - 17 * unit)) / MM < 0.05
            serif = run("DejaVuSerif-Bold", 10 * unit)
            assert "".join(ch["text"] for ch in serif).strip() == "Serif"
            assert abs(serif[0]["matrix"][4] - (card.x + left + 8 * unit)) / MM < 0.05
            assert abs(serif[0]["matrix"][5] - (top - 30 * MM - 33 * unit)) / MM < 0.05
            mono = run("DejaVuSansMono-Bold", 10 * unit)
            assert "".join(ch["text"] for ch in mono) == "mono"
            assert abs(mono[0]["x0"] - serif[-1]["x1"]) / MM < 0.05  # the tspan follows "Serif "


def test_svg_text_is_painted_at_300_dpi(built):
    """The glyphs of "Fire & Ice" are painted in the SVG's #7A4B1E inside the label, and the
    label's background #F4E4C1 around them (pdfium at 300 dpi)."""
    doc = pdfium.PdfDocument(built / "svgart-cards.pdf")
    scale = 300 / 72
    image = np.asarray(doc[2].render(scale=scale).to_pil().convert("RGB")).astype(int)
    with pdfplumber.open(built / "svgart-cards.pdf") as pdf:
        page = pdf.pages[2]
        card = trims(page, back=False, card_h=CARD_H)[0]
        title = [ch for ch in page.chars if ch["fontname"].endswith("DejaVuSans") and ch["text"] in "Fire&Ic"
                 and abs(ch["size"] - 12 * 0.225 * MM) < 0.01 and card.x < ch["x0"] < card.x + 180]
        x0, x1 = min(ch["x0"] for ch in title), max(ch["x1"] for ch in title)
        top, bottom = min(ch["top"] for ch in title), max(ch["bottom"] for ch in title)
    region = image[int(top * scale):int(bottom * scale), int(x0 * scale):int(x1 * scale)]
    ink = np.abs(region - np.array([0x7A, 0x4B, 0x1E])).sum(axis=2) < 40
    paper = np.abs(region - np.array([0xF4, 0xE4, 0xC1])).sum(axis=2) < 12
    assert ink.sum() > 150 and paper.sum() > ink.sum()


def _gradient(t: float) -> np.ndarray:
    """sky.svg's linear gradient at t (0 top, 1 bottom): #1E90FF, #FFD700 at 0.6, #C0392B."""
    stops = [(0.0, (0x1E, 0x90, 0xFF)), (0.6, (0xFF, 0xD7, 0x00)), (1.0, (0xC0, 0x39, 0x2B))]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t0 <= t <= t1:
            f = (t - t0) / (t1 - t0)
            return np.array([a + f * (b - a) for a, b in zip(c0, c1)])
    raise ValueError(t)


def test_a_gradient_inside_a_card_drawn_as_a_form_is_painted(built):
    """Cards on a sheet are form XObjects; the gradient's shading is among the form's own
    resources, so it is painted (it used to be left out, and pdfium painted the clip black).
    The sky box is 22 x 9 mm at (6 mm, 30 mm); the 100 x 100 SVG covers it at 0.22 mm per unit,
    centred, so the box shows SVG rows 29.55 to 70.45. Sampled 2.2 mm in from the box's left
    edge (clear of the circle), 0.3 mm inside its top and bottom, at 300 dpi."""
    path = built / "svgart-cards.pdf"
    shaded = 0
    with pikepdf.open(path) as pdf:
        for _, form in pdf.pages[2].Resources.XObject.items():
            used = {str(operands[0]) for operands, op in pikepdf.parse_content_stream(form) if str(op) == "sh"}
            assert used <= set((form.Resources.get("/Shading") or {}).keys())
            shaded += len(used)
    assert shaded  # the faces' forms paint the gradient
    scale = 300 / 72
    image = np.asarray(pdfium.PdfDocument(path)[2].render(scale=scale).to_pil().convert("RGB")).astype(int)
    unit = 0.22 * MM
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[2]
        cards = trims(page, back=False, card_h=CARD_H)
        height = page.height
    for card in cards:
        top = card.y + CARD_H
        x = card.x + 6 * MM + 10 * unit
        for inset in (0.3 * MM, 9 * MM - 0.3 * MM):
            y = top - 30 * MM - inset
            t = (29.55 + inset / unit) / 100
            pixel = image[int((height - y) * scale), int(x * scale)]
            assert np.abs(pixel - _gradient(t)).max() <= 6, (card, inset, pixel, _gradient(t))
