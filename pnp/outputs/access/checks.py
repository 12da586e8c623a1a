"""The accessibility findings of a game's pieces (docs/accessibility.md).

- ``access.color-blind``: two categories of a deck or token set (the pieces one painted
  setting gives different colours: suits, families, teams) whose colours a player with
  protanopia, deuteranopia or tritanopia sees less than :data:`pnp.render.vision.DISTINCT`
  apart, when nothing else on the piece (a text, an icon row, a shape, a picture, or another
  colour they do see apart) differs between them.
- ``access.greyscale``: the same for a greyscale print (colours of near equal luminance).
- ``access.contrast``: text whose colour against the colour under it is below the WCAG 2.x
  minimum (4.5:1, 3:1 for large text), and icon labels likewise.

Each finding is located at the setting that paints the colour (a layouts.toml line) and names
the layouts, boxes, categories and pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations

from ...core.findings import Finding
from ...design.layouts import LayoutSet
from ...design.templating import undeclared
from ...render import vision
from .walk import Shown, resolve

HINT_COLOR = ("give the categories a distinct icon, shape or text as well, or colours that stay apart; "
              "or accept it in game.toml under [accessibility] with a reason")
HINT_CONTRAST = "darken or lighten the text or the colour under it; or accept it in game.toml under [accessibility]"
_NOT_CATEGORIES = frozenset({"colors", "game", "piece"})


@dataclass
class Found:
    """A finding with what ``[accessibility] accept`` entries match: its layouts, boxes, the two
    categories and the vision."""

    finding: Finding
    layouts: set[str] = field(default_factory=set)
    boxes: set[str] = field(default_factory=set)
    categories: tuple[str, ...] = ()
    vision: str = ""
    colors: tuple[str, ...] = ()
    """The two category colours (``#RRGGBB``) of a colour finding."""


def _names(raw) -> tuple[str, ...]:
    """The template names a setting reads, sorted (none for a constant)."""
    if not isinstance(raw, str) or ("{{" not in raw and "{%" not in raw):
        return ()
    return _template_names(raw)


@lru_cache(maxsize=4096)
def _template_names(raw: str) -> tuple[str, ...]:
    from jinja2 import TemplateError

    try:
        return tuple(sorted(undeclared(raw) - _NOT_CATEGORIES))
    except TemplateError:
        return ()


def _label(group: list[Shown], role: str) -> str:
    """How a category is named: the columns its colour setting reads (``deck = red``), else its
    layout, else its colour as written."""
    paint = group[0].paints[role]
    parts = []
    for name in _names(paint.raw):
        values = {str(s.piece.context.get(name)) for s in group}
        if len(values) == 1:
            parts.append(f"{name} = {values.pop()}")
    if parts:
        return ", ".join(parts)
    layouts = {s.layout for s in group}
    if len(layouts) == 1:
        return f"layout {layouts.pop()}"
    return str(paint.raw)


def _constant(group: list[Shown], role: str):
    values = {repr(s.cues.get(role, s.paints[role].hex if role in s.paints else None)) for s in group}
    return values.pop() if len(values) == 1 else None


def _told_apart(a: list[Shown], b: list[Shown], roles: list[str], cues: set[str], view: str) -> bool:
    """Whether something other than the colour ``roles`` differs between the categories ``a``
    and ``b`` for every piece of each: a cue of the same value within each and another between
    them, or another colour (constant within each) that ``view`` still sees apart."""
    for role in cues:
        va, vb = _constant(a, role), _constant(b, role)
        if va is not None and vb is not None and va != vb:
            return True
    for role in {r for s in a + b for r in s.paints} - set(roles):
        if not all(role in s.paints for s in a + b):
            continue
        ha, hb = {s.paints[role].hex for s in a}, {s.paints[role].hex for s in b}
        if len(ha) == len(hb) == 1 and vision.difference(ha.pop(), hb.pop(), view) >= vision.DISTINCT:
            return True
    return False


def color_findings(unit: str, shown: list[Shown], layouts: LayoutSet) -> list[Found]:
    """``access.color-blind`` and ``access.greyscale`` findings of one deck side or token set
    (``unit`` names it in messages), from the :class:`Shown` of each of its pieces."""
    out: dict[tuple, Found] = {}
    roles = sorted({r for s in shown for r in s.paints})
    cues = {r for s in shown for r in s.cues}
    for role in roles:
        drawn = [s for s in shown if role in s.paints]
        groups: dict[str, list[Shown]] = {}
        for s in drawn:
            groups.setdefault(s.paints[role].hex, []).append(s)
        if len(groups) < 2:
            continue
        for (ha, a), (hb, b) in combinations(sorted(groups.items()), 2):
            if vision.difference(ha, hb) < vision.DISTINCT:
                continue  # not told apart by colour in the first place
            # the roles that paint these two categories apart the same way
            same = [r for r in roles if all(r in s.paints for s in a + b)
                    and {s.paints[r].hex for s in a} == {ha} and {s.paints[r].hex for s in b} == {hb}]
            la, lb = sorted((_label(a, role), _label(b, role)))
            for view in vision.SIMULATIONS:
                d = vision.difference(ha, hb, view)
                if d >= vision.DISTINCT or _told_apart(a, b, same, cues, view):
                    continue
                key = (unit, la, lb, view)
                if key in out:
                    continue
                paint = a[0].paints[role]
                where = layouts.location(paint.key)
                boxes = ", ".join(sorted({r.split(".")[0] for r in same}))
                names = sorted({s.layout for s in a + b})
                rule = "access.greyscale" if view == "greyscale" else "access.color-blind"
                seen_as = "printed in greyscale" if view == "greyscale" else f"seen with {view}"
                message = (f"{unit}: {la} and {lb} are told apart only by colour ({boxes} of layout"
                           f"{'s' if len(names) > 1 else ''} {', '.join(names)}); {seen_as}, {ha} and {hb} "
                           f"are ΔE {d:.1f} apart (CAM02-UCS; below {vision.DISTINCT:g} is hard to tell apart)")
                pieces = list(dict.fromkeys(s.piece.card_key for s in a + b))
                finding = Finding.at("info", rule, where, message, hint=HINT_COLOR,
                                     component=a[0].piece.component, piece=pieces[0])
                finding = replace(finding, pieces=tuple(pieces), count=len(pieces))
                out[key] = Found(finding, set(names), {r.split(".")[0] for r in same}, (la, lb), view, (ha, hb))
    return list(out.values())


def contrast_findings(shown: list[Shown], layouts: LayoutSet) -> list[Found]:
    """``access.contrast`` findings: one per text box and pair of colours, naming its pieces."""
    groups: dict[tuple, list] = {}
    for s in shown:
        for t in s.texts:
            groups.setdefault((t.key, t.color, t.under, t.under_what, t.size, t.bold), []).append((s, t))
    out = []
    for (key, color, under, what, size, bold), items in groups.items():
        ratio = vision.contrast(color, under)
        need = vision.min_contrast(size, bold)
        if ratio >= need:
            continue
        t = items[0][1]
        large = " (large text)" if need == vision.MIN_CONTRAST_LARGE else ""
        pieces = list(dict.fromkeys(s.piece.card_key for s, _ in items))
        message = (f"text of box {t.box} (layout {t.layout}, {size:g} pt{' bold' if bold else ''}): {color} on "
                   f"{under} ({what}) has a contrast of {ratio:.2f}:1, below the WCAG minimum of {need:g}:1{large}")
        finding = Finding.at("info", "access.contrast", layouts.location(key), message,
                             hint=HINT_CONTRAST, component=items[0][0].piece.component, piece=pieces[0])
        out.append(Found(replace(finding, pieces=tuple(pieces), count=len(pieces)), {t.layout}, {t.box}))
    return out


def icon_findings(layouts: LayoutSet) -> list[Found]:
    """``access.contrast`` for icons whose label colour on their fill is below 4.5:1 (icon labels
    are small text)."""
    out = []
    for name, icon in sorted(layouts.icons.items()):
        if icon.image or not icon.label:
            continue
        fg, bg = resolve(layouts, icon.label_color), resolve(layouts, icon.fill)
        if not fg or not bg:
            continue
        ratio = vision.contrast(fg, bg)
        if ratio >= vision.MIN_CONTRAST:
            continue
        key = f"icons.{name}.label_color"
        message = (f"icon {name}: its label {icon.label!r} in {fg} on its fill {bg} has a contrast of "
                   f"{ratio:.2f}:1, below the WCAG minimum of {vision.MIN_CONTRAST:g}:1")
        out.append(Found(Finding.at("info", "access.contrast", layouts.location(key), message, hint=HINT_CONTRAST),
                         set(), {f"icon {name}"}))
    return out
