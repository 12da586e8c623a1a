"""The images of a Tabletop Simulator table besides its card sheets: each board whole (not its
print tiles), each distinct token cut to its shape (transparent outside a circle or hexagon),
and each die's faces laid out on the die's template.

Every piece is drawn once on a PDF page of its trim (no bleed: the whole image shows in the
game) by the board designs' renderer, then rasterised at the profile's ``dpi``, lowered so the
longer side stays within ``max_sheet_width`` x ``max_sheet_height`` (Tabletop Simulator's
images stay within 4096 px, as its deck sheets do).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

from ...core.findings import Finding
from ...core.units import Size
from ...model.game import Game
from ...model.pieces import DieNet, Piece, TokenPiece, bad_die_face
from ...render.canvas import new_canvas
from ...render.renderer import Renderer
from ..dice import draw_face_value
from .profiles import Profile
from .tts_objects import DICE_TYPES

D6_TEMPLATE = {1: (1, 0), 2: (0, 1), 3: (1, 1), 5: (2, 1), 4: (3, 1), 6: (1, 2)}
"""Where each face of a six-sided die goes on its image: template slot -> (column, row) of a
4 x 3 grid of square cells, the cube unfolded as a cross (slot 1 on top, 2 3 5 4 around, 6
below: opposite slots sum to 7). The die's first face goes in slot 1, its second in slot 2, and
so on. The template files Tabletop Simulator ships (Steam/steamapps/common/Tabletop
Simulator/Modding/Dice Templates, named on https://kb.tabletopsimulator.com/custom-content/custom-dice/)
are not published on the web; this cross is not checked against them (docs/export.md says so)."""

D6_ROTATIONS = {1: (-90.0, 0.0, 0.0), 2: (0.0, 0.0, 0.0), 3: (0.0, 0.0, -90.0), 4: (0.0, 0.0, 90.0),
                5: (0.0, 0.0, -180.0), 6: (90.0, 0.0, 0.0)}
"""The rotation (x, y, z degrees, Unity Euler angles) that turns template slot ``k`` of a
six-sided Custom_Dice up: the ``RotationValues`` public Tabletop Simulator saves list for a
six-sided custom die's values 1 to 6 (value 1 at x = -90, 2 at no rotation, 3 at z = -90, 4 at
z = 90, 5 at z = -180, 6 at x = 90). Each brings a different axis of the cube up (1 and 6 the
local z axis, 3 and 4 the x axis, 2 and 5 the y axis), so opposite slots sum to 7 as on
:data:`D6_TEMPLATE`. Tabletop Simulator's API documents the list (Object.getRotationValues,
https://api.tabletopsimulator.com/object/) but not these figures, and pnp has not checked them
in the game: like the template, they hold if slot ``k`` of the cross is where Tabletop Simulator
maps face ``k`` (docs/export.md, "Tabletop Simulator")."""


def d6_rotation_values(faces: list[Any]) -> list[dict]:
    """``RotationValues`` of a six-sided die whose ``faces`` (in face order) are placed on
    :data:`D6_TEMPLATE` by :func:`die_template`: the face in slot ``k`` is named at the rotation
    that turns slot ``k`` up (:data:`D6_ROTATIONS`), so the value Tabletop Simulator reports
    for a roll is the face pnp drew on top. Values are written as text (``"1"``, ``"sword"``),
    as Tabletop Simulator saves them. Raises ValueError unless there are six faces."""
    if len(faces) != len(D6_TEMPLATE):
        raise ValueError(f"a six-sided die has 6 faces, not {len(faces)}")
    out = []
    for slot, value in zip(sorted(D6_TEMPLATE), faces):
        x, y, z = D6_ROTATIONS[slot]
        out.append({"Value": str(value), "Rotation": {"x": x, "y": y, "z": z}})
    return out


D6_GRID = (4, 3)
"""Columns and rows of :data:`D6_TEMPLATE`."""

DIE_FACE_PX = 256
"""Pixels across one face cell of a die image (a 4 x 3 cross is 1024 x 768 px)."""


@dataclass
class Drawn:
    """One piece drawn: its PDF page, its pixel size and what the image is for."""

    pdf: bytes
    px: tuple[int, int]
    kind: str
    shape: str = "square"


def image_px(size: Size, profile: Profile) -> tuple[int, int]:
    """Pixels of a piece of ``size`` (pt): the profile's dpi, lowered so that neither side
    passes max_sheet_width / max_sheet_height."""
    dpi = min(profile.dpi, profile.max_sheet_width * 72.0 / size.width, profile.max_sheet_height * 72.0 / size.height)
    return max(1, round(size.width * dpi / 72.0)), max(1, round(size.height * dpi / 72.0))


def _page(size: Size, title: str, profile: Profile, draw) -> bytes:
    buf = io.BytesIO()
    c = new_canvas(buf, size, title, f"{profile.title} table image", duplex=None, image_dpi=profile.image_dpi)
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def draw_board(renderer: Renderer, piece: Piece, size: Size, title: str, profile: Profile) -> Drawn:
    """The whole board ``size`` pt, trim only."""
    return Drawn(_page(size, title, profile,
                       lambda c: renderer.draw(c, piece, (0, 0, size.width, size.height), (0, 0, 0, 0))),
                 image_px(size, profile), "board")


def draw_token(renderer: Renderer, tp: TokenPiece, title: str, profile: Profile) -> Drawn:
    """A token's face on its trim box (a standee: its front panel, standing)."""
    size = Size(tp.width, tp.height)

    def draw(c):
        renderer.round_piece = tp.shape in ("circle", "hexagon")
        renderer.draw(c, tp.face, (0, 0, size.width, size.height), (0, 0, 0, 0))
        renderer.round_piece = False

    return Drawn(_page(size, title, profile, draw), image_px(size, profile), "token", tp.shape)


