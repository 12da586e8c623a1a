"""Pictures in a rulebook: image files beside the template and the game's own cards drawn with
its layouts (``card:component/row``), sized from the Markdown and laid out side by side by the
:class:`ImageFlow` flowable."""

from __future__ import annotations

import io
import re
import shutil
import tempfile
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

from ...core.errors import BuildError, Location
from ...core.findings import Finding
from ...core.units import Size
from ...design.layouts import game_fonts
from ...design.drawable import undefined_layout
from ...model.context import piece_context
from ...model.games import LAYOUTS_FILE
from ...model.pieces import Piece
from ...render.art import DEFAULT_MAX_PIXELS, PRINT_DPI, RasterArt, load_svg
from ...render.canvas import new_canvas
from ...render.embed import draw_art
from ...render.elements.icons import draw_icon, icon_width
from ...render.preflight import low_resolution, svg_unsupported, unwritable
from ...render.raster import pdf_to_png
from ...render.renderer import Renderer
from ...render.svg import draw_svg
from .markup import RulebookError

ICON_DPI = 600
"""Resolution of an icon drawn inline in rulebook text (twice the print norm: icons are small
and sharp-edged)."""
PICTURE_EM = 1.05
"""A picture inside a line of text without a width is this many ems high, as an inline icon."""


class ImageItem:
    """One picture to place: its natural size in pt and how to draw it into a box."""

    width: float
    height: float

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:  # pragma: no cover
        raise NotImplementedError


class CardItem(ImageItem):
    """A card drawn as vectors with the game's layouts (pnp.render.renderer.Renderer), clipped to its
    trim with rounded corners (radius 1/8 in, docs/print-specs.md §5) and outlined with a hairline."""

    def __init__(self, renderer, piece, size: Size):
        self.renderer, self.piece, self.size = renderer, piece, size
        self.width, self.height = size.width, size.height

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        from reportlab.lib.colors import HexColor

        scale = w / self.size.width
        radius = 0.125 * 72 * scale
        canv.saveState()
        path = canv.beginPath()
        path.roundRect(x, y, w, h, radius)
        canv.clipPath(path, stroke=0, fill=0)
        canv.translate(x, y)
        canv.scale(scale, scale)
        self.renderer.draw(canv, self.piece, (0, 0, self.size.width, self.size.height), (0, 0, 0, 0))
        canv.restoreState()
        canv.saveState()
        canv.setStrokeColor(HexColor("#9AA0A8"))
        canv.setLineWidth(0.4)
        canv.roundRect(x, y, w, h, radius, stroke=1, fill=0)
        canv.restoreState()


class RasterItem(ImageItem):
    """Raster art read as the cards read it (:class:`pnp.render.art.RasterArt`: EXIF rotation
    applied, 8 bits per channel, refused over ``max_pixels``) and embedded as they embed it
    (:func:`pnp.render.embed.draw_art`: once per file, downsampled to the file's resolution);
    natural size from its pixel size at the DPI stored in the file (PRINT_DPI when it stores
    none). ``px`` is the picture's own pixel size, which the low-resolution preflight judges.
    Raises BuildError for art that cannot be read or is too large."""

    def __init__(self, path: Path, label: str, max_pixels: int | None = DEFAULT_MAX_PIXELS):
        self.art = RasterArt(path, label, max_pixels)
        self.px = self.art.size
        dpi = self.art.dpi or (PRINT_DPI, PRINT_DPI)
        try:
            dpi_x = float(dpi[0]) or float(PRINT_DPI)
            dpi_y = float(dpi[1]) or float(PRINT_DPI)
        except (TypeError, ValueError, IndexError):
            dpi_x = dpi_y = float(PRINT_DPI)
        self.width = self.px[0] / dpi_x * 72
        self.height = self.px[1] / dpi_y * 72
        self.label = label

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        draw_art(canv, self.art, x, y, w, h)


