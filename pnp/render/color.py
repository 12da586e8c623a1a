"""Colour for print profiles: RGB to CMYK with a total ink limit, rich black, and art.

A game defines its colours once, as ``#RRGGBB`` in ``[colors]`` of game.toml. An RGB profile
(The Game Crafter, MakePlayingCards, Tabletop Simulator) paints them as given. A CMYK profile
(DriveThruCards, a European shop) converts them here:

- **Conversion.** Full grey component replacement in its plain form: ``K = 1 - max(R, G, B)``
  and ``C = (1 - R - K) / (1 - K)`` (likewise M, Y), so every neutral grey is printed with
  black ink only. It is the exact inverse of the plain CMYK-to-RGB rule PDF viewers use, so the
  file looks on screen as the game was designed. When C + M + Y + K is above the profile's
  total ink limit, C, M and Y are scaled down together until the total equals the limit (K is
  kept). Colours within 2/255 of black are black (100 % K). No ICC profile is applied: the
  result is a sound starting point, not a proof; a designer who needs exact inks gives them
  per colour (``cmyk`` in the profile or in ``[targets.NAME]``).
- **Black.** Text and strokes in pure black are 100 % K. A black *fill* at least
  ``rich_black_min_size`` on both sides is painted in the profile's rich black (DriveThruCards:
  C60 M40 Y40 K100, docs/print-specs.md §2 and §8 check 23); smaller black fills stay 100 % K, so
  thin rules and small icons cannot misregister.
- **Art.** Colours that do not come from the game's palette (SVG art, raster art) are RGB.
  With ``art = "convert"`` they are converted the same way and a finding names the piece and
  the art; with ``art = "reject"`` the export stops with a message naming the piece and the art.
  That covers every way art paints: fills and strokes, the colour stops of SVG gradients
  (shadings), raster art and the pictures inside an SVG.

All ink values here are fractions (1.0 = 100 %); profiles write percentages. Total ink limits
come from docs/print-specs.md §2 (DriveThruCards 240 %, MeinSpiel 300 %).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader

from ..core.errors import BuildError, Location
from ..core.findings import Finding
from .pdfcanvas import Canvas
from .embed import ArtCanvas

_HEX_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
NEAR_BLACK = 1.0 - 2.5 / 255
"""A colour whose every channel is at most 2/255 is black: 100 % K, never a heavy CMY mix."""
_STEP = 1000  # ink values are quantised to 0.1 %


def hex_to_rgb(hexcolor: str) -> tuple[float, float, float]:
    """``#RRGGBB`` to (r, g, b) fractions 0..1. Raises ValueError for anything else."""
    if not _HEX_RE.match(hexcolor):
        raise ValueError(f"{hexcolor!r} is not a #RRGGBB colour")
    return tuple(int(hexcolor[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def rgb_to_cmyk(r: float, g: float, b: float, ink_limit: float = 4.0) -> tuple[float, float, float, float]:
    """Convert RGB fractions (0..1) to CMYK fractions with total ink at most ``ink_limit``
    (a fraction: 2.4 = 240 %). Values are quantised to 0.1 %; C, M and Y round down so the
    quantised total never exceeds the limit. Neutral greys give K only."""
    k = 1.0 - max(r, g, b)
    if k >= NEAR_BLACK:
        return 0.0, 0.0, 0.0, 1.0 if ink_limit >= 1.0 else _floor(ink_limit)
    cmy = [(1.0 - v - k) / (1.0 - k) for v in (r, g, b)]
    k = round(k * _STEP) / _STEP
    room = ink_limit - k
    total = sum(cmy)
    if total > room and total > 0:
        cmy = [v * room / total for v in cmy]
    c, m, y = (_floor(v) for v in cmy)
    return c, m, y, k


def _floor(v: float) -> float:
    return int(max(0.0, v) * _STEP + 1e-6) / _STEP


def cmyk_total(cmyk) -> float:
    """Total ink of a CMYK colour or 4-tuple, as a fraction (2.4 = 240 %)."""
    if isinstance(cmyk, CMYKColor):
        d = cmyk.density
        return d * (cmyk.cyan + cmyk.magenta + cmyk.yellow + cmyk.black)
    return float(sum(cmyk))


def image_to_cmyk(image, ink_limit: float):
    """A Pillow image (any mode) converted to mode ``CMYK`` with the same formula as
    :func:`rgb_to_cmyk`, per pixel, total ink at most ``ink_limit`` (fraction). Returns
    (cmyk_image, alpha_image_or_None): an alpha channel is kept apart as a soft mask."""
    import numpy as np
    from PIL import Image

    alpha = None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        alpha = rgba.getchannel("A")
        rgb = rgba.convert("RGB")
    elif image.mode == "CMYK":
        rgb = None
    else:
        rgb = image.convert("RGB")
    if rgb is None:
        arr = np.asarray(image, dtype=np.float64) / 255.0
        k = arr[..., 3]
        cmy = arr[..., :3]
    else:
        arr = np.asarray(rgb, dtype=np.float64) / 255.0
        k = 1.0 - arr.max(axis=2)
        k[k >= NEAR_BLACK] = 1.0
        denom = np.where(k < 1.0, 1.0 - k, 1.0)
        cmy = (1.0 - arr - k[..., None]) / denom[..., None]
        cmy[k >= 1.0] = 0.0
    k8 = np.rint(k * 255.0)
    room = np.maximum(ink_limit * 255.0 - k8, 0.0)
    total = cmy.sum(axis=2) * 255.0
    scale = np.where(total > room, room / np.maximum(total, 1e-9), 1.0)
    cmy8 = np.floor(cmy * 255.0 * scale[..., None] + 1e-6)
    out = np.concatenate([np.clip(cmy8, 0, 255), np.clip(k8, 0, 255)[..., None]], axis=2).astype(np.uint8)
    return Image.fromarray(out, mode="CMYK"), alpha


class BlackFill(CMYKColor):
    """100 % K for a fill; :class:`PrintCanvas` paints it as rich black when the shape is large."""


@dataclass
class InkSettings:
    """The colour part of a CMYK profile. Fractions (1.0 = 100 %), lengths in pt.

    ``overrides`` maps ``#RRGGBB`` (upper case) to exact CMYK fractions.
    """

    ink_limit: float = 3.0
    rich_black: tuple[float, float, float, float] = (0.6, 0.4, 0.4, 1.0)
    rich_black_min_size: float = 36.0
    art: str = "convert"
    overrides: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)


class InkConverter:
    """Converts a game's colours and art for one CMYK profile, and records findings.

    ``convert(hex, role)`` is the :class:`pnp.render.renderer.Renderer` ``color_convert`` hook;
    ``enforce(color)`` is the canvas ``enforceColorSpace`` callable that catches every other
    colour (art); ``image(pil)`` converts raster art. ``piece`` is the piece being drawn (a
    :class:`pnp.model.pieces.Piece`, set by the caller): errors name it by its label, findings
    by its card key (one finding per card, not per copy). ``profile`` names the profile in messages.
    """

    def __init__(self, settings: InkSettings, profile: str, art_name: Callable[[Any], str | None] | None = None):
        self.settings = settings
        self.profile = profile
        self.piece = None
        self.findings: list[Finding] = []
        self._seen: set[tuple[str, str]] = set()
        self._cache: dict[tuple[str, str], CMYKColor] = {}
        self._images: dict[int, tuple[Any, Any, Any]] = {}
        self.art_name = art_name or (lambda _reader: None)
        self.art: tuple[str, Location | str] | None = None
        """The vector art being drawn (its game-folder path and where findings about it point),
        set by :meth:`PrintCanvas.art_scope`; None outside art."""

    # -- palette colours ----------------------------------------------------------------------
    def convert(self, hexcolor: str, role: str) -> CMYKColor:
        """The CMYK colour to paint ``#RRGGBB`` with in ``role`` (text, fill or stroke)."""
        key = (hexcolor.upper(), role)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        s = self.settings
        if key[0] in s.overrides:
            value = CMYKColor(*s.overrides[key[0]])
        else:
            cmyk = rgb_to_cmyk(*hex_to_rgb(key[0]), ink_limit=s.ink_limit)
            if cmyk == (0.0, 0.0, 0.0, 1.0) and role == "fill":
                value = BlackFill(*cmyk)
            else:
                value = CMYKColor(*cmyk)
        self._cache[key] = value
        return value

    # -- colours that bypass the palette (art) ------------------------------------------------
    def enforce(self, color):
        """Canvas ``enforceColorSpace`` callable: CMYK within the ink limit passes; RGB is
        converted (with a finding) or rejected, as the profile says. Raises BuildError."""
        tc = toColor(color)
        if isinstance(tc, CMYKColor):
            if cmyk_total(tc) <= self.settings.ink_limit + 1e-9:
                return tc
            d = tc.density
            c, m, y, k = (d * tc.cyan, d * tc.magenta, d * tc.yellow, d * tc.black)
            room = max(self.settings.ink_limit - k, 0.0)
            s = room / (c + m + y)
            fixed = CMYKColor(_floor(c * s), _floor(m * s), _floor(y * s), k, alpha=tc.alpha)
            self._note("ink", f"a CMYK colour with {cmyk_total(tc) * 100:.0f} % total ink was reduced to "
                              f"the {self.profile} limit of {self.settings.ink_limit * 100:.0f} %")
            return fixed
        if isinstance(tc, Color):
            hexcolor = "#%02X%02X%02X" % tuple(round(v * 255) for v in (tc.red, tc.green, tc.blue))
            if tc.red == tc.green == tc.blue:
                k = round((1.0 - tc.red) * _STEP) / _STEP
                return CMYKColor(0, 0, 0, min(k, self.settings.ink_limit), alpha=tc.alpha)
            label, where = self.art if self.art is not None else ("art", None)
            if self.settings.art == "reject":
                raise BuildError(f"{label} is drawn in RGB ({hexcolor}); the {self.profile} profile "
                                 "takes CMYK only", hint='supply the art in CMYK, or set art = "convert" in '
                                 "the profile to convert it",
                                 location=where if isinstance(where, Location) else None, rule="export.color")
            c, m, y, k = rgb_to_cmyk(tc.red, tc.green, tc.blue, self.settings.ink_limit)
            if self.art is None:
                self._note("rgb-vector", f"art colours drawn in RGB (first {hexcolor}) were converted to CMYK "
                                         f"(total ink at most {self.settings.ink_limit * 100:.0f} %)")
            else:
                self._note(f"rgb-vector:{label}", f"{label} is drawn in RGB (first {hexcolor}); its colours were "
                           f"converted to CMYK (total ink at most {self.settings.ink_limit * 100:.0f} %)",
                           where=where)
            return CMYKColor(c, m, y, k, alpha=tc.alpha)
        raise BuildError(f"a colour {color!r} that is neither RGB nor CMYK",
                         rule="export.color")

    def image(self, image, name: str | None):
        """Raster art (a Pillow image) as CMYK within the ink limit, plus its alpha channel or
        None: :meth:`check_art` then :meth:`cmyk_image`."""
        self.check_art(image.mode, name)
        return self.cmyk_image(image)

    def check_art(self, mode: str, name: str | None) -> None:
        """What art of colour mode ``mode`` (named ``name``; a picture inside vector art, an
        SVG's ``<image>``, is named by that art) means for this profile, said for the piece
        being drawn: RGB art adds a finding (it is converted) at the art file when the art is
        placed inside :meth:`PrintCanvas.art_scope` of that file (a card's picture: one finding
        per file, with every piece that uses it, once merged), or with ``art = "reject"``
        raises BuildError."""
        where = None
        at = None
        if name:
            label = repr(name)
            if self.art is not None and self.art[0] == name:
                at = self.art[1]
        elif self.art is not None:
            label, where = f"the picture inside {self.art[0]}", self.art[1]
        else:
            label = "raster art"
        if mode != "CMYK" and self.settings.art == "reject":
            raise BuildError(f"{label} is {mode} (RGB) art; the {self.profile} profile "
                             "takes CMYK art only",
                             hint='save the art as a CMYK JPEG or TIFF, or set art = "convert" in the profile',
                             location=where if isinstance(where, Location) else None, rule="export.color")
        if mode != "CMYK":
            at = at if at is not None else where
            self._note(f"rgb-image:{name or label}", f"{label} is {mode} art; it was converted to CMYK "
                                                     f"(total ink at most {self.settings.ink_limit * 100:.0f} %)",
                       per_piece=at is not None, where=at)

    def cmyk_image(self, image):
        """The Pillow ``image`` converted to CMYK within the ink limit (:func:`image_to_cmyk`),
        and its alpha channel or None; each image is converted once."""
        cached = self._images.get(id(image))
        if cached is not None and cached[0] is image:
            return cached[1], cached[2]
        converted, alpha = image_to_cmyk(image, self.settings.ink_limit)
        self._images[id(image)] = (image, converted, alpha)
        return converted, alpha

    def _note(self, kind: str, message: str, per_piece: bool = True, where: Location | str | None = None) -> None:
        """A warning, once per piece and ``kind`` (once in all with ``per_piece`` False), at
        ``where`` (default: the piece)."""
        piece = self.piece.card_key if self.piece is not None else ""
        key = (piece if per_piece else "", kind)
        if key in self._seen:
            return
        self._seen.add(key)
        rule = "preflight.ink-limit" if kind == "ink" else "preflight.rgb-art"
        hint = "give the art in CMYK within the profile's total ink limit"
        if isinstance(where, Location):
            self.findings.append(Finding.at("warning", rule, where, message, hint=hint, piece=piece))
        else:
            self.findings.append(Finding("warning", rule, where or piece, message, piece=piece, hint=hint))


def _path_bbox(code: str) -> tuple[float, float] | None:
    """Width and height of the points in a PDF path's code (m, l, c, re operators)."""
    xs: list[float] = []
    ys: list[float] = []
    nums: list[float] = []
    for tok in code.split():
        try:
            nums.append(float(tok))
            continue
        except ValueError:
            pass
        if tok == "re" and len(nums) >= 4:
            x, y, w, h = nums[-4:]
            xs += [x, x + w]
            ys += [y, y + h]
        elif tok in ("m", "l", "c", "v", "y"):
            pts = nums[-6:] if tok == "c" else nums[-4:] if tok in ("v", "y") else nums[-2:]
            xs += pts[0::2]
            ys += pts[1::2]
        nums = []
    if not xs:
        return None
    return max(xs) - min(xs), max(ys) - min(ys)


class PrintCanvas(ArtCanvas):
    """A reportlab canvas for CMYK print files.

    Every colour passes through the converter's ``enforce`` (so no RGB operator is ever
    written), greys set with ``setFillGray`` become K, large :class:`BlackFill` shapes become
    rich black, the colour stops of gradients are converted before the shading is made (a
    DeviceCMYK shading), and raster art, placed or inline (an SVG's ``<image>``), is converted
    to DeviceCMYK before it is embedded: its colour mode is judged where it is placed (the
    finding names that piece), the pixels are converted in the version embedded
    (:class:`~pnp.render.embed.ArtCanvas`).
    """

    def __init__(self, target, converter: InkConverter, **kwargs):
        self.converter = converter
        super().__init__(target, enforceColorSpace=converter.enforce, **kwargs)

    def art_placed(self, art) -> None:
        self.converter.check_art(art.mode, art.name)

    def image_pixels(self, image):
        return self.converter.cmyk_image(image)

    # greys: reportlab writes DeviceGray 'g'/'G' for these; print CMYK K instead
    def setFillGray(self, gray, alpha=None):
        self.setFillColor(CMYKColor(0, 0, 0, round((1 - gray) * _STEP) / _STEP), alpha=alpha)

    def setStrokeGray(self, gray, alpha=None):
        self.setStrokeColor(CMYKColor(0, 0, 0, round((1 - gray) * _STEP) / _STEP), alpha=alpha)

    def _large_black(self, w: float, h: float, fill) -> bool:
        return bool(fill) and isinstance(self._fillColorObj, BlackFill) and \
            min(abs(w), abs(h)) >= self.converter.settings.rich_black_min_size - 1e-6

    def _rich(self, w: float, h: float, fill, draw) -> None:
        if not self._large_black(w, h, fill):
            draw()
            return
        marker = self._fillColorObj
        self.setFillColor(CMYKColor(*self.converter.settings.rich_black))
        draw()
        self.setFillColor(marker)

    def rect(self, x, y, width, height, stroke=1, fill=0):
        self._rich(width, height, fill, lambda: Canvas.rect(self, x, y, width, height, stroke, fill))

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        self._rich(width, height, fill, lambda: Canvas.roundRect(self, x, y, width, height, radius, stroke, fill))

    def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):
        self._rich(x2 - x1, y2 - y1, fill, lambda: Canvas.ellipse(self, x1, y1, x2, y2, stroke, fill))

    def drawPath(self, aPath, stroke=1, fill=0, fillMode=None):
        box = _path_bbox(str(aPath.getCode())) if fill else None
        w, h = box or (0.0, 0.0)
        self._rich(w, h, fill, lambda: Canvas.drawPath(self, aPath, stroke, fill, fillMode))

    @contextmanager
    def art_scope(self, label: str, where: Location | str | None = None):
        """Colours converted while drawing inside are findings about the vector art ``label``
        (its game-folder path) at ``where``, and a rejection names it."""
        outer = self.converter.art
        self.converter.art = (label, where if where is not None else label)
        try:
            yield
        finally:
            self.converter.art = outer

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        super().linearGradient(x0, y0, x1, y1, [self.converter.enforce(c) for c in colors], positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        super().radialGradient(x, y, radius, [self.converter.enforce(c) for c in colors], positions, extend)

    def drawInlineImage(self, image, x, y, width=None, height=None, preserveAspectRatio=False, anchor="c",
                        anchorAtXY=False, showBoundary=False, extraReturn=None):
        """Inline images (an SVG's ``<image>``) are converted and placed as :meth:`drawImage` does."""
        return self.drawImage(image, x, y, width, height, preserveAspectRatio=preserveAspectRatio, anchor=anchor,
                              anchorAtXY=anchorAtXY, showBoundary=showBoundary, extraReturn=extraReturn)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, preserveAspectRatio=False,
                  anchor="c", anchorAtXY=False, showBoundary=False, extraReturn=None):
        from PIL import Image

        name = self.converter.art_name(image)
        if isinstance(image, ImageReader):
            pil = image._image
        elif isinstance(image, Image.Image):
            pil = image
        else:
            pil = Image.open(image)
            name = name or str(image)
        cmyk, alpha = self.converter.image(pil, name)
        reader = _CMYKReader(cmyk, alpha)
        return super().drawImage(reader, x, y, width, height, mask="auto" if alpha is not None else None,
                                 preserveAspectRatio=preserveAspectRatio, anchor=anchor,
                                 anchorAtXY=anchorAtXY, showBoundary=showBoundary, extraReturn=extraReturn)


class _CMYKReader(ImageReader):
    """An ImageReader for a CMYK Pillow image whose alpha channel becomes a soft mask."""

    def __init__(self, cmyk, alpha):
        super().__init__(cmyk)
        self._alpha = alpha

    def getRGBData(self):
        data = super().getRGBData()
        if self._alpha is not None:
            self._dataA = ImageReader(self._alpha)
        return data