def draw_die_faces(renderer: Renderer, net: DieNet, title: str, profile: Profile) -> list[Drawn]:
    """One page per face of ``net``, in face order: its layout (seeing ``face``) and its value
    (pips for 1-6 unless ``pips`` is off), as the printed net draws them."""
    s = net.size
    out = []
    for value in net.faces:
        def draw(c, value=value):
            if net.layout:
                ctx = dict(net.context, face=value)
                renderer.draw(c, Piece(net.layout, ctx, net.component, side=f"face {value}"), (0, 0, s, s),
                              (0, 0, 0, 0))
            else:
                c.setFillColorRGB(1, 1, 1)
                c.rect(0, 0, s, s, stroke=0, fill=1)
            draw_face_value(c, value, (0, 0, s, s), net.pips)
        out.append(Drawn(_page(Size(s, s), title, profile, draw), (DIE_FACE_PX, DIE_FACE_PX), "die"))
    return out


def cut_to_shape(image, shape: str):
    """``image`` (RGB) as RGBA, transparent outside its ``shape``: a circle touching its box, a
    pointy-top hexagon touching its box, or (square, standee) the whole box."""
    from PIL import Image, ImageDraw

    rgba = image.convert("RGBA")
    if shape not in ("circle", "hexagon"):
        return rgba
    w, h = rgba.size
    scale = 4  # drawn 4x and reduced: smooth edges, the same bytes every time
    mask = Image.new("L", (w * scale, h * scale), 0)
    draw = ImageDraw.Draw(mask)
    if shape == "circle":
        draw.ellipse((0, 0, w * scale - 1, h * scale - 1), fill=255)
    else:
        cx, cy, r = w * scale / 2, h * scale / 2, h * scale / 2
        draw.polygon([(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                      for k in range(6)], fill=255)
    rgba.putalpha(mask.resize((w, h), Image.LANCZOS))
    return rgba


def die_template(faces: list[Any], images: list) -> Any:
    """The six face images (each DIE_FACE_PX square) placed on :data:`D6_TEMPLATE`: the die's
    image, D6_GRID cells, unused cells white."""
    from PIL import Image

    cols, rows = D6_GRID
    sheet = Image.new("RGB", (cols * DIE_FACE_PX, rows * DIE_FACE_PX), (255, 255, 255))
    for slot, image in zip(sorted(D6_TEMPLATE), images):
        col, row = D6_TEMPLATE[slot]
        sheet.paste(image, (col * DIE_FACE_PX, row * DIE_FACE_PX))
    return sheet


def dice_findings(game: Game) -> list[Finding]:
    """An ``export.tts-die`` error for each die component Tabletop Simulator's custom dice or
    pnp cannot make, at the line of the component's ``faces`` key in game.toml: faces that are
    not a list, a face count with no custom die type (not 4, 6, 8, 10, 12 or 20), one whose
    template pnp does not lay out (all but 6: Tabletop Simulator's dice templates ship with the
    game and their layouts are not published; pnp prints six-sided dice only, too), or a face
    that is not a number or a text (nothing to draw on its square of the die's image)."""
    out = []
    for comp in game:
        if comp.kind != "die" or comp.copies == 0:
            continue
        faces = comp.options.get("faces", [1, 2, 3, 4, 5, 6])
        where = game.key_location(f"components.{comp.id}.faces")
        if not isinstance(faces, list):
            out.append(Finding.at("error", "export.tts-die", where,
                                  f"die {comp.name!r} has faces = {faces!r}, not a list of its faces, so it is not put "
                                  "on the table",
                                  hint="faces = [1, 2, 3, 4, 5, 6]: each face as it is printed", component=comp.id))
            continue
        n = len(faces)
        bad = bad_die_face(faces) if n == 6 else None
        if n == 6 and bad is None:
            continue
        if bad is not None:
            message = (f"face {bad[0]} of die {comp.name!r} is {bad[1]}, not a number or a text, so it has no "
                       "image on the die and the die is not put on the table")
            hint = 'each face is drawn as it is written: faces = [1, 2, 3, 4, 5, 6] or ["sun", "moon", ...]'
        elif n in DICE_TYPES:
            message = (f"die {comp.name!r} has {n} faces: pnp lays out only the six-sided Tabletop Simulator "
                       f"die template (the {n}-sided template's layout is not published), so it is not put on "
                       "the table")
            hint = "give the die six faces (pnp prints six-sided dice only), or leave it out of the table"
        else:
            message = (f"die {comp.name!r} has {n} faces, and Tabletop Simulator has no custom die with {n} faces, "
                       "so it is not put on the table")
            hint = "Tabletop Simulator's custom dice have 4, 6, 8, 10, 12 or 20 faces; pnp makes six-sided ones"
        out.append(Finding.at("error", "export.tts-die", where, message, hint=hint, component=comp.id))
    return out


TABLE_RULE = "export.tts-table"


def off_table_findings(game: Game) -> list[Finding]:
    """An ``export.tts-table`` warning for each board and tokens component the Tabletop
    Simulator table leaves out because it has no layout to draw it with, at the component's
    table in game.toml (file and line): the rest of the table is still right to export."""
    out = []
    for comp in game:
        if comp.kind == "board" and comp.copies > 0 and not comp.layout:
            what = f"board {comp.name!r} is not on the Tabletop Simulator table: it has"
        elif comp.kind == "tokens" and comp.pieces > 0 and not comp.layout and not comp.layout_column:
            what = f"tokens {comp.name!r} are not on the Tabletop Simulator table: they have"
        else:
            continue
        out.append(Finding.at(
            "warning", TABLE_RULE, game.key_location(f"components.{comp.id}"),
            f"{what} no layout, so there is no image to put there", component=comp.id,
            hint=f'set layout = "..." under [components.{comp.id}] and design it in the templates folder\'s '
            "boards.toml (docs/boards.md)"))
    return out