class SvgItem(ImageItem):
    """An SVG drawn as vectors, read as the cards read it (:func:`pnp.render.art.load_svg`:
    links outside ``root`` refused, what the converter skips listed in ``problems``); natural
    size from the SVG's own size. Raises BuildError for an SVG that cannot be read."""

    def __init__(self, path: Path, label: str, root: Path):
        art = load_svg(path, label, root)
        drawing = art.drawing
        if not drawing.width or not drawing.height:
            raise BuildError(f"image: {label!r} has no size", hint="give the SVG a width and height (or a viewBox)",
                             rule="rulebook.layout")
        self.drawing = drawing
        self.problems = art.problems
        self.width, self.height = float(drawing.width), float(drawing.height)

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        canv.saveState()
        canv.translate(x, y)
        canv.scale(w / self.width, h / self.height)
        draw_svg(canv, self.drawing)
        canv.restoreState()


@dataclass
class PlacedImage:
    """An image with the width the Markdown asked for (``spec``: None, ("abs", pt) or
    ("pct", fraction of the frame width))."""

    item: ImageItem
    spec: tuple[str, float] | None
    label: str


def image_flow_class():
    from reportlab.platypus import Flowable

    class ImageFlow(Flowable):
        """Images side by side, wrapping onto new lines, centred, each scaled down to fit the
        frame (never up unless a width was asked for). Splits between lines."""

        def __init__(self, images: list[PlacedImage], gap: float, space_after: float,
                     findings: list[Finding] | None = None, where: Callable[[str], Location] | None = None):
            super().__init__()
            self.images = images
            self.gap = gap
            self.spaceAfter = space_after
            self.findings = findings
            self.where = where
            self._lines: list[list[tuple[PlacedImage, float, float]]] = []

        def _sizes(self, avail_w: float, avail_h: float) -> list[tuple[PlacedImage, float, float]]:
            out = []
            for im in self.images:
                w, h = im.item.width, im.item.height
                if im.spec is not None:
                    kind, value = im.spec
                    target = value if kind == "abs" else value * avail_w
                    w, h = target, h * target / w
                scale = min(1.0, avail_w / w, avail_h / h)
                out.append((im, w * scale, h * scale))
            return out

        def _layout(self, avail_w: float, avail_h: float):
            lines: list[list[tuple[PlacedImage, float, float]]] = []
            for entry in self._sizes(avail_w, avail_h):
                if lines:
                    used = sum(e[1] for e in lines[-1]) + self.gap * len(lines[-1])
                    if used + entry[1] <= avail_w + 0.01:
                        lines[-1].append(entry)
                        continue
                lines.append([entry])
            return lines

        def wrap(self, avail_w, avail_h):
            self._avail_w = avail_w
            self._lines = self._layout(avail_w, self._frame_h())
            self.width = avail_w
            self.height = self._height(self._lines)
            return avail_w, self.height

        def _frame_h(self) -> float:
            return getattr(self, "_max_h", 10_000.0)

        def _height(self, lines) -> float:
            return sum(max(e[2] for e in line) for line in lines) + self.gap * max(0, len(lines) - 1)

        def split(self, avail_w, avail_h):
            lines = self._layout(avail_w, self._frame_h())
            if len(lines) < 2:
                return []
            head: list = []
            for line in lines:
                trial = head + [line]
                if self._height(trial) > avail_h:
                    break
                head = trial
            if not head:
                return []
            n = sum(len(line) for line in head)
            first = ImageFlow(self.images[:n], self.gap, 0, self.findings, self.where)
            rest = ImageFlow(self.images[n:], self.gap, self.spaceAfter, self.findings, self.where)
            first._max_h = rest._max_h = self._frame_h()
            return [first, rest]

        def draw(self):
            y = self.height
            for line in self._lines:
                line_h = max(e[2] for e in line)
                total = sum(e[1] for e in line) + self.gap * (len(line) - 1)
                x = (self._avail_w - total) / 2
                for im, w, h in line:
                    draw_item(self.canv, im, (x, y - line_h + (line_h - h) / 2, w, h), self.findings, self.where)
                    if isinstance(im.item, RasterItem) and self.findings is not None:
                        dpi = im.item.px[0] / (w / 72)
                        if dpi < PRINT_DPI - 0.5:
                            self.findings.append(low_resolution(
                                self.where(im.label) if self.where else "", im.label, dpi, PRINT_DPI, here=False,
                                hint=f"supply at least {int(w / 72 * PRINT_DPI + 0.999)} px across, "
                                "or ask for a smaller width"))
                    x += w + self.gap
                y -= line_h + self.gap

    return ImageFlow


