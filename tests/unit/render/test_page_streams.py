"""A finished page's content stream is held compressed, and the file's bytes are reportlab's;
a renderer does not keep a saved file's canvas alive."""

from __future__ import annotations

import gc
import io
import weakref

from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from pnp.core.units import MM, Size
from pnp.design.layouts import load_layouts
from pnp.model.pieces import Piece
from pnp.render.canvas import new_canvas
from pnp.render.pdfcanvas import Canvas, EncodedStream
from pnp.render.renderer import Renderer


def _draw(cls) -> tuple[bytes, object]:
    buf = io.BytesIO()
    c = cls(buf, pagesize=(200, 300), invariant=1, pageCompression=1)
    for page in range(3):
        c.setFillColorRGB(0.2, 0.4, page / 3)
        for i in range(40):
            c.rect(5 + i, 10 + 3 * i, 20, 12, stroke=1, fill=1)
        c.drawString(20, 280, f"page {page + 1} \u00e9")
        c.showPage()
    pages = list(c._doc.Pages.pages)
    c.save()
    return buf.getvalue(), pages


def test_pages_are_compressed_as_they_end_into_the_same_bytes():
    ours, pages = _draw(Canvas)
    theirs, _ = _draw(ReportlabCanvas)
    assert ours == theirs
    assert all(p.stream is None and isinstance(p.Contents, EncodedStream) for p in pages)
    assert all(isinstance(p.Contents.content, (bytes, str)) and len(p.Contents.content) < 2000 for p in pages)


def test_a_renderer_lets_go_of_a_saved_canvas(tmp_path):
    (tmp_path / "layouts.toml").write_text('[layouts.card]\nbackground = "#336699"\n', encoding="utf-8")
    renderer = Renderer(load_layouts(tmp_path, "layouts.toml", {}), tmp_path)
    c = new_canvas(io.BytesIO(), Size(100 * MM, 100 * MM))
    piece = Piece("card", {})
    for x in (0, 40):
        renderer.place(c, piece, (x * MM, 0, 30 * MM, 40 * MM), (0, 0, 0, 0))
    c.showPage()
    c.save()
    held = weakref.ref(c)
    del c
    gc.collect()
    assert held() is None  # the forms the renderer defined were of that file only
    again = new_canvas(io.BytesIO(), Size(100 * MM, 100 * MM))
    renderer.place(again, piece, (0, 0, 30 * MM, 40 * MM), (0, 0, 0, 0))
    again.showPage()
    assert len(renderer._forms) == 1 and renderer._form_canvas() is again  # a new file defines its own form
