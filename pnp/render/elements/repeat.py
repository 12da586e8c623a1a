"""``repeat``: another layout drawn once per item of a list, so a board's track, a grid of
spots or a row of slots is drawn from its table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.units import parse_length
from ...design.elements import ELEMENT_SPECS
from ...design.layouts import BoxKey

REPEAT_CELLS = 20_000
"""Most cells the repeat boxes of one piece may draw in all (a board's track has tens)."""
REPEAT_DEPTH = 8
"""How deeply ``repeat`` boxes may nest (a layout repeating itself is stopped here)."""


def _item_length(renderer, raw: Any, ctx: dict, where: str) -> float:
    """A cell position: a length already in pt, or a template giving a length with a unit."""
    if isinstance(raw, (int, float)):
        return float(raw)
    text = str(renderer.value(raw, ctx, where)).strip()
    try:
        return parse_length(text)
    except ValueError as exc:
        raise renderer.layouts.error(where, f"{where} gives {text!r}: {exc}",
                                     hint='end the template with a unit, e.g. "{{ 10 + index * 25 }}mm"') from None


class Repeat:
    """Another layout drawn once per item of ``items``, each in a cell of ``item_width`` x
    ``item_height`` whose top-left is (``item_x``, ``item_y``) from the box's top-left, turned
    ``item_rotate`` degrees clockwise about the cell's centre. Each cell's templates see the
    piece's names plus ``item``, ``index`` and, for an item that is a mapping (a table row),
    its keys."""

    spec = ELEMENT_SPECS["repeat"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        ctx = piece.context
        depth = renderer.repeat_depth
        if depth >= REPEAT_DEPTH:
            raise renderer.layouts.error(str(where), f"repeat boxes nest more than {REPEAT_DEPTH} deep",
                                         hint="a layout drawn by a repeat box must not repeat itself")
        items = renderer.expression(str(p["items"]), ctx, where("items"))
        if items is None:
            items = []
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise renderer.layouts.error(where("items"),
                                         f"items gives {type(items).__name__} {str(items)[:40]!r}, not a list",
                                         hint="give a list: a table's rows (rows, tables.spaces) or range(0, 10)")
        items = list(items)
        renderer.repeat_cells += len(items)
        if renderer.repeat_cells > REPEAT_CELLS:
            renderer.repeat_cells = 0
            raise renderer.layouts.error(where("items"),
                                         f"repeat boxes draw more than {REPEAT_CELLS} cells for one piece",
                                         hint="a repeat box draws one cell per item; check items and nested repeats")
        sub = renderer.layouts.get(str(p["layout"]), where("layout"))
        bx, by, bw, bh = rect
        w, h = p["item_width"], p["item_height"]
        for index, item in enumerate(items):
            ictx = dict(ctx)
            if isinstance(item, Mapping):
                ictx.update(item)
            ictx["item"] = item
            ictx["index"] = index
            ix = _item_length(renderer, p.get("item_x", 0), ictx, where("item_x"))
            iy = _item_length(renderer, p.get("item_y", 0), ictx, where("item_y"))
            raw_angle = renderer.value(p.get("item_rotate", 0), ictx, where("item_rotate"))
            try:
                angle = float(str(raw_angle).strip() or 0)
            except ValueError:
                raise renderer.layouts.error(where("item_rotate"),
                                             f"item_rotate gives {raw_angle!r}, not a number of degrees",
                                             hint="give degrees clockwise, e.g. 90") from None
            cell = (bx + ix, by + bh - iy - h, w, h)
            sub_piece = piece.in_cell(index, sub.name, ictx)
            c.saveState()
            if angle:
                cx, cy = cell[0] + w / 2, cell[1] + h / 2
                c.translate(cx, cy)
                c.rotate(-angle)
                c.translate(-cx, -cy)
            renderer.draw_background(c, sub, ictx, cell)
            renderer.repeat_depth = depth + 1
            try:
                for sub_box in sub.boxes:
                    renderer.draw_box(c, sub_box, sub_piece, cell, (0.0, 0.0, 0.0, 0.0), BoxKey(sub.name, sub_box))
            finally:
                renderer.repeat_depth = depth
            c.restoreState()
