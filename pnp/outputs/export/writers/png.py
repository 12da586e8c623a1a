"""``png`` output: one image per card face and per deck back (The Game Crafter,
MakePlayingCards)."""

from __future__ import annotations

from ..job import ExportJob
from ..manifest import Entry
from ..pages import book_of, card_ids, card_id, card_page, deck_trim, distinct, size_text
from ..preflight import row_places, safe_zone_pages
from ....render.raster import rasterise_pages
from . import pieces


def write(job: ExportJob, decks, workers: int) -> None:
    """One PNG per distinct face and per distinct back of every deck, rendered at the profile's
    exact pixel size (``face_file`` and ``back_file`` name them); copies that draw alike are one
    file with their count in the manifest. Every drawing is a page of one PDF
    (:class:`~..pages.PageBook`), rasterised page by page. With products in the profile and the game's board
    designs (``job.board_renderer``), its boards and tokens too, each on its product
    (:mod:`.pieces`)."""
    p = job.profile
    pending: list[tuple[str, Entry, int, tuple[int, int], str]] = []  # the page of the job's PageBook
    drawn = []  # the pieces of the cards' pending files, for where their findings point
    for comp, deck in decks:
        trim, size_name = deck_trim(comp, p)
        geom = card_page(trim, p.bleed, p.dpi)
        for side in ("face", "back"):
            for page, group in distinct(job, comp, deck, geom, side):
                first = group[0]
                piece = first.face if side == "face" else first.back
                if side == "face":
                    name = job.name(p.face_file, deck=comp.id, card=card_id(piece), copy=piece.copy,
                                    back=first.back.layout, size=size_name)
                    ids = card_id(piece)
                else:
                    name = job.name(p.back_file, deck=comp.id, card=card_id(first.face), copy=1,
                                    back=piece.layout, size=size_name)
                    ids = ";".join(card_ids(group))
                entry = Entry(name, side, comp.id, ids, len(group), size=size_text(geom),
                              width_px=geom.px[0], height_px=geom.px[1])
                pending.append((name, entry, page, geom.px, piece.card_key))
                drawn.append(piece)
    places = row_places(drawn)
    if job.profile.products and job.board_renderer is not None:
        pending += pieces.pending(job, job.board_renderer, places)
    if not pending:
        return
    pdf = book_of(job).pdf()
    job.findings += safe_zone_pages(pdf, [(page, key) for _, _, page, _, key in pending], p, places)
    if job.dry:
        return  # every card is drawn and preflighted; rasterising finds nothing more
    pngs = rasterise_pages(pdf, [(page, px) for _, _, page, px, _ in pending], workers)
    for (name, entry, _, _, _), png in zip(pending, pngs):
        entry.file = job.claim(name, png)
        same = next((e for e in job.entries if (e.file, e.side, e.card_id) == (entry.file, entry.side, entry.card_id)),
                    None)
        if same is not None:  # copies drawn apart that came out pixel-identical
            same.copies += entry.copies
        else:
            job.entries.append(entry)
