"""Which template names a layout reads: what makes two pieces draw the same.

Card sheets share one PDF form among placements that draw the same thing, and exports draw a
card once for all its copies; both ask :func:`template_names` which names of a piece's context
the layout (with the layouts its repeat boxes draw, and the icons' colours) reads. Settings that
hold ``{{ }}`` or ``{% %}`` are templates; the element kinds' expression settings (``when``,
``items``) are bare expressions (:mod:`pnp.design.elements`).
"""

from __future__ import annotations

from .elements import COMMON_EXPRESSIONS, ELEMENT_SPECS
from .layouts import LayoutSet
from .templating import layout_env

EXPRESSION_KEYS = frozenset(COMMON_EXPRESSIONS).union(*(s.expressions for s in ELEMENT_SPECS.values()))
"""Settings that are bare expressions in whatever kind of box gives them."""
MAX_NESTING = 8
"""Repeat boxes nested deeper than this (a layout repeating itself) make the names unknown."""


def _sources(layouts: LayoutSet, name: str, depth: int) -> list[str] | None:
    layout = layouts.layouts.get(name)
    if layout is None or depth > MAX_NESTING:
        return None
    sources = [layout.background] if isinstance(layout.background, str) else []
    for box in layout.boxes:
        for key, value in box.props.items():
            if not isinstance(value, str):
                continue
            if key in EXPRESSION_KEYS:
                sources.append("{{ (" + value + ") }}")
            elif "{{" in value or "{%" in value:
                sources.append(value)
        if box.type == "repeat":
            nested = _sources(layouts, str(box.props.get("layout")), depth + 1)
            if nested is None:
                return None
            sources += nested
    return sources


def template_names(layouts: LayoutSet, name: str) -> frozenset[str] | None:
    """The names of a piece's context that layout ``name`` reads (top-level names such as
    ``title``, ``piece``, ``colors``), found by parsing its templates with Jinja2; None when
    they cannot be told (an unknown layout, a template that does not parse, repeat boxes
    nested too deep). Cached on ``layouts``."""
    if name in layouts.names:
        return layouts.names[name]
    from jinja2 import TemplateError, meta

    sources = _sources(layouts, name, 0)
    found: frozenset[str] | None = None
    if sources is not None:
        for icon in layouts.icons.values():
            sources += [v for v in (icon.fill, icon.stroke, icon.label_color) if isinstance(v, str)
                        and ("{{" in v or "{%" in v)]
        names: set[str] = set()
        try:
            for source in sources:
                names |= meta.find_undeclared_variables(layout_env().parse(source))
        except TemplateError:
            pass
        else:
            found = frozenset(names)
    layouts.names[name] = found
    return found
