"""Declarative card layouts: named boxes with units, inheritance, icons, and drawing them.

A game's layouts live in ``templates/<game>/layouts.toml`` (format in docs/layouts.md). A
:class:`Layout` is a background and an ordered list of :class:`Box` es, each placed from the
trim's top-left corner in points (y grows downwards, as a designer measures a card). Text and
colour values may be Jinja2 templates evaluated per piece in a sandbox with StrictUndefined.

:class:`Renderer` draws a layout for one piece onto a reportlab canvas at an absolute trim
position, clipped to the piece's bleed rectangle. Problems found while drawing (text that does
not fit at its minimum size, characters the font lacks) are collected as findings.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import fonts
from .cost import pips
from .errors import LayoutError, Location
from .findings import Finding
from .units import parse_length

BOX_TYPES = ("rect", "ellipse", "shape", "text", "icons", "image", "line", "repeat")
SHAPES = ("circle", "square", "rounded", "diamond", "triangle", "hexagon", "star", "octagon")
BASIC_COLORS = {"white": "#FFFFFF", "black": "#000000"}
_ICON_RE = re.compile(r":([A-Za-z0-9_\-]+):")

_BOX_KEYS = {
    "type", "x", "y", "width", "height", "area", "when", "draw",
    "fill", "stroke", "stroke_width", "radius", "shape",
    "text", "font", "size", "min_size", "leading", "align", "valign", "color",
    "items", "icon_size", "spacing",
    "image", "fit",
    "x2", "y2", "z",
    "layout", "item_x", "item_y", "item_width", "item_height", "item_rotate",
}
REPEAT_CELLS = 20_000
"""Most cells the repeat boxes of one piece may draw in all (a board's track has tens)."""
REPEAT_DEPTH = 8
"""How deeply ``repeat`` boxes may nest (a layout repeating itself is stopped here)."""


@dataclass
class Box:
    """One named box of a layout. Geometry in pt from the trim's top-left (y down)."""

    name: str
    type: str
    x: float
    y: float
    width: float
    height: float
    area: str | None
    props: dict[str, Any]
    origins: dict[str, str] = field(default_factory=dict)
    """setting -> the layout whose file table wrote it (for messages)."""

    def where(self, setting: str, layout: str) -> str:
        """The key path of ``setting`` as written in the file, and the layout drawing it."""
        home = self.origins.get(setting, self.origins.get("type", layout))
        text = f"layouts.{home}.boxes.{self.name}.{setting}"
        return text if home == layout else f"{text}, drawing layout {layout}"


@dataclass
class Layout:
    """A face or back design: a background colour (or None) and boxes drawn in order."""

    name: str
    background: Any
    boxes: list[Box]
    background_origin: str = ""


@dataclass
class Icon:
    """An icon usable inline in text as ``:name:`` and in icon rows."""

    name: str
    shape: str = "circle"
    fill: str = "white"
    stroke: str | None = "black"
    label: str = ""
    label_color: str = "black"
    font: str = "sans-bold"
    image: str | None = None
    label_scale: float = 0.5
    """Label height as a fraction of the icon's size."""


@dataclass
class LayoutSet:
    """Every layout and icon of one game, with the templating environment to evaluate them."""

    path: Path
    display: str
    layouts: dict[str, Layout]
    icons: dict[str, Icon]
    colors: dict[str, str]
    safe_zone: float = 9.0
    """Inset of ``area = "safe"`` from the trim, in pt (default 1/8 in, print-specs.md §2)."""
    _compiled: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, where: str) -> Layout:
        """The layout called ``name``; ``where`` says who asked (for the error)."""
        if name not in self.layouts:
            close = difflib.get_close_matches(name, list(self.layouts), n=1)
            raise LayoutError(f"{where} uses layout {name!r}, which {self.display} does not define",
                              location=Location(self.display),
                              hint=(f"did you mean {close[0]!r}? " if close else "")
                              + "layouts: " + ", ".join(sorted(self.layouts)))
        return self.layouts[name]


TEMPLATE_LIMIT = 10_000
"""Largest number a template may pass to a function or filter, largest range it may loop over,
and largest string or list it may build by multiplication: a card needs far less, and larger
values are typos or attempts to exhaust the machine."""


def _limited(value, what: str):
    from jinja2.exceptions import SecurityError

    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > TEMPLATE_LIMIT:
        raise SecurityError(f"{what} {value} is larger than templates allow ({TEMPLATE_LIMIT})")
    return value


def _env():
    from jinja2 import StrictUndefined
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class Sandbox(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**"])

        def call_binop(self, context, operator, left, right):
            if operator == "**":
                _limited(right, "the power")
                result = left ** right
                _limited(result, "the result")
                return result
            for a, b in ((left, right), (right, left)):
                if isinstance(a, (str, list, tuple)) and isinstance(b, int) and len(a) * b > TEMPLATE_LIMIT:
                    from jinja2.exceptions import SecurityError

                    raise SecurityError(f"a string or list of {len(a) * b} items is longer than templates allow")
            return left * right

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja2's signature)
            for value in list(args) + list(kwargs.values()):
                _limited(value, "the number")
            return super().call(__context, __obj, *args, **kwargs)

    env = Sandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False,
                  finalize=lambda v: "" if v is None else v)
    env.globals.pop("lipsum", None)
    env.globals["range"] = lambda *a: range(*[_limited(x, "the range bound") for x in a])
    for name in ("center", "indent", "wordwrap", "truncate", "format", "batch", "slice", "round"):
        env.filters[name] = _guard_filter(env.filters[name])
    env.filters["pips"] = pips
    return env


def _guard_filter(fn):
    import functools

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        for value in list(args[1:]) + list(kwargs.values()):
            _limited(value, "the number")
        return fn(*args, **kwargs)

    return guarded


_ENV = None


def env():
    """The shared sandboxed Jinja2 environment (StrictUndefined, no autoescape, ``pips`` filter)."""
    global _ENV
    if _ENV is None:
        _ENV = _env()
    return _ENV


_RTL_RE = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
"""Arabic-script characters, which need shaping and right-to-left ordering the PDF text lacks."""

_COMPILED: dict[str, Any] = {}
"""Compiled templates and expressions by their source, shared by every renderer of the process
(compiling is the slow part of a template; the environment is the same for all)."""
_SIMPLE_RE = re.compile(r"^\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\s*\}\}$")
_MISSING = object()


def _lookup(ctx: dict, path: str) -> Any:
    """The value of a dotted name in a template context, or _MISSING where any step is absent.

    Steps are looked up as Jinja2 does (attribute first, then item); names starting with an
    underscore never match (the sandbox refuses them), so they fall through to Jinja2.
    """
    parts = path.split(".")
    if parts[0] not in ctx:
        return _MISSING
    value = ctx[parts[0]]
    for part in parts[1:]:
        if isinstance(value, dict):
            if part in value:
                value = value[part]
                continue
            return _MISSING
        try:
            value = getattr(value, part)
        except AttributeError:
            return _MISSING
        if callable(value):
            return _MISSING
    return value


