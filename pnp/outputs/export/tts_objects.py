"""Tabletop Simulator saved-object states: the JSON of one object (a deck, a board, a token, a
die, a notecard), its GUID drawn from its content, its scale from its real size, and the table
layout that puts every object at its own place.

Units: Tabletop Simulator's world unit is taken as 1 inch (25.4 mm), the figure the brief for
this export and Tabletop Simulator's community guides use; the Knowledge Base's asset page
(https://kb.tabletopsimulator.com/custom-content/asset-creation/) says a custom board "is
re-scaled based on the image used", so boards, tiles, tokens and dice get one uniform scale
(x and z alike) and take their shape from their image. :data:`UNITS_AT_SCALE_1` is the width,
in units, that pnp takes such an object to have at scale 1; Tabletop Simulator does not
publish it, so it is stated here once (docs/export.md, "Tabletop Simulator").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ...core.units import MM

UNIT_MM = 25.4
"""Millimetres per Tabletop Simulator unit (1 unit = 1 inch)."""

UNITS_AT_SCALE_1 = 1.0
"""Width in units of a custom board, tile, token or die at scale 1 (taken as 1 unit, so that
the scale is the object's width in inches)."""

GAP = 1.0
"""Units between objects on the table."""

TOKEN_THICKNESS = 0.2
"""A custom token's thickness (CustomToken.Thickness), units."""

TILE_THICKNESS = 0.1
"""A custom tile's thickness (CustomTile.Thickness), units."""

NOTECARD_SIZE = (6.0, 4.0)
"""Room (width, depth in units) kept for the setup notecard."""

BOARD_MIN_MM = 300.0
"""A board whose longer side is at least this many mm is a Custom_Board; a smaller one (a
player board, a reference sheet) is a Custom_Tile, which players pick up and move like a card."""

DICE_TYPES = {4: 0, 6: 1, 8: 2, 10: 3, 12: 4, 20: 5}
"""Faces -> CustomImage.CustomDice.Type (Tabletop Simulator's Lua API, Custom Dice: 0 = 4-sided,
1 = 6-sided, 2 = 8, 3 = 10, 4 = 12, 5 = 20; https://api.tabletopsimulator.com/custom-game-objects/)."""


def guid(*parts: str) -> str:
    """Six hex digits drawn from ``parts`` (the same object gets the same GUID every export)."""
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def scale_of(length_pt: float) -> float:
    """The uniform scale of an object ``length_pt`` wide (pt): its width in units over
    :data:`UNITS_AT_SCALE_1`, to 4 decimals."""
    return round(length_pt / MM / UNIT_MM / UNITS_AT_SCALE_1, 4)


_TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
              "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def tts_object(name: str, nickname: str, guid_: str) -> dict:
    """The fields every saved object carries (a card's defaults: face down, turned to face the
    player)."""
    return {"GUID": guid_, "Name": name, "Transform": dict(_TRANSFORM), "Nickname": nickname,
            "Description": "", "GMNotes": "", "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
            "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "MeasureMovement": False,
            "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": True, "Hands": True, "SidewaysCard": False,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _face_up(obj: dict, scale: float) -> dict:
    obj["Transform"].update(rotX=0.0, rotY=180.0, rotZ=0.0, scaleX=scale, scaleY=1.0, scaleZ=scale)
    obj["HideWhenFaceDown"] = False
    obj["Hands"] = False
    return obj


def board_object(name: str, url: str, width: float, height: float, guid_: str, description: str) -> dict:
    """A Custom_Board (``width`` x ``height`` pt, longer side >= BOARD_MIN_MM) or a Custom_Tile
    (smaller), face up, scaled to its width, its image at ``url``."""
    big = max(width, height) / MM >= BOARD_MIN_MM
    obj = _face_up(tts_object("Custom_Board" if big else "Custom_Tile", name, guid_), scale_of(width))
    obj["Description"] = description
    image = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
    if not big:
        image["CustomTile"] = {"Type": 0, "Thickness": TILE_THICKNESS, "Stackable": False, "Stretch": True}
    obj["CustomImage"] = image
    if big:
        obj["Locked"] = True  # the board stays put while pieces are moved on it
    return obj


def token_object(name: str, url: str, width: float, guid_: str, description: str, stand_up: bool) -> dict:
    """A Custom_Token ``width`` pt wide: its image's transparent pixels are cut away, so a round
    or hexagonal image makes a round or hexagonal token; ``stand_up`` for a standee."""
    obj = _face_up(tts_object("Custom_Token", name, guid_), scale_of(width))
    obj["Description"] = description
    obj["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                          "CustomToken": {"Thickness": TOKEN_THICKNESS, "MergeDistancePixels": 15.0,
                                          "StandUp": stand_up, "Stackable": True}}
    return obj


def dice_object(name: str, url: str, faces: int, size: float, guid_: str, description: str,
                rotation_values: list[dict]) -> dict:
    """A Custom_Dice of ``faces`` faces (a key of DICE_TYPES), ``size`` pt across a face;
    ``rotation_values`` name each face at the rotation that shows it on top (its
    ``RotationValues``: ``{"Value": "1", "Rotation": {"x": -90.0, "y": 0.0, "z": 0.0}}``, one per
    face; :func:`pnp.outputs.export.tts_pieces.d6_rotation_values`)."""
    obj = _face_up(tts_object("Custom_Dice", name, guid_), scale_of(size))
    obj["Description"] = description
    obj["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                          "CustomDice": {"Type": DICE_TYPES[faces]}}
    obj["RotationValues"] = [{"Value": r["Value"], "Rotation": dict(r["Rotation"])} for r in rotation_values]
    return obj


def notecard_object(title: str, text: str, guid_: str) -> dict:
    """A Notecard: ``title`` as its nickname, ``text`` as its note (Description)."""
    obj = tts_object("Notecard", title, guid_)
    obj["Transform"].update(rotX=0.0, rotY=180.0, rotZ=0.0)
    obj["Description"] = text
    return obj


@dataclass
class Spot:
    """Room an object (or a stack of objects) needs on the table: ``width`` (x) by ``depth``
    (z), units; ``objects`` stand on it, the first at the bottom."""

    width: float
    depth: float
    objects: list[dict]
    height: float = 0.0
    """How much each object of a stack raises the next (units): a token's thickness."""


def lay_out(rows: list[list[Spot]], max_width: float) -> None:
    """Put every spot on the table: each list of ``rows`` starts a new band of the table, nearer
    the players than the last (negative z); within a band spots go left to right, GAP apart,
    and wrap at ``max_width`` units. Bands are centred on x = 0; the first band's far edge is at
    z = 0 + its depth / 2. Sets each object's posX, posY, posZ (absolute, units); stacked
    objects rise by ``height`` each. No two spots overlap."""
    z_top = None
    for row in rows:
        lines: list[list[Spot]] = []
        for spot in row:
            if lines and sum(s.width for s in lines[-1]) + GAP * len(lines[-1]) + spot.width <= max_width:
                lines[-1].append(spot)
            else:
                lines.append([spot])
        for line in lines:
            depth = max(s.depth for s in line)
            if z_top is None:
                z_top = depth / 2
            z = z_top - depth / 2
            width = sum(s.width for s in line) + GAP * (len(line) - 1)
            x = -width / 2
            for spot in line:
                for i, obj in enumerate(spot.objects):
                    obj["Transform"].update(posX=round(x + spot.width / 2, 4) + 0.0, posY=round(1.0 + i * spot.height, 4),
                                            posZ=round(z, 4) + 0.0)
                x += spot.width + GAP
            z_top -= depth + GAP

