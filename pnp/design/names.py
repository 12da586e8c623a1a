"""Which template names a layout reads: what makes two pieces draw the same.

Card sheets share one PDF form among placements that draw the same thing, and exports draw a
card once for all its copies; both ask :func:`drawing_key`, built from the names of a piece's
context that the layout (with the layouts its repeat boxes draw, and the icons' colours) reads.
Settings that hold ``{{ }}`` or ``{% %}`` are templates; the element kinds' expression settings
(``when``, ``items``) are bare expressions (:mod:`pnp.design.elements`).
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from ..model.context import REF_DEPTH, Ref
from ..model.pieces import Piece
from .elements import COMMON_EXPRESSIONS, ELEMENT_SPECS
from .layouts import LayoutSet
from .templating import analysed, parse_template, undeclared

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


def _template_sources(layouts: LayoutSet, name: str) -> list[str] | None:
    """Every template layout ``name`` draws with (its boxes, the layouts its repeat boxes draw,
    the icons' colours); None when they cannot be told."""
    sources = _sources(layouts, name, 0)
    if sources is None:
        return None
    for icon in layouts.icons.values():
        sources += [v for v in (icon.fill, icon.stroke, icon.label_color) if isinstance(v, str)
                    and ("{{" in v or "{%" in v)]
    return sources


def template_names(layouts: LayoutSet, name: str) -> frozenset[str] | None:
    """The names of a piece's context that layout ``name`` reads (top-level names such as
    ``title``, ``piece``, ``colors``), found by parsing its templates with Jinja2
    (:func:`pnp.design.templating.undeclared`); None when they cannot be told (an unknown
    layout, a template that does not parse, repeat boxes nested too deep). Cached on
    ``layouts``."""
    if name not in layouts.names:
        from jinja2 import TemplateError

        sources = _template_sources(layouts, name)
        try:
            found = None if sources is None else frozenset().union(*(undeclared(s) for s in sources))
        except TemplateError:
            found = None
        layouts.names[name] = found
    return layouts.names[name]


def piece_fields(layouts: LayoutSet, name: str) -> frozenset[str] | None:
    """The fields of ``piece`` that layout ``name`` reads (``piece.copy``, ``piece['id']``):
    a card whose layout never reads ``piece.copy`` draws the same for every copy. None when
    ``piece`` is used whole (passed to a filter, indexed by a variable) or the templates cannot
    be told. Cached on ``layouts``."""
    if name not in layouts.piece_fields:
        from jinja2 import TemplateError

        sources = _template_sources(layouts, name)
        found: frozenset[str] | None = None
        if sources is not None:
            try:
                reads = [analysed("piece-fields", source, _piece_reads) for source in sources]
            except TemplateError:
                reads = None
            if reads is not None and all(fields is not None for fields in reads):
                found = frozenset().union(*reads)
        layouts.piece_fields[name] = found
    return layouts.piece_fields[name]


def _piece_reads(source: str) -> frozenset[str] | None:
    """The fields of ``piece`` template ``source`` reads; None when it uses ``piece`` whole.
    Raises jinja2.TemplateError when it does not parse."""
    from jinja2 import nodes

    tree = parse_template(source)
    fields: set[str] = set()
    read: set[int] = set()
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        target = node.node
        if not (isinstance(target, nodes.Name) and target.name == "piece"):
            continue
        if isinstance(node, nodes.Getattr):
            fields.add(node.attr)
        elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            fields.add(node.arg.value)
        else:
            continue
        read.add(id(target))
    if any(id(n) not in read for n in tree.find_all(nodes.Name) if n.name == "piece"):
        return None
    return frozenset(fields)


def volatile(layouts: LayoutSet, name: str) -> bool:
    """Whether layout ``name`` may draw differently for the same values: a template of it uses
    the ``random`` filter, or its templates cannot be told (then nothing drawn with it is
    reused from an earlier drawing)."""
    sources = _template_sources(layouts, name)
    return sources is None or any("random" in source for source in sources)


def read_context(layouts: LayoutSet, piece: Piece) -> dict[str, Any] | None:
    """The part of ``piece``'s context its layout reads: the context names its templates read,
    ``piece`` narrowed to the fields they read (a namespace's fields as a mapping). None when
    the names cannot be told (then the whole context may count)."""
    names = template_names(layouts, piece.layout)
    if names is None:
        return None
    read: dict[str, Any] = {}
    for name in sorted(names):
        value = piece.context.get(name)
        if name == "piece" and value is not None:
            fields = piece_fields(layouts, piece.layout)
            if fields is not None:
                value = {f: getattr(value, f, None) for f in sorted(fields)}
        read[name] = value
    return read


def drawing_key(layouts: LayoutSet, piece: Piece) -> tuple | None:
    """What ``piece``'s drawing depends on, as a hashable value: its layout's name and the values
    of the context names that layout reads, ``piece`` narrowed to the fields it reads
    (:func:`read_context`). Two pieces with equal keys draw the same, so card sheets share one
    form between them and exports draw one file for both. None when the names cannot be told
    (draw each piece)."""
    read = read_context(layouts, piece)
    if read is None:
        return None
    return piece.layout, tuple((name, _freeze(value)) for name, value in read.items())


def _freeze(value, refs: dict | None = None, depth: int = REF_DEPTH + 1):
    """``value`` as nested tuples, tagged by type (so 1 and "1" differ), that hash by content.
    A reference counts by its id (within one build equal ids name the same row); given
    ``refs`` (a memo of the rows frozen so far, by row and depth), it also holds the referenced
    row's values, as far as a template can follow it, and sets are sorted and functions named
    only, so that the result reprs the same in every process (a key kept between builds)."""
    if refs is not None:
        if isinstance(value, Ref):
            return _frozen_ref(value, refs, depth)
        if isinstance(value, (set, frozenset)):
            return tuple(sorted(repr(_freeze(v, refs, depth)) for v in value))
        if callable(value):  # a translated game's catalogue: its .po file is an input
            return ("callable", getattr(value, "__qualname__", type(value).__name__))
    if isinstance(value, SimpleNamespace):
        value = vars(value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _freeze(v, refs, depth)) for k, v in value.items()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return tuple(_freeze(v, refs, depth) for v in value)
    if isinstance(value, str):
        return (type(value).__name__, str(value))
    return (type(value).__name__, repr(value))


def _frozen_ref(ref: Ref, refs: dict, depth: int):
    """A reference frozen with the values of the row it names (:func:`_freeze` with ``refs``)."""
    d = ref.__dict__
    row = d.get("_row")
    if row is None or depth <= 0:
        return ("Ref", str(ref))
    key = (id(row), d.get("_depth"), depth)
    if key not in refs:  # the row is kept with its values, so that its id is no other's
        # the row's values as the reference resolves them (not getattr: a column may be named
        # like a method of str, such as title or count)
        refs[key] = (row, tuple((name, _freeze(Ref.__getattr__(ref, name), refs, depth - 1))
                                for name in sorted(row.values)))
    return ("Ref", str(ref), refs[key][1])


def drawing_fingerprint(layouts: LayoutSet, piece: Piece, refs: dict | None = None) -> str:
    """What ``piece``'s drawing depends on, as text that is the same in every process and build:
    its layout and side, and what the layout reads of its context (:func:`read_context`; the
    whole context when that cannot be told), references followed (``refs`` as
    :func:`_freeze`'s, shared by the pieces of one build). Unlike :func:`drawing_key`, it
    changes when a referenced row's cell does."""
    read = read_context(layouts, piece)
    seen = piece.context if read is None else read
    return repr((piece.layout, piece.side, _freeze(seen, {} if refs is None else refs)))


@lru_cache(maxsize=4096)
def printed_name(raw: str) -> str | None:
    """The one name a setting prints when it is a single ``{{ … }}`` reading one name and no
    text around it (``{{ text }}``, ``{{ text or '' }}``, ``{{ cost | pips }}``): the value
    drawn is that name's, so a problem with it is a problem of that cell. None otherwise
    (``art/{{ id }}.png`` builds a path; ``{{ a }} {{ b }}`` reads two)."""
    from jinja2 import TemplateError

    try:
        return analysed("printed-name", raw, _printed_name)
    except TemplateError:
        return None


def _printed_name(raw: str) -> str | None:
    from jinja2 import meta, nodes

    tree = parse_template(raw)
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], nodes.Output) or len(body[0].nodes) != 1 \
            or isinstance(body[0].nodes[0], nodes.TemplateData):
        return None
    names = meta.find_undeclared_variables(tree)
    return next(iter(names)) if len(names) == 1 else None
