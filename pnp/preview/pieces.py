"""What the preview shows, piece by piece: every card of every deck (face and back), every board
and reference sheet, every token and standee, each drawn alone on a small PDF page and
rasterised, and cached by a content hash of its inputs so that a change re-renders only the
pieces it touches.

A piece's *base key* (:func:`base_key`) hashes what its drawing depends on: the pnp version, its
kind, trim size and shape, its layout as resolved (with the layouts its repeat boxes draw), the
layouts file's icons, colours, safe zone and bleed, and the values of the template names that
layout reads (:func:`pnp.design.names.drawing_key`, the same answer card sheets use to share a
drawing between copies). Art files cannot be told before drawing (``art/{{ id }}.png``), so each
render records the files it read, and the piece's *key* is the base key with those files'
SHA-256 digests (:class:`ArtDigests`): editing an art file changes the key of every piece that
drew it, and only theirs.

Every image is the piece's trim with the layouts' full bleed on every side (``LayoutSet.bleed``,
1/8 in by default, docs/print-specs.md §2), at :data:`PREVIEW_DPI`.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..core.files import file_digest
from ..core.units import Size
from ..design.layouts import Layout, LayoutSet
from ..design.names import drawing_key
from ..model.pieces import Piece, TokenPiece
from ..outputs.tokens import draw_standee, draw_token
from ..render.canvas import new_canvas
from ..render.raster import pdf_to_png
from ..render.renderer import Renderer

PREVIEW_DPI = 100
"""Resolution of the preview images in px per inch: the contact sheets' resolution, at which a
poker card's 7 pt text stays legible on screen (a poker card with 1/8 in bleed is 275 x 375 px)."""

KEY_FORMAT = "pnp-preview 1"
"""Changes when what a key covers changes, so that no image made by another pnp version is
taken for a current one."""


@dataclass
class Recipe:
    """How to draw one preview image: ``piece`` with ``renderer`` at trim ``size`` (pt) with
    ``bleed`` (pt) on every side. ``kind`` is ``card``, ``board`` or ``token``; a token also has
    its :class:`~pnp.model.pieces.TokenPiece` (its shape clips the drawing) and ``side``."""

    kind: str
    piece: Piece
    renderer: Renderer
    size: Size
    bleed: float
    token: TokenPiece | None = None

    @property
    def page(self) -> Size:
        """The single-piece page in pt: the trim and the bleed (a standee: its whole strip)."""
        w, h = self.size.width, self.size.height
        tp = self.token
        if tp is not None and tp.shape == "standee":
            h = 2 * tp.height + 2 * tp.base
        elif tp is not None and tp.shape == "hexagon":
            return Size(w + 2 * self.bleed, h + 2 * self.bleed * 2 / math.sqrt(3))
        return Size(w + 2 * self.bleed, h + 2 * self.bleed)


def piece_pdf(recipe: Recipe) -> tuple[bytes, list[Path]]:
    """``recipe``'s piece drawn alone on a page of :attr:`Recipe.page` (its trim's bottom-left
    corner at (bleed, bleed) pt), as the card sheets draw it, and the art files drawing it read
    (resolved paths). Findings the renderer makes are dropped: the preview shows those of the
    dry run ``pnp check`` makes."""
    renderer = recipe.renderer
    renderer.images = {}  # so that the files this piece reads are the ones recorded
    renderer.findings, renderer.seen = [], set()
    page = recipe.page
    buf = io.BytesIO()
    c = new_canvas(buf, page, scratch=True)
    b = recipe.bleed
    tp = recipe.token
    if tp is None:
        renderer.draw(c, recipe.piece, (b, b, recipe.size.width, recipe.size.height), (b, b, b, b))
    elif tp.shape == "standee":
        draw_standee(c, renderer, tp, page.width / 2, page.height / 2, b)
    else:
        draw_token(c, renderer, tp, recipe.piece, page.width / 2, page.height / 2, b)
    c.showPage()
    c.save()
    art = sorted(Path(p) for p in renderer.images)
    renderer.images = {}
    return buf.getvalue(), art


