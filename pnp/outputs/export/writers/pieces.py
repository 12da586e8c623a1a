"""Boards and tokens of a ``png`` export whose profile lists products (The Game Crafter): each
piece matched to a product (:mod:`..products`) and drawn at the product's template size.

A piece is drawn at its own trim, scaled (keeping its proportions) until it covers the
product's trim, and centred; the art past the product's trim, up to the template's edge, is
the piece's own bleed art, scaled with it. The page has TrimBox and BleedBox like a card's.
A piece no product takes is an ``export.no-product`` warning and is not drawn.
"""

from __future__ import annotations

from ....core.units import Size, to_mm
from ....design.names import drawing_key
from ....model.pieces import Piece, board_pieces, token_pieces, token_size_location
from ....render.renderer import Renderer
from ..job import ExportJob
from ..manifest import Entry
from ..pages import PageBook, book_of
from ..preflight import Places
from ..products import TEMPLATE_DPI, Fit, match, no_product

Pending = tuple[str, Entry, int, tuple[int, int], str]
"""(file name, manifest entry, page of the job's :class:`~..pages.PageBook`, raster size in px,
card key for the safe zone)."""


def piece_page(book: PageBook, renderer: Renderer, piece: Piece, size: Size, fit: Fit, job: ExportJob,
               round_piece: bool = False) -> tuple[int, str, tuple[int, int]]:
    """``piece`` (trim ``size`` pt) drawn on ``fit``'s product as a page of ``book``: the page
    is the template (its 300 dpi pixel size), the TrimBox the product's trim, centred; returns
    the page, the digest of its drawing (:meth:`PageBook.add`) and the raster size at the
    profile's dpi."""
    p = job.profile
    tw, th = fit.px
    page = Size(tw * 72.0 / TEMPLATE_DPI, th * 72.0 / TEMPLATE_DPI)
    trim = fit.trim
    px = (max(1, round(tw * p.dpi / TEMPLATE_DPI)), max(1, round(th * p.dpi / TEMPLATE_DPI)))

    def draw(c) -> None:
        c.setPageSize((page.width, page.height))
        c.setBleedBox((0, 0, page.width, page.height))
        x0, y0 = (page.width - trim.width) / 2, (page.height - trim.height) / 2
        c.setTrimBox((x0, y0, x0 + trim.width, y0 + trim.height))
        s = fit.scale
        bx = max(0.0, page.width / 2 / s - size.width / 2)
        by = max(0.0, page.height / 2 / s - size.height / 2)
        c.saveState()
        c.translate(page.width / 2, page.height / 2)
        c.scale(s, s)
        renderer.round_piece = round_piece
        try:
            renderer.draw(c, piece, (-size.width / 2, -size.height / 2, size.width, size.height), (bx, by, bx, by))
        finally:
            renderer.round_piece = False
        c.restoreState()

    index, digest = book.add(draw)
    return index, digest, px


def _entry(job: ExportJob, pattern: str, side: str, comp: str, card: str, back: str, copies: int,
           fit: Fit, px: tuple[int, int]) -> tuple[str, Entry]:
    name = job.name(pattern, deck=comp, card=card, copy=1, back=back, size=fit.product.key)
    t = fit.trim
    return name, Entry(name, side, comp, card, copies, size=f"{to_mm(t.width):g} x {to_mm(t.height):g} mm",
                       width_px=px[0], height_px=px[1], product=fit.product.name)


def _distinct(job: ExportJob, renderer: Renderer, pieces: list[Piece], size: Size, fit: Fit, round_piece: bool):
    """[(page, px, [pieces])]: the distinct drawings of ``pieces`` (copies that draw alike
    are one), each a page of the job's :class:`PageBook`."""
    groups: dict[str, tuple[int, tuple[int, int], list[Piece]]] = {}
    by_key: dict = {}
    book = book_of(job)
    for piece in pieces:
        key = drawing_key(renderer.layouts, piece)
        if key is not None and key in by_key:
            groups[by_key[key]][2].append(piece)
            continue
        page, digest, px = piece_page(book, renderer, piece, size, fit, job, round_piece)
        if key is not None:
            by_key[key] = digest
        groups.setdefault(digest, (page, px, []))[2].append(piece)
    return list(groups.values())


