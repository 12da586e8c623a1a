"""Raster art is embedded at the resolution the file needs: 300 dpi at its placed size in print
files (``--image-dpi`` or an export profile's ``image_dpi`` change it), downsampled with a
Lanczos filter only when it is sharper than that by more than half again, never enlarged, each
picture once per file at the size its largest placement needs, and the 300 dpi preflight still
judging the picture's own pixels.

Every figure is read from the written PDF: the embedded image's pixel size with pikepdf, its
placed size with pdfplumber, its pixels rendered at 300 dpi with pypdfium2, the file's size on
disk."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards
from pnp.outputs.export import export_game
from pnp.outputs.rulebook import build_rulebook

MM = 72 / 25.4
TOL = 0.05 * MM


def px_at(mm: float, dpi: int = 300) -> int:
    """Pixels ``mm`` millimetres take at ``dpi``, rounded up (what the file must hold)."""
    return math.ceil(mm / 25.4 * dpi - 1e-6)


def noise(path: Path, width: int, height: int | None = None, seed: int = 1) -> None:
    """A picture of seeded noise, which compresses as badly as a picture can (so the file's
    size says how many pixels it holds), with a red square in its middle third."""
    height = height or width
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    pixels[height // 3:2 * height // 3, width // 3:2 * width // 3] = (220, 20, 20)
    Image.fromarray(pixels, "RGB").save(path, compress_level=0)


def art_boxes(*sizes_mm: float, image: str = "art/pic.png") -> str:
    """Image boxes showing ``image`` (fit contain), one per size, down the card's left edge."""
    out, y = "", 2.0
    for i, size in enumerate(sizes_mm):
        out += (f'\n[layouts.action.boxes.art{i}]\ntype = "image"\nimage = "{image}"\nfit = "contain"\n'
                f'x = "2mm"\ny = "{y}mm"\nwidth = "{size}mm"\nheight = "{size}mm"\n')
        y += size + 1
    return out


def card_game(tiny: Path, boxes: str, art_px: int | tuple[int, int] = 2000) -> Path:
    (tiny / "art").mkdir()
    w, h = (art_px, art_px) if isinstance(art_px, int) else art_px
    noise(tiny / "art" / "pic.png", w, h)
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + boxes, encoding="utf-8")
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,1\n", encoding="utf-8")
    return tiny


def cards_pdf(game_dir: Path, out: Path, image_dpi: int = 300):
    game = load_game(game_dir, "tiny")
    source = GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates")
    result = build_cards(game, game_layouts(game, source), out, SheetOptions(contact_sheets=False),
                         image_dpi=image_dpi)
    return result, out / "tiny-cards.pdf"


def embedded(pdf_path: Path) -> list[tuple[int, int]]:
    """(width, height) in pixels of every image XObject in the file (soft masks apart), each once."""
    with pikepdf.open(pdf_path) as pdf:
        return sorted((int(o.Width), int(o.Height)) for o in pdf.objects
                      if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
                      and not _is_mask(pdf, o))


def _is_mask(pdf, stream) -> bool:
    return any(isinstance(o, pikepdf.Stream) and o.get("/SMask") is not None and o.SMask.objgen == stream.objgen
               for o in pdf.objects)


def test_a_4000_px_picture_placed_40_mm_wide_is_embedded_at_300_dpi(tiny, tmp_path):
    game = card_game(tiny, art_boxes(40), 4000)
    result, path = cards_pdf(game, tmp_path)
    assert embedded(path) == [(px_at(40), px_at(40))]  # 473 x 473, not 4000 x 4000
    assert path.stat().st_size < 1_500_000  # the 48 MB of noise at 4000 px would not fit in 1.5 MB
    assert not [f for f in result.findings if f.rule == "preflight.low-resolution"]
    with pdfplumber.open(path) as pdf:  # placed as before: 40 mm square, 2 mm in from the trim
        (im,) = pdf.pages[2].images
        assert abs((im["x1"] - im["x0"]) - 40 * MM) < TOL and abs((im["bottom"] - im["top"]) - 40 * MM) < TOL
    # the downsampled picture still shows its red middle third where it should
    page = pdfium.PdfDocument(str(path))[2]
    pixels = page.render(scale=300 / 72).to_pil().convert("RGB")
    s = 300 / 72
    centre = ((im["x0"] + im["x1"]) / 2 * s, (im["top"] + im["bottom"]) / 2 * s)
    r, g, b = pixels.getpixel((int(centre[0]), int(centre[1])))
    assert r > 180 and g < 70 and b < 70


@pytest.mark.parametrize("art_px, expected", [
    (600, 600),    # 381 dpi at 40 mm: under 1.5 x 300, embedded as it is
    (700, 700),    # 444 dpi: still under the margin
    (800, 473),    # 508 dpi: downsampled to 300 dpi
    (200, 200),    # 127 dpi: never enlarged (and reported, below)
])
def test_art_is_downsampled_only_past_the_margin_and_never_enlarged(tiny, tmp_path, art_px, expected):
    game = card_game(tiny, art_boxes(40), art_px)
    result, path = cards_pdf(game, tmp_path)
    assert embedded(path) == [(expected, expected)]
    low = [f for f in result.findings if f.rule == "preflight.low-resolution"]
    assert bool(low) == (art_px == 200)