def piece_png(recipe: Recipe, dpi: float = PREVIEW_DPI) -> tuple[bytes, list[Path]]:
    """:func:`piece_pdf` rasterised at ``dpi`` (px per inch) with pdfium: an RGB PNG of
    round(page width / 72 * dpi) x round(page height / 72 * dpi) px, and the art files read."""
    pdf, art = piece_pdf(recipe)
    page = recipe.page
    px = (max(1, round(page.width / 72 * dpi)), max(1, round(page.height / 72 * dpi)))
    return pdf_to_png(pdf, px=px), art


def _layout_closure(layouts: LayoutSet, name: str) -> list[Layout]:
    """Layout ``name`` and every layout its repeat boxes draw, each once, in the order found."""
    out: list[Layout] = []
    todo = [name]
    seen: set[str] = set()
    while todo:
        current = todo.pop(0)
        if current in seen or current not in layouts.layouts:
            continue
        seen.add(current)
        layout = layouts.layouts[current]
        out.append(layout)
        todo += [str(box.props.get("layout")) for box in layout.boxes if box.type == "repeat"]
    return out


@dataclass
class KeyMaker:
    """Base keys for the pieces of one :class:`~pnp.design.layouts.LayoutSet` (cached per layout)."""

    layouts: LayoutSet
    _set: str = ""
    _layouts: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ls = self.layouts
        self._set = sha(repr((KEY_FORMAT, __version__, sorted(ls.icons.items()), sorted(ls.colors.items()),
                               ls.safe_zone, ls.bleed)))

    def layout(self, name: str) -> str:
        """The hash of layout ``name`` as resolved, with the layouts its repeat boxes draw."""
        found = self._layouts.get(name)
        if found is None:
            found = self._layouts[name] = sha(repr([(lay.name, lay.background, lay.boxes)
                                                     for lay in _layout_closure(self.layouts, name)]))
        return found

    def base_key(self, recipe: Recipe) -> str:
        """What ``recipe``'s drawing depends on besides art files (see the module docstring)."""
        piece = recipe.piece
        drawing = drawing_key(self.layouts, piece) if piece.layout else ("", ())
        if drawing is None:  # names that cannot be told: the whole context, and which piece it is
            drawing = (piece.layout, repr(sorted(piece.context.items(), key=lambda kv: kv[0])), piece.label)
        tp = recipe.token
        shape = (tp.shape, round(tp.height, 3), round(tp.base, 3)) if tp is not None else ()
        return sha(repr((self._set, recipe.kind, shape, round(recipe.size.width, 3), round(recipe.size.height, 3),
                          round(recipe.bleed, 3), self.layout(piece.layout) if piece.layout else "", drawing)))


class ArtDigests:
    """SHA-256 digests of art files, read again only when a file's size or modification time
    changes, and the art each base key's drawing read when it was last rendered."""

    def __init__(self) -> None:
        self._digests: dict[Path, tuple[int, int, str]] = {}
        self.used: dict[str, tuple[Path, ...]] = {}
        """base key -> the art files its drawing read."""

    def digest(self, path: Path) -> str:
        """The file's SHA-256, or ``missing``."""
        try:
            st = path.stat()
        except OSError:
            return "missing"
        held = self._digests.get(path)
        if held is not None and held[:2] == (st.st_mtime_ns, st.st_size):
            return held[2]
        try:
            digest = file_digest(path)
        except OSError:
            return "unreadable"
        self._digests[path] = (st.st_mtime_ns, st.st_size, digest)
        return digest

    def key(self, base: str) -> str:
        """The piece key of ``base``: itself, with the digests of the art it read last time."""
        art = self.used.get(base)
        if not art:
            return base
        return sha(base + "".join(f"\n{p}\0{self.digest(p)}" for p in art))


def sha(text: str) -> str:
    """A short content hash of ``text`` (128 bits of SHA-256, as hex)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