def _name_hint(message: str, ctx: dict) -> str | None:
    """'did you mean ...?' for an undefined name in a template, from the names it could see."""
    name = re.search(r"'([^']+)' is undefined", message)
    if not name:
        return None
    close = difflib.get_close_matches(name.group(1), list(ctx), n=1)
    return f"did you mean {close[0]!r}?" if close else "names: " + ", ".join(sorted(ctx))


def _length(value: Any, display: str, key: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
        return 0.0
    try:
        length = parse_length(str(value))
    except ValueError as exc:
        raise LayoutError(str(exc), location=Location(display, column_name=key),
                          hint="lengths need a unit: 3mm, 0.25in, 9pt") from None
    if not math.isfinite(length) or abs(length) > MAX_LENGTH:
        raise LayoutError(f"{value!r} is not a usable length", location=Location(display, column_name=key),
                          hint="layout lengths are at most 5 m")
    return length


MAX_LENGTH = 5000 * 72 / 25.4
"""Longest length a layout may give (5 m): anything larger is a typo."""

_CHOICES = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom"),
            "fit": ("cover", "contain")}
_NUMBERS = {"size": (0.5, 1000.0), "min_size": (0.5, 1000.0), "leading": (0.5, 5.0)}
_NOT_NEGATIVE = ("stroke_width", "radius", "icon_size", "spacing")


