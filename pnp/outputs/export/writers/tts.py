"""``tts`` output: Tabletop Simulator deck sheets (10 x 7 images at most, the last slot the
hidden-card image), the back image and a saved object (JSON) per deck."""

from __future__ import annotations

import json
import math

from ....core.units import Size
from ....model.game import Component
from ....model.pieces import CardInstance
from ..job import ExportJob
from ..manifest import Entry
from ..pages import CardPage, book_of, card_id, card_ids, deck_trim, distinct, nickname, size_text
from ..preflight import row_places, safe_zone_pages
from ..profiles import Profile
from ..tts_objects import guid as _guid, tts_object as _tts_object
from ..tts_table import _url as _tts_url, write_table
from ....render.raster import EXPORT_COMPRESSION, png_bytes, rasterise_pages


def tts_card_pixels(trim: Size, profile: Profile) -> tuple[int, int]:
    """Pixel size of one card image on a Tabletop Simulator deck sheet: as large as lets a full
    ``columns`` x ``rows`` sheet stay within ``max_sheet_width`` x ``max_sheet_height``
    (4096 x 4096 by default), keeping the trim's aspect ratio."""
    ratio = trim.height / trim.width
    w = int(min(profile.max_sheet_width / profile.columns, profile.max_sheet_height / profile.rows / ratio))
    while w > 1 and round(w * ratio) * profile.rows > profile.max_sheet_height:
        w -= 1
    return w, max(1, round(w * ratio))


