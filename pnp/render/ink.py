"""Ink-saving editions and the ink a sheet takes.

- **Low ink** (:class:`LowInk`): every large fill (the background, and a filled box covering at
  least :data:`LARGE_FILL` of the piece's trim) is painted as a tint of its colour, ``tint`` of
  its ink (a layouts file's ``low_ink_tint``, default :data:`DEFAULT_TINT`), or, with
  ``low_ink = "outline"``, not filled at all but outlined in its colour. Text drawn on such a
  fill that would fall below 4.5:1 against it is drawn in the fill's own colour, which the
  lightened fill sets off; strokes, small fills, icons and art are kept.
- **Greyscale** (:class:`GreyConverter`, :class:`GreyCanvas`): every colour, of the palette and
  of art, becomes the grey of its relative luminance (:func:`pnp.render.vision.grey`), painted
  in DeviceGray (``g``/``G``, grey pictures), which a monochrome printer prints as the designer
  sees it in grey. SVG gradients keep their shading as black ink only (DeviceCMYK, C = M = Y = 0).
- **Coverage** (:func:`coverage`): the ink a page takes, measured from its pixels.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColor, Color, HexColor, toColor

from . import vision
from .color import InkConverter, InkSettings
from .embed import ArtCanvas
from .pdfcanvas import Canvas

LARGE_FILL = 0.2
"""Share of a piece's trim area from which a fill is large."""
DEFAULT_TINT = 0.25
"""How much of its ink a large fill keeps in the low-ink edition."""
LOW_INK_MODES = ("lighten", "outline")


def tint(hexcolor: str, amount: float) -> str:
    """``#RRGGBB`` keeping ``amount`` (0..1) of its ink: mixed with white paper."""
    r, g, b = vision.rgb(hexcolor)
    return vision.to_hex(tuple(1.0 - (1.0 - v) * amount for v in (r, g, b)))


class LowInk:
    """The Renderer ``color_convert`` hook of a low-ink edition (see the module docstring). The
    renderer tells it what is drawn: :attr:`share` (the trim share of the box being drawn),
    :attr:`rect` (its rectangle, pt) and :attr:`under` (the large fills drawn so far on this
    piece: rect, original and painted ``#RRGGBB``)."""

    def __init__(self, amount: float = DEFAULT_TINT, mode: str = "lighten"):
        self.amount = amount
        self.mode = mode
        self.share = 0.0
        self.rect: tuple[float, float, float, float] | None = None
        self.under: list[tuple[tuple[float, float, float, float], str, str]] = []

    def start_piece(self) -> None:
        """Forget the fills of the piece drawn before."""
        self.under = []

    def __call__(self, hexcolor: str, role: str):
        if role == "fill" and self.share >= LARGE_FILL:
            painted = tint(hexcolor, self.amount)
            if self.rect is not None:
                self.under.append((self.rect, hexcolor, painted))
            if self.mode == "outline":
                return None
            return HexColor(painted)
        if role == "text" and self.rect is not None:
            x, y, w, h = self.rect
            cx, cy = x + w / 2, y + h / 2
            for (rx, ry, rw, rh), original, painted in reversed(self.under):
                if rx <= cx <= rx + rw and ry <= cy <= ry + rh:
                    if painted != original and vision.contrast(hexcolor, painted) < vision.MIN_CONTRAST:
                        return HexColor(original if vision.contrast(original, painted) >= vision.MIN_CONTRAST
                                        else "#000000")
                    break
        return HexColor(hexcolor)

    def outline(self, hexcolor: str) -> str:
        """The stroke an outlined large fill gets (its original colour)."""
        return hexcolor


def _k(gray: float) -> CMYKColor:
    return CMYKColor(0, 0, 0, round(1.0 - gray, 4))


class GreyConverter(InkConverter):
    """The colour converter of a greyscale edition: every colour and every picture becomes K
    ink of its luminance (no C, M or Y anywhere, no rich black)."""

    def __init__(self, patterns: dict[str, int] | None = None):
        super().__init__(InkSettings(ink_limit=1.0, rich_black=(0.0, 0.0, 0.0, 1.0)), "greyscale")
        self.patterns = dict(patterns or {})
        """``#RRGGBB`` -> hatching (1, 2, 3 ...) drawn over its fills: categories that greyscale
        would merge (``access.greyscale``), told apart by pattern."""

    def convert(self, hexcolor: str, role: str) -> CMYKColor:
        return _k(vision.grey(hexcolor)[0])

    def enforce(self, color):
        tc = toColor(color)
        if isinstance(tc, CMYKColor):
            d = tc.density
            r, g, b = ((1 - d * v) * (1 - d * tc.black) for v in (tc.cyan, tc.magenta, tc.yellow))
        elif isinstance(tc, Color):
            r, g, b = tc.red, tc.green, tc.blue
        else:
            return tc
        out = _k(vision.grey((r, g, b))[0])
        out.alpha = getattr(tc, "alpha", 1)
        return out

    def make_canvas(self, target, **kwargs) -> "GreyCanvas":
        """The canvas a greyscale edition's PDF is drawn on."""
        return GreyCanvas(target, self, **kwargs)

    def gray(self, color) -> float:
        """A colour (any reportlab colour) as the grey level 0 (black) .. 1 (white)."""
        return round(1.0 - self.enforce(color).black, 4)

    def check_art(self, mode: str, name: str | None) -> None:
        """Art of every colour mode is converted, silently: that is the edition's purpose."""

    def grey_image(self, image):
        """Raster art as a grey (mode ``L``) picture of its luminance, and its alpha channel
        or None; each picture is converted once."""
        cached = self._images.get(id(image))
        if cached is not None and cached[0] is image:
            return cached[1], cached[2]
        source, alpha = image, None
        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            rgba = image.convert("RGBA")
            alpha = rgba.getchannel("A")
            source = rgba.convert("RGB")
        out = vision.simulate_image(source, "greyscale").getchannel("R")
        self._images[id(image)] = (image, out, alpha)
        return out, alpha


