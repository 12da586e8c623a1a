"""Export pages: each card drawn once on a one-card page whose MediaBox is the trim plus the
profile's bleed (TrimBox and BleedBox set, no marks, corners not rounded), and which cards draw
the same and can share one drawing."""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from ...core.units import Size, to_mm
from ...design.names import drawing_key
from ...model.game import Component, Game
from ...model.pieces import CardInstance, Piece
from ...render.canvas import new_canvas
from ...render.color import InkConverter
from ...render.renderer import Renderer
from .job import ExportJob
from .profiles import Profile, ProfileError


@dataclass(frozen=True)
class CardPage:
    """The page one card is drawn on, in pt: the page (MediaBox = BleedBox) and the trim inside
    it, centred. ``px`` is the raster size (width, height) at the profile's dpi, or None."""

    page: Size
    trim: Size
    px: tuple[int, int] | None = None

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(llx, lly, urx, ury) of the TrimBox."""
        x = (self.page.width - self.trim.width) / 2
        y = (self.page.height - self.trim.height) / 2
        return x, y, x + self.trim.width, y + self.trim.height


def card_page(trim: Size, bleed: float, dpi: int | None = None) -> CardPage:
    """The page for a card of ``trim`` with ``bleed`` pt on every side. With ``dpi`` the page
    is snapped to whole pixels (the trim stays centred and exact; the bleed absorbs at most half
    a pixel), so that rendering it gives exactly ``px`` pixels: US poker with 1/8 in bleed is
    825 x 1125 px, with MakePlayingCards' 36 px bleed 822 x 1122 px (docs/print-specs.md §8 check 2)."""
    w, h = trim.width + 2 * bleed, trim.height + 2 * bleed
    if dpi is None:
        return CardPage(Size(w, h), trim)
    px = (max(1, round(w * dpi / 72.0)), max(1, round(h * dpi / 72.0)))
    return CardPage(Size(px[0] * 72.0 / dpi, px[1] * 72.0 / dpi), trim, px)


def deck_trim(comp: Component, profile: Profile) -> tuple[Size, str]:
    """The trim of ``comp``'s cards in ``profile`` and the size's name; ProfileError when the
    profile does not take that size."""
    size = comp.card_size
    label = comp.card_size_name or f"{to_mm(size.width):g}x{to_mm(size.height):g}mm"
    if profile.sizes is None:
        return size, label
    for name, trim in profile.sizes.items():
        if abs(trim.width - size.width) < 0.01 and abs(trim.height - size.height) < 0.01:
            return size, name
        if abs(trim.width - size.height) < 0.01 and abs(trim.height - size.width) < 0.01:
            return size, name
    offered = ", ".join(f"{n} ({s})" for n, s in profile.sizes.items())
    raise ProfileError(f"deck {comp.id!r} is {label} ({size}), which the {profile.name} profile does not take",
                       location=profile.where("sizes"),
                       hint=f"{profile.title} takes: {offered}. If the target takes this size, add it to the "
                       f"profile's sizes (in game.toml: [targets.{profile.name}.sizes] {label} = \"W x H\")")


def print_canvas(target, page: Size, title: str, profile: Profile, converter: InkConverter | None):
    """A canvas for a print-shop file of ``profile`` (CMYK when ``converter`` is given), which
    embeds raster art at the profile's ``image_dpi``."""
    return new_canvas(target, page, title, f"{profile.title} print file", duplex=None, converter=converter,
                      image_dpi=profile.image_dpi)


def draw_page(c, renderer: Renderer, piece: Piece, geom: CardPage, converter: InkConverter | None,
              end: bool = True) -> None:
    """One card on the current page: MediaBox = BleedBox = trim + bleed, TrimBox centred; the
    page ended unless ``end`` is False."""
    llx, lly, urx, ury = geom.trim_box
    c.setPageSize((geom.page.width, geom.page.height))
    c.setBleedBox((0, 0, geom.page.width, geom.page.height))
    c.setTrimBox((llx, lly, urx, ury))
    if converter is not None:
        converter.piece = piece
    renderer.draw(c, piece, (llx, lly, geom.trim.width, geom.trim.height),
                  (llx, lly, geom.page.width - urx, geom.page.height - ury))
    if end:
        c.showPage()


XOBJECT = re.compile(r"/(\S+) Do")
"""A form or image drawn in a page's content (a placed picture's form among them,
:class:`~pnp.render.embed.ArtCanvas`)."""


