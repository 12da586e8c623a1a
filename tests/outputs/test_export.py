"""Print-shop and Tabletop Simulator exports, measured in the files they write
(docs/print-specs.md §1, §2 and §8: pixel sizes, page boxes, page order, colour operators, ink)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pdfplumber
import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader

from conftest import CARD_DATA, FIXTURES, ROOT
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.outputs.export import (ProfileError, bundled_profiles, card_page, export_game, load_profile, render_export,
                                manifest_targets)
from pnp.render.raster import rasterise_all
from pnp.model.load import load_game
from pnp.core.units import CARD_SIZES, MM, to_mm

RED = (0xC0, 0x39, 0x2B)
GREEN = (0x27, 0xAE, 0x60)


# --------------------------------------------------------------------------------------------
# helpers


def copy_tiny(dest: Path) -> Path:
    shutil.copytree(FIXTURES / "tiny", dest)
    return dest


def export(game_dir: Path, out: Path, target: str, **kw):
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    result = export_game(game, layouts, target, out, jobs=kw.pop("jobs", 1), **kw)
    return result


def folder_of(result) -> Path:
    return next(f for f in result.files if f.name == "manifest.json").parent


def manifest(result) -> tuple[list[dict], dict]:
    folder = folder_of(result)
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return rows, json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def set_manifest(game_dir: Path, old: str, new: str) -> None:
    path = game_dir / "game.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


COLOUR_OPS = "k K rg RG g G sc SC scn SCN cs CS"


def operators(pdf_path: Path, wanted: str = COLOUR_OPS):
    """(page index, operator, operands) for the ``wanted`` content stream operators of every
    page and of the form XObjects it uses, read with pikepdf."""
    out = []
    with pikepdf.open(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages):
            streams = [page] + [x for _, x in page.Resources.get("/XObject", {}).items()
                                if x.get("/Subtype") == "/Form"]
            for stream in streams:
                for operands, op in pikepdf.parse_content_stream(stream, wanted):
                    name = str(op)
                    out.append((i, name, [float(v) if name in ("k", "K") else v for v in operands]))
    return out


def image_xobjects(resources):
    """Every image XObject drawn through ``resources``, inside form XObjects too (each picture
    is one form holding its image)."""
    for _, x in resources.get("/XObject", {}).items():
        if x.get("/Subtype") == "/Image":
            yield x
        elif x.get("/Subtype") == "/Form" and "/Resources" in x:
            yield from image_xobjects(x.Resources)


def cmyk_ops(pdf_path: Path) -> list[tuple[float, float, float, float]]:
    return [tuple(operands) for _, op, operands in operators(pdf_path, "k K") if op in ("k", "K")]


def page_texts(pdf_path: Path) -> list[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def black_box(image: Image.Image, region: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Bounding box (x0, y0, x1, y1) of near-black pixels inside ``region`` of an RGB image."""
    x0, y0, x1, y1 = region
    arr = np.asarray(image.convert("RGB"))[y0:y1, x0:x1].astype(int)
    ys, xs = np.nonzero(arr.sum(axis=2) < 120)
    return x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1


# --------------------------------------------------------------------------------------------
# exports shared by several tests (the tiny game: 2 cards, 5 copies, two different backs)


@pytest.fixture(scope="module")
def tiny_game(tmp_path_factory) -> Path:
    return copy_tiny(tmp_path_factory.mktemp("game") / "tiny")


@pytest.fixture(scope="module")
def tgc(tiny_game, tmp_path_factory):
    return export(tiny_game, tmp_path_factory.mktemp("out"), "tgc")


@pytest.fixture(scope="module")
def dtc(tiny_game, tmp_path_factory):
    return export(tiny_game, tmp_path_factory.mktemp("out"), "dtc")


@pytest.fixture(scope="module")
def tts(tiny_game, tmp_path_factory):
    return export(tiny_game, tmp_path_factory.mktemp("out"), "tts")


# --------------------------------------------------------------------------------------------
# raster targets


def test_tgc_writes_one_png_per_face_and_back_at_825_by_1125(tgc):
    folder = folder_of(tgc)
    assert folder.parts[-2:] == ("export", "tgc")
    rows, doc = manifest(tgc)
    faces = {r["card_id"]: r for r in rows if r["side"] == "face"}
    backs = [r for r in rows if r["side"] == "back"]
    assert {k: int(r["copies"]) for k, r in faces.items()} == {"fire": 3, "leaf": 2}
    assert sorted((r["card_id"], r["file"]) for r in backs) == [
        ("fire", "cards/back-red.png"), ("leaf", "cards/back-green.png")]
    for r in rows:
        with Image.open(folder / r["file"]) as im:
            assert im.size == (825, 1125)
            assert im.mode == "RGB"
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert doc["profile"]["bleed_mm"] == pytest.approx(3.175)
    assert tgc.cards == 5


