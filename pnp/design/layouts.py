"""Declarative layouts: named boxes with units, inheritance and icons, read from a game's
``layouts.toml`` (cards) and ``boards.toml`` (boards, tokens, dice); docs/layouts.md describes
the format for designers.

A :class:`Layout` is a background and an ordered list of :class:`Box` es, each placed from the
trim's top-left corner in points (y grows downwards, as a designer measures a card). Text and
colour values may be Jinja2 templates, evaluated per piece when the layout is drawn
(:mod:`pnp.render`). Every box is checked against its element kind's declaration
(:mod:`pnp.design.elements`) when the file is read.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from msgspec import Meta, Struct

from ..core import tomlcache
from ..core.errors import LayoutError, Location
from ..core.schema import TomlFile, check
from ..core.suggest import did_you_mean
from ..core.tomlpos import toml_error, toml_hint
from ..core.units import parse_length
from ..model.game import Game
from ..model.games import BOARDS_FILE, LAYOUTS_FILE, GameSource
from .elements import BOX_TYPES, COMMON_KEYS, ELEMENT_SPECS
from .fonts import BUNDLED, FontSet, read_fonts

STAMP_POSITIONS = ("safe-bottom-right", "safe-bottom-left", "safe-bottom-center", "slug", "off")
"""Where a layout's version stamp goes: a bottom corner or the bottom middle of the safe zone,
the slug below the trim (outside the cut piece), or nowhere (docs/versions.md)."""

SHAPES = ("circle", "square", "rounded", "diamond", "triangle", "hexagon", "star", "octagon")
"""Shapes a ``shape`` box and an icon may take."""
BOX_KEYS = set(COMMON_KEYS).union(*(spec.keys for spec in ELEMENT_SPECS.values()))
"""Every setting some element kind declares."""


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


@dataclass(frozen=True)
class BoxKey:
    """Where the settings of ``box`` are written, as messages name them while ``layout`` is
    drawn: ``key("fill")`` is ``layouts.card.boxes.title.fill``, or for a setting inherited
    from another layout ``layouts.base.boxes.title.fill, drawing layout card``. ``str(key)``
    is the box itself."""

    layout: str
    box: Box

    def __call__(self, setting: str) -> str:
        return self.box.where(setting, self.layout)

    def __str__(self) -> str:
        return f"layouts.{self.layout}.boxes.{self.box.name}"


@dataclass
class Layout:
    """A face or back design: a background colour (or None) and boxes drawn in order."""

    name: str
    background: Any
    boxes: list[Box]
    background_origin: str = ""
    stamp: str = "safe-bottom-right"
    """Where the version stamp goes on pieces of this layout when a build stamps them
    (:data:`pnp.design.stamp.STAMP_POSITIONS`): the layout's ``stamp``, else the file's."""


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
    """Inset of ``area = "safe"`` from the trim, in pt (default 1/8 in, docs/print-specs.md §2)."""
    bleed: float = 9.0
    """How far ``area = "bleed"`` runs past the trim on every side, in pt (default 1/8 in, the
    largest bleed print shops ask for, docs/print-specs.md §2). Bleed art is placed against this
    rectangle wherever the piece is drawn and clipped to the bleed the sheet or file has room
    for, so every copy shows the same part of the art."""
    low_ink: str = "lighten"
    """How the low-ink edition treats large fills: ``lighten`` or ``outline``."""
    low_ink_tint: float = 0.25
    """The share of its ink a lightened large fill keeps in the low-ink edition."""
    names: dict[str, frozenset[str] | None] = field(default_factory=dict, repr=False, compare=False)
    """Template names each layout reads, once found (:func:`pnp.design.names.template_names`)."""
    piece_fields: dict[str, frozenset[str] | None] = field(default_factory=dict, repr=False, compare=False)
    """Fields of ``piece`` each layout reads, once found (:func:`pnp.design.names.piece_fields`)."""
    files: dict[str, TomlFile] = field(default_factory=dict, repr=False, compare=False)
    """``layouts.NAME`` / ``icons.NAME`` -> the file that defines it (boards.toml can draw the
    layouts and icons of layouts.toml)."""
    fonts: FontSet = field(default_factory=lambda: BUNDLED, repr=False, compare=False)
    """The fonts the designs may name: the bundled ones and the game's ``[fonts]``."""
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    """What is worked out from these designs alone, once (the face hash's per-layout parts,
    :func:`pnp.design.stamp.face_hash`)."""

    def location(self, key: str | None) -> Location:
        """Where ``key`` is written (a dotted key such as ``layouts.card.boxes.title.fill``,
        optionally followed by ``, drawing layout NAME``, which is left out: an inherited box
        is one place, whichever layout draws it; None for the file): the file that defines that
        layout or icon, with its line."""
        written = (key or "").split(",")[0]  # "…, drawing layout NAME": the piece names the layout
        parts = written.split(".")
        file = self.files.get(".".join(parts[:2])) or self.files.get("") or TomlFile(self.display)
        return file.location(written or None)

    def error(self, key: str | None, message: str, hint: str | None = None,
              rule: str = "layout.render") -> LayoutError:
        """A LayoutError located at ``key`` (see :meth:`location`), under ``rule`` (the rule id
        ``pnp check`` reports it under; by default a problem found while drawing)."""
        return LayoutError(message, location=self.location(key), hint=hint, rule=rule)

    def get(self, name: str, where: str | None = None) -> Layout:
        """The layout called ``name``; ``where`` says who asked (for the error; None: the piece
        being drawn, which the finding names)."""
        if name not in self.layouts:
            who = f"{where} uses layout {name!r}, which" if where else f"layout {name!r} is drawn but"
            raise self.error(None, f"{who} {self.display} does not define it" if not where else
                             f"{who} {self.display} does not define",
                             hint=did_you_mean(name, self.layouts, "layouts: " + ", ".join(sorted(self.layouts))),
                             rule="layout.undefined")
        return self.layouts[name]


