"""Contact sheets: every distinct face of each deck, and its backs, in a grid on one PNG
(``contact/<deck>.png``), captioned with its id and copy count, to look a deck over on a screen;
made when a build asks for them (``--contact-sheets``, ``[build] contact_sheets = true``).

A sheet is one page rasterised at :data:`CONTACT_DPI`, its tiles (one per face or back) at
whole-pixel places, each on the sheet's grey and clipped to its trim, so that a tile's pixels
depend only on what it shows (its :func:`tile_key`) and where it is. A build that follows
another into the same folder keeps the sheet it wrote when the frame (layout, title, captions)
is the same, and draws over its pixels only the tiles whose keys changed, on a page that paints
nothing else: one edited card redraws one tile, and the sheet has the bytes a clean build gives
it. :data:`INDEX` records each sheet's frame, tile keys and SHA-256.

The stage draws nothing in a dry run (``pnp check``): its pieces are the card sheets', which
report what drawing them finds.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..core.files import inputs_key, load_json
from ..core.progress import step
from ..core.units import MM, Size
from ..design.drawable import drawable_cards
from ..design.layouts import LayoutSet, game_layouts
from ..design.names import drawing_fingerprint, volatile
from ..model.game import Game
from ..model.pieces import CardInstance, Piece
from ..render.art import SCREEN_DPI
from ..render.canvas import new_canvas, text
from ..render.raster import render_page_rows, rows_png, unfiltered_rows
from ..render.renderer import Renderer
from .base import BuildResult, OutputJob, Stage, draft_option

CONTACT_DPI = 100
"""Raster resolution of contact sheets, px/in: card text stays legible on a screen."""
CONTACT_COMPRESSION = 1
"""zlib level of contact sheets, whose rows are stored unfiltered
(:func:`pnp.render.raster.unfiltered_png`): they are looked at on a screen and made on every
change of the cards, so fast encoding beats the last few per cent of size."""
INDEX = ".pnp-contact.json"
"""What the last contact sheets show, in the game's output folder: per deck, the sheet's path,
SHA-256, size (px), frame key and the key of each tile in order."""
FORMAT = 1
"""The shape of :data:`INDEX` and of the tile keys; another number reuses nothing."""
BACKGROUND = (0.93, 0.93, 0.93)
"""The sheet's grey, also under each tile (a face that paints nothing somewhere shows it)."""
COLUMNS = 10
SHEET_TILES = 20 * COLUMNS
"""Faces and backs on one contact sheet at most (20 rows): a larger deck gets more sheets, so
that no picture grows past about 60 MB of pixels (at 1,280 faces one sheet would hold 370 MB)."""
PAD, CAPTION, HEAD = 3 * MM, 4 * MM, 10 * MM
"""Room around the tiles, under each for its caption, and above them for the title (pt)."""


def _px(length: float, dpi: int) -> int:
    """A length in pt as whole pixels at ``dpi``."""
    return round(length * dpi / 72)