def test_tgc_bleed_is_37_5_px_and_the_art_runs_to_the_edge_without_marks(tgc):
    with Image.open(folder_of(tgc) / "cards" / "fire.png") as im:
        im = im.convert("RGB")
        # the marker box sits 2 mm right and 3 mm down from the trim corner, 1 mm square
        x0, y0, x1, y1 = black_box(im, (0, 0, 150, 150))
        assert x0 == pytest.approx(37.5 + 2 / 25.4 * 300, abs=1)
        assert y0 == pytest.approx(37.5 + 3 / 25.4 * 300, abs=1)
        assert x1 - x0 == pytest.approx(300 / 25.4, abs=1.5)
        # every corner pixel, and each trim corner, carries the band colour: bleed art, no crop
        # mark, no rounded-corner die line
        for xy in ((0, 0), (824, 0), (0, 1124), (824, 1124), (38, 38), (786, 1086)):
            assert im.getpixel(xy) == pytest.approx(RED, abs=2)


@pytest.mark.parametrize("size, px", [("poker", (822, 1122)), ("tarot", (897, 1497))])
def test_mpc_pngs_use_36_px_bleed(tmp_path, size, px):
    game_dir = copy_tiny(tmp_path / "tiny")
    if size != "poker":
        set_manifest(game_dir, 'card_size = "poker"', f'card_size = "{size}"')
    result = export(game_dir, tmp_path / "out", "mpc")
    rows, _ = manifest(result)
    assert len(rows) == 4
    for r in rows:
        with Image.open(folder_of(result) / r["file"]) as im:
            assert im.size == px
            assert (int(r["width_px"]), int(r["height_px"])) == px
    with Image.open(folder_of(result) / "cards" / "leaf.png") as im:
        x0, y0, _, _ = black_box(im, (0, 0, 150, 150))
        assert x0 == pytest.approx(36 + 2 / 25.4 * 300, abs=1)
        assert y0 == pytest.approx(36 + 3 / 25.4 * 300, abs=1)


def test_copies_are_one_file_unless_the_layout_prints_the_copy_number(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    with open(game_dir / "templates" / "layouts.toml", "a") as fh:
        fh.write('\n[layouts.action.boxes.number]\ntype = "text"\ntext = "{{ piece.copy }}/{{ piece.copies }}"\n'
                 'x = "45mm"\ny = "70mm"\nwidth = "10mm"\nheight = "6mm"\n')
    result = export(game_dir, tmp_path / "out", "tgc")
    rows, _ = manifest(result)
    faces = [(r["file"], r["card_id"], r["copies"]) for r in rows if r["side"] == "face"]
    assert faces == [("cards/fire.png", "fire", "1"), ("cards/fire-2.png", "fire", "1"),
                     ("cards/fire-3.png", "fire", "1"), ("cards/leaf.png", "leaf", "1"),
                     ("cards/leaf-2.png", "leaf", "1")]
    folder = folder_of(result)
    assert (folder / "cards" / "fire.png").read_bytes() != (folder / "cards" / "fire-2.png").read_bytes()
    backs = [(r["file"], r["copies"]) for r in rows if r["side"] == "back"]
    assert backs == [("cards/back-red.png", "3"), ("cards/back-green.png", "2")]


def test_card_page_snaps_to_whole_pixels_with_the_trim_centred():
    page = card_page(CARD_SIZES["poker"], 36 * 72 / 300, 300)
    assert page.px == (822, 1122)
    assert (page.page.width, page.page.height) == pytest.approx((197.28, 269.28), abs=1e-9)
    assert page.trim_box == pytest.approx((8.64, 8.64, 188.64, 260.64), abs=1e-9)


# --------------------------------------------------------------------------------------------
# PDF targets


def test_dtc_pdf_page_boxes_and_back_face_order(dtc):
    folder = folder_of(dtc)
    pdf_path = folder / "tiny-cards.pdf"
    reader = PdfReader(pdf_path)
    assert len(reader.pages) == 10  # 5 copies, a back and a face each
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page and "/ArtBox" not in page
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 198, 270], abs=0.001)
        assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 189, 261], abs=0.001)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 198, 270], abs=0.001)
        assert to_mm(float(page.trimbox.width)) == pytest.approx(63.5, abs=0.1)
    texts = page_texts(pdf_path)
    sides = ["back" if "Tiny Test Game" in t else "face" for t in texts]
    assert sides == ["back", "face"] * 5
    titles = [t.split("\n")[0] for t, s in zip(texts, sides) if s == "face"]
    assert titles == ["Fire & Ice"] * 3 + ["Leaf"] * 2
    rows, doc = manifest(dtc)
    assert [(r["page"], r["side"], r["card_id"], r["copy"], r["copies"]) for r in rows[:4]] == [
        ("1", "back", "fire", "1", "3"), ("2", "face", "fire", "1", "3"),
        ("3", "back", "fire", "2", "3"), ("4", "face", "fire", "2", "3")]
    assert doc["files"][0]["pages"] == 10