class LayoutsFile(Struct, forbid_unknown_fields=True):
    """A layouts file (``layouts.toml``, ``boards.toml``): ``[layouts.NAME]`` tables,
    ``[icons.NAME]`` tables, ``safe_zone``, the inset of ``area = "safe"`` from the trim, and
    ``bleed``, how far ``area = "bleed"`` runs past it, and ``stamp``, where the version
    stamp goes on every layout that does not say (docs/versions.md), and how the low-ink edition treats large
    fills: ``low_ink`` (``lighten`` or ``outline``) and ``low_ink_tint`` (the share of its ink a
    lightened fill keeps, 0 to 1; docs/accessibility.md)."""

    layouts: dict[str, Any] = {}
    icons: dict[str, Any] = {}
    safe_zone: Union[str, int, float] = "0.125in"
    bleed: Union[str, int, float] = "0.125in"
    stamp: str = "safe-bottom-right"
    low_ink: str = "lighten"
    low_ink_tint: Union[int, float] = 0.25


class IconTable(Struct, forbid_unknown_fields=True):
    """``[icons.NAME]``: a shape with a label, or an image (see :class:`Icon`)."""

    shape: Literal[SHAPES] = "circle"  # type: ignore[valid-type]
    fill: str = "white"
    stroke: str = "black"
    label: str = ""
    label_color: str = "black"
    font: str = "sans-bold"
    image: Union[str, None] = None
    label_scale: Annotated[float, Meta(gt=0, le=2)] = 0.5


class LayoutTable(Struct, forbid_unknown_fields=True):
    """``[layouts.NAME]``: the layout it extends, its background and its boxes (each box is
    checked against its element kind, :mod:`pnp.design.elements`, once inheritance is merged)."""

    extends: Union[str, None] = None
    background: Any = None
    description: str = ""
    boxes: dict[str, Any] = {}
    stamp: Union[str, None] = None


def _error(file: TomlFile, key: str | None, message: str, hint: str | None = None) -> LayoutError:
    """A LayoutError in the layouts ``file``, at dotted ``key`` (None: the file), reported as
    ``layout.file``: the file itself is wrong, whatever is drawn with it."""
    return file.error(key, message, hint, LayoutError, rule="layout.file")


def _stamp_position(value: Any, file: TomlFile, key: str) -> str:
    """A ``stamp`` setting, one of :data:`STAMP_POSITIONS`; raises LayoutError at ``key``."""
    if value not in STAMP_POSITIONS:
        raise _error(file, key, f"stamp {value!r} is not one of {', '.join(STAMP_POSITIONS)}",
                     hint=did_you_mean(str(value), STAMP_POSITIONS, "see docs/versions.md"))
    return value


def _length(value: Any, file: TomlFile, key: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
        return 0.0
    try:
        length = parse_length(str(value))
    except ValueError as exc:
        raise _error(file, key, str(exc), hint="lengths need a unit: 3mm, 0.25in, 9pt") from None
    if not math.isfinite(length) or abs(length) > MAX_LENGTH:
        raise _error(file, key, f"{value!r} is not a usable length", hint="layout lengths are at most 5 m")
    return length


MAX_LENGTH = 5000 * 72 / 25.4
"""Longest length a layout may give (5 m): anything larger is a typo."""


_CHOICES = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom"),
            "fit": ("cover", "contain")}


