"""PNG compression levels change the bytes and the size, never the pixels."""

from __future__ import annotations

import io

from PIL import Image, ImageChops
from reportlab.pdfgen import canvas

from pnp.render.raster import pdf_to_png


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