HATCH_ANGLES = (45.0, -45.0, 0.0, 90.0)
"""Hatching of pattern 1, 2, 3, 4 (degrees); pattern 5 on crosses 1 and 2, and so on."""
HATCH_PITCH = 4.0
"""Distance between hatch lines, pt (1.4 mm: visible at arm's length, calm behind text)."""


def hatch(c, rect: tuple[float, float, float, float], pattern: int, gray: float, ellipse: bool = False) -> None:
    """Hatch ``rect`` (x, y, w, h pt; its ellipse with ``ellipse``) with ``pattern`` (1, 2 ...),
    in black or white, whichever stands out from the fill's ``gray`` (0 black .. 1 white)."""
    x, y, w, h = rect
    c.saveState()
    clip = c.beginPath()
    if ellipse:
        clip.ellipse(x, y, w, h)
    else:
        clip.rect(x, y, w, h)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeGray(0.0 if gray > 0.5 else 1.0)
    c.setLineWidth(0.6)
    angles = [HATCH_ANGLES[(pattern - 1) % len(HATCH_ANGLES)]]
    if pattern > len(HATCH_ANGLES):
        angles.append(HATCH_ANGLES[(pattern - len(HATCH_ANGLES)) % len(HATCH_ANGLES)])
    cx, cy, reach = x + w / 2, y + h / 2, (w * w + h * h) ** 0.5 / 2 + HATCH_PITCH
    for angle in angles:
        c.saveState()
        c.translate(cx, cy)
        c.rotate(angle)
        steps = int(reach / HATCH_PITCH) + 1
        for i in range(-steps, steps + 1):  # each line placed from the centre, not from the last
            c.line(-reach, i * HATCH_PITCH, reach, i * HATCH_PITCH)
        c.restoreState()
    c.restoreState()


class GreyCanvas(ArtCanvas):
    """A canvas that paints every colour as DeviceGray and embeds every picture as grey."""

    def __init__(self, target, converter: GreyConverter, **kwargs):
        self.converter = converter
        super().__init__(target, **kwargs)

    def setFillColor(self, aColor, alpha=None):
        Canvas.setFillGray(self, self.converter.gray(aColor), alpha=alpha)

    def setStrokeColor(self, aColor, alpha=None):
        Canvas.setStrokeGray(self, self.converter.gray(aColor), alpha=alpha)

    def setFillColorRGB(self, r, g, b, alpha=None):
        Canvas.setFillGray(self, vision.grey((r, g, b))[0], alpha=alpha)

    def setStrokeColorRGB(self, r, g, b, alpha=None):
        Canvas.setStrokeGray(self, vision.grey((r, g, b))[0], alpha=alpha)

    def setFillColorCMYK(self, c, m, y, k, alpha=None):
        self.setFillColor(CMYKColor(c, m, y, k), alpha=alpha)

    def setStrokeColorCMYK(self, c, m, y, k, alpha=None):
        self.setStrokeColor(CMYKColor(c, m, y, k), alpha=alpha)

    def image_pixels(self, image):
        grey, alpha = self.converter.grey_image(image)
        return grey, alpha

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        super().linearGradient(x0, y0, x1, y1, [self.converter.enforce(c) for c in colors], positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        super().radialGradient(x, y, radius, [self.converter.enforce(c) for c in colors], positions, extend)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, **kwargs):
        """Pictures reportlab places itself (inside SVG art) as grey."""
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        pil = image._image if isinstance(image, ImageReader) else image if isinstance(image, Image.Image) \
            else Image.open(image)
        grey, alpha = self.converter.grey_image(pil)
        if alpha is not None:
            grey = Image.merge("RGBA", (grey, grey, grey, alpha))
            mask = "auto"
        return super().drawImage(ImageReader(grey), x, y, width, height, mask=mask, **kwargs)

    def drawInlineImage(self, image, x, y, width=None, height=None, **kwargs):
        return self.drawImage(image, x, y, width, height, **kwargs)


def coverage(pdf: bytes, dpi: int = 50) -> list[float]:
    """The ink each page of ``pdf`` takes, in percent of the page: the mean over its pixels,
    rendered at ``dpi``, of C + M + Y + K (full grey-component replacement, as
    :func:`pnp.render.color.rgb_to_cmyk`: neutral greys take black only). 100 % is the page
    covered once with one full ink; a solid rich black would be 400 %."""
    import numpy as np
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for index in range(len(doc)):
            page = doc[index]
            arr = np.asarray(page.render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.float64) / 255.0
            page.close()
            k = 1.0 - arr.max(axis=2)
            denom = np.where(k < 1.0, 1.0 - k, 1.0)
            cmy = (1.0 - arr - k[..., None]) / denom[..., None]
            out.append(float((cmy.sum(axis=2) + k).mean() * 100.0))
    finally:
        doc.close()
    return out