def test_dtc_pdf_is_cmyk_only_within_240_percent_with_embedded_fonts_and_no_marks(dtc):
    pdf_path = folder_of(dtc) / "tiny-cards.pdf"
    ops = [op for _, op, _ in operators(pdf_path)]
    assert set(ops) == {"k", "K"}  # no rg/RG (RGB), g/G (grey) or colour-space operators
    inks = cmyk_ops(pdf_path)
    assert max(sum(v) for v in inks) <= 2.40 + 1e-6
    assert b"/DeviceRGB" not in pdf_path.read_bytes()
    reader = PdfReader(pdf_path)
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            desc = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in desc.get_object(), font["/BaseFont"]
            assert "+" in font["/BaseFont"]  # a subset of an embedded TrueType font, not standard-14
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            assert page.lines == []  # no crop or registration marks
    with pikepdf.open(pdf_path) as pdf:
        assert pdf.check_pdf_syntax() == []
        assert str(pdf.docinfo["/Title"]).startswith("Tiny Test Game")


def test_eu_profile_63_by_88_card_is_69_by_94_mm_face_then_back_within_300_percent(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    set_manifest(game_dir, 'card_size = "poker"', 'card_size = "eu-poker"')
    result = export(game_dir, tmp_path / "out", "eu")
    pdf_path = folder_of(result) / "tiny-cards-eu-poker.pdf"
    reader = PdfReader(pdf_path)
    for page in reader.pages:
        assert to_mm(float(page.mediabox.width)) == pytest.approx(69, abs=0.1)
        assert to_mm(float(page.mediabox.height)) == pytest.approx(94, abs=0.1)
        assert [float(v) for v in page.trimbox][:2] == pytest.approx([3 * MM, 3 * MM], abs=0.01)
        assert to_mm(float(page.trimbox.width)) == pytest.approx(63, abs=0.1)
        assert "/BleedBox" in page
    sides = ["back" if "Tiny Test Game" in t else "face" for t in page_texts(pdf_path)]
    assert sides == ["face", "back"] * 5
    ops = [op for _, op, _ in operators(pdf_path)]
    assert ops and set(ops) <= {"k", "K"}
    assert max(sum(v) for v in cmyk_ops(pdf_path)) <= 3.0 + 1e-6


DARK_RED_LAYOUT = '''
[layouts.dark]
background = "#400000"

[layouts.dark.boxes.slab]
type = "rect"
x = "5mm"
y = "5mm"
width = "40mm"
height = "40mm"
fill = "black"

[layouts.dark.boxes.dot]
type = "rect"
x = "50mm"
y = "5mm"
width = "2mm"
height = "2mm"
fill = "black"

[layouts.dark.boxes.words]
type = "text"
text = "{{ title }}"
x = "6mm"
y = "60mm"
width = "50mm"
height = "10mm"
size = 12
color = "black"
'''


@pytest.fixture
def dark(tmp_path) -> Path:
    """The tiny game with a dark red (275 % ink when converted plainly) face, a large and a
    small black fill and black text."""
    game_dir = copy_tiny(tmp_path / "tiny")
    with open(game_dir / "templates" / "layouts.toml", "a") as fh:
        fh.write(DARK_RED_LAYOUT)
    set_manifest(game_dir, 'layout = "action"', 'layout = "dark"')
    (game_dir / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,1,red,,1\n")
    set_manifest(game_dir, "count = 5", "count = 1")
    set_manifest(game_dir, "count = 3", "count = 1")
    return game_dir


def test_cmyk_rich_black_for_large_fills_100_k_for_text_and_small_fills_and_ink_limit(dark, tmp_path):
    result = export(dark, tmp_path / "out", "dtc")
    pdf_path = folder_of(result) / "tiny-cards.pdf"
    with pdfplumber.open(pdf_path) as pdf:
        face = pdf.pages[1]
        chars = [c for c in face.chars if c["text"].strip()]
        assert "".join(c["text"] for c in chars) == "Fire"
        assert {tuple(c["non_stroking_color"]) for c in chars} == {(0, 0, 0, 1)}
        by_size = {}
        for r in face.rects:
            by_size[round(to_mm(r["width"]))] = tuple(round(v, 3) for v in r["non_stroking_color"])
        assert by_size[40] == (0.6, 0.4, 0.4, 1)  # rich black, DriveThruCards' mix
        assert by_size[2] == (0, 0, 0, 1)  # too small for rich black
    inks = cmyk_ops(pdf_path)
    assert max(sum(v) for v in inks) == pytest.approx(2.40, abs=0.002)
    # the dark red background, plainly 0/100/100/75 (275 %), is held to 240 %
    dark_red = [v for v in inks if v[0] == 0 and v[1] > 0.5 and v[3] > 0.7]
    assert dark_red and all(sum(v) <= 2.40 + 1e-6 for v in dark_red)
    eu = export(dark, tmp_path / "out", "eu")
    eu_inks = cmyk_ops(folder_of(eu) / "tiny-cards-poker.pdf")
    assert (0.3, 0.3, 0.0, 1.0) in eu_inks  # the European shop's rich black
    assert max(sum(v) for v in eu_inks) == pytest.approx(2.749, abs=0.002)  # under 300 %: unchanged


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), st.sampled_from([2.4, 3.0]))
def test_rgb_to_cmyk_stays_within_the_ink_limit_and_looks_the_same(r, g, b, limit):
    from pnp.render.color import image_to_cmyk, rgb_to_cmyk

    cmyk = rgb_to_cmyk(r / 255, g / 255, b / 255, limit)
    assert all(0 <= v <= 1 for v in cmyk)
    assert sum(cmyk) <= limit + 1e-9
    if r == g == b:
        assert cmyk[:3] == (0, 0, 0)  # greys in black ink only
    if sum(cmyk) < limit - 0.01 and max(r, g, b) > 2:
        c, m, y, k = cmyk  # a viewer shows CMYK as (1 - C)(1 - K): the design's own colour
        shown = [round(255 * (1 - v) * (1 - k)) for v in (c, m, y)]
        assert shown == pytest.approx([r, g, b], abs=1)
    pixel = np.asarray(image_to_cmyk(Image.new("RGB", (1, 1), (r, g, b)), limit)[0]).reshape(4).astype(int)
    assert pixel.sum() <= int(limit * 255)
    assert pixel == pytest.approx([round(v * 255) for v in cmyk], abs=2)


