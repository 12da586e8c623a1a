"""An export draws every card as a page of one PDF, saved once and rasterised page by page;
each page renders to the pixels a PDF of that card alone renders to."""

from __future__ import annotations

from PIL import Image

from pnp.core.units import MM
from pnp.outputs.export.pages import PageBook
from pnp.outputs.export.profiles import load_profile
from pnp.render.art import RasterArt
from pnp.render.raster import pdf_to_png, rasterise_pages


def _art(tmp_path) -> RasterArt:
    picture = Image.new("RGB", (1200, 900))
    picture.putdata([((x * 7) % 256, (y * 5) % 256, (x ^ y) % 256) for y in range(900) for x in range(1200)])
    path = tmp_path / "pic.png"
    picture.save(path)
    return RasterArt(path, "art/pic.png")


def _card(width_mm: float):
    """A page drawing: a 63 x 88 mm page with the picture ``width_mm`` wide."""
    def draw(c, art) -> None:
        c.setPageSize((63 * MM, 88 * MM))
        c.setTrimBox((0, 0, 63 * MM, 88 * MM))
        c.drawString(10, 10, "Fe 26")
        c.draw_art(art, 5 * MM, 30 * MM, width_mm * MM, width_mm * 0.75 * MM)
    return draw


def test_each_page_renders_as_a_pdf_of_it_alone_would(tmp_path):
    art = _art(tmp_path)
    profile = load_profile("tgc")
    book = PageBook(profile, "t", None)
    pages = [book.add(lambda c, w=w: _card(w)(c, art)) for w in (20, 50, 20)]
    assert [index for index, _ in pages] == [0, 1, 2]
    assert pages[0][1] == pages[2][1] != pages[1][1]  # the same drawing, the same digest
    pdf = book.pdf()
    px = (744, 1039)
    together = rasterise_pages(pdf, [(0, px), (1, px), (2, px)], 1, encode=False)
    for (index, _), width, raster in zip(pages, (20, 50, 20), together):
        alone = PageBook(profile, "t", None)
        alone.add(lambda c: _card(width)(c, art))
        assert pdf_to_png(alone.pdf(), px=px, encode=False) == raster, index
    # the picture is stored once a size: 20 mm and 50 mm wide
    assert pdf.count(b"/Subtype /Image") == 2


def test_pages_rasterised_in_runs_and_processes_are_the_same_bytes(tmp_path):
    art = _art(tmp_path)
    book = PageBook(load_profile("tgc"), "t", None)
    for n in range(14):
        book.add(lambda c, n=n: _card(10 + n)(c, art))
    pdf = book.pdf()
    pages = [(i, (300, 420)) for i in range(14)]
    assert rasterise_pages(pdf, pages, 2) == rasterise_pages(pdf, pages, 1) == \
        [pdf_to_png(pdf, px=(300, 420), page_index=i, compress_level=1) for i in range(14)]
    assert rasterise_pages(pdf, [], 2) == []


def test_a_saved_book_takes_no_more_pages(tmp_path):
    import pytest

    book = PageBook(load_profile("tgc"), "t", None)
    book.add(lambda c: (c.setPageSize((100, 100)), c.drawString(10, 10, "x")))
    book.pdf()
    with pytest.raises(RuntimeError, match="saved"):
        book.add(lambda c: c.drawString(10, 10, "y"))
