"""``pdf`` output: one card per page with TrimBox and BleedBox, RGB or CMYK (DriveThruCards,
a European shop)."""

from __future__ import annotations

import io

from ....core.progress import step
from ....model.game import Component
from ....model.pieces import CardInstance
from ..job import ExportJob
from ..manifest import Entry
from ..pages import CardPage, card_id, card_page, deck_title, deck_trim, distinct, draw_page, print_canvas, size_text
from ..preflight import rgb_refusal, rgb_uses, row_places, safe_zone_findings


def write(job: ExportJob, decks, workers: int) -> None:
    """One PDF per deck (or per card size, ``group = "card-size"``), one card per page, faces
    and backs in the profile's ``page_order``; each card once with its copy count
    (``copies = "count"``) or a page per copy (``"repeat"``).

    Every file of a CMYK profile is walked for RGB left in it (:func:`pnp.outputs.export.preflight.rgb_uses`);
    any RGB stops the whole export with an ``export.color`` error (BuildError), in a dry run
    (``pnp check``) as in a real one, so that no file is written, not even with ``--force``,
    and the previous export stays as it was."""
    p = job.profile
    files: dict[str, list[tuple[Component, list[CardInstance], CardPage, str]]] = {}
    rgb: list[tuple[str, list[tuple[int, str]], list[str]]] = []
    for comp, deck in decks:
        trim, size_name = deck_trim(comp, p)
        geom = card_page(trim, p.bleed)
        key = job.name(p.file, deck=comp.id, size=size_name) if p.group == "deck" else \
            job.name(p.file, size=size_name)
        files.setdefault(key, []).append((comp, deck, geom, size_name))
    for name, parts in step(f"export {p.name}", len(files)).each(files.items()):
        buf = io.BytesIO()
        first_comp = parts[0][0]
        title = deck_title(job, first_comp) if p.group == "deck" else \
            f"{job.game.title} - {parts[0][3]} cards ({p.title})"
        c = print_canvas(buf, parts[0][2].page, title, p, job.converter)
        labels: list[str] = []
        drawn = []
        entries: list[Entry] = []
        page_no = 0
        for comp, deck, geom, _ in parts:
            if p.copies == "count":
                units = [(group[0], len(group)) for _, group in distinct(job, comp, deck, geom, "face")]
            else:
                units = [(card, card.face.copies) for card in deck]
            for card, copies in units:
                for side in p.page_order:
                    piece = card.face if side == "face" else card.back
                    draw_page(c, job.renderer, piece, geom, job.converter)
                    page_no += 1
                    labels.append(piece.card_key)
                    drawn.append(piece)
                    entries.append(Entry(name, side, comp.id, card_id(card.face), copies, page=page_no,
                                         copy=card.face.copy if p.copies == "repeat" else None,
                                         size=size_text(geom)))
        c.save()
        pdf = buf.getvalue()
        job.findings += safe_zone_findings(pdf, labels, p.safe_zone, p, row_places(drawn))
        if p.color == "cmyk":
            uses = rgb_uses(pdf)
            if uses:
                rgb.append((name, uses, labels))
        job.claim(name, pdf)
        job.entries += entries
    if rgb:
        raise rgb_refusal(rgb, p)
