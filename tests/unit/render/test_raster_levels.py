"""PNG compression levels and unfiltered rows change the bytes and the size, never the pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops
from reportlab.pdfgen import canvas

from pnp.render.raster import EXPORT_COMPRESSION, pdf_to_png, unfiltered_png


def test_a_fast_compression_level_keeps_every_pixel():
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(200, 120), invariant=1)
    c.setFillColorRGB(0.8, 0.2, 0.3)
    c.circle(60, 60, 40, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(110, 60, "Fe 26")
    c.save()
    fast, default = (pdf_to_png(buf.getvalue(), dpi=100, compress_level=level) for level in (1, 6))
    assert fast != default
    a, b = Image.open(io.BytesIO(fast)), Image.open(io.BytesIO(default))
    assert a.size == b.size == (278, 167) and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def _page(transparent_corner: bool = False) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(200, 120), invariant=1)
    if not transparent_corner:
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, 200, 120, stroke=0, fill=1)
    c.setFillColorRGB(0.1, 0.5, 0.9)
    c.rect(20, 20, 90, 60, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(120, 60, "Cu 29")
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("transparent", [False, True])
def test_unfiltered_rows_decode_to_the_pixels_pillow_writes(transparent):
    pdf = _page(transparent_corner=transparent)
    plain = pdf_to_png(pdf, dpi=100, compress_level=1, transparent=transparent)
    rows = pdf_to_png(pdf, dpi=100, compress_level=1, transparent=transparent, unfiltered=True)
    assert rows != plain
    a, b = Image.open(io.BytesIO(rows)), Image.open(io.BytesIO(plain))
    a.load()
    assert a.mode == b.mode == ("RGBA" if transparent else "RGB") and a.size == b.size == (278, 167)
    assert a.tobytes() == b.tobytes()
    if transparent:
        assert a.getpixel((2, 2))[3] == 0 and a.getpixel((60, 120))[3] == 255  # clear paper, opaque ink


def test_unfiltered_rows_skip_the_padding_at_the_end_of_each_row():
    width, height, stride = 3, 2, 12  # 9 bytes of pixels, 3 of padding a row
    pixels = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 7, 7, 7, 10, 20, 30, 40, 50, 60, 70, 80, 90, 7, 7, 7])
    image = Image.open(io.BytesIO(unfiltered_png(pixels, width, height, stride=stride)))
    assert image.mode == "RGB" and image.size == (3, 2)
    assert [image.getpixel((x, y)) for y in range(2) for x in range(3)] == [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30), (40, 50, 60), (70, 80, 90)]
    with pytest.raises(ValueError, match="too few"):
        unfiltered_png(pixels[:-4], width, height, stride=stride)


def test_print_rasters_at_the_export_level_keep_the_pixels_and_the_resolution():
    pdf = _page()
    fast, default = (pdf_to_png(pdf, px=(834, 500), compress_level=level) for level in (EXPORT_COMPRESSION, 6))
    assert fast != default
    a, b = Image.open(io.BytesIO(fast)), Image.open(io.BytesIO(default))
    assert a.size == b.size == (834, 500) and a.mode == b.mode == "RGB"
    assert a.tobytes() == b.tobytes()
    assert a.info["dpi"] == b.info["dpi"] and round(a.info["dpi"][0]) == 300  # 834 px over 200 pt


def _rows_filters(png: bytes) -> set[int]:
    """The filter type of every row of an 8-bit RGB PNG."""
    import zlib

    from pnp.render.raster import unfiltered_rows

    image = Image.open(io.BytesIO(png))
    width, height = image.size
    data, at = b"", 8
    while at < len(png):
        length = int.from_bytes(png[at:at + 4], "big")
        if png[at + 4:at + 8] == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    rows = zlib.decompress(data)
    stride = width * 3 + 1
    assert unfiltered_rows(png) is None or set(rows[::stride]) == {0}
    return set(rows[::stride][:height])


def _pillow(image, level: int, dpi: float) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=level)
    return out.getvalue()


def test_a_mostly_empty_page_keeps_whichever_rows_store_it_smaller():
    from pnp.render.raster import png_bytes, unfiltered_png

    image = Image.open(io.BytesIO(pdf_to_png(_page(), px=(834, 500), compress_level=EXPORT_COMPRESSION)))
    image = image.convert("RGB")
    chosen = png_bytes(image, EXPORT_COMPRESSION, dpi=300)
    pillow = _pillow(image, EXPORT_COMPRESSION, 300)
    plain = unfiltered_png(image.tobytes(), 834, 500, compress_level=EXPORT_COMPRESSION, dpi=300)
    assert chosen in (pillow, plain) and len(chosen) == min(len(pillow), len(plain))
    a, b = Image.open(io.BytesIO(chosen)), Image.open(io.BytesIO(pillow))
    assert a.mode == b.mode == "RGB" and a.tobytes() == b.tobytes() and a.info["dpi"] == b.info["dpi"]


@pytest.mark.parametrize("height", [200, 1100])  # encoded both ways, or judged on a sample
def test_a_gradient_keeps_the_row_filters_which_take_it_to_a_fraction(height):
    from pnp.render.raster import png_bytes, unfiltered_png

    image = Image.new("RGB", (600, height))
    image.putdata([(x * 255 // 599, y * 255 // (height - 1), (x + y) % 256) for y in range(height) for x in range(600)])
    chosen = png_bytes(image, EXPORT_COMPRESSION, dpi=150)
    assert chosen == _pillow(image, EXPORT_COMPRESSION, 150)  # the filtered file, as Pillow writes it
    assert len(chosen) * 3 < len(unfiltered_png(image.tobytes(), 600, height, compress_level=EXPORT_COMPRESSION))
    assert Image.open(io.BytesIO(chosen)).tobytes() == image.tobytes()


@pytest.mark.parametrize("height", [200, 1100])
def test_soft_alpha_keeps_the_row_filters(height):
    from pnp.render.raster import png_bytes

    image = Image.new("RGBA", (600, height), (200, 40, 40, 0))
    cx, cy = 300, height / 2
    image.putalpha(Image.frombytes("L", (600, height), bytes(
        max(0, 255 - int(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5)) for y in range(height) for x in range(600))))
    chosen = png_bytes(image, EXPORT_COMPRESSION)
    pillow = io.BytesIO()
    image.save(pillow, format="PNG", compress_level=EXPORT_COMPRESSION)
    assert chosen == pillow.getvalue()
    assert Image.open(io.BytesIO(chosen)).tobytes() == image.tobytes()


def test_a_tall_page_of_flat_colour_and_text_is_stored_unfiltered():
    from pnp.render.raster import png_bytes

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(180, 252), invariant=1)
    for i in range(12):
        c.setFillColorRGB(0.1 * (i % 10), 0.5, 0.9 - 0.05 * i)
        c.rect(10, 10 + 20 * i, 160, 14, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(14, 13 + 20 * i, f"Card line {i}: 3 cost, 2 gain")
    c.save()
    image = Image.open(io.BytesIO(pdf_to_png(buf.getvalue(), px=(750, 1050))))
    image.load()
    chosen = png_bytes(image.convert("RGB"), EXPORT_COMPRESSION, dpi=300)
    assert _rows_filters(chosen) == {0}
    assert len(chosen) < len(_pillow(image.convert("RGB"), EXPORT_COMPRESSION, 300))
    assert Image.open(io.BytesIO(chosen)).tobytes() == image.convert("RGB").tobytes()


@pytest.mark.parametrize("mode", ["RGBA", "L"])
def test_other_modes_keep_their_pixels(mode):
    from pnp.render.raster import png_bytes

    image = Image.new(mode, (40, 30), (10, 20, 30, 128) if mode == "RGBA" else 77)
    got = Image.open(io.BytesIO(png_bytes(image)))
    assert got.mode == mode and got.tobytes() == image.tobytes()