def _check_settings(props: dict, display: str, key: str) -> None:
    """Refuse setting values of the wrong kind at load time, naming the key."""
    for name, (low, high) in _NUMBERS.items():
        if name in props:
            value = props[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not low <= value <= high:
                raise LayoutError(f"{name} must be a number from {low:g} to {high:g}, not {value!r}",
                                  location=Location(display, column_name=f"{key}.{name}"),
                                  hint="text sizes are points, written without a unit: size = 12")
    if "size" in props and "min_size" in props and props["min_size"] > props["size"]:
        raise LayoutError(f"min_size {props['min_size']!r} is larger than size {props['size']!r}",
                          location=Location(display, column_name=f"{key}.min_size"))
    for name, allowed in _CHOICES.items():
        value = props.get(name)
        if value is not None and not (isinstance(value, str) and ("{{" in value or value in allowed)):
            close = difflib.get_close_matches(str(value), allowed, n=1, cutoff=0.5)
            raise LayoutError(f"{name} {value!r} is not one of {', '.join(allowed)}",
                              location=Location(display, column_name=f"{key}.{name}"),
                              hint=f"did you mean {close[0]!r}?" if close else None)
    if "z" in props and (isinstance(props["z"], bool) or not isinstance(props["z"], int)):
        raise LayoutError(f"z must be a whole number, not {props['z']!r}",
                          location=Location(display, column_name=f"{key}.z"))
    for name in _NOT_NEGATIVE:
        if isinstance(props.get(name), float) and props[name] < 0:
            raise LayoutError(f"{name} cannot be negative", location=Location(display, column_name=f"{key}.{name}"))


def load_layouts(template_dir: Path, display: str, colors: dict[str, str],
                 filename: str = "layouts.toml") -> LayoutSet:
    """Read ``filename`` (default ``layouts.toml``) in ``template_dir``, resolving ``extends``.

    Board and token designs use the same format in ``boards.toml``. Raises LayoutError naming
    the file and key for unknown box types, settings or parents, cycles in ``extends``, and
    lengths without units.
    """
    path = template_dir / filename
    if not path.is_file():
        raise LayoutError(f"no {filename}", location=Location(display),
                          hint=f"each game's designs live in templates/<game>/{filename}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"not valid TOML: {exc}", location=Location(display)) from None
    except UnicodeDecodeError as exc:
        raise LayoutError(f"not UTF-8 text (byte offset {exc.start})", location=Location(display),
                          hint="save the file as UTF-8") from None
    for key in data:
        if key not in ("layouts", "icons", "safe_zone"):
            raise LayoutError(f"unknown top-level setting {key!r}", location=Location(display, column_name=key),
                              hint=f"{filename} holds [layouts.*], [icons.*] and safe_zone")
    safe_zone = _length(data.get("safe_zone", "0.125in"), display, "safe_zone")
    raw_layouts = data.get("layouts", {})
    icons = {}
    if not isinstance(data.get("icons", {}), dict) or not isinstance(data.get("layouts", {}), dict):
        raise LayoutError("icons and layouts must be tables", location=Location(display),
                          hint="write [icons.NAME] and [layouts.NAME] tables")
    for name, spec in data.get("icons", {}).items():
        where = f"icons.{name}"
        if not isinstance(spec, dict):
            raise LayoutError(f"icon {name!r} must be a table", location=Location(display, column_name=where),
                              hint=f'write [icons.{name}] with shape = "circle", fill = ..., label = ...')
        unknown = set(spec) - {"shape", "fill", "stroke", "label", "label_color", "font", "image", "label_scale"}
        if unknown:
            raise LayoutError(f"unknown icon setting {sorted(unknown)[0]!r}",
                              location=Location(display, column_name=where))
        for key, value in spec.items():
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 2) \
                if key == "label_scale" else isinstance(value, str)
            if not ok:
                raise LayoutError(f"{key} {value!r} has the wrong kind of value",
                                  location=Location(display, column_name=f"{where}.{key}"),
                                  hint="label_scale is a number from 0 to 2; every other icon setting is text in quotes")
        if spec.get("shape", "circle") not in SHAPES:
            raise LayoutError(f"shape {spec['shape']!r} is not one of {', '.join(SHAPES)}",
                              location=Location(display, column_name=f"{where}.shape"))
        if spec.get("font", "sans-bold") not in fonts.FONT_FILES:
            raise LayoutError(f"unknown font {spec['font']!r}", location=Location(display, column_name=f"{where}.font"),
                              hint="fonts: " + ", ".join(fonts.FONT_FILES))
        icons[name] = Icon(name=name, **spec)
    resolved: dict[str, Layout] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> dict:
        if name in chain:
            raise LayoutError("layouts extend each other in a cycle: " + " -> ".join(chain + (name,)),
                              location=Location(display, column_name=f"layouts.{name}.extends"))
        if name not in raw_layouts:
            close = difflib.get_close_matches(name, list(raw_layouts), n=1)
            raise LayoutError(f"layout {chain[-1]!r} extends {name!r}, which is not defined",
                              location=Location(display, column_name=f"layouts.{chain[-1]}.extends"),
                              hint=f"did you mean {close[0]!r}?" if close else None)
        spec = raw_layouts[name]
        if not isinstance(spec, dict) or not isinstance(spec.get("boxes", {}), dict) or \
                not all(isinstance(b, dict) for b in spec.get("boxes", {}).values()) or \
                not isinstance(spec.get("extends", ""), str):
            raise LayoutError(f"layout {name!r} is not laid out as tables",
                              location=Location(display, column_name=f"layouts.{name}"),
                              hint=f'write [layouts.{name}] with extends = "NAME", and [layouts.{name}.boxes.BOX] tables')
        merged: dict[str, Any] = {"boxes": {}, "origins": {}, "background_origin": name}
        if "extends" in spec:
            parent = resolve(spec["extends"], chain + (name,))
            merged = {"background": parent.get("background"),
                      "background_origin": parent.get("background_origin", name),
                      "boxes": {k: dict(v) for k, v in parent["boxes"].items()},
                      "origins": {k: dict(v) for k, v in parent["origins"].items()}}
        for key, value in spec.items():
            if key == "boxes":
                for bname, bspec in value.items():
                    merged["boxes"].setdefault(bname, {}).update(bspec)
                    merged["origins"].setdefault(bname, {}).update({k: name for k in bspec})
            elif key in ("extends", "background", "description"):
                merged[key] = value
                if key == "background":
                    merged["background_origin"] = name
            else:
                raise LayoutError(f"unknown layout setting {key!r}",
                                  location=Location(display, column_name=f"layouts.{name}.{key}"),
                                  hint="layout settings: extends, background, description, boxes")
        return merged

    for name in raw_layouts:
        merged = resolve(name, ())
        boxes = []
        for bname, spec in merged["boxes"].items():
            origins = merged["origins"][bname]
            home = origins.get("type", name)
            key = f"layouts.{home}.boxes.{bname}"
            if spec.get("draw", True) is False:
                continue
            unknown = set(spec) - _BOX_KEYS
            if unknown:
                bad = sorted(unknown)[0]
                close = difflib.get_close_matches(bad, list(_BOX_KEYS), n=1)
                raise LayoutError(f"unknown box setting {bad!r}", location=Location(display, column_name=key),
                                  hint=f"did you mean {close[0]!r}?" if close else None)
            btype = spec.get("type")
            if btype not in BOX_TYPES:
                raise LayoutError(f"box type {btype!r} is not one of {', '.join(BOX_TYPES)}",
                                  location=Location(display, column_name=f"{key}.type"))
            area = spec.get("area")
            if area not in (None, "trim", "bleed", "safe"):
                raise LayoutError(f"area {area!r} is not trim, bleed or safe",
                                  location=Location(display, column_name=f"{key}.area"))
            if area is None:
                for needed in ("x", "y", "width", "height"):
                    if needed not in spec and not (btype == "line" and needed in ("width", "height")):
                        raise LayoutError(f"box {bname!r} needs {needed} (or an area)",
                                          location=Location(display, column_name=key),
                                          hint='give x, y, width and height with units, or area = "trim"')
            props = {k: v for k, v in spec.items() if k not in ("type", "x", "y", "width", "height", "area")}
            _check_settings(props, display, key)
            for lk in ("x2", "y2", "radius", "stroke_width", "icon_size", "spacing", "item_width", "item_height"):
                if lk in props:
                    props[lk] = _length(props[lk], display, f"{key}.{lk}")
            if btype == "repeat":
                for needed in ("items", "layout", "item_width", "item_height"):
                    if needed not in props:
                        raise LayoutError(f"repeat box {bname!r} needs {needed}",
                                          location=Location(display, column_name=key),
                                          hint="a repeat box gives items, layout, item_width and item_height; "
                                          "see docs/layouts.md")
                for tk in ("item_x", "item_y"):
                    raw = props.get(tk, 0)
                    if not (isinstance(raw, str) and ("{{" in raw or "{%" in raw)):
                        props[tk] = _length(raw, display, f"{key}.{tk}")
            boxes.append(Box(bname, btype,
                             _length(spec.get("x", 0), display, f"{key}.x"),
                             _length(spec.get("y", 0), display, f"{key}.y"),
                             _length(spec.get("width", 0), display, f"{key}.width"),
                             _length(spec.get("height", 0), display, f"{key}.height"),
                             area, props, origins))
        boxes.sort(key=lambda b: b.props.get("z", 0))  # stable: equal z keeps the written order
        resolved[name] = Layout(name, merged.get("background"), boxes,
                                merged.get("background_origin", name))
    return LayoutSet(path, display, resolved, icons, dict(colors), safe_zone)


# --------------------------------------------------------------------------------------------
# Drawing


@dataclass
class Piece:
    """What one card draws from: its label for messages, its template context, its layout."""

    label: str
    layout: str
    context: dict[str, Any]


def piece_name(piece: "Piece") -> str:
    """A piece's label without its copy number: findings are reported once per card, not per copy."""
    return piece.label.split(" (copy ")[0]


class Renderer:
    """Draws pieces of one game. ``findings`` collects preflight results while drawing.

    ``game_dir`` is where art paths are resolved; art outside it is refused.
    """

    def __init__(self, layouts: LayoutSet, game_dir: Path, min_text_size: float = 6.0,
                 color_convert: Callable[[str, str], Any] | None = None,
                 max_image_pixels: int | None = 89_478_485, min_dpi: int = 300):
        """``color_convert(hex, role)`` turns a ``#RRGGBB`` colour into the reportlab colour to
        paint with; ``role`` is ``text`` for glyphs and ``fill``/``stroke`` for shapes. The
        default paints the RGB colour as given; a CMYK print profile passes its own.
        ``max_image_pixels`` refuses larger art (None lifts it); art placed below ``min_dpi``
        (300, the print norm of print-specs.md §2) is a preflight finding."""
        self.color_convert = color_convert
        self._form_canvas = None
        self._forms: dict = {}
        self._shares: dict | None = None
        self._layout_names: dict[str, tuple[str, ...]] = {}
        self.max_image_pixels = max_image_pixels
        self.min_dpi = min_dpi
        self.layouts = layouts
        self.game_dir = game_dir
        self.min_text_size = min_text_size
        self.findings: list[Finding] = []
        self._images: dict[Path, Any] = {}
        self._widths: dict[tuple[str, str], float] = {}
        self._seen: set[tuple[str, str, str]] = set()

    # -- values ------------------------------------------------------------------------------
    def value(self, raw: Any, ctx: dict, where: str) -> Any:
        """Evaluate a setting: strings holding ``{{`` or ``{%`` are templates, others constants.

        A template that only prints one name or dotted path (``{{ symbol }}``,
        ``{{ family.color_hex }}``) is looked up directly when every step exists; anything else,
        and any lookup that fails, goes through the sandboxed Jinja2 environment, so results
        and error messages are the same either way.
        """
        if not isinstance(raw, str) or ("{{" not in raw and "{%" not in raw):
            return raw
        simple = _SIMPLE_RE.match(raw)
        if simple:
            found = _lookup(ctx, simple.group(1))
            if found is not _MISSING:
                return "" if found is None else str(found)
        from jinja2 import TemplateError, UndefinedError

        template = _COMPILED.get(raw)
        if template is None:
            try:
                template = env().from_string(raw)
            except TemplateError as exc:
                raise LayoutError(f"template {raw!r} does not parse: {exc}",
                                  location=Location(self.layouts.display, column_name=where)) from None
            _COMPILED[raw] = template
        try:
            return template.render(ctx)
        except UndefinedError as exc:
            raise LayoutError(f"{exc}", location=Location(self.layouts.display, column_name=where),
                              hint=_name_hint(str(exc), ctx)) from None
        except (TemplateError, ValueError, TypeError) as exc:
            message, hint = (exc.args + (None,))[:2] if isinstance(exc, ValueError) else (str(exc), None)
            raise LayoutError(f"{message}", location=Location(self.layouts.display, column_name=where),
                              hint=hint) from None
        except (ArithmeticError, RecursionError, MemoryError, LookupError, AttributeError) as exc:
            raise LayoutError(f"the template failed for this card: {type(exc).__name__}: {exc}",
                              location=Location(self.layouts.display, column_name=where),
                              hint="guard the expression for this card's values, e.g. with an if") from None

    def expression(self, raw: str, ctx: dict, where: str) -> Any:
        """Evaluate a Jinja2 expression (``when``, ``items``) in the sandbox."""
        from jinja2 import TemplateError, UndefinedError

        key = "expr:" + raw
        compiled = _COMPILED.get(key)
        if compiled is None:
            hint = None
            if "{{" in raw or "{%" in raw:
                hint = "this setting takes a bare expression such as  maverick  or  cost > 2, without {{ }}"
            try:
                compiled = env().compile_expression(raw, undefined_to_none=False)
            except TemplateError as exc:
                raise LayoutError(f"expression {raw!r} does not parse: {exc}",
                                  location=Location(self.layouts.display, column_name=where),
                                  hint=hint) from None
            _COMPILED[key] = compiled
        try:
            result = compiled(**ctx)
            if hasattr(result, "_undefined_name"):
                result.__str__()  # StrictUndefined raises here
            return result
        except UndefinedError as exc:
            raise LayoutError(str(exc), location=Location(self.layouts.display, column_name=where),
                              hint=_name_hint(str(exc), ctx)) from None
        except (TemplateError, ValueError, TypeError) as exc:
            args = exc.args if isinstance(exc, ValueError) and len(exc.args) == 2 else (str(exc), None)
            raise LayoutError(f"{args[0]}", location=Location(self.layouts.display, column_name=where),
                              hint=args[1]) from None
        except (ArithmeticError, RecursionError, MemoryError, LookupError, AttributeError) as exc:
            raise LayoutError(f"the expression failed for this card: {type(exc).__name__}: {exc}",
                              location=Location(self.layouts.display, column_name=where),
                              hint="guard the expression for this card's values") from None

    def color(self, raw: Any, ctx: dict, where: str, role: str = "fill"):
        """A colour setting as a reportlab colour, or None for ``none``/blank.

        Raises LayoutError naming the setting for a name that is not in the game's palette.
        """
        value = self.value(raw, ctx, where)
        if value is None:
            return None
        text = str(value).strip()
        if text in ("", "none"):
            return None
        if text.startswith("#") and re.fullmatch(r"#[0-9A-Fa-f]{6}", text):
            return self._paint_color(text.upper(), role)
        palette = self.layouts.colors
        if text in palette:
            return self._paint_color(palette[text].upper(), role)
        if text in BASIC_COLORS:
            return self._paint_color(BASIC_COLORS[text], role)
        close = difflib.get_close_matches(text, list(palette) + list(BASIC_COLORS), n=1)
        raise LayoutError(f"{text!r} is not a colour of this game", location=Location(self.layouts.display,
                          column_name=where),
                          hint=(f"did you mean {close[0]!r}? " if close else "")
                          + "use a name from [colors] in game.toml, or #RRGGBB")

    def _paint_color(self, hexcolor: str, role: str):
        if self.color_convert is not None:
            return self.color_convert(hexcolor, role)
        from reportlab.lib.colors import HexColor

        return HexColor(hexcolor)

    # -- pieces ------------------------------------------------------------------------------
    def place(self, c, piece: Piece, trim: tuple[float, float, float, float],
              bleed: tuple[float, float, float, float], rotate: bool = False,
              form_bleed: float | None = None) -> None:
        """Draw ``piece`` like :meth:`draw`, through a PDF form XObject shared by every placement
        that draws the same thing: the same layout, size and turn, and the same values of the
        names its templates read. Copies of a card and a deck back used by a whole deck are then
        stored once per PDF and only referenced on each sheet.

        The form is drawn with ``form_bleed`` (pt, default the largest of ``bleed``) on every
        side and clipped to ``bleed`` where it is placed, so one form serves every slot.
        """
        x, y, w, h = trim
        if self._shares is not None and self._shares.get(self.share_key(piece, w, h, rotate), 0) < 2:
            self.draw(c, piece, trim, bleed, rotate)  # drawn once in this file: no form needed
            return
        layout = self.layouts.get(piece.layout, piece.label)
        if c is not self._form_canvas:
            self._form_canvas, self._forms = c, {}
        fb = max(bleed) if form_bleed is None else max(form_bleed, max(bleed))
        key = (self.share_key(piece, w, h, rotate), round(fb, 4))
        form = self._forms.get(key)
        if form is None:
            form = f"pnpf{len(self._forms)}"
            c.beginForm(form, lowerx=-fb, lowery=-fb, upperx=w + fb, uppery=h + fb)
            self.draw(c, piece, (0.0, 0.0, w, h), (fb, fb, fb, fb), rotate)
            c.endForm()
            self._forms[key] = form
        bl, bb, br, bt = bleed
        c.saveState()
        clip = c.beginPath()
        clip.rect(x - bl, y - bb, w + bl + br, h + bb + bt)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y)
        c.doForm(form)
        c.restoreState()

    def share_key(self, piece: Piece, width: float, height: float, rotate: bool) -> tuple:
        """What makes two placements draw the same thing: layout, size, turn, and the values of
        the names the layout's templates read."""
        layout = self.layouts.get(piece.layout, piece.label)
        return (layout.name, round(width, 4), round(height, 4), rotate,
                tuple((n, repr(piece.context.get(n))) for n in self._names(layout)))

    def plan_shares(self, placements) -> None:
        """Tell :meth:`place` which pieces a file will hold more than once: ``placements`` are
        (piece, width, height, rotate). Pieces placed once are then drawn directly, since a form
        only pays when it is reused. None forgets the plan (every placement shares a form)."""
        if placements is None:
            self._shares = None
            return
        counts: dict[tuple, int] = {}
        for piece, width, height, rotate in placements:
            key = self.share_key(piece, width, height, rotate)
            counts[key] = counts.get(key, 0) + 1
        self._shares = counts

    def _names(self, layout: Layout) -> tuple[str, ...]:
        """The template names a layout's settings (and its icons' settings) read, sorted."""
        cached = self._layout_names.get(layout.name)
        if cached is not None:
            return cached
        from jinja2 import TemplateError, meta

        sources: list[str] = [layout.background] if isinstance(layout.background, str) else []
        for box in layout.boxes:
            for key, value in box.props.items():
                if not isinstance(value, str):
                    continue
                if key in ("when", "items"):
                    sources.append("{{ (" + value + ") }}")
                else:
                    sources.append(value)
                if key == "layout":  # a repeat box draws another layout with its own names
                    sub = self.layouts.layouts.get(value)
                    if sub is not None and sub.name != layout.name:
                        sources.extend("{{ " + n + " }}" for n in self._names(sub))
        for icon in self.layouts.icons.values():
            sources += [v for v in (icon.fill, icon.stroke, icon.label_color, icon.image) if isinstance(v, str)]
        names: set[str] = set()
        for src in sources:
            if "{{" not in src and "{%" not in src and not src.startswith("{{ ("):
                continue
            try:
                names |= meta.find_undeclared_variables(env().parse(src))
            except TemplateError:
                names.add("\0unparsed")  # drawing reports it; never share such a form
        result = tuple(sorted(names))
        if "\0unparsed" in names:
            result = tuple(sorted(names)) + ("piece",)
        self._layout_names[layout.name] = result
        return result

    def draw(self, c, piece: Piece, trim: tuple[float, float, float, float],
             bleed: tuple[float, float, float, float], rotate: bool = False) -> None:
        """Draw ``piece`` with its trim at (x, y, width, height) pt, bottom-left origin.

        ``bleed`` is how far (left, bottom, right, top) in pt the art may extend past the trim;
        drawing is clipped there. ``rotate`` turns the piece 180° about its trim centre.
        """
        x, y, w, h = trim
        layout = self.layouts.get(piece.layout, piece.label)
        if not getattr(self, "_repeat_depth", 0):
            self._repeat_cells = 0
        bl, bb, br, bt = bleed
        c.saveState()
        path = c.beginPath()
        path.rect(x - bl, y - bb, w + bl + br, h + bb + bt)
        c.clipPath(path, stroke=0, fill=0)
        if rotate:
            c.translate(x + w / 2, y + h / 2)
            c.rotate(180)
            c.translate(-(x + w / 2), -(y + h / 2))
            bl, bb, br, bt = br, bt, bl, bb
        ctx = piece.context
        where = f"layouts.{layout.name}"
        if layout.background is not None:
            home = layout.background_origin or layout.name
            where_bg = f"layouts.{home}.background" + ("" if home == layout.name else f", drawing layout {layout.name}")
            fill = self.color(layout.background, ctx, where_bg)
            if fill is not None:
                c.setFillColor(fill)
                c.rect(x - bl, y - bb, w + bl + br, h + bb + bt, stroke=0, fill=1)
        for box in layout.boxes:
            prefix = f"{where}.boxes.{box.name}"
            try:
                self._box(c, box, piece, (x, y, w, h), (bl, bb, br, bt), prefix)
            except LayoutError as exc:
                name = exc.location.column_name if exc.location else None
                if name and name.startswith(prefix + "."):
                    setting = name[len(prefix) + 1:]
                    exc.location = Location(exc.location.file, column_name=box.where(setting, layout.name))
                    exc.args = (exc.render(),)
                raise
        c.restoreState()

    def _rect_of(self, box: Box, trim, bleed) -> tuple[float, float, float, float]:
        x, y, w, h = trim
        if box.area == "bleed":
            bl, bb, br, bt = bleed
            return x - bl, y - bb, w + bl + br, h + bb + bt
        if box.area == "trim":
            return x, y, w, h
        if box.area == "safe":
            inset = self.layouts.safe_zone
            return x + inset, y + inset, w - 2 * inset, h - 2 * inset
        return x + box.x, y + h - box.y - box.height, box.width, box.height

    def _box(self, c, box: Box, piece: Piece, trim, bleed, where: str) -> None:
        ctx = piece.context
        p = box.props
        if "when" in p and not self.expression(str(p["when"]), ctx, f"{where}.when"):
            return
        bx, by, bw, bh = self._rect_of(box, trim, bleed)
        if box.type in ("rect", "ellipse", "shape"):
            fill = self.color(p.get("fill", "none"), ctx, f"{where}.fill")
            stroke = self.color(p.get("stroke", "none"), ctx, f"{where}.stroke", role="stroke")
            shape = {"rect": "rounded" if p.get("radius") else "square", "ellipse": "circle"}.get(box.type)
            if shape is None:
                shape = str(self.value(p.get("shape", "circle"), ctx, f"{where}.shape")).strip()
                if shape not in SHAPES:
                    raise LayoutError(f"shape {shape!r} is not one of {', '.join(SHAPES)}",
                                      location=Location(self.layouts.display, column_name=f"{where}.shape"))
            if box.type == "ellipse":
                c.saveState()
                self._paint(c, fill, stroke, p.get("stroke_width", 0.5))
                c.ellipse(bx, by, bx + bw, by + bh, stroke=1 if stroke else 0, fill=1 if fill else 0)
                c.restoreState()
            else:
                draw_shape(c, shape, bx, by, bw, bh, fill, stroke, p.get("stroke_width", 0.5),
                           p.get("radius", 0.0))
        elif box.type == "line":
            stroke = self.color(p.get("stroke", "black"), ctx, f"{where}.stroke", role="stroke")
            x, y, w, h = trim
            c.saveState()
            c.setStrokeColor(stroke)
            c.setLineWidth(p.get("stroke_width", 0.5))
            c.line(x + box.x, y + h - box.y, x + p.get("x2", box.x), y + h - p.get("y2", box.y))
            c.restoreState()
        elif box.type == "text":
            text = self.value(p.get("text", ""), ctx, f"{where}.text")
            self._text(c, str(text), (bx, by, bw, bh), p, ctx, piece, box, where)
        elif box.type == "icons":
            items = self.expression(str(p.get("items", "[]")), ctx, f"{where}.items")
            if isinstance(items, str):
                items = [items] if items else []
            if items is not None and not isinstance(items, (list, tuple)):
                raise LayoutError(f"items gives {type(items).__name__} {str(items)[:40]!r}, not a list of icon names",
                                  location=Location(self.layouts.display, column_name=f"{where}.items"),
                                  hint="for 3 copies of an icon write  ['fire'] * cost ; for a cost use  cost | pips")
            items = [str(i) for i in (items or [])]
            if len(items) > 200:
                raise LayoutError(f"items gives {len(items)} icons; a row holds at most 200",
                                  location=Location(self.layouts.display, column_name=f"{where}.items"))
            size = p.get("icon_size", min(bw, bh))
            spacing = p.get("spacing", size * 0.15)
            self._icon_row(c, items, (bx, by, bw, bh), size, spacing, str(p.get("align", "center")), piece, box)
        elif box.type == "repeat":
            self._repeat(c, box, piece, (bx, by, bw, bh), where)
        elif box.type == "image":
            rel = str(self.value(p.get("image", ""), ctx, f"{where}.image")).strip()
            if rel:
                self._image(c, rel, (bx, by, bw, bh), str(p.get("fit", "cover")), piece, box)

    def _item_length(self, raw: Any, ctx: dict, where: str) -> float:
        if isinstance(raw, (int, float)):
            return float(raw)
        text = str(self.value(raw, ctx, where)).strip()
        try:
            return parse_length(text)
        except ValueError as exc:
            raise LayoutError(f"{where} gives {text!r}: {exc}", location=Location(self.layouts.display,
                              column_name=where), hint='end the template with a unit, e.g. "{{ 10 + index * 25 }}mm"') from None

    def _repeat(self, c, box: Box, piece: Piece, rect, where: str) -> None:
        """Draw the layout named by ``layout`` once per item of ``items``, each in a cell of
        ``item_width`` x ``item_height`` whose top-left is (``item_x``, ``item_y``) from the box's
        top-left, turned ``item_rotate`` degrees clockwise about the cell's centre."""
        from collections.abc import Iterable, Mapping

        p = box.props
        ctx = piece.context
        depth = getattr(self, "_repeat_depth", 0)
        if depth >= REPEAT_DEPTH:
            raise LayoutError(f"repeat boxes nest more than {REPEAT_DEPTH} deep",
                              location=Location(self.layouts.display, column_name=where),
                              hint="a layout drawn by a repeat box must not repeat itself")
        items = self.expression(str(p["items"]), ctx, f"{where}.items")
        if items is None:
            items = []
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise LayoutError(f"items gives {type(items).__name__} {str(items)[:40]!r}, not a list",
                              location=Location(self.layouts.display, column_name=f"{where}.items"),
                              hint="give a list: a table's rows (rows, tables.spaces) or range(0, 10)")
        items = list(items)
        self._repeat_cells = getattr(self, "_repeat_cells", 0) + len(items)
        if self._repeat_cells > REPEAT_CELLS:
            self._repeat_cells = 0
            raise LayoutError(f"repeat boxes draw more than {REPEAT_CELLS} cells for {piece.label}",
                              location=Location(self.layouts.display, column_name=f"{where}.items"),
                              hint="a repeat box draws one cell per item; check items and nested repeats")
        sub = self.layouts.get(str(p["layout"]), f"{where}.layout")
        bx, by, bw, bh = rect
        w, h = p["item_width"], p["item_height"]
        sub_where = f"layouts.{sub.name}"
        for index, item in enumerate(items):
            ictx = dict(ctx)
            if isinstance(item, Mapping):
                ictx.update(item)
            ictx["item"] = item
            ictx["index"] = index
            ix = self._item_length(p.get("item_x", 0), ictx, f"{where}.item_x")
            iy = self._item_length(p.get("item_y", 0), ictx, f"{where}.item_y")
            raw_angle = self.value(p.get("item_rotate", 0), ictx, f"{where}.item_rotate")
            try:
                angle = float(str(raw_angle).strip() or 0)
            except ValueError:
                raise LayoutError(f"item_rotate gives {raw_angle!r}, not a number of degrees",
                                  location=Location(self.layouts.display, column_name=f"{where}.item_rotate"),
                                  hint="give degrees clockwise, e.g. 90") from None
            cell = (bx + ix, by + bh - iy - h, w, h)
            sub_piece = Piece(f"{piece.label} [{index + 1}]", sub.name, ictx)
            c.saveState()
            if angle:
                cx, cy = cell[0] + w / 2, cell[1] + h / 2
                c.translate(cx, cy)
                c.rotate(-angle)
                c.translate(-cx, -cy)
            if sub.background is not None:
                fill = self.color(sub.background, ictx, f"{sub_where}.background")
                if fill is not None:
                    c.setFillColor(fill)
                    c.rect(*cell, stroke=0, fill=1)
            self._repeat_depth = depth + 1
            try:
                for sub_box in sub.boxes:
                    self._box(c, sub_box, sub_piece, cell, (0.0, 0.0, 0.0, 0.0),
                              f"{sub_where}.boxes.{sub_box.name}")
            finally:
                self._repeat_depth = depth
            c.restoreState()

    @staticmethod
    def _paint(c, fill, stroke, width) -> None:
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(width)

    # -- text --------------------------------------------------------------------------------
    def _width(self, font: str, text: str) -> float:
        key = (font, text)
        width = self._widths.get(key)
        if width is None:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            width = stringWidth(text, fonts.register(font), 1.0)
            self._widths[key] = width
        return width

    def _words(self, text: str, font: str) -> list[list[list[tuple[str, str]]]]:
        """Paragraphs -> words -> runs of ("text", s) or ("icon", name)."""
        paragraphs = []
        for para in text.split("\n"):
            words = []
            for word in para.split(" "):
                if word == "":
                    continue
                runs: list[tuple[str, str]] = []
                pos = 0
                for m in _ICON_RE.finditer(word):
                    if m.group(1) not in self.layouts.icons:
                        continue
                    if m.start() > pos:
                        runs.append(("text", word[pos:m.start()]))
                    runs.append(("icon", m.group(1)))
                    pos = m.end()
                if pos < len(word):
                    runs.append(("text", word[pos:]))
                words.append(runs)
            paragraphs.append(words)
        return paragraphs

    def _word_width(self, runs, font: str) -> float:
        """Width at size 1; an inline icon is drawn 1.05 em high with 0.05 em either side."""
        return sum(self._width(font, t) if k == "text" else self.icon_width(t, 1.05) + 0.05 for k, t in runs)

    def _wrap(self, paragraphs, font: str, size: float, width: float):
        space = self._width(font, " ") * size
        lines = []
        for words in paragraphs:
            line: list = []
            line_w = 0.0
            for runs in words:
                ww = self._word_width(runs, font) * size
                if ww > width + 1e-6:
                    return None
                if line and line_w + space + ww > width + 1e-6:
                    lines.append((line, line_w))
                    line, line_w = [runs], ww
                else:
                    line_w = ww if not line else line_w + space + ww
                    line.append(runs)
            lines.append((line, line_w))
        return lines

    def _text(self, c, text: str, rect, p: dict, ctx: dict, piece: Piece, box: Box, where: str) -> None:
        bx, by, bw, bh = rect
        if not text.strip():
            return
        font = str(p.get("font", "sans"))
        if font not in fonts.FONT_FILES:
            raise LayoutError(f"unknown font {font!r}", location=Location(self.layouts.display, column_name=f"{where}.font"),
                              hint="fonts: " + ", ".join(fonts.FONT_FILES))
        size = float(p.get("size", 9))
        min_size = float(p.get("min_size", min(size, max(self.min_text_size, size * 0.6))))
        leading = float(p.get("leading", 1.2))
        lacking = fonts.missing(font, "".join(t for para in self._words(text, font) for w in para
                                              for k, t in w if k == "text"))
        who = piece_name(piece)
        if lacking:
            key = (who, box.name, "glyph")
            if key not in self._seen:
                self._seen.add(key)
                chars = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in lacking)
                self.findings.append(Finding("warning", "preflight.missing-glyph", f"{who} ({box.name})",
                                             f"the font {font} has no glyph for {chars}",
                                             hint="use a character the font has, or another font"))
        if _RTL_RE.search(text):
            key = (who, box.name, "rtl")
            if key not in self._seen:
                self._seen.add(key)
                self.findings.append(Finding(
                    "warning", "preflight.right-to-left", f"{who} ({box.name})",
                    "Arabic-script text is drawn left to right without joined letter forms",
                    hint="set that text as an image, or keep it off the card"))
        paragraphs = self._words(text, font)

        def fits(size_pt: float):
            lines = self._wrap(paragraphs, font, size_pt, bw)
            return lines if lines is not None and len(lines) * size_pt * leading <= bh + 1e-6 else None

        chosen = None
        first = fits(size)
        if first is not None:
            chosen = (size, first)
        else:  # the largest size in 0.25 pt steps from min_size that fits (binary search)
            steps = int(round((size - min_size) / 0.25))
            lo, hi = 0, steps - 1  # candidate sizes min_size + k * 0.25, k < steps
            while lo <= hi:
                mid = (lo + hi) // 2
                trial = round(min_size + mid * 0.25, 2)
                lines = fits(trial)
                if lines is not None:
                    chosen = (trial, lines)
                    lo = mid + 1
                else:
                    hi = mid - 1
        clip = False
        if chosen is None:
            s = min_size
            lines = self._wrap(paragraphs, font, s, bw)
            if lines is None:  # a word wider than the box even at the minimum size
                lines = [([w], self._word_width(w, font) * s) for para in paragraphs for w in para]
            fit = max(1, int((bh + 1e-6) // (s * leading)))
            if len(lines) > fit:  # show where the text was cut: the last line that fits ends in "…"
                words, width = lines[fit - 1]
                ellipsis = self._width(font, " …") * s
                lines = lines[:fit - 1] + [(list(words) + [[("text", "…")]], width + ellipsis)]
            chosen = (s, lines)
            clip = True
            key = (who, box.name, "overflow")
            if key not in self._seen:
                self._seen.add(key)
                self.findings.append(Finding(
                    "warning", "preflight.text-overflow", f"{who} ({box.name})",
                    f"the text does not fit its box even at {min_size:g} pt: {text[:60]!r}",
                    hint="shorten the text, or give the box more room or a smaller min_size"))
        s, lines = chosen
        color = self.color(p.get("color", "black"), ctx, f"{where}.color", role="text")
        align = str(p.get("align", "left"))
        valign = str(p.get("valign", "top"))
        pdf_font = fonts.register(font)
        from reportlab.pdfbase import pdfmetrics

        face = pdfmetrics.getFont(pdf_font).face
        ascent = face.ascent / 1000 * s
        descent = -face.descent / 1000 * s
        cap = getattr(face, "capHeight", 0.73 * 1000) / 1000 * s
        line_h = s * leading
        block = (len(lines) - 1) * line_h + ascent + descent
        top = by + bh
        if valign == "middle":  # centre the capitals of the middle line on the box's centre
            top = by + bh / 2 + (len(lines) - 1) * line_h / 2 + cap / 2 + ascent - cap
            if clip:
                top = by + bh - max(0.0, (bh - block) / 2)
        elif valign == "bottom":
            top = by + block
        c.saveState()
        if clip:
            path = c.beginPath()
            path.rect(bx, by, bw, bh)
            c.clipPath(path, stroke=0, fill=0)
        c.setFillColor(color)
        space = self._width(font, " ") * s
        for i, (words, width) in enumerate(lines):
            baseline = top - ascent - i * line_h
            if align == "center":
                x = bx + (bw - width) / 2
            elif align == "right":
                x = bx + bw - width
            else:
                x = bx
            c.setFont(pdf_font, s)
            if all(kind == "text" for runs in words for kind, _ in runs):
                # a line of plain words is one string: the same positions, one text operator
                c.drawString(x, baseline, " ".join("".join(t for _, t in runs) for runs in words))
                continue
            for j, runs in enumerate(words):
                if j:
                    x += space
                for kind, t in runs:
                    if kind == "text":
                        c.setFont(pdf_font, s)
                        c.drawString(x, baseline, t)
                        x += self._width(font, t) * s
                    else:
                        icon_size = s * 1.05
                        self.icon(c, t, x + 0.025 * s, baseline - 0.18 * s, icon_size, piece)
                        c.setFillColor(color)
                        x += self.icon_width(t, icon_size) + 0.05 * s
        c.restoreState()

    # -- icons -------------------------------------------------------------------------------
    def icon(self, c, name: str, x: float, y: float, size: float, piece: Piece) -> None:
        """Draw icon ``name`` in the square (x, y, size); an unknown name draws a labelled pip."""
        icon = self.layouts.icons.get(name)
        if icon is None:
            icon = Icon(name=name, shape="rounded" if len(name) > 2 else "circle", fill="white",
                        stroke="black", label=name)
        where = f"icons.{name}"
        ctx = piece.context
        if icon.image:
            self._image(c, icon.image, (x, y, size, size), "contain", piece, None)
            return
        fill = self.color(icon.fill, ctx, f"{where}.fill")
        stroke = self.color(icon.stroke, ctx, f"{where}.stroke", role="stroke") if icon.stroke else None
        width = size
        if icon.label and len(icon.label) > 2:
            width = max(size, self._width(icon.font, icon.label) * size * 0.5 + size * 0.5)
        draw_shape(c, icon.shape if width == size else "rounded", x, y, width, size, fill, stroke,
                   max(0.4, size * 0.04), size / 2 if width != size else size * 0.2)
        if icon.label:
            lacking = fonts.missing(icon.font, icon.label)
            key = (piece_name(piece), where, "glyph")
            if lacking and key not in self._seen:
                self._seen.add(key)
                chars = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in lacking)
                self.findings.append(Finding("warning", "preflight.missing-glyph", f"{piece_name(piece)} ({where})",
                                             f"the font {icon.font} has no glyph for {chars}",
                                             hint="use a character the font has, or another font"))
            label_color = self.color(icon.label_color, ctx, f"{where}.label_color", role="text")
            fs = size * icon.label_scale
            lw = self._width(icon.font, icon.label) * fs
            if lw > width * 0.86:
                fs *= width * 0.86 / lw
                lw = width * 0.86
            c.saveState()
            c.setFillColor(label_color)
            c.setFont(fonts.register(icon.font), fs)
            c.drawString(x + (width - lw) / 2, y + size / 2 - fs * 0.36, icon.label)
            c.restoreState()

    def icon_width(self, name: str, size: float) -> float:
        """How wide icon ``name`` draws at ``size`` (labels longer than 2 characters widen it)."""
        icon = self.layouts.icons.get(name)
        label = icon.label if icon else name
        font = icon.font if icon else "sans-bold"
        if icon and icon.image:
            return size
        if label and len(label) > 2:
            return max(size, self._width(font, label) * size * 0.5 + size * 0.5)
        return size

    def _icon_row(self, c, items, rect, size, spacing, align, piece: Piece, box: Box) -> None:
        bx, by, bw, bh = rect
        if not items:
            return
        widths = [self.icon_width(i, size) for i in items]
        total = sum(widths) + spacing * (len(items) - 1)
        scale = 1.0
        if total > bw:
            scale = bw / total
        size_s, spacing_s = size * scale, spacing * scale
        total *= scale
        x = bx + (bw - total) / 2 if align == "center" else (bx + bw - total if align == "right" else bx)
        y = by + (bh - size_s) / 2
        for item, w in zip(items, widths):
            self.icon(c, item, x, y, size_s, piece)
            x += w * scale + spacing_s

    # -- images ------------------------------------------------------------------------------
    def _image(self, c, rel: str, rect, fit: str, piece: Piece, box: Box | None) -> None:
        from .art import load_raster, load_svg
        from .errors import BuildError

        path = (self.game_dir / rel).resolve()
        try:
            path.relative_to(self.game_dir.resolve())
        except ValueError:
            raise BuildError(f"{piece.label}: the image {rel!r} is outside the game folder",
                             hint="keep art inside the game folder and give its path relative to it") from None
        if not path.is_file():
            raise BuildError(f"{piece.label}: image {rel!r} not found",
                             hint="paths are relative to the game folder")
        where = f"{piece_name(piece)} ({box.name if box else 'icon'})"
        bx, by, bw, bh = rect
        c.saveState()
        clip = c.beginPath()
        clip.rect(bx, by, bw, bh)
        c.clipPath(clip, stroke=0, fill=0)
        if path.suffix.lower() == ".svg":
            art = self._images.get(path)
            if art is None:
                art = load_svg(path, piece.label, rel, self.game_dir)
                self._images[path] = art
                for problem in art.problems:
                    self.findings.append(Finding("warning", "preflight.svg-unsupported", where,
                                                 f"{rel}: {problem}",
                                                 hint="simplify the SVG (convert text and effects to paths)"))
            drawing = art.drawing
            iw, ih = drawing.width or 1, drawing.height or 1
            scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
            from reportlab.graphics import renderPDF

            c.translate(bx + (bw - iw * scale) / 2, by + (bh - ih * scale) / 2)
            c.scale(scale, scale)
            renderPDF.draw(drawing, c, 0, 0)
        else:
            reader = self._images.get(path)
            if reader is None:
                from reportlab.lib.utils import ImageReader

                reader = ImageReader(load_raster(path, piece.label, rel, self.max_image_pixels))
                self._images[path] = reader
            iw, ih = reader.getSize()
            scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
            dw, dh = iw * scale, ih * scale
            dpi = iw / (dw / 72)
            if dpi < self.min_dpi - 0.5:
                key = (piece_name(piece), rel, "dpi")
                if key not in self._seen:
                    self._seen.add(key)
                    self.findings.append(Finding(
                        "warning", "preflight.low-resolution", where,
                        f"{rel} prints at {dpi:.0f} dpi here, below {self.min_dpi} dpi",
                        hint=f"supply at least {int(dw / 72 * self.min_dpi + 0.999)} x "
                        f"{int(dh / 72 * self.min_dpi + 0.999)} px"))
            c.drawImage(reader, bx + (bw - dw) / 2, by + (bh - dh) / 2, dw, dh, mask="auto")
        c.restoreState()


def draw_shape(c, shape: str, x: float, y: float, w: float, h: float, fill, stroke,
               stroke_width: float = 0.5, radius: float = 0.0) -> None:
    """Draw ``shape`` inscribed in the rectangle (x, y, w, h) pt with the given paint."""
    c.saveState()
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(stroke_width)
    f, s = (1 if fill is not None else 0), (1 if stroke is not None else 0)
    cx, cy = x + w / 2, y + h / 2
    if shape == "circle":
        c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)
    elif shape == "square":
        c.rect(x, y, w, h, stroke=s, fill=f)
    elif shape == "rounded":
        c.roundRect(x, y, w, h, radius or min(w, h) * 0.2, stroke=s, fill=f)
    else:
        points = _polygon(shape, cx, cy, w, h)
        path = c.beginPath()
        path.moveTo(*points[0])
        for px, py in points[1:]:
            path.lineTo(px, py)
        path.close()
        c.drawPath(path, stroke=s, fill=f)
    c.restoreState()


def _polygon(shape: str, cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    rx, ry = w / 2, h / 2
    if shape == "diamond":
        return [(cx, cy + ry), (cx + rx, cy), (cx, cy - ry), (cx - rx, cy)]
    if shape == "triangle":
        return [(cx, cy + ry), (cx + rx, cy - ry), (cx - rx, cy - ry)]
    if shape == "hexagon":
        return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]
    if shape == "octagon":
        return [(cx + rx * math.cos(math.radians(a + 22.5)), cy + ry * math.sin(math.radians(a + 22.5)))
                for a in range(0, 360, 45)]
    if shape == "star":
        pts = []
        for i in range(10):
            r = 1.0 if i % 2 == 0 else 0.45
            a = math.radians(90 + i * 36)
            pts.append((cx + rx * r * math.cos(a), cy + ry * r * math.sin(a)))
        return pts
    raise LayoutError(f"shape {shape!r} is not one of {', '.join(SHAPES)}")
