"""Reading card art safely: rasters through Pillow, SVG through svglib.

Rasters are normalised for print: EXIF orientation applied, palette and grey-with-alpha images
turned into RGBA (transparency kept), 16-bit images reduced to 8 bits, CMYK JPEGs converted to
RGB. Images larger than a pixel limit are refused before they are decoded (Pillow's
decompression-bomb guard) with an error that gives the pixel count and the override.

A raster is embedded at the resolution its file needs, not at its own: :class:`RasterArt`
keeps the picture's pixel size (the low-resolution preflight reads it) and makes versions
downsampled with a Lanczos filter to the pixel size :func:`embed_pixels` asks for at a placed
size and a target resolution (300 dpi for print, 150 dpi for files read on a screen).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import BuildError
from .svg import SvgFonts

DEFAULT_MAX_PIXELS = 89_478_485
"""Pillow's own default limit (about 0.25 GB of 24-bit pixels)."""
PRINT_DPI = 300
"""The resolution print art needs at its placed size (docs/print-specs.md §2: The Game Crafter,
DriveThruCards, MB Print and MeinSpiel all ask for 300 dpi); below it is a finding, and print
files embed art at it by default."""
SCREEN_DPI = 150
"""The resolution art is embedded at in files read on a screen (Tabletop Simulator deck sheets,
contact sheets): half the print norm, our convention; a Tabletop Simulator poker card is about
160 px/in at its largest sheet."""
DOWNSAMPLE_MARGIN = 1.5
"""Art is downsampled only when its resolution at its placed size is more than this many times
the target (450 dpi for print): a picture a little over the target is embedded as it is, so
filtering never costs detail for a few bytes."""