_NUMBERS = {"size": (0.5, 1000.0), "min_size": (0.5, 1000.0), "leading": (0.5, 5.0)}


_NOT_NEGATIVE = ("stroke_width", "radius", "icon_size", "spacing")


def _check_settings(props: dict, file: TomlFile, key: str) -> None:
    """Refuse setting values of the wrong kind at load time, naming the key."""
    for name, (low, high) in _NUMBERS.items():
        if name in props:
            value = props[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not low <= value <= high:
                raise _error(file, f"{key}.{name}",
                             f"{name} must be a number from {low:g} to {high:g}, not {value!r}",
                             hint="text sizes are points, written without a unit: size = 12")
    if "size" in props and "min_size" in props and props["min_size"] > props["size"]:
        raise _error(file, f"{key}.min_size",
                     f"min_size {props['min_size']!r} is larger than size {props['size']!r}")
    for name, allowed in _CHOICES.items():
        value = props.get(name)
        if value is not None and not (isinstance(value, str) and ("{{" in value or value in allowed)):
            raise _error(file, f"{key}.{name}", f"{name} {value!r} is not one of {', '.join(allowed)}",
                         hint=did_you_mean(value, allowed, cutoff=0.5) or None)
    if "overlap" in props and not isinstance(props["overlap"], bool):
        raise _error(file, f"{key}.overlap", f"overlap must be true or false, not {props['overlap']!r}")
    if "z" in props and (isinstance(props["z"], bool) or not isinstance(props["z"], int)):
        raise _error(file, f"{key}.z", f"z must be a whole number, not {props['z']!r}")
    for name in _NOT_NEGATIVE:
        if isinstance(props.get(name), float) and props[name] < 0:
            raise _error(file, f"{key}.{name}", f"{name} cannot be negative")


_LOADED: dict[tuple, LayoutSet] = {}
"""Layout sets already read in this process, by everything they are made of (the file's path and
text, its display name, the colours and the fonts): a build reads each game's designs for its
cards, boards, rulebook, snapshot and checks, and a preview reads them again after every save."""

_LOADED_MAX = 64


def load_layouts(template_dir: Path, display: str, colors: dict[str, str],
                 filename: str = LAYOUTS_FILE, fonts: FontSet = BUNDLED) -> LayoutSet:
    """Read ``filename`` (default ``layouts.toml``) in ``template_dir``, resolving ``extends``.

    Board and token designs use the same format in ``boards.toml``. Raises LayoutError naming
    the file and key for unknown box types, settings or parents, cycles in ``extends``, and
    lengths without units. Each call returns a LayoutSet of its own (its tables and caches may
    be changed by the caller); a file read before with the same text, colours and fonts is not
    parsed again.
    """
    path = template_dir / filename
    file = TomlFile(display)
    if not path.is_file():
        raise _error(file, None, f"no {filename}",
                     hint=f"the game's designs go in {display}: write it (docs/layouts.md), or copy it from the "
                     "templates/<game>/ folder of the game this one was copied from")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(file, None, f"not UTF-8 text (byte offset {exc.start})",
                     hint="save the file as UTF-8") from None
    key = (str(path), display, text, tuple(sorted(colors.items())),
           None if fonts is BUNDLED else tuple(sorted((n, repr(f)) for n, f in fonts.families.items())))
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _parse_layouts(path, display, text, colors, fonts)
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.clear()
        _LOADED[key] = loaded
    return replace(loaded, layouts=dict(loaded.layouts), icons=dict(loaded.icons), colors=dict(loaded.colors),
                   names={}, piece_fields={}, memo={}, files=dict(loaded.files))


def _parse_layouts(path: Path, display: str, text: str, colors: dict[str, str], fonts: FontSet) -> LayoutSet:
    """The LayoutSet written in ``text`` (the file at ``path``): see :func:`load_layouts`."""
    file = TomlFile(display)
    try:
        data = tomlcache.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where, message = toml_error(display, exc, text)
        raise LayoutError(message, location=where, rule="layout.file", hint=toml_hint(message)) from None
    file = TomlFile.of_text(display, text)
    top = check(data, LayoutsFile, file, "", LayoutError, what="top-level setting", rule="layout.file")
    safe_zone = _length(top.safe_zone, file, "safe_zone")
    bleed = _length(top.bleed, file, "bleed")
    if bleed < 0:
        raise _error(file, "bleed", "bleed cannot be negative")
    _stamp_position(top.stamp, file, "stamp")
    if top.low_ink not in ("lighten", "outline"):
        raise _error(file, "low_ink", f"low_ink {top.low_ink!r} is not lighten or outline",
                     hint='low_ink = "lighten" paints large fills as a tint; "outline" draws only their edge')
    if not 0 <= top.low_ink_tint <= 1:
        raise _error(file, "low_ink_tint", f"low_ink_tint {top.low_ink_tint} is not between 0 and 1",
                     hint="the share of its ink a large fill keeps in the low-ink edition, e.g. 0.25")
    raw_layouts = top.layouts
    icons = {}
    for name, spec in top.icons.items():
        where = f"icons.{name}"
        if not isinstance(spec, dict):
            raise _error(file, where, f"icon {name!r} must be a table",
                         hint=f'write [icons.{name}] with shape = "circle", fill = ..., label = ...')
        icon = check(spec, IconTable, file, where, LayoutError, what="icon setting", rule="layout.file", choices={
            "shape": lambda value: (f"shape {value!r} is not one of {', '.join(SHAPES)}",
                                    did_you_mean(value, SHAPES) or None)})
        if fonts.resolve(icon.font) is None:
            raise _error(file, f"{where}.font", f"unknown font {icon.font!r}",
                         did_you_mean(icon.font, fonts.names(), "fonts: " + ", ".join(fonts.names())))
        icons[name] = Icon(name=name, **{k: getattr(icon, k) for k in icon.__struct_fields__})
    resolved: dict[str, Layout] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> dict:
        if name in chain:
            raise _error(file, f"layouts.{name}.extends",
                         "layouts extend each other in a cycle: " + " -> ".join(chain + (name,)))
        if name not in raw_layouts:
            raise _error(file, f"layouts.{chain[-1]}.extends",
                         f"layout {chain[-1]!r} extends {name!r}, which is not defined",
                         hint=did_you_mean(name, raw_layouts) or None)
        spec = raw_layouts[name]
        shape_hint = f'write [layouts.{name}] with extends = "NAME", and [layouts.{name}.boxes.BOX] tables'
        if not isinstance(spec, dict):
            raise _error(file, f"layouts.{name}", f"layout {name!r} is not laid out as tables", hint=shape_hint)
        check(spec, LayoutTable, file, f"layouts.{name}", LayoutError, what="layout setting", rule="layout.file")
        for bname, bspec in spec.get("boxes", {}).items():
            if not isinstance(bspec, dict):
                raise _error(file, f"layouts.{name}.boxes.{bname}", f"box {bname!r} of layout {name!r} is not a table",
                             hint=shape_hint)
        merged: dict[str, Any] = {"boxes": {}, "origins": {}, "background_origin": name}
        if "extends" in spec:
            parent = resolve(spec["extends"], chain + (name,))
            merged = {"background": parent.get("background"),
                      "background_origin": parent.get("background_origin", name),
                      "stamp": parent.get("stamp"),
                      "boxes": {k: dict(v) for k, v in parent["boxes"].items()},
                      "origins": {k: dict(v) for k, v in parent["origins"].items()}}
        for key, value in spec.items():
            if key == "boxes":
                for bname, bspec in value.items():
                    merged["boxes"].setdefault(bname, {}).update(bspec)
                    merged["origins"].setdefault(bname, {}).update({k: name for k in bspec})
            else:  # extends, background, description, stamp (the schema allows nothing else)
                if key == "stamp":
                    _stamp_position(value, file, f"layouts.{name}.stamp")
                merged[key] = value
                if key == "background":
                    merged["background_origin"] = name
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
            unknown = set(spec) - BOX_KEYS
            if unknown:
                bad = sorted(unknown)[0]
                raise _error(file, f"layouts.{origins.get(bad, name)}.boxes.{bname}.{bad}",
                             f"unknown box setting {bad!r}", hint=did_you_mean(bad, BOX_KEYS) or None)
            btype = spec.get("type")
            if btype not in BOX_TYPES:
                raise _error(file, f"{key}.type", f"box type {btype!r} is not one of {', '.join(BOX_TYPES)}")
            element = ELEMENT_SPECS[btype]
            foreign = sorted(set(spec) - set(element.all_keys))
            if foreign:
                bad = foreign[0]
                where = origins.get(bad, name)
                kinds = [k for k, other in ELEMENT_SPECS.items() if bad in other.keys]
                raise _error(file, f"layouts.{where}.boxes.{bname}.{bad}",
                             f"a {btype} box has no setting {bad!r} (it belongs to {' and '.join(kinds)} boxes)",
                             hint=f"a {btype} box takes {', '.join(element.keys)}; see docs/layouts.md")
            area = spec.get("area")
            if area not in (None, "trim", "bleed", "safe"):
                raise _error(file, f"{key}.area", f"area {area!r} is not trim, bleed or safe")
            if area is None:
                for needed in ("x", "y", "width", "height"):
                    if needed not in spec and (element.sized or needed in ("x", "y")):
                        raise _error(file, key, f"box {bname!r} needs {needed} (or an area)",
                                     hint='give x, y, width and height with units, or area = "trim"')
            props = {k: v for k, v in spec.items() if k not in ("type", "x", "y", "width", "height", "area")}
            _check_settings(props, file, key)
            for lk in element.lengths:
                if lk in props:
                    props[lk] = _length(props[lk], file, f"{key}.{lk}")
            for needed in element.required:
                if needed not in props:
                    gives = ", ".join(element.required[:-1]) + f" and {element.required[-1]}"
                    raise _error(file, key, f"{btype} box {bname!r} needs {needed}",
                                 hint=f"a {btype} box gives {gives}; see docs/layouts.md")
            for tk in element.template_lengths:
                raw = props.get(tk, 0)
                if not (isinstance(raw, str) and ("{{" in raw or "{%" in raw)):
                    props[tk] = _length(raw, file, f"{key}.{tk}")
            boxes.append(Box(bname, btype,
                             _length(spec.get("x", 0), file, f"{key}.x"),
                             _length(spec.get("y", 0), file, f"{key}.y"),
                             _length(spec.get("width", 0), file, f"{key}.width"),
                             _length(spec.get("height", 0), file, f"{key}.height"),
                             area, props, origins))
        boxes.sort(key=lambda b: b.props.get("z", 0))  # stable: equal z keeps the written order
        resolved[name] = Layout(name, merged.get("background"), boxes,
                                merged.get("background_origin", name), merged.get("stamp") or top.stamp)
    files = {"": file, **{f"layouts.{n}": file for n in resolved}, **{f"icons.{n}": file for n in icons}}
    return LayoutSet(path, display, resolved, icons, dict(colors), safe_zone, bleed=bleed, files=files, fonts=fonts,
                     low_ink=top.low_ink, low_ink_tint=float(top.low_ink_tint))


def game_layouts(game: Game, source: GameSource) -> LayoutSet:
    """The card layouts of ``game``: ``layouts.toml`` in its templates folder (``source``).
    Raises LayoutError naming the file and key."""
    return in_language(load_layouts(source.templates_dir, source.layouts_display, game.manifest.get("colors", {}),
                                    fonts=game_fonts(game)), game)


def game_fonts(game: Game) -> FontSet:
    """The fonts ``game``'s designs may name (its ``[fonts]`` problems are reported by
    ``pnp check``'s font check and left out of the set)."""
    return read_fonts(game)[0] if "fonts" in game.manifest else BUNDLED


def in_language(layouts: LayoutSet, game: Game) -> LayoutSet:
    """``layouts`` with their icons' labels (``RED``, ``ANY``) in the game's language, through
    its catalogue (:mod:`pnp.model.catalogue`, which extracts them); as they are for a game in
    its source language."""
    catalogue = game.translations
    if catalogue is None:
        return layouts
    icons = {name: replace(icon, label=catalogue.gettext(icon.label)) if icon.label else icon
             for name, icon in layouts.icons.items()}
    return replace(layouts, icons=icons)


def board_layouts(game: Game, source: GameSource) -> LayoutSet | None:
    """The game's board designs: ``boards.toml``, with the icons and layouts of ``layouts.toml``
    (when present) available too; boards.toml wins where both name the same layout or icon.
    Returns None when the templates folder has no boards.toml."""
    colors = game.manifest.get("colors", {})
    folder, display_dir = source.templates_dir, source.templates_display
    if not (folder / BOARDS_FILE).is_file():
        return None
    fonts = game_fonts(game)
    boards = load_layouts(folder, f"{display_dir}/{BOARDS_FILE}", colors, filename=BOARDS_FILE, fonts=fonts)
    if (folder / LAYOUTS_FILE).is_file():
        cards = load_layouts(folder, source.layouts_display, colors, fonts=fonts)
        boards.icons = {**cards.icons, **boards.icons}
        boards.layouts = {**cards.layouts, **boards.layouts}
        boards.files = {**{k: v for k, v in cards.files.items() if k}, **boards.files}
    return in_language(boards, game)
