"""The whole Tabletop Simulator table of a game: one saved object ``{game}.json`` whose
``ObjectStates`` list every deck, board, token, die and the setup notecard, each at its own
place on the table (:func:`pnp.outputs.export.tts_objects.lay_out`), with the images beside it.

Objects are listed flat rather than inside a bag: a saved object of several objects spawns them
all at once with their layout kept, while a bag would hold them in a heap for the players to
pull out one by one (docs/export.md, "Tabletop Simulator").
"""

from __future__ import annotations

import copy
import json

from ...core.errors import LayoutError, Location
from ...core.units import MM, Size
from ...design.names import drawing_key
from ...model.pieces import board_pieces, die_nets, token_pieces
from ...render.raster import EXPORT_COMPRESSION, png_bytes, rasterise_all
from .job import ExportJob
from .manifest import Entry
from .pages import nickname
from .tts_objects import (NOTECARD_SIZE, TOKEN_THICKNESS, UNITS_AT_SCALE_1, Spot, board_object, dice_object, guid,
                          lay_out, notecard_object, token_object)
from .tts_pieces import (cut_to_shape, d6_rotation_values, dice_findings, die_template, draw_board, draw_die_faces,
                         draw_token, off_table_findings)
from .tts_setup import setup_text


def _size_text(size: Size) -> str:
    return f"{size.width / MM:g} x {size.height / MM:g} mm"


