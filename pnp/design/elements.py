"""The element kinds a layout box may be, declared as data: each kind's settings, which of them
are lengths, which are bare expressions and which are required.

:data:`ELEMENT_SPECS` is the registry, in the order docs/layouts.md lists the kinds.
:func:`pnp.design.layouts.load_layouts` validates every box from these declarations, the
template-name analysis (:mod:`pnp.design.names`) reads the expressions from them, and the
drawing of each kind is registered under the same name in :data:`pnp.render.elements.ELEMENTS`.
A new element kind is one :class:`ElementSpec` here and one drawing module there.
"""

from __future__ import annotations

from dataclasses import dataclass

COMMON_KEYS = ("type", "x", "y", "width", "height", "area", "when", "draw", "z", "overlap")
"""Settings every box has: its kind, where it sits (x, y, width, height from the trim's
top-left, or an ``area``), ``when`` (draw only when true), ``draw = false`` (leave out an
inherited box), ``z`` (drawing order) and ``overlap = true`` (the box is meant to lie over or
under text, so ``preflight.text-overlap`` does not report it)."""
COMMON_LENGTHS = ("x", "y", "width", "height")
COMMON_EXPRESSIONS = ("when",)


@dataclass(frozen=True)
class ElementSpec:
    """One element kind: ``keys`` its own settings (besides :data:`COMMON_KEYS`), ``lengths``
    the settings converted to pt when the file is read (they need a unit), ``template_lengths``
    lengths that may instead be a template evaluated per item, ``expressions`` the settings that
    are bare Jinja2 expressions (``cost > 2``, not ``{{ }}``), ``required`` the settings a box
    of this kind must give, and ``sized`` whether it needs width and height (or an area)."""

    name: str
    summary: str
    keys: tuple[str, ...]
    lengths: tuple[str, ...] = ()
    template_lengths: tuple[str, ...] = ()
    expressions: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    sized: bool = True

    @property
    def all_keys(self) -> tuple[str, ...]:
        """Every setting a box of this kind may have."""
        return COMMON_KEYS + self.keys

    @property
    def all_expressions(self) -> tuple[str, ...]:
        return COMMON_EXPRESSIONS + self.expressions


PAINT = ("fill", "stroke", "stroke_width")

ELEMENT_SPECS: dict[str, ElementSpec] = {spec.name: spec for spec in (
    ElementSpec("rect", "a rectangle, rounded with radius", PAINT + ("radius",),
                lengths=("stroke_width", "radius")),
    ElementSpec("ellipse", "an ellipse filling the box", PAINT, lengths=("stroke_width",)),
    ElementSpec("shape", "a named shape (circle, square, rounded, diamond, triangle, hexagon, star, "
                "octagon) filling the box", PAINT + ("radius", "shape"), lengths=("stroke_width", "radius")),
    ElementSpec("text", "text fitted to the box, with inline :icons:",
                ("text", "font", "size", "min_size", "leading", "align", "valign", "color")),
    ElementSpec("icons", "a row of icons from a list", ("items", "icon_size", "spacing", "align"),
                lengths=("icon_size", "spacing"), expressions=("items",)),
    ElementSpec("image", "a raster or SVG picture, cover or contain", ("image", "fit")),
    ElementSpec("line", "a straight line from (x, y) to (x2, y2)", ("stroke", "stroke_width", "x2", "y2"),
                lengths=("stroke_width", "x2", "y2"), sized=False),
    ElementSpec("repeat", "another layout drawn once per item of a list",
                ("items", "layout", "item_x", "item_y", "item_width", "item_height", "item_rotate"),
                lengths=("item_width", "item_height"), template_lengths=("item_x", "item_y"),
                expressions=("items",), required=("items", "layout", "item_width", "item_height")),
)}
"""Every element kind by name, in today's order."""

BOX_TYPES = tuple(ELEMENT_SPECS)