def load_raster(path: Path, rel: str, max_pixels: int | None = DEFAULT_MAX_PIXELS):
    """Open a PNG/JPEG/other raster as a print-ready Pillow image (mode RGB, RGBA or L).

    Raises BuildError naming the file (``rel``, as the game folder names it) for a file Pillow
    cannot read, and for one over ``max_pixels`` pixels (None lifts the limit); whoever draws
    it adds the piece and place. The limit is checked on the size the file declares, before
    any pixel is decoded, and it is the only limit: Pillow's own decompression-bomb guard is
    off while pnp reads art, so a file far over the limit is refused with the same message
    (its pixel count, the limit in force and the option) as one just over it.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    old = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        try:
            with Image.open(path) as probe:
                width, height = probe.size
        except UnidentifiedImageError:
            raise BuildError(f"{rel!r} is not an image Pillow can read",
                             hint="save the art as PNG, JPEG or SVG",
                             rule="layout.art-unreadable") from None
        except OSError as exc:
            raise BuildError(f"{rel!r} cannot be read: {exc}",
                             rule="layout.art-unreadable") from None
        if max_pixels is not None and width * height > max_pixels:
            raise too_many_pixels(rel, width, height, max_pixels)
        try:
            with Image.open(path) as opened:
                opened.load()
                ImageOps.exif_transpose(opened, in_place=True)  # no copy of the pixels when upright
                image = opened
        except (OSError, ValueError, MemoryError) as exc:
            raise BuildError(f"{rel!r} cannot be decoded: {exc}",
                             hint="the file may be truncated; export it again",
                             rule="layout.art-unreadable") from None
    finally:
        Image.MAX_IMAGE_PIXELS = old
    try:
        return normalise(image)
    except ValueError:
        raise BuildError(f"{rel!r} uses the {image.mode} colour mode, which pnp does not convert",
                         hint="save the art as an 8-bit RGB or RGBA PNG, or a JPEG",
                         rule="layout.art-unreadable") from None


def too_many_pixels(rel: str, width: int, height: int, limit: int) -> BuildError:
    """The ``layout.art-unreadable`` error of art ``rel`` (``width`` x ``height`` px) over the
    pixel limit in force (``--max-image-pixels``, by default Pillow's 89,478,485); the hint
    names the option and the value that would let this file in."""
    return BuildError(
        f"{rel!r} is {width} x {height} = {width * height:,} pixels, more than the limit of {limit:,}",
        hint="scale the art down (a poker card at 300 dpi needs about 825 x 1125 px), or pass "
        f"--max-image-pixels {width * height} if you trust the file",
        rule="layout.art-unreadable")


def embed_pixels(px: tuple[int, int], placed: tuple[float, float], dpi: float | None) -> tuple[int, int]:
    """The pixel size to embed a picture of ``px`` (width, height) pixels at, placed
    ``placed`` (width, height) pt, for a file that needs ``dpi`` (None: as it is).

    The picture as it is, unless its resolution at that size is more than
    :data:`DOWNSAMPLE_MARGIN` times ``dpi`` on both axes; then the size that gives exactly
    ``dpi`` there (rounded up to whole pixels, aspect kept). Never more pixels than ``px``.
    """
    width, height = px
    if dpi is None or placed[0] <= 0 or placed[1] <= 0:
        return px
    scale = max(placed[0] / 72 * dpi / width, placed[1] / 72 * dpi / height)
    if scale * DOWNSAMPLE_MARGIN >= 1:
        return px
    return (min(width, max(1, math.ceil(width * scale - 1e-6))), min(height, max(1, math.ceil(height * scale - 1e-6))))


DECODED_BUDGET = 32 * 2**20
"""Bytes of decoded pictures kept for making further versions (a 2800 x 2800 px RGB picture, as
Pillow holds it at 4 bytes a pixel); past it the least recently used is dropped, and decoded
again if another size of it is asked for. A larger picture is never kept: its versions are."""


class RasterArt:
    """A raster read once (:func:`load_raster`) and embedded at the sizes files need.

    ``size`` is the picture's own pixel size (EXIF orientation applied), the figure the
    low-resolution preflight judges; ``mode`` its mode after normalising (RGB, RGBA or L);
    ``dpi`` the resolution the file states, if any; ``name`` how messages name it.
    :meth:`version` makes (and keeps) each pixel size asked for. The decoded picture itself is
    kept only while the pictures decoded last fit :data:`DECODED_BUDGET` (one larger than that
    only until its first version is made), so a build holding many large pictures holds their
    downsampled versions, not their pixels. Raises BuildError as load_raster does.
    """

    _recent: list[RasterArt] = []
    """Pictures whose decoded pixels are kept, least recently used first."""

    def __init__(self, path: Path, name: str, max_pixels: int | None = DEFAULT_MAX_PIXELS):
        image = load_raster(path, name, max_pixels)
        self.path, self.name, self.max_pixels = path, name, max_pixels
        self.size: tuple[int, int] = image.size
        self.mode: str = image.mode
        self.dpi = image.info.get("dpi")
        self._decoded = None
        self._versions: dict[tuple[int, int], object] = {}
        self._keep(image)

    def version(self, px: tuple[int, int]):
        """The picture at ``px`` pixels (a Pillow image): itself at its own size, else
        downsampled with a Lanczos filter (deterministic: same file, same pixels). Alpha is
        resampled premultiplied, so transparent edges gain no dark fringe."""
        found = self._versions.get(px)
        if found is not None:
            return found
        from PIL import Image

        image = self._decoded if self._decoded is not None else load_raster(self.path, self.name, self.max_pixels)
        self._keep(image)
        made = image if px == self.size else image.resize(px, Image.Resampling.LANCZOS)
        self._versions[px] = made
        if _bytes(image) > DECODED_BUDGET:  # too large to keep: its versions are kept instead
            RasterArt._recent.remove(self)
            self._decoded = None
        return made

    def _keep(self, image) -> None:
        """Hold the decoded ``image`` as the most recently used (until a version is made, if
        it is over the budget itself); drop the oldest others' past the budget."""
        recent = RasterArt._recent
        if self in recent:
            recent.remove(self)
        self._decoded = image
        recent.append(self)
        held = sum(_bytes(art._decoded) for art in recent)
        while len(recent) > 1 and held > DECODED_BUDGET:
            oldest = recent.pop(0)
            held -= _bytes(oldest._decoded)
            oldest._decoded = None


def _bytes(image) -> int:
    """Bytes Pillow holds for a decoded image: 4 a pixel for RGB, RGBA and CMYK, 1 for L."""
    return image.width * image.height * (1 if len(image.getbands()) == 1 else 4)


def normalise(image):
    """Convert any Pillow image to RGB, RGBA or L with 8 bits per channel, keeping alpha."""
    mode = image.mode
    if mode in ("RGB", "RGBA", "L"):
        return image
    if mode in ("I;16", "I;16B", "I;16L", "I"):
        return image.point(lambda v: v * (1 / 256)).convert("L")
    if mode == "P":
        return image.convert("RGBA" if "transparency" in image.info else "RGB")
    if mode in ("LA", "PA", "La", "RGBa"):
        return image.convert("RGBA")
    if mode in ("1",):
        return image.convert("L")
    if mode in ("CMYK", "YCbCr"):
        return image.convert("RGB")
    raise ValueError(mode)


@dataclass
class SvgArt:
    """An SVG as a reportlab drawing, with what svglib could not draw."""

    drawing: object
    problems: list[str] = field(default_factory=list)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def load_svg(path: Path, rel: str, root: Path | None = None) -> SvgArt:
    """Read an SVG with svglib. Features svglib skips are returned as ``problems``, and so is
    every ``font-family`` pnp does not have (its text is drawn in a bundled DejaVu face,
    :class:`pnp.render.svg.SvgFonts`; a family is one name as CSS reads it, split on commas
    only); an SVG with nothing drawable is one problem too. Raises BuildError when the file is
    not well-formed XML (naming the XML error's line and column: svglib itself would draw
    what it can of a broken file), when svglib cannot read it, or when it links an image
    outside ``root`` (the game folder). Draw the result with :func:`pnp.render.svg.draw_svg`."""
    from svglib.svglib import SvgRenderer, load_svg_file

    tree = _parse(path, rel)
    if root is not None:
        _check_links(tree, path, rel, root)

    collect = _Collect()
    logger = logging.getLogger("svglib")
    logger.addHandler(collect)
    fonts = SvgFonts()
    try:
        svg_root = load_svg_file(str(path))
        drawing = None
        if svg_root is not None:
            renderer = SvgRenderer(str(path), font_map=fonts)
            renderer.attrConverter.split_font_family_list = font_families
            drawing = renderer.render(svg_root)
    except Exception as exc:  # svglib raises lxml and parsing errors of many kinds
        raise BuildError(f"the SVG {rel!r} cannot be read: {exc}",
                         hint="open it in an editor and save it as plain SVG",
                         rule="layout.art-unreadable") from None
    finally:
        logger.removeHandler(collect)
    if drawing is None:
        raise BuildError(f"the SVG {rel!r} cannot be read",
                         hint="open it in an editor and save it as plain SVG",
                         rule="layout.art-unreadable")
    substituted = [f"font-family {family!r} is drawn in {face}, a font pnp embeds"
                   for family, face in fonts.substituted]
    problems = list(dict.fromkeys(collect.messages + _unsupported(tree) + substituted))
    if not _has_shapes(drawing) or not drawing.width or not drawing.height:
        problems.append("nothing in it can be drawn")
    return SvgArt(drawing, problems)


def _parse(path: Path, rel: str):
    """The SVG at ``path`` as an ElementTree. Raises BuildError (``layout.art-unreadable``)
    for a file that is not well-formed XML, giving the XML error and its 1-based line and
    column in the file (``rel``, as the game folder names it)."""
    import xml.etree.ElementTree as ET
    from xml.parsers.expat import ErrorString

    try:
        return ET.parse(path)
    except ET.ParseError as exc:
        line, column = exc.position
        raise BuildError(f"the SVG {rel!r} is not well-formed XML: {ErrorString(exc.code)} at line {line}, "
                         f"column {column + 1}",
                         hint="the file may be cut short or hand-edited; export it again from the drawing "
                         "program, or fix the XML at that line",
                         rule="layout.art-unreadable") from None


def font_families(value: str) -> list[str]:
    """The families of a CSS ``font-family`` list, in order: split on commas outside quotes,
    quotes and outer spaces removed, runs of spaces inside an unquoted name made one (CSS
    Fonts 3 §3.1: ``Comic Sans MS, serif`` is two families, not four)."""
    names: list[str] = []
    part, quote = "", ""
    for ch in value + ",":
        if quote:
            if ch == quote:
                quote = ""
            else:
                part += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            name = " ".join(part.split())
            if name and name not in names:
                names.append(name)
            part = ""
        else:
            part += ch
    return names


def _check_links(tree, path: Path, rel: str, root: Path) -> None:
    """Refuse an SVG whose <image> links a file outside the game folder (data: URIs are fine)."""
    for el in tree.getroot().iter():
        if not isinstance(el.tag, str) or el.tag.rsplit("}", 1)[-1] != "image":
            continue
        for key, href in el.attrib.items():
            if key.rsplit("}", 1)[-1] != "href" or href.startswith("data:"):
                continue
            target = (path.parent / href.removeprefix("file://")).resolve()
            if not target.is_relative_to(root.resolve()):
                raise BuildError(f"the SVG {rel!r} links {href!r}, outside the game folder",
                                 hint="embed the image in the SVG, or keep it inside the game folder",
                                 rule="layout.art-unreadable")


UNSUPPORTED_SVG = ("filter", "foreignObject", "mask", "pattern", "textPath", "animate",
                   "animateTransform", "animateMotion", "script")
"""SVG elements (and filter/mask references) that the converter skips or draws wrongly."""


def _unsupported(tree) -> list[str]:
    found: list[str] = []
    for el in tree.getroot().iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        if tag in UNSUPPORTED_SVG or tag.startswith("fe"):
            found.append(f"<{tag}> is not drawn")
        for attr in ("filter", "mask"):
            if el.get(attr):
                found.append(f"the {attr} on <{tag}> is not applied")
    return list(dict.fromkeys(found))


def _has_shapes(node) -> bool:
    from reportlab.graphics.shapes import Group

    for child in getattr(node, "contents", []):
        if not isinstance(child, Group) or _has_shapes(child):
            return True
    return False