def write_table(job: ExportJob, decks: list[tuple[dict, Size]], workers: int) -> None:
    """Add the table's images and ``{game}.json`` to ``job``: ``decks`` are the deck states the
    deck writer made (each with its card trim, pt). Boards, tokens and dice are drawn from the
    game's boards.toml by ``job.board_renderer`` (whose findings are the export's); findings of
    the pieces, ``export.tts-table`` for boards and tokens left off the table (no layout) and
    ``export.tts-die`` for dice Tabletop Simulator or pnp cannot make, go to ``job.findings``. Raises LayoutError when the game has pieces and the job no board renderer. A dry job draws and finds, and
    writes nothing."""
    from PIL import Image

    game, p = job.game, job.profile
    boards, _ = board_pieces(game)  # what they find is a board or tokens without a layout:
    tokens, _ = token_pieces(game)  # off_table_findings says so for the table
    die_errors = dice_findings(game)
    nets = die_nets(game)[0] if not die_errors else []
    findings = off_table_findings(game) + die_errors
    renderer = job.board_renderer  # boards.toml's designs (its findings are the export's)
    layouts = renderer.layouts if renderer is not None else None
    if renderer is None and (boards or tokens or nets):
        raise LayoutError("no designs for the table's boards, tokens and dice", location=Location(game.display_root),
                          rule="layout.file", hint="board, token and die designs live in the game's templates "
                          "folder, boards.toml (docs/boards.md)")
    title = f"{game.title} ({p.title})"
    drawn_boards = [draw_board(renderer, bp.piece, bp.size, title, p) for bp in boards]
    groups: dict[tuple, list] = {}
    for tp in tokens:
        key = drawing_key(layouts, tp.face) if layouts is not None else None
        groups.setdefault((tp.component, tp.name, key if key is not None else id(tp)), []).append(tp)
    token_groups = list(groups.values())
    drawn_tokens = [draw_token(renderer, g[0], title, p) for g in token_groups]
    drawn_dice = [draw_die_faces(renderer, net, title, p) for net in nets]
    job.findings += findings
    if job.dry:
        return
    jobs = drawn_boards + drawn_tokens + [d for faces in drawn_dice for d in faces]
    raws = iter(rasterise_all([(d.pdf, d.px) for d in jobs], workers, encode=False))
    images = [Image.frombytes("RGB", d.px, next(raws)) for d in jobs]
    board_images, rest = images[:len(boards)], images[len(boards):]
    token_images, face_images = rest[:len(token_groups)], rest[len(token_groups):]
    gid = game.id

    board_spots = []
    for i, (bp, image) in enumerate(zip(boards, board_images)):
        name = job.claim(job.name("{game}-{deck}.png", deck=bp.component), png_bytes(image, EXPORT_COMPRESSION))
        job.entries.append(Entry(name, "board", bp.component, bp.piece.card_key, 1, copy=bp.piece.copy,
                                 size=_size_text(bp.size), width_px=image.width, height_px=image.height))
        obj = board_object(bp.title, _url(job, name), bp.size.width, bp.size.height,
                           guid(gid, bp.component, "board", bp.piece.side, str(bp.piece.copy)), bp.piece.card_key)
        board_spots.append(_spot(obj, bp.size))
    token_spots = []
    for group, image, drawn in zip(token_groups, token_images, drawn_tokens):
        tp = group[0]
        name = job.claim(job.name("{game}-{deck}-{card}.png", deck=tp.component, card=tp.name),
                         png_bytes(cut_to_shape(image, drawn.shape), EXPORT_COMPRESSION))
        size = Size(tp.width, tp.height)
        job.entries.append(Entry(name, "token", tp.component, tp.name, len(group), size=_size_text(size),
                                 width_px=image.width, height_px=image.height))
        objects = [token_object(nickname(t.face), _url(job, name), tp.width,
                                guid(gid, tp.component, "token", tp.name, str(t.face.copy)), f"{tp.component}/{tp.name}",
                                tp.shape == "standee") for t in group]
        spot = _spot(objects[0], size)
        token_spots.append(Spot(spot.width, spot.depth, objects, TOKEN_THICKNESS))
    dice_spots = []
    for k, net in enumerate(nets):
        faces = face_images[6 * k:6 * k + 6]
        name = job.claim(job.name("{game}-{deck}.png", deck=net.component),
                         png_bytes(die_template(net.faces, faces), EXPORT_COMPRESSION))
        w, h = (faces[0].width * 4, faces[0].height * 3)
        job.entries.append(Entry(name, "die", net.component, ";".join(str(f) for f in net.faces), net.copies,
                                 size=f"{net.size / MM:g} mm", width_px=w, height_px=h))
        turns = d6_rotation_values(net.faces)
        objects = [dice_object(net.title, _url(job, name), 6, net.size, guid(gid, net.component, "die", str(c)),
                               net.component, turns) for c in range(1, net.copies + 1)]
        dice_spots += [_spot(obj, Size(net.size, net.size)) for obj in objects]
    deck_spots = []
    for state, trim in decks:
        obj = copy.deepcopy(state)
        deck_spots.append(Spot(trim.width / MM / 25.4, trim.height / MM / 25.4, [obj], 0.0))
    note = notecard_object(f"{game.title}: setup", setup_text(game), guid(gid, "setup"))
    rows = [board_spots, deck_spots, token_spots + dice_spots, [Spot(*NOTECARD_SIZE, [note])]]
    widest = max([s.width for row in rows for s in row] + [0.0])
    lay_out([row for row in rows if row], max(widest, 40.0))
    states = [obj for row in rows for s in row for obj in s.objects]
    saved = {"SaveName": game.title, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
             "Sky": "", "Note": setup_text(game), "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
             "ObjectStates": states, "TabStates": {}, "VersionNumber": ""}
    data = (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    name = job.claim(job.name("{game}.json"), data)
    job.entries.append(Entry(name, "object", "", "", len(states)))


def _spot(obj: dict, size: Size) -> Spot:
    """The room one board, token or die needs: its scale's width and its image's depth."""
    width = obj["Transform"]["scaleX"] * UNITS_AT_SCALE_1
    return Spot(width, width * size.height / size.width, [obj])


def _url(job: ExportJob, name: str) -> str:
    if job.profile.url_prefix:
        return job.profile.url_prefix + name
    if job.profile.image_url == "name":
        return name
    return (job.folder / name).resolve().as_uri()