@dataclass(frozen=True)
class SheetLayout:
    """Where the tiles of one contact sheet go, in px from the sheet's top-left corner:
    ``tile`` (width, height), ``cols`` x ``rows`` of them, ``pad`` between and around them,
    ``caption`` under each, ``head`` above the first row; ``size`` of the whole sheet."""

    tile: tuple[int, int]
    cols: int
    rows: int
    pad: int
    caption: int
    head: int

    @classmethod
    def of(cls, card: Size, count: int, dpi: int) -> SheetLayout:
        """The layout of ``count`` tiles of trim ``card`` (pt), at most :data:`COLUMNS` a row."""
        cols = min(COLUMNS, count)
        return cls((_px(card.width, dpi), _px(card.height, dpi)), cols, -(-count // cols),
                   _px(PAD, dpi), _px(CAPTION, dpi), _px(HEAD, dpi))

    @property
    def size(self) -> tuple[int, int]:
        tw, th = self.tile
        return (self.cols * (tw + self.pad) + self.pad,
                self.rows * (th + self.pad + self.caption) + self.pad + self.head)

    def place(self, index: int) -> tuple[int, int]:
        """The top-left corner (px) of tile ``index`` (row by row)."""
        r, col = divmod(index, self.cols)
        tw, th = self.tile
        return self.pad + col * (tw + self.pad), self.head + r * (th + self.pad + self.caption) + self.pad


def sheet_items(cards: list[CardInstance]) -> tuple[list[Piece], dict[str, int]]:
    """What one deck's contact sheet shows, in order: each distinct face (by card, the first
    copy), then each distinct back layout; and the copies of each face (by card key)."""
    faces: list[Piece] = []
    copies: dict[str, int] = {}
    for card in cards:
        key = card.face.card_key
        if key not in copies:
            faces.append(card.face)
        copies[key] = copies.get(key, 0) + 1
    backs: dict[str, Piece] = {}
    for card in cards:
        backs.setdefault(card.back.layout, card.back)
    return faces + list(backs.values()), copies


def tile_key(base: str, piece: Piece, layouts: LayoutSet, memo: dict | None = None) -> str | None:
    """The SHA-256 (hex) of what one tile shows: ``base`` (:func:`tile_base`: every input but the
    tables, and the tile's size) with the piece's
    :func:`~pnp.design.names.drawing_fingerprint` (``memo`` its ``refs``). Equal keys, equal
    pixels. None for a layout that may draw differently each time
    (:func:`~pnp.design.names.volatile`): such a tile is always drawn."""
    if volatile(layouts, piece.layout):
        return None
    return hashlib.sha256(f"{base}\n{drawing_fingerprint(layouts, piece, memo)}".encode("utf-8")).hexdigest()


def tile_base(inputs: Iterable[Path], tables: set[Path], options: tuple, roots: dict[str, Path]) -> str:
    """What every tile of a build depends on besides its piece: each input file that is not
    one of the game's ``tables`` (layouts, art, fonts, game.toml ...), by its place within
    ``roots`` and its content, the ``options`` and the pnp version
    (:func:`~pnp.core.files.inputs_key`); a change to any of them draws every tile again."""
    return inputs_key([p for p in inputs if Path(p).resolve() not in tables], ("contact tiles", FORMAT, options), roots)


def read_index(out_dir: Path) -> dict[str, dict]:
    """The decks of the last contact sheets' :data:`INDEX` in ``out_dir`` (empty when there is
    none, or one of another format or shape: nothing is reused then)."""
    try:
        index = load_json(out_dir / INDEX)
    except (OSError, ValueError):  # unreadable, not JSON, nested past reading
        return {}
    if not isinstance(index, dict) or index.get("format") != FORMAT or not isinstance(index.get("decks"), dict):
        return {}
    return index["decks"]


def _old_sheet(out_dir: Path, entry: Any, layout: SheetLayout, frame: str) -> tuple[bytes, list[str]] | None:
    """The sheet an index ``entry`` describes, when it is still as written and has ``layout``
    and ``frame``: its PNG bytes and its tiles' keys, in order; None otherwise."""
    try:
        path = out_dir / entry["file"]
        if entry["frame"] != frame or tuple(entry["size"]) != layout.size or not path.is_file():
            return None
        png = path.read_bytes()
        if hashlib.sha256(png).hexdigest() != entry["sha256"]:
            return None
        keys = [str(key) for key in entry["tiles"]]
    except (OSError, KeyError, TypeError, ValueError):  # another shape: draw every tile
        return None
    return png, keys


def _sheet_pdf(renderer: Renderer, layout: SheetLayout, title: str, captions: list[str],
               tiles: list[tuple[int, Piece]], size: Size, dpi: int, image_dpi: int | None,
               frame: bool = True) -> bytes:
    """The page a sheet is rasterised from, ``layout.size`` px at ``dpi``: the frame (the grey,
    the title and each tile's caption; left out when ``frame`` is False, so that the page
    paints nothing there) and each (index, piece) of ``tiles`` at its place on the grey."""
    pt = 72 / dpi
    width, height = layout.size
    w, h = width * pt, height * pt
    buf = io.BytesIO()
    c = new_canvas(buf, Size(w, h), scratch=True, image_dpi=image_dpi)
    if frame:
        c.setFillColorRGB(*BACKGROUND)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        text(c, "sans-bold", 14, layout.pad * pt, h - layout.head * pt + 3 * MM, title)
        c.setFillColorRGB(0.2, 0.2, 0.2)
        for i, caption in enumerate(captions):
            x, y = layout.place(i)
            bottom = h - (y + layout.tile[1] + layout.caption) * pt  # of the caption's band, from below
            text(c, "sans", 7, x * pt, bottom + 1.2 * MM, caption)
    tw, th = layout.tile
    for i, piece in tiles:
        x, y = layout.place(i)
        trim = (x * pt, h - (y + th) * pt, tw * pt, th * pt)  # whole pixels, so a tile covers its own
        c.setFillColorRGB(*BACKGROUND)
        c.rect(*trim, stroke=0, fill=1)
        renderer.draw(c, piece, trim, (0, 0, 0, 0))
    c.showPage()
    c.save()
    return buf.getvalue()


def contact_sheets(game: Game, layouts: LayoutSet, cards: list[CardInstance], out_dir: Path, base: str,
                   renderer: Renderer,
                   reuse: bool = True, dpi: int = CONTACT_DPI, image_dpi: int | None = SCREEN_DPI
                   ) -> tuple[list[tuple[Path, bytes]], dict, tuple[int, int]]:
    """Each deck's contact sheets (``out_dir/contact/<deck>.png``, and for a deck of more than
    :data:`SHEET_TILES` faces and backs ``<deck> (2).png`` and so on -> PNG bytes), the index of
    their tiles (:data:`INDEX`, as a mapping) and how many tiles there are and how many were
    drawn (the others kept). ``base`` is :func:`tile_base`. With ``reuse``, a sheet whose last
    version in ``out_dir`` has the same frame keeps that version's pixels and draws over them
    only the tiles whose keys changed (none: the same bytes); any other sheet is drawn whole,
    with ``renderer`` (art at ``image_dpi``), at ``dpi`` px/in."""
    old = read_index(out_dir) if reuse else {}
    sheets: list[tuple[Path, bytes]] = []
    decks: dict[str, dict] = {}
    tiles = drawn = 0
    memo: dict = {}
    for comp in step("contact sheets", len(game.components)).each(game):
        deck_cards = [card for card in cards if card.deck == comp.id]
        if not deck_cards:
            continue
        every, copies = sheet_items(deck_cards)
        size = deck_cards[0].size
        pages = -(-len(every) // SHEET_TILES)
        for page in range(pages):
            items = every[page * SHEET_TILES:(page + 1) * SHEET_TILES]
            name = comp.id if page == 0 else f"{comp.id} ({page + 1})"  # no id holds a space
            title = f"{game.title}: {comp.name}" + (f" ({page + 1} of {pages})" if pages > 1 else "")
            layout = SheetLayout.of(size, len(items), dpi)
            png, keys, frame, changed = _one_sheet(out_dir, old.get(name), base, layouts, renderer, items, copies,
                                                   title, layout, size, dpi, image_dpi, memo)
            tiles, drawn = tiles + len(items), drawn + changed
            rel = f"contact/{name}.png"
            sheets.append((out_dir / rel, png))
            decks[name] = {"file": rel, "sha256": hashlib.sha256(png).hexdigest(), "size": list(layout.size),
                           "frame": frame, "tiles": keys}
    return sheets, {"format": FORMAT, "decks": decks}, (tiles, drawn)


def _one_sheet(out_dir: Path, entry: Any, base: str, layouts: LayoutSet, renderer: Renderer, items: list[Piece],
               copies: dict[str, int], title: str, layout: SheetLayout, size: Size, dpi: int,
               image_dpi: int | None, memo: dict) -> tuple[bytes, list, str, int]:
    """One contact sheet of ``items`` (see :func:`contact_sheets`), its last version described by
    the index ``entry`` (None: none): its PNG bytes, tile keys, frame key and how many tiles
    were drawn."""
    keys = [tile_key(f"{base} {layout.tile}", piece, layouts, memo) for piece in items]
    captions = [f"{piece.row_id}  x{copies[piece.card_key]}" if piece.card_key in copies
                else f"back: {piece.layout}" for piece in items]
    frame = hashlib.sha256(repr((base, layout, title, captions)).encode("utf-8")).hexdigest()
    found = _old_sheet(out_dir, entry, layout, frame) if entry is not None else None
    same = found is not None and None not in keys and found[1] == keys
    rows = unfiltered_rows(found[0], layout.size) if found and not same else None
    if same:
        png, changed = found[0], []  # every tile and the frame as they were: the same bytes
    else:
        over = rows is not None and rows[:2] == layout.size and len(found[1]) == len(keys)
        changed = [i for i, key in enumerate(keys) if not over or key is None or found[1][i] != key]
        pdf = _sheet_pdf(renderer, layout, title, captions, [(i, items[i]) for i in changed], size, dpi,
                         image_dpi, frame=not over)
        pixels = render_page_rows(pdf, layout.size, rows[2] if over else None)
        png = rows_png(pixels, *layout.size, compress_level=CONTACT_COMPRESSION)
        del pixels, rows
    return png, keys, frame, len(changed)


def render_contact(job: OutputJob, inputs: list[Path], options: tuple, dry: bool, reuse: bool) -> BuildResult:
    """The contact stage: every deck's sheet (:func:`contact_sheets`) and the tiles' index (a
    cache beside the build record), in memory; nothing in a dry run. A build that makes no
    sheet removes the index, and the sheets and ``contact`` folder an earlier build made."""
    result = BuildResult(prune_within=job.out_dir)
    if dry:
        return result
    game, settings = job.game, job.settings
    layouts = game_layouts(game, job.source)
    cards, _ = drawable_cards(game, layouts)  # what cannot be drawn the card sheets report
    if not cards:
        result.caches.append((job.out_dir / INDEX, None))
        return result
    renderer = Renderer(layouts, game.path, max_image_pixels=settings.max_image_pixels,
                        game_display=game.display_root, draft=settings.draft)
    tables = {comp.table.resolve() for comp in game if comp.table is not None}
    base = tile_base(inputs, tables, options, job.source.roots)
    sheets, index, (tiles, drawn) = contact_sheets(game, layouts, cards, job.out_dir, base, renderer, reuse=reuse,
                                                   image_dpi=settings.screen_dpi())
    result.outputs, result.sheets, result.cards = sheets, len(sheets), tiles
    if drawn < tiles:
        result.notes.append(f"{drawn} drawn, {tiles - drawn} unchanged since the last build")
    result.caches.append((job.out_dir / INDEX, (json.dumps(index, sort_keys=True) + "\n").encode()))
    return result


class ContactOutput:
    """``contact``: a contact sheet per deck when the build asks for them (``--contact-sheets``
    or the game's ``[build] contact_sheets``, :meth:`BuildSettings.contact_sheets`); a build
    that does not removes those an earlier build made. They are asked for, not made by
    default: they are for a screen, which ``pnp preview`` serves as the cards are edited, and
    drawing every face again took a quarter of a full build's time. No stage for a quick sheet
    (``--only``) or a reprint, whose cards are not every card."""

    name = "contact"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        if settings.only or settings.changed_since is not None:
            return []
        wanted = settings.contact_sheets(job.game)
        inputs = job.data_files() + job.card_template_files() + job.font_files()
        options = (wanted, settings.max_image_pixels, settings.screen_dpi(), CONTACT_DPI, SHEET_TILES) \
            + draft_option(settings.draft)

        def render(dry: bool) -> BuildResult:
            if not wanted:  # the sheets an earlier build made are removed, and their index
                return BuildResult(prune_within=job.out_dir, caches=[] if dry else [(job.out_dir / INDEX, None)])
            return render_contact(job, inputs, options, dry, reuse=not settings.force)

        return [Stage("contact", inputs, render, options)]