def _art_game(tmp_path: Path) -> Path:
    game_dir = copy_tiny(tmp_path / "tiny")
    art = game_dir / "art"
    art.mkdir()
    grad = np.zeros((60, 80, 3), dtype=np.uint8)
    grad[..., 0] = np.linspace(0, 255, 80, dtype=np.uint8)[None, :]
    grad[..., 2] = 40
    Image.fromarray(grad, "RGB").save(art / "pic.png")
    (art / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                  '<rect width="10" height="10" fill="#3366CC"/></svg>')
    with open(game_dir / "templates" / "layouts.toml", "a") as fh:
        fh.write('\n[layouts.action.boxes.pic]\ntype = "image"\nimage = "art/pic.png"\n'
                 'x = "10mm"\ny = "45mm"\nwidth = "20mm"\nheight = "15mm"\n'
                 '\n[layouts.action.boxes.mark]\ntype = "image"\nimage = "art/mark.svg"\n'
                 'x = "35mm"\ny = "45mm"\nwidth = "10mm"\nheight = "10mm"\n')
    return game_dir


def test_rgb_art_is_converted_to_cmyk_with_a_finding(tmp_path):
    game_dir = _art_game(tmp_path)
    result = export(game_dir, tmp_path / "out", "dtc")
    art = [f for f in result.findings if f.rule == "preflight.rgb-art"]
    assert any("art/pic.png" in f.message for f in art)
    # at the art file, once, with the pieces that use it (docs/validation.md)
    assert [f for f in art if f.file.endswith("/art/pic.png") and "cards/fire" in (f.pieces or (f.piece,))]
    pdf_path = folder_of(result) / "tiny-cards.pdf"
    assert b"/DeviceRGB" not in pdf_path.read_bytes()
    ops = [op for _, op, _ in operators(pdf_path)]
    assert ops and set(ops) <= {"k", "K"}
    with pikepdf.open(pdf_path) as pdf:
        images = [x for p in pdf.pages for x in image_xobjects(p.Resources)]
        assert images
        for image in images:
            assert image.ColorSpace == "/DeviceCMYK"
            pixels = np.asarray(pikepdf.PdfImage(image).as_pil_image()).astype(int)
            assert pixels.sum(axis=2).max() <= int(2.40 * 255)
    assert max(sum(v) for v in cmyk_ops(pdf_path)) <= 2.40 + 1e-6