def _tts_grid(n: int, profile: Profile) -> tuple[int, int]:
    """Columns and rows of a sheet holding ``n`` images plus the hidden-card slot: near square,
    at least 2 x 2 (Tabletop Simulator's import dialog requires it), at most ``columns`` x
    ``rows``."""
    slots = n + 1
    cols = max(2, min(profile.columns, math.ceil(math.sqrt(slots))))
    if -(-slots // cols) > profile.rows:
        cols = -(-slots // profile.rows)
    rows = max(2, -(-slots // cols))
    return cols, rows


def write(job: ExportJob, decks, workers: int) -> None:
    """Per deck: face sheets ``{game}-{deck}-faces-N.png``, the back ``{game}-{deck}-back.png``
    (or back sheets ``{game}-{deck}-backs-N.png`` when the deck's cards have different backs)
    and the saved object ``{game}-{deck}.json``; then the whole table, every deck with the
    game's boards, tokens, dice and setup notecard, as ``{game}.json``
    (:func:`pnp.outputs.export.tts_table.write_table`)."""
    from PIL import Image

    p = job.profile
    per_sheet = p.columns * p.rows - 1
    states = []
    drawn = []  # every deck's distinct faces and backs, pages of one PDF
    for comp, deck in decks:
        trim, _ = deck_trim(comp, p)
        cw, ch = tts_card_pixels(trim, p)
        geom = CardPage(trim, trim, (cw, ch))  # the whole image shows in the game: trim only, no bleed
        drawn.append((comp, deck, trim, geom, distinct(job, comp, deck, geom, "face"),
                      distinct(job, comp, deck, geom, "back")))
    pdf = book_of(job).pdf() if drawn else b""
    for _, _, _, _, faces, backs in drawn:
        job.findings += safe_zone_pages(pdf, [(page, g[0].face.card_key) for page, g in faces]
                                        + [(page, g[0].back.card_key) for page, g in backs], p,
                                        row_places([g[0].face for _, g in faces] + [g[0].back for _, g in backs]))
    # a dry run draws and finds; the sheets find nothing more (the table's pieces are still drawn)
    for comp, deck, trim, geom, faces, backs in ([] if job.dry else drawn):
        cw, ch = geom.px
        size = size_text(geom)
        unique_back = len(backs) > 1
        # a deck's pixels at a time, from the one PDF: a game of many decks holds one deck's
        raws = rasterise_pages(pdf, [(page, (cw, ch)) for page, _ in faces + backs], workers, encode=False)
        images = [Image.frombytes("RGB", (cw, ch), raw) for raw in raws]
        del raws
        face_img, back_img = images[:len(faces)], images[len(faces):]
        back_index = {id(card): i for i, (_, group) in enumerate(backs) for card in group}
        single_back = None
        if not unique_back:
            single_back = job.claim(job.name("{game}-{deck}-back.png", deck=comp.id),
                                    png_bytes(back_img[0], EXPORT_COMPRESSION))
            job.entries.append(Entry(single_back, "back", comp.id, ";".join(card_ids(deck)), len(deck),
                                     size=size, width_px=cw, height_px=ch))
        custom: dict[str, dict] = {}
        slot_ids: dict[int, int] = {}
        for s, start in enumerate(range(0, len(faces), per_sheet)):
            chunk = faces[start:start + per_sheet]
            cols, rows = _tts_grid(len(chunk), p)
            sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
            back_sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255)) if unique_back else None
            for slot, (_, group) in enumerate(chunk):
                r, col = divmod(slot, cols)
                sheet.paste(face_img[start + slot], (col * cw, r * ch))
                if back_sheet is not None:
                    back_sheet.paste(back_img[back_index[id(group[0])]], (col * cw, r * ch))
                for card in group:
                    slot_ids[id(card)] = (s + 1) * 100 + slot
            if single_back is not None:  # the last slot holds the hidden-card image, by convention
                last = cols * rows - 1
                sheet.paste(back_img[0], ((last % cols) * cw, (last // cols) * ch))
            face_name = job.claim(job.name("{game}-{deck}-faces-{card}.png", deck=comp.id, card=str(s + 1)),
                                  png_bytes(sheet, EXPORT_COMPRESSION))
            for slot, (_, group) in enumerate(chunk):
                job.entries.append(Entry(face_name, "face", comp.id, card_id(group[0].face), len(group),
                                         slot=slot + 1, size=size, width_px=cw, height_px=ch))
            back_url = single_back
            if back_sheet is not None:
                back_url = job.claim(job.name("{game}-{deck}-backs-{card}.png", deck=comp.id, card=str(s + 1)),
                                     png_bytes(back_sheet, EXPORT_COMPRESSION))
                for slot, (_, group) in enumerate(chunk):
                    job.entries.append(Entry(back_url, "back", comp.id, card_id(group[0].face), len(group),
                                             slot=slot + 1, size=size, width_px=cw, height_px=ch))
            custom[str(s + 1)] = {"FaceURL": _tts_url(job, face_name), "BackURL": _tts_url(job, back_url),
                                  "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                                  "UniqueBack": unique_back, "Type": 0}
        state, data = _tts_json(job, comp, deck, slot_ids, custom)
        name = job.claim(job.name("{game}-{deck}.json", deck=comp.id), data)
        job.entries.append(Entry(name, "object", comp.id, ";".join(card_ids(deck)), len(deck), size=size))
        states.append((state, trim))
    write_table(job, states, workers)


def _tts_json(job: ExportJob, comp: Component, deck: list[CardInstance], card_ids: dict[int, int],
              custom: dict[str, dict]) -> tuple[dict, bytes]:
    """The saved object: one DeckCustom holding one Card per copy (a lone card when the deck
    has one card, since a Tabletop Simulator deck holds at least two): (that state, the
    file's bytes)."""
    cards = []
    for i, card in enumerate(deck):
        cid = card_ids[id(card)]
        obj = _tts_object("Card", nickname(card.face), _guid(job.game.id, comp.id, "card", str(i)))
        obj["Description"] = f"{comp.id}/{card_id(card.face)}"
        obj["CardID"] = cid
        key = str(cid // 100)
        obj["CustomDeck"] = {key: custom[key]}
        cards.append(obj)
    if len(cards) == 1:
        state = cards[0]
    else:
        state = _tts_object("DeckCustom", comp.name, _guid(job.game.id, comp.id, "deck"))
        state["DeckIDs"] = [c["CardID"] for c in cards]
        state["CustomDeck"] = custom
        state["ContainedObjects"] = cards
    saved = {"SaveName": "", "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
             "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
             "ObjectStates": [state], "TabStates": {}, "VersionNumber": ""}
    return state, (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