class PageBook:
    """The drawings of one export, each a page of one PDF (:func:`print_canvas`): the fonts
    and art they share are embedded once and the file is saved once, then measured and
    rasterised page by page (:func:`~pnp.render.raster.rasterise_pages`). Each page's art is
    sized for that page alone (:attr:`~pnp.render.embed.ArtCanvas.art_part`), so it renders
    to the pixels a one-page file of it would."""

    def __init__(self, profile: Profile, title: str, converter: InkConverter | None):
        self._buf = io.BytesIO()
        self.canvas = print_canvas(self._buf, Size(612, 792), title, profile, converter)
        self.pages = 0
        self._pdf: bytes | None = None
        self._pictures: dict[int, int] = {}  # id(art) -> its number in this book

    def add(self, draw: Callable[[Any], None]) -> tuple[int, str]:
        """Draw one page: ``draw(canvas)`` sets its size and boxes and draws it; the page is
        then ended here. Returns its index and the SHA-256 of its drawing (its content, with
        each picture named by the picture rather than by its form, its size, rotation and
        boxes): two pages with one digest look the same. Raises RuntimeError once the book is
        saved."""
        if self._pdf is not None:
            raise RuntimeError("the pages are saved: no page can be added")
        c = self.canvas
        c.art_part = self.pages
        draw(c)
        pictures = {c._doc.getXObjectName(name): f"picture{self._pictures.setdefault(id(art), len(self._pictures))}"
                    for (part, _), (art, name, _) in c._art.items() if part == self.pages}
        content = XOBJECT.sub(lambda m: f"/{pictures.get(m.group(1), m.group(1))} Do", "\n".join(c._code))
        boxes = [(box, getattr(c, f"_{box}Box", None)) for box in ("crop", "art", "bleed", "trim")]
        digest = hashlib.sha256(repr((c._pagesize, c._pageRotation, boxes)).encode())
        digest.update(content.encode("utf-8", "surrogatepass"))
        c.showPage()
        self.pages += 1
        return self.pages - 1, digest.hexdigest()

    def pdf(self) -> bytes:
        """The PDF of every page added (saved the first time it is asked for)."""
        if self._pdf is None:
            self.canvas.save()
            self._pdf = self._buf.getvalue()
            self._buf = io.BytesIO()
        return self._pdf


def book_of(job: ExportJob) -> PageBook:
    """The job's :class:`PageBook`, begun when first asked for."""
    if job.pages is None:
        job.pages = PageBook(job.profile, f"{job.game.title} ({job.profile.title})", job.converter)
    return job.pages


def distinct(job: ExportJob, comp: Component, deck: list[CardInstance], geom: CardPage, side: str):
    """The distinct drawings of one side of a deck, in order: [(page, [instances])], each
    drawing a page of the job's :class:`PageBook` (:func:`book_of`). Pieces whose drawing
    depends on the same values (copies of a card, cards sharing a plain back) are drawn once;
    drawings that come out the same are merged too. Faces of different cards never merge;
    identical backs do."""
    groups: dict[tuple[str, str], tuple[int, list[CardInstance]]] = {}
    by_signature: dict[Any, tuple[str, str]] = {}
    book = book_of(job)
    for card in deck:
        piece = card.face if side == "face" else card.back
        owner = card_id(card.face) if side == "face" else ""
        signature = drawing_key(job.layouts, piece)
        if signature is not None and (owner, signature) in by_signature:
            groups[by_signature[(owner, signature)]][1].append(card)
            continue
        page, digest = book.add(partial(draw_page, renderer=job.renderer, piece=piece, geom=geom,
                                        converter=job.converter, end=False))
        key = (owner, digest)
        if signature is not None:
            by_signature[(owner, signature)] = key
        if key in groups:
            groups[key][1].append(card)
        else:
            groups[key] = (page, [card])
    return list(groups.values())


def deck_title(job: ExportJob, comp: Component) -> str:
    return f"{job.game.title} - {comp.name} ({job.profile.title})"


def size_text(geom: CardPage) -> str:
    return f"{to_mm(geom.trim.width):g} x {to_mm(geom.trim.height):g} mm"


def decks_of(game: Game, cards: list[CardInstance]) -> list[tuple[Component, list[CardInstance]]]:
    out = []
    for comp in game:
        deck = [c for c in cards if c.deck == comp.id]
        if deck:
            out.append((comp, deck))
    return out


def card_id(piece: Piece) -> str:
    """The id a manifest names a card by: its row id (its label when it has none)."""
    return str(piece.row_id or piece.label)


def card_ids(cards: list[CardInstance]) -> list[str]:
    """The distinct card ids of ``cards``, in order."""
    return list(dict.fromkeys(card_id(c.face) for c in cards))


def nickname(piece: Piece) -> str:
    for key in ("title", "name"):
        value = piece.context.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return card_id(piece)