def test_rgb_art_is_rejected_by_a_profile_that_takes_cmyk_only(tmp_path):
    game_dir = _art_game(tmp_path)
    with open(game_dir / "game.toml", "a") as fh:
        fh.write('\n[targets.strict]\nextends = "dtc"\nart = "reject"\n')
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    result = render_export(game, layouts, "strict", tmp_path / "out", jobs=1)
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and {f.rule for f in errors} == {"export.color"}
    assert "cards/fire" in {p for f in errors for p in (f.pieces or (f.piece,))}
    assert all("RGB" in f.message and "strict" in f.message and 'art = "convert"' in f.hint for f in errors)
    # the command refuses to write an export with errors
    refused = subprocess.run([sys.executable, "-m", "pnp", "export", str(game_dir), "-t", "strict", "-o",
                              str(tmp_path / "cli")], capture_output=True, text=True, cwd=ROOT)
    assert refused.returncode == 1 and "export.color" in refused.stdout
    assert not (tmp_path / "cli" / "tiny" / "export" / "strict").exists()  # nothing written


# --------------------------------------------------------------------------------------------
# safe zone


def test_text_inside_the_safe_zone_is_a_finding_naming_the_piece(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    with open(game_dir / "game.toml", "a") as fh:
        fh.write('\n[targets.wide]\nextends = "eu"\nsafe_zone = "6.5mm"\n')
    result = export(game_dir, tmp_path / "out", "wide")
    found = {f.piece: f for f in result.findings if f.rule == "preflight.safe-zone"}
    assert set(found) == {"cards/fire"}  # "Draw 2." starts 6 mm from the left trim edge; Leaf has no rules text
    # found at the card's row: fire is the first row of cards.csv, below its header
    assert str(found["cards/fire"].location) == "tiny/cards.csv:2" and found["cards/fire"].component == "cards"
    # measure the same page with pdfplumber: the nearest glyph to the trim edge
    pdf_path = folder_of(result) / "tiny-cards-poker.pdf"
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]  # face of fire
        x0, top0, x1, bottom1 = (float(v) for v in PdfReader(pdf_path).pages[0].trimbox)
        height = float(page.height)
        dists = []
        for c in page.chars:
            if c["text"].strip():
                dists.append(min(c["x0"] - x0, x1 - c["x1"], (height - c["bottom"]) - top0,
                                 bottom1 - (height - c["top"])))
    nearest = to_mm(min(dists))
    assert nearest < 6.5
    reported = float(found["cards/fire"].message.split(" lies ")[1].split(" mm")[0])
    # pdfium measures the glyph outline, pdfplumber the font box: the glyph is never nearer
    assert nearest - 0.05 <= reported <= nearest + 1.5
    assert "Draw 2." in found["cards/fire"].message
    # the bundled DriveThruCards profile (1/8 in) finds nothing on the same cards
    assert not [f for f in export(game_dir, tmp_path / "out2", "dtc").findings if f.rule == "preflight.safe-zone"]


# --------------------------------------------------------------------------------------------
# Tabletop Simulator


def _tts_state(result):
    folder = folder_of(result)
    data = json.loads((folder / "tiny-cards.json").read_text(encoding="utf-8"))
    return folder, data["ObjectStates"][0]