def draw_item(canv, im: PlacedImage, rect: tuple[float, float, float, float], findings: list[Finding] | None,
              where: Callable[[str], Location] | None) -> None:
    """Draw picture ``im`` in ``rect`` (x, y, w, h pt). One that reportlab cannot write (an
    SVG's dash of length 0, a number too large for a PDF) is a ``rulebook.layout`` error at
    the picture in ``findings``, and the page goes on without it."""
    depth = len(canv.state_stack)
    try:
        im.item.draw(canv, *rect)
    except ValueError as exc:
        while len(canv.state_stack) > depth:
            canv.restoreState()
        if findings is not None:
            findings.append(Finding.at("error", "rulebook.layout", where(im.label) if where else None,
                                       f"the picture {im.label!r} cannot be drawn: {unwritable(exc)}",
                                       hint="fix the picture's file (an SVG exported again often helps)"))


def picture_stack_class():
    from reportlab.platypus import Flowable

    class PictureStack(Flowable):
        """Pictures of fixed sizes (pt) one above the other, ``gap`` apart, drawn as they are
        drawn alone (vectors stay vectors): the pictures a paragraph's text flows beside. A
        raster printed below PRINT_DPI is a ``preflight.low-resolution`` warning in ``findings``."""

        def __init__(self, pictures: list[tuple[PlacedImage, float, float]], gap: float,
                     findings: list[Finding] | None = None, where: Callable[[str], Location] | None = None):
            super().__init__()
            self.pictures, self.gap, self.findings, self.where = pictures, gap, findings, where
            self.width = max(w for _, w, _ in pictures)
            self.height = sum(h for _, _, h in pictures) + gap * (len(pictures) - 1)

        def wrap(self, avail_w, avail_h):
            return self.width, self.height

        def _restrictSize(self, avail_w, avail_h):  # what ImageAndFlowables asks of its picture
            return self.width, self.height

        def _unRestrictSize(self):  # the size is fixed: nothing to undo
            pass

        def draw(self):
            y = self.height
            for im, w, h in self.pictures:
                y -= h
                draw_item(self.canv, im, (self.width - w, y, w, h), self.findings, self.where)
                if isinstance(im.item, RasterItem) and self.findings is not None and \
                        im.item.px[0] / (w / 72) < PRINT_DPI - 0.5:
                    self.findings.append(low_resolution(
                        self.where(im.label) if self.where else "", im.label, im.item.px[0] / (w / 72), PRINT_DPI,
                        here=False, hint=f"supply at least {int(w / 72 * PRINT_DPI + 0.999)} px across, "
                        "or ask for a smaller width"))
                y -= self.gap

    return PictureStack


def picture_size(placed: PlacedImage, size: float, frame_w: float) -> tuple[float, float]:
    """(width, height) pt of a picture inside a paragraph of ``size`` pt text: the width the
    Markdown asks for, else a line high (PICTURE_EM ems, as an inline icon); never wider than
    ``frame_w``."""
    item = placed.item
    if placed.spec is not None:
        kind, value = placed.spec
        width = value if kind == "abs" else value * frame_w
        height = item.height * width / item.width
    else:
        height = size * PICTURE_EM
        width = item.width * height / item.height
    if width > frame_w:
        width, height = frame_w, height * frame_w / width
    return width, height


