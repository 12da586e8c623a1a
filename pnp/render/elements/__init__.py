"""How each element kind of a layout box is drawn: one module per kind (or family of kinds),
one entry per kind in :data:`ELEMENTS`, in the order of :data:`pnp.design.elements.ELEMENT_SPECS`.

An element is an object with ``spec`` (its declaration, :class:`pnp.design.elements.ElementSpec`)
and ``draw(renderer, c, box, piece, rect, trim, where)``: draw ``box`` of ``piece`` on canvas
``c`` into ``rect`` (x, y, w, h in pt, bottom-left origin; ``trim`` is the piece's trim
rectangle), raising :class:`pnp.core.errors.LayoutError` for a value it cannot use, located at
``where(setting)`` (a :class:`pnp.design.layouts.BoxKey`: the setting's key in the layouts
file). A new element kind is a declaration in :mod:`pnp.design.elements`, a module here and one
line below.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...design.elements import ElementSpec
from ...design.layouts import BoxKey
from .icons import Icons
from .image import Image
from .line import Line
from .repeat import Repeat
from .shapes import Ellipse, Rect, Shape
from .text import Text


class Element(Protocol):
    """What every element kind provides (see the module docstring)."""

    spec: ElementSpec

    def draw(self, renderer: Any, c: Any, box: Any, piece: Any, rect: tuple[float, float, float, float],
             trim: tuple[float, float, float, float], where: BoxKey) -> None: ...


ELEMENTS: dict[str, Element] = {element.spec.name: element for element in (
    Rect(), Ellipse(), Shape(), Text(), Icons(), Image(), Line(), Repeat(),
)}
"""The drawing of every element kind, by kind name."""