def pending(job: ExportJob, renderer: Renderer, places: Places | None = None) -> list[Pending]:
    """Every board and token of the job's game drawn on its product (a page of the job's
    :class:`~..pages.PageBook` per distinct drawing), and an ``export.no-product`` warning in ``job.findings`` for each board or token
    component (or token row) no product takes. Reference sheets are not boards and are left
    to ``pnp build``. ``places`` gets where each drawn board and token is written, by card
    key (a board's ``[components.NAME]`` in game.toml, a token's row, or its component's
    table in game.toml for tokens without one), so the safe zone's findings about it name that
    file and line."""
    places = places if places is not None else {}
    p, game = job.profile, job.game
    out: list[Pending] = []
    boards, _ = board_pieces(game)  # a board without a layout: the boards output reports it
    by_comp: dict[str, list] = {}
    for bp in boards:
        if bp.piece.side != "sheet":
            by_comp.setdefault(bp.component, []).append(bp)
    for comp_id, group in by_comp.items():
        comp, size = game.components[comp_id], group[0].size
        fit = match(p.products, "board", "rect", size, p.fit_tolerance, p.max_enlargement)
        if fit is None:
            job.findings.append(no_product(p.title, p.name, p.products, "board", "rect", size, f"board {comp.name!r}",
                                           game.key_location(f"components.{comp_id}.size"), comp_id, comp_id,
                                           p.fit_tolerance, p.max_enlargement))
            continue
        for page, px, same in _distinct(job, renderer, [bp.piece for bp in group], size, fit, False):
            name, entry = _entry(job, p.face_file, "face", comp_id, comp_id, "", len(same), fit, px)
            out.append((name, entry, page, px, same[0].card_key))
            places[same[0].card_key] = (game.key_location(f"components.{comp_id}"), comp_id)
    tokens, _ = token_pieces(game)
    rows: dict[tuple[str, str], list] = {}
    for tp in tokens:
        rows.setdefault((tp.component, tp.name), []).append(tp)
    reported: set = set()
    for (comp_id, name), group in rows.items():
        tp, comp = group[0], game.components[comp_id]
        size = Size(tp.width, tp.height)
        fit = (match(p.products, "token", tp.shape, size, p.fit_tolerance, p.max_enlargement)
               if tp.shape in ("circle", "square") else None)
        if fit is None:
            where = token_size_location(game, comp, tp.face.row)
            if (str(where), tp.shape, round(tp.width, 3), round(tp.height, 3)) in reported:
                continue
            reported.add((str(where), tp.shape, round(tp.width, 3), round(tp.height, 3)))
            what = f"token {name!r}" if name != comp_id else f"tokens {comp.name!r}"
            job.findings.append(no_product(p.title, p.name, p.products, "token", tp.shape, size, what, where,
                                           comp_id, tp.face.card_key, p.fit_tolerance, p.max_enlargement))
            continue
        round_piece = tp.shape == "circle"
        for side in ("face", "back"):
            pieces = [t.face if side == "face" else t.back for t in group]
            if pieces[0] is None:
                continue
            for page, px, same in _distinct(job, renderer, pieces, size, fit, round_piece):
                pattern = p.face_file if side == "face" else p.back_file
                fname, entry = _entry(job, pattern, side, comp_id, name, same[0].layout, len(same), fit, px)
                out.append((fname, entry, page, px, same[0].card_key))
                row = same[0].row  # a token of a table: its row; else its [components.NAME]
                places[same[0].card_key] = (row.location() if row is not None else
                                            game.key_location(f"components.{comp_id}"), comp_id)
    return out