def _url_path(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_tts_saved_object_references_its_sheets_with_the_right_counts_and_ids(tts):
    folder, deck = _tts_state(tts)
    assert deck["Name"] == "DeckCustom"
    assert deck["DeckIDs"] == [100, 100, 100, 101, 101]
    cards = deck["ContainedObjects"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert [c["Nickname"] for c in cards] == ["Fire & Ice"] * 3 + ["Leaf"] * 2
    assert all(c["Name"] == "Card" and set(c["CustomDeck"]) == {"1"} for c in cards)
    assert len({c["GUID"] for c in cards} | {deck["GUID"]}) == 6
    sheet = deck["CustomDeck"]["1"]
    assert sheet["UniqueBack"] is True and sheet["BackIsHidden"] is True  # red and green backs
    face = _url_path(sheet["FaceURL"])
    back = _url_path(sheet["BackURL"])
    assert face.parent == folder and back.parent == folder
    with Image.open(face) as f_im, Image.open(back) as b_im:
        assert f_im.size == b_im.size
        assert f_im.width <= 4096
        cw, ch = f_im.width // sheet["NumWidth"], f_im.height // sheet["NumHeight"]
        assert (cw * sheet["NumWidth"], ch * sheet["NumHeight"]) == f_im.size
        assert (cw, ch) == (409, 573)  # a full 10 x 7 sheet is 4090 x 4011 px, within 4096
        assert ch / cw == pytest.approx(3.5 / 2.5, abs=0.01)
        # slot 0 is fire's face (red band) with a red back; slot 1 leaf's, green
        assert f_im.convert("RGB").getpixel((2, 2)) == pytest.approx(RED, abs=2)
        assert f_im.convert("RGB").getpixel((cw + 2, 2)) == pytest.approx(GREEN, abs=2)
        assert b_im.convert("RGB").getpixel((cw // 2, ch // 2)) == pytest.approx(RED, abs=2)
        assert b_im.convert("RGB").getpixel((cw + cw // 2, ch // 2)) == pytest.approx(GREEN, abs=2)
    rows, doc = manifest(tts)
    # the deck's files, and the whole table (its coins and the game's saved object)
    table = {"tiny.json", "tiny-tokens-tokens.png"}
    assert {r["file"] for r in rows} == {face.name, back.name, "tiny-cards.json"} | table
    assert {f["file"] for f in doc["files"]} == {face.name, back.name, "tiny-cards.json"} | table


def test_tts_one_back_image_many_sheets_and_url_prefix(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    set_manifest(game_dir, 'back_column = "colour"', 'back = "red"')
    lines = ["id,title,cost,colour,text,copies"] + [f"c{i:02d},Card {i},1,red,,{1 + (i == 0)}" for i in range(71)]
    (game_dir / "cards.csv").write_text("\n".join(lines) + "\n")
    with open(game_dir / "game.toml", "a") as fh:  # small sheets keep the test fast
        fh.write('\n[targets.small]\nextends = "tts"\nmax_sheet_width = 1200\nmax_sheet_height = 1200\n')
    result = export(game_dir, tmp_path / "out", "small", url_prefix="https://example.com/decks/")
    folder, deck = _tts_state(result)
    assert len(deck["DeckIDs"]) == 72
    assert deck["DeckIDs"][:3] == [100, 100, 101]
    assert deck["DeckIDs"][-3:] == [168, 200, 201]  # 69 faces on sheet 1 (ids 100-168), 2 on sheet 2
    assert set(deck["CustomDeck"]) == {"1", "2"}
    one, two = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (one["NumWidth"], one["NumHeight"]) == (10, 7)
    assert one["UniqueBack"] is False
    assert one["BackURL"] == two["BackURL"] == "https://example.com/decks/tiny-cards-back.png"
    assert one["FaceURL"] == "https://example.com/decks/tiny-cards-faces-1.png"
    for c in deck["ContainedObjects"]:
        assert c["CardID"] // 100 == int(next(iter(c["CustomDeck"])))
    with Image.open(folder / "tiny-cards-faces-1.png") as sheet, Image.open(folder / "tiny-cards-back.png") as back:
        assert sheet.width <= 1200 and sheet.height <= 1200
        cw, ch = back.size
        assert cw == 120  # 1200 / 10 columns
        assert sheet.size == (10 * cw, 7 * ch)
        # the last slot holds the hidden-card image: the deck back
        last = sheet.convert("RGB").crop((9 * cw, 6 * ch, 10 * cw, 7 * ch))
        assert np.abs(np.asarray(last).astype(int) - np.asarray(back.convert("RGB")).astype(int)).max() <= 2
    with Image.open(folder / "tiny-cards-faces-2.png") as sheet:
        assert (two["NumWidth"], two["NumHeight"]) == (2, 2)  # 2 faces and the hidden-card slot
        assert (2 * cw, 2 * ch) == sheet.size
    table = json.loads((folder / "tiny.json").read_text(encoding="utf-8"))["ObjectStates"]
    coins = [s for s in table if s["Name"] == "Custom_Token"]
    assert len(coins) == 10  # the whole table's images are under the prefix too
    assert {c["CustomImage"]["ImageURL"] for c in coins} == {"https://example.com/decks/tiny-tokens-tokens.png"}


# --------------------------------------------------------------------------------------------
# manifest, determinism, stale files


def test_manifest_lists_every_file_with_its_hash(tgc):
    folder = folder_of(tgc)
    rows, doc = manifest(tgc)
    listed = {f["file"]: f for f in doc["files"]}
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert on_disk == set(listed) | {"manifest.csv", "manifest.json"}
    for name, item in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == item["sha256"]
        assert (item["width_px"], item["height_px"]) == (825, 1125)
    assert [{k: str(v) if v is not None else "" for k, v in e.items()} for e in doc["entries"]] == rows
    assert doc["target"] == "tgc" and doc["game"] == "tiny" and doc["cards"] == 5


def test_same_input_same_bytes_and_stale_files_go(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    first = export(game_dir, tmp_path / "a", "tgc")
    second = export(game_dir, tmp_path / "b", "tgc")
    for f1, f2 in zip(first.files, second.files):
        assert f1.relative_to(tmp_path / "a") == f2.relative_to(tmp_path / "b")
        assert f1.read_bytes() == f2.read_bytes(), f1.name
    (game_dir / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,1\n")
    export(game_dir, tmp_path / "a", "tgc")
    folder = tmp_path / "a" / "export" / "tgc"
    assert not (folder / "cards" / "leaf.png").exists()
    assert not (folder / "cards" / "back-green.png").exists()
    assert (folder / "cards" / "fire.png").exists()


def test_rasterising_in_two_processes_gives_the_same_bytes(tgc, dtc):
    import pypdfium2 as pdfium

    pdf_path = folder_of(dtc) / "tiny-cards.pdf"
    doc = pdfium.PdfDocument(str(pdf_path))
    pages = []
    for i in range(len(doc)):  # each page as its own one-page PDF
        one = pdfium.PdfDocument.new()
        one.import_pages(doc, [i])
        buf = io.BytesIO()
        one.save(buf)
        pages.append(buf.getvalue())
    jobs = [(p, (206, 281)) for p in pages] * 2
    assert rasterise_all(jobs, 2) == rasterise_all(jobs, 1)


def test_same_pdf_twice_is_byte_identical(tmp_path, dtc):
    game_dir = copy_tiny(tmp_path / "tiny")
    again = export(game_dir, tmp_path / "out", "dtc")
    assert (folder_of(again) / "tiny-cards.pdf").read_bytes() == (folder_of(dtc) / "tiny-cards.pdf").read_bytes()


# --------------------------------------------------------------------------------------------
# profiles as data


def test_bundled_profiles_cite_their_sources():
    assert set(bundled_profiles()) >= {"tgc", "mpc", "dtc", "eu", "tts"}
    for name in bundled_profiles():
        profile = load_profile(name)
        assert profile.marks == "none"
        assert profile.title and profile.source
    assert load_profile("dtc").ink.ink_limit == pytest.approx(2.4)
    assert load_profile("eu").safe_zone == pytest.approx(4 * MM)
    assert load_profile("mpc").bleed == pytest.approx(8.64)


def test_a_profile_file_and_a_manifest_table_need_no_code(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    shop = tmp_path / "shop.toml"
    shop.write_text('title = "Local shop"\noutput = "png"\ndpi = 150\nbleed = "2mm"\nsafe_zone = "3mm"\n'
                    'face_file = "f-{card}.png"\nback_file = "b-{back}.png"\n')
    result = export(game_dir, tmp_path / "out", str(shop))
    folder = folder_of(result)
    assert folder.name == "shop"
    with Image.open(folder / "f-fire.png") as im:
        assert im.size == (round((63.5 + 4) / 25.4 * 150), round((88.9 + 4) / 25.4 * 150))
    with open(game_dir / "game.toml", "a") as fh:
        fh.write('\n[targets.dtc]\n\n[targets.proof]\nextends = "tgc"\ndpi = 100\n')
    game = load_game(game_dir, "tiny")
    assert manifest_targets(game) == ["dtc", "proof"]
    assert load_profile("proof", game).dpi == 100
    assert load_profile("proof", game).bleed == pytest.approx(9)
    assert load_profile("dtc", game).ink.ink_limit == pytest.approx(2.4)


@pytest.mark.parametrize("extra, target, message", [
    ("", "nope", "no target 'nope'"),
    ('[targets.x]\nextends = "dtc"\nbleeed = "3mm"\n', "x", "unknown profile setting 'bleeed'"),
    ('[targets.x]\nextends = "dtc"\nbleed = "3"\n', "x", "is not a length with a unit"),
    ('[targets.x]\nextends = "y"\n[targets.y]\nextends = "x"\n', "x", "cycle"),
    ('[targets.x]\nextends = "dtc"\nink_limit = 240\nrich_black = [100, 100, 100, 100]\n', "x", "above ink_limit"),
    ('[targets.x]\noutput = "png"\ncolor = "cmyk"\n', "x", "png output is RGB"),
    ('[targets.x]\nextends = "tgc"\nface_file = "{deck}/{nme}.png"\n', "x", "'nme'"),
])
def test_profile_errors_name_the_key(tmp_path, extra, target, message):
    game_dir = copy_tiny(tmp_path / "tiny")
    with open(game_dir / "game.toml", "a") as fh:
        fh.write("\n" + extra)
    game = load_game(game_dir, "tiny")
    with pytest.raises(ProfileError) as info:
        load_profile(target, game)
    assert message in info.value.render()
    if target == "x" and "cycle" not in message:
        assert re.search(r"game\.toml:\d+ \(targets\.x\.", info.value.render()), info.value.render()


def test_a_card_size_the_target_does_not_take_is_a_clear_error(tmp_path):
    game_dir = copy_tiny(tmp_path / "tiny")
    set_manifest(game_dir, 'card_size = "poker"', 'card_size = "skat"')
    with pytest.raises(ProfileError) as info:
        export(game_dir, tmp_path / "out", "tgc")
    text = info.value.render()
    assert "deck 'cards' is skat" in text and "poker" in text and "[targets.tgc.sizes]" in text


# --------------------------------------------------------------------------------------------
# the command line and a bundled game


def test_cli_export_and_its_errors(tmp_path):
    from typer.testing import CliRunner

    from pnp.cli import typer_app

    app = typer_app()

    game_dir = copy_tiny(tmp_path / "tiny")
    runner = CliRunner()
    done = runner.invoke(app, ["export", str(game_dir), "--target", "tts", "-o", str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    assert "tts" in done.output
    assert (tmp_path / "out" / "tiny" / "export" / "tts" / "manifest.json").is_file()
    listed = runner.invoke(app, ["export", "--list-targets"])
    assert listed.exit_code == 0
    for name in ("tgc", "mpc", "dtc", "eu", "tts"):
        assert name in listed.output
    bad = subprocess.run([sys.executable, "-m", "pnp", "export", str(game_dir), "--target", "dtcc",
                          "-o", str(tmp_path / "out")], capture_output=True, text=True,
                         env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"}, cwd=ROOT)
    assert bad.returncode == 1
    assert "export.profile" in bad.stdout and "no target 'dtcc'" in bad.stdout and "did you mean 'dtc'" in bad.stdout
    assert "Traceback" not in bad.stderr + bad.stdout
    none = runner.invoke(app, ["export", str(game_dir), "-o", str(tmp_path / "out")])
    assert none.exit_code == 1 and "--target" in none.output and "lists no [targets]" in none.output


def test_a_bundled_game_exports_to_drivethrucards(tmp_path):
    game = load_game(CARD_DATA / "atomic-assembly", "card_data/atomic-assembly")
    for comp in game:
        if comp.kind == "deck":
            comp.rows = comp.rows[:1]  # a card of every deck keeps the test fast
    layouts = game_layouts(game, GameSource(game.path, game.display_root, ROOT / "templates" / game.id,
                                            f"templates/{game.id}"))
    result = export_game(game, layouts, "dtc", tmp_path, jobs=1)
    assert not [f for f in result.findings if f.severity == "error"]
    pdfs = [f for f in result.files if f.suffix == ".pdf"]
    decks = [c for c in game if c.kind == "deck"]
    assert len(pdfs) == len(decks)
    rows, _ = manifest(result)
    for pdf_path, comp in zip(pdfs, decks):
        reader = PdfReader(pdf_path)
        assert len(reader.pages) == 2 * sum(r.copies for r in comp.rows)
        for page in reader.pages:
            assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 189, 261], abs=0.001)
        ops = [op for _, op, _ in operators(pdf_path)]
        assert ops and set(ops) <= {"k", "K"}
        assert max(sum(v) for v in cmyk_ops(pdf_path)) <= 2.40 + 1e-6
        assert sum(1 for r in rows if r["file"] == pdf_path.name) == len(reader.pages)


def test_targets_that_are_not_tables_are_refused_at_their_line(tiny):
    from pnp.model.load import load_game
    from pnp.outputs.export.profiles import manifest_targets

    (tiny / "game.toml").write_text((tiny / "game.toml").read_text() + "\n[targets]\ntgc = 5\n")
    with pytest.raises(ProfileError) as info:
        manifest_targets(load_game(tiny, "g"))
    assert str(info.value.location) == "g/game.toml:50 (targets.tgc)"