class ImageResolver:
    """Turns a Markdown image target into an ImageItem: ``card:component/row[#back]`` draws a
    card of the game; any other target is a PNG, JPEG or SVG file relative to the templates
    folder or, when it is not there, to the game folder (where the cards' art is); it must stay
    inside one of them."""

    def __init__(self, template, base: Path | None, display: str, max_image_pixels: int | None = DEFAULT_MAX_PIXELS,
                 locate: Callable[[str], Location] | None = None, draft: bool = False, dry: bool = False):
        """``locate(text)`` is where the template writes ``text`` (an image's target, an
        icon's name), for findings; by default the template file without a line. ``draft``:
        cards drawn print missing art as a placeholder, a warning. ``dry``: the book is a dry
        run's, so cards are drawn for what they find and paint nothing
        (:class:`~pnp.render.dry.DryCanvas`)."""
        self.draft = draft
        self.dry = dry
        self.template = template
        self.base = base
        self.display = display
        self.locate = locate or (lambda *_texts: Location(display))
        self.max_image_pixels = max_image_pixels
        self.findings: list[Finding] = []
        """What reading the pictures found (SVG features the converter skips)."""
        self._renderer: Renderer | None = None
        self._cache: dict[str, ImageItem] = {}
        self._icons: dict[tuple[str, float], str] = {}
        self._pictures: dict[tuple[str, float, float], str] = {}
        self._scratch: Path | None = None

    def __call__(self, src: str) -> ImageItem:
        if src in self._cache:
            return self._cache[src]
        item = self._card(src) if src.startswith("card:") else self._file(src)
        self._cache[src] = item
        return item

    def _card(self, src: str) -> ImageItem:
        t = self.template
        if t is None:
            raise RulebookError(f"image {src!r}: cards can be drawn only for a game", location=self.locate(src))
        ref, _, side = src[5:].partition("#")
        cid, _, rid = ref.partition("/")
        comp = t.game.components.get(cid)
        row = comp.by_id().get(rid) if comp is not None and comp.id_column else None
        if comp is None or row is None or comp.card_size is None:
            raise RulebookError(f"image {src!r}: no card {ref!r} in this game", location=self.locate(src),
                                hint="draw cards with {{ card('component', 'row-id') }}")
        kind = "back" if side == "back" else "face"
        layout = comp.back_of(row) if kind == "back" else comp.layout_of(row)
        layouts = self.renderer().layouts
        if layout and layout not in layouts.layouts:  # the cards' own finding: drawn blank here too
            self.findings.append(undefined_layout(t.game, comp, row, kind, layout, layouts))
            layout = ""
        piece = Piece(layout, piece_context(t.game, comp, row, 1), cid, rid, side=kind, row=row)
        return CardItem(self.renderer(), piece, comp.card_size)

    def renderer(self) -> Renderer:
        """The Renderer of the game's card layouts (raises LayoutError when they do not load)."""
        if self._renderer is None:
            t = self.template
            self._renderer = Renderer(t.load_layouts(), t.game.path, max_image_pixels=self.max_image_pixels,
                                      game_display=t.game.display_root, draft=self.draft)
            self._renderer.dry = self.dry
        return self._renderer

    def card_errors(self) -> list[Finding]:
        """The errors drawing the game's cards found (art refused or missing, a box that
        fails), each once, where the card's layout or data says: the card is printed without
        what failed, so the rulebook must not pass as sound."""
        if self._renderer is None:
            return []
        return [f for f in self._renderer.findings if f.severity == "error"]

    def icon_names(self) -> list[str]:
        """The icons the game's card layouts define (none without a game or a layouts file)."""
        t = self.template
        if t is None or not (t.dir / LAYOUTS_FILE).is_file():
            return []
        return list(self.renderer().layouts.icons)

    def icon(self, name: str, height: float) -> str:
        """Paragraph markup drawing icon ``name`` (one :meth:`icon_names` gives) inline,
        ``height`` pt high: the icon drawn as the cards draw it, as a transparent PNG at
        ICON_DPI (an inline picture in text must be a raster), kept in a scratch folder until
        :meth:`close`. Cached per name and height."""
        key = (name, round(height, 2))
        if key not in self._icons:
            renderer = self.renderer()
            width = icon_width(renderer, name, height)
            self._icons[key] = self._inline_png(
                lambda c: draw_icon(renderer, c, name, 0, 0, height, Piece("rulebook", {}, "rulebook")),
                width, height, ICON_DPI)
        return self._icons[key]

    def fonts(self):
        """The game's fonts (:func:`pnp.design.layouts.game_fonts`); None without a game."""
        return game_fonts(self.template.game) if self.template is not None else None

    def colors(self) -> dict[str, str]:
        """The game's palette (``[colors]`` of game.toml), for colour spans; none without a game."""
        t = self.template
        return dict(t.game.manifest.get("colors", {})) if t is not None else {}

    def picture(self, placed: PlacedImage, width: float, height: float) -> str:
        """Paragraph markup drawing ``placed`` inside a line of text, ``width`` x ``height`` pt
        (:func:`picture_size`): drawn as it is drawn on its own and rasterised, since a picture
        inside text must be a raster (at ICON_DPI up to an inch wide, PRINT_DPI above). A raster
        that prints below PRINT_DPI there is a ``preflight.low-resolution`` warning."""
        item = placed.item
        key = (placed.label, round(width, 2), round(height, 2))
        if key not in self._pictures:
            if isinstance(item, RasterItem) and item.px[0] / (width / 72) < PRINT_DPI - 0.5:
                self.findings.append(low_resolution(
                    self.locate(placed.label), placed.label, item.px[0] / (width / 72), PRINT_DPI, here=False,
                    hint=f"supply at least {int(width / 72 * PRINT_DPI + 0.999)} px across, or ask for a smaller width"))
            self._pictures[key] = self._inline_png(lambda c: item.draw(c, 0, 0, width, height), width, height,
                                                   ICON_DPI if width <= 72 else PRINT_DPI)
        return self._pictures[key]

    def _inline_png(self, draw: Callable, width: float, height: float, dpi: int) -> str:
        """``<img>`` markup of what ``draw(canvas)`` draws in ``width`` x ``height`` pt, as a
        transparent PNG at ``dpi`` kept in a scratch folder until :meth:`close`, centred on the
        line."""
        buf = io.BytesIO()
        c = new_canvas(buf, Size(width, height), scratch=True, image_dpi=dpi)
        draw(c)
        c.showPage()
        c.save()
        png = pdf_to_png(buf.getvalue(), dpi=dpi, transparent=True)
        if self._scratch is None:
            self._scratch = Path(tempfile.mkdtemp(prefix="pnp-icons-"))
        # platypus reads an inline picture from a file when the paragraph is parsed; the
        # PDF embeds its pixels, not the name
        path = self._scratch / f"icon-{len(self._icons) + len(self._pictures)}.png"
        path.write_bytes(png)
        return f'<img src="{path}" width="{width:.2f}" height="{height:.2f}" valign="middle"/>'

    def close(self) -> None:
        """Remove the icon pictures written while the rulebook was laid out."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def _file(self, src: str) -> ImageItem:
        where = self.locate(src)
        if re.match(r"^[a-z][a-z0-9+.\-]*:", src, re.I):
            raise RulebookError(f"image {src!r}: only files in the templates folder and card:... images "
                                "can be placed", location=where, hint="copy the picture beside the template")
        if self.base is None:
            raise RulebookError(f"image {src!r}: no folder to read images from", location=where)
        allowed = [self.base.resolve()] + ([self.template.game.path.resolve()] if self.template else [])
        # beside the template first, then in the game folder, where the cards' art is
        candidates = [(root / src).resolve() for root in allowed]
        path = next((p for p in candidates if p.is_file()), candidates[0])
        if not any(path == a or a in path.parents for a in allowed):
            raise RulebookError(f"image {src!r} is outside the templates and game folders", location=where,
                                hint="keep pictures beside the template or in the game folder")
        if not path.is_file():
            folders = " or ".join(f"{d}/" for d in ([self.display.rsplit("/", 1)[0]] +
                                                    ([self.template.game.display_root] if self.template else [])))
            raise RulebookError(f"image {src!r} does not exist (looked in {folders})", location=where,
                                hint="image paths are relative to the template's folder or the game folder")
        suffix = path.suffix.lower()
        try:
            if suffix == ".svg":
                root = self.base.resolve() if self.base.resolve() in path.parents else allowed[-1]
                item = SvgItem(path, src, root)
                self.findings += [svg_unsupported(self.locate(src), src, problem) for problem in item.problems]
                return item
            if suffix in (".png", ".jpg", ".jpeg"):
                return RasterItem(path, src, self.max_image_pixels)
        except BuildError as exc:  # the art's own rule (layout.art-unreadable), at the template's line
            raise RulebookError(exc.message, location=where, hint=exc.hint, rule=exc.rule) from None
        raise RulebookError(f"image {src!r}: {suffix or 'no suffix'} is not a PNG, JPEG or SVG file", location=where)