def test_the_same_picture_at_several_sizes_is_embedded_once_for_the_largest(tiny, tmp_path):
    game = card_game(tiny, art_boxes(10, 40, 20))
    _, path = cards_pdf(game, tmp_path)
    assert embedded(path) == [(px_at(40), px_at(40))]
    with pdfplumber.open(path) as pdf:
        widths = sorted(round((im["x1"] - im["x0"]) / MM, 2) for im in pdf.pages[2].images)
    assert widths == [10, 20, 40]  # the one image, placed three times at its three sizes


def test_a_lower_image_dpi_embeds_fewer_pixels_and_the_preflight_judges_the_picture(tiny, tmp_path):
    game = card_game(tiny, art_boxes(40))
    result, path = cards_pdf(game, tmp_path, image_dpi=150)
    assert embedded(path) == [(px_at(40, 150), px_at(40, 150))]  # 237 px: 150 dpi at 40 mm
    # the picture itself is 1270 dpi there: no low-resolution warning for the embedded 150 dpi
    assert not [f for f in result.findings if f.rule == "preflight.low-resolution"]


def test_transparent_art_keeps_its_soft_mask_when_downsampled(tiny, tmp_path):
    (tiny / "art").mkdir()
    rgba = Image.new("RGBA", (2000, 2000), (0, 0, 0, 0))
    rgba.paste((30, 60, 200, 255), (500, 500, 1500, 1500))
    rgba.save(tiny / "art" / "pic.png")
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + art_boxes(40), encoding="utf-8")
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,1\n", encoding="utf-8")
    _, path = cards_pdf(tiny, tmp_path)
    with pikepdf.open(path) as pdf:
        (image,) = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and "/SMask" in o]
        assert (int(image.Width), int(image.Height)) == (px_at(40), px_at(40))
        assert (int(image.SMask.Width), int(image.SMask.Height)) == (px_at(40), px_at(40))
    with pdfplumber.open(path) as pdf:
        (im,) = pdf.pages[2].images
    page = pdfium.PdfDocument(str(path))[2]
    s = 300 / 72
    pixels = page.render(scale=s).to_pil().convert("RGB")
    corner = pixels.getpixel((int((im["x0"] + 3 * MM) * s), int((im["top"] + 3 * MM) * s)))
    middle = pixels.getpixel((int((im["x0"] + im["x1"]) / 2 * s), int((im["top"] + im["bottom"]) / 2 * s)))
    assert corner == (255, 255, 255)  # transparent: the white card shows through
    assert middle[2] > 150 and middle[0] < 80


def test_art_is_stored_losslessly_with_png_predictors(tiny, tmp_path):
    (tiny / "art").mkdir()
    rng = np.random.default_rng(2)  # smooth colour fields, as a photograph's: plain Flate barely shrinks them
    smooth = Image.fromarray(rng.integers(0, 256, (12, 12, 3), dtype=np.uint8), "RGB").resize(
        (600, 600), Image.Resampling.BICUBIC)
    smooth.save(tiny / "art" / "pic.png")
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + art_boxes(60), encoding="utf-8")  # 254 dpi: as it is
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,1\n", encoding="utf-8")
    _, path = cards_pdf(tiny, tmp_path)
    with pikepdf.open(path) as pdf:
        (image,) = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert image.Filter == "/FlateDecode" and int(image.DecodeParms.Predictor) == 15  # no ASCII85 layer
        assert len(image.read_raw_bytes()) < 0.35 * 600 * 600 * 3  # plain Flate keeps 89 % of these pixels
        stored = pikepdf.PdfImage(image).as_pil_image().convert("RGB")
    assert stored.tobytes() == smooth.tobytes()  # every pixel as supplied


def test_same_picture_same_bytes(tiny, tmp_path):
    game = card_game(tiny, art_boxes(40, 25))
    _, first = cards_pdf(game, tmp_path / "a")
    _, second = cards_pdf(game, tmp_path / "b")
    assert hashlib.sha256(first.read_bytes()).digest() == hashlib.sha256(second.read_bytes()).digest()


def test_a_rulebook_picture_is_embedded_at_300_dpi_of_its_largest_placement(tiny, tmp_path):
    (tiny / "art").mkdir()
    noise(tiny / "art" / "pic.png", 2000)
    (tiny / "templates" / "rulebook.md.j2").write_text(
        '# Rules\n\n![small](art/pic.png "20mm")\n\n![large](art/pic.png "60mm")\n', encoding="utf-8")
    game = load_game(tiny, "tiny")
    result = build_rulebook(game, GameSource(tiny, "tiny", tiny / "templates", "tiny/templates"), tmp_path,
                            "letter", False)
    path = result.files[0]
    assert embedded(path) == [(px_at(60), px_at(60))]
    assert path.stat().st_size < 3_000_000
    with pdfplumber.open(path) as pdf:
        widths = sorted(round((im["x1"] - im["x0"]) / MM, 2) for im in pdf.pages[0].images)
    assert widths == [20, 60]


def test_an_export_embeds_art_at_its_profile_image_dpi(tiny, tmp_path):
    game_dir = card_game(tiny, art_boxes(40))
    manifest = game_dir / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + '\n[targets.proof]\nextends = "dtc"\nimage_dpi = 150\n',
                        encoding="utf-8")
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    for target, dpi in (("dtc", 300), ("proof", 150)):
        result = export_game(game, layouts, target, tmp_path / target)
        (pdf,) = [p for p in result.files if p.suffix == ".pdf"]
        assert embedded(pdf) == [(px_at(40, dpi), px_at(40, dpi))], target
        with pikepdf.open(pdf) as doc:
            assert all(o.ColorSpace == "/DeviceCMYK" for o in doc.objects
                       if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image")
