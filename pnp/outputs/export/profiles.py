"""Export profiles: what a print shop or Tabletop Simulator takes, kept as data (TOML).

A **target** is a named **profile**: the card sizes the target takes and their trim, the bleed,
the safe zone, the resolution, the kind of file (one PNG per card, one PDF per deck, or
Tabletop Simulator deck sheets), the colour space and total ink limit, the page order and how
files are named. Profiles are found, in this order:

1. a path to a ``.toml`` file (``pnp export --target path/to/shop.toml``);
2. a ``[targets.NAME]`` table in the game's manifest (game.toml), which may ``extends`` a
   bundled profile and change any setting;
3. a bundled profile, ``profiles/NAME.toml`` beside this module: ``tgc`` (The Game Crafter),
   ``mpc`` (MakePlayingCards), ``dtc`` (DriveThruCards), ``eu`` (a European shop with 3 mm
   bleed) and ``tts`` (Tabletop Simulator). Their figures and sources are docs/print-specs.md §1
   and §2.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass, field
from typing import Annotated, Literal, Union

import msgspec
from msgspec import Meta, Struct
from pathlib import Path

from ...core import tomlcache
from ...core.errors import Location, PnpError
from ...core.schema import TomlFile, check
from ...core.suggest import did_you_mean
from ...core.tomlpos import toml_error, toml_hint
from ...core.units import CARD_SIZES, MM, Size, parse_length, parse_size, to_mm
from ...model.game import Game
from ...render.art import SCREEN_DPI
from ...render.color import InkSettings
from .products import Product, parse_products
from .urls import URL_PREFIX_HINT, URL_SCHEMES, url_prefix_value  # noqa: F401  (re-exported)

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
"""Where the bundled profiles live (one TOML file per target)."""


OUTPUTS = ("png", "pdf", "tts")
"""The kinds of file a profile's ``output`` may name; each has its writer in
:data:`pnp.outputs.export.writers.WRITERS`."""


PAGE_ORDERS = {"face-back": ("face", "back"), "back-face": ("back", "face"), "face": ("face",)}


FILE_FIELDS = {"game", "deck", "card", "copy", "back", "size", "target"}


TTS_MAX_COLUMNS, TTS_MAX_ROWS = 10, 7
"""Tabletop Simulator's largest custom deck grid (10 x 7 images per sheet)."""


class ProfileError(PnpError):
    """A target profile that is missing, malformed or cannot serve a game's decks."""

    default_rule = "export.profile"


class ProfileErrors(ProfileError):
    """Every bad setting of one profile: ``errors`` holds an ``export.profile`` ProfileError per
    setting, each at its key and line, in the file's order (each is a finding of its own)."""

    def __init__(self, errors: list[ProfileError]):
        self.errors = errors
        super().__init__("\n".join(e.render() for e in errors), location=errors[0].location, hint=errors[0].hint)

    def render(self) -> str:  # the message already lists every setting with its place
        return self.message


@dataclass(frozen=True)
class Profile:
    """One export target, read from TOML. Lengths in pt; ink values are fractions (2.4 = 240 %).

    ``output``: ``png`` (one image per distinct card face and per distinct back), ``pdf`` (one
    card per page, pages in ``page_order``, one file per deck or per card size), ``tts`` (deck
    sheets and a saved-object JSON per deck). ``dpi`` is the resolution of rasters;
    ``image_dpi`` the resolution raster art is embedded at, px/in at its placed size (art
    above it by half again is downsampled): ``dpi`` for print targets, SCREEN_DPI (150) for
    Tabletop Simulator, unless the profile says. ``sizes`` maps the card-size names the target
    takes to their trim, or is None for any size. ``copies``: ``repeat`` (a page per copy) or
    ``count`` (one file per distinct card, the copy count in the manifest). ``origin`` names
    where the profile was read, for messages.
    """

    name: str
    title: str
    source: str
    origin: str
    output: str
    color: str = "rgb"
    dpi: int = 300
    image_dpi: int = 300
    bleed: float = 9.0
    safe_zone: float = 9.0
    marks: str = "none"
    sizes: dict[str, Size] | None = None
    page_order: tuple[str, ...] = ("face", "back")
    group: str = "deck"
    copies: str = "count"
    face_file: str = "{deck}/{card}.png"
    back_file: str = "{deck}/back-{back}.png"
    file: str = "{game}-{deck}.pdf"
    ink: InkSettings | None = None
    columns: int = TTS_MAX_COLUMNS
    rows: int = TTS_MAX_ROWS
    max_sheet_width: int = 4096
    max_sheet_height: int = 4096
    image_url: str = "file"
    url_prefix: str = ""
    min_text_size: float = 6.0
    description: str = ""
    products: dict[str, Product] = field(default_factory=dict)
    """Boards and tokens the target takes (:mod:`.products`), by key; empty: cards only."""
    fit_tolerance: float = 2 * MM
    max_enlargement: float = 1.5
    toml: TomlFile | None = field(default=None, compare=False, repr=False)
    """The file (with its lines) the profile was read from, for messages."""

    def where(self, key: str | None = None) -> Location:
        """Where setting ``key`` of this profile is written: file, line, key."""
        return (self.toml or _origin_file(self.origin)).location(key)


def _origin_file(origin: str, text: str = "") -> TomlFile:
    """The TomlFile of a profile read from ``origin`` (``file`` or ``game.toml#targets.NAME``),
    with the lines of ``text`` when given."""
    display, _, table = origin.partition("#")
    return TomlFile.of_text(display, text, prefix=table)


def bundled_profiles() -> dict[str, Path]:
    """The bundled profiles: name -> TOML file, in name order."""
    return {p.stem: p for p in sorted(PROFILE_DIR.glob("*.toml"))}


def manifest_targets(game: Game) -> list[str]:
    """The target names a game's manifest lists (the keys of its ``[targets]`` table), in order.

    Raises ProfileError when ``targets`` is not a table of tables.
    """
    raw = game.manifest.get("targets")
    if raw is None:
        return []
    if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
        bad = next((f"targets.{k}" for k, v in raw.items() if not isinstance(v, dict)), "targets") \
            if isinstance(raw, dict) else "targets"
        raise ProfileError("targets must be a table of [targets.NAME] tables",
                           location=_manifest_file(game).location(bad),
                           hint="for example [targets.dtc] (empty to use the bundled profile as it is)")
    return list(raw)


def _manifest_file(game: Game) -> TomlFile:
    """``game``'s game.toml with the line of each key, for messages about its ``[targets]``
    (no lines when the file cannot be read again)."""
    display = f"{game.display_root}/game.toml"
    try:
        return TomlFile.of_text(display, (game.path / "game.toml").read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return TomlFile(display)


def _read_toml(path: Path, display: str) -> tuple[dict, str]:
    try:
        text = path.read_text(encoding="utf-8-sig")
        return tomlcache.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        where, message = toml_error(display, exc, text)
        raise ProfileError(message, location=where, hint=toml_hint(message)) from None
    except OSError as exc:
        raise ProfileError(f"cannot be read: {exc.strerror}", location=Location(display)) from None


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if key in ("sizes", "cmyk", "products") and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    out.pop("extends", None)
    return out


def _raw_profile(target: str, game: Game | None,
                 chain: tuple[tuple[str, str], ...] = ()) -> tuple[str, dict, str, TomlFile]:
    """(name, raw settings with ``extends`` resolved, where it was read, that file with its
    lines). ``chain`` holds the
    (kind, name) pairs already being resolved, to find cycles: a ``[targets.dtc]`` table may
    extend the bundled ``dtc`` profile, but no profile may extend itself."""
    bundled = bundled_profiles()
    targets = (game.manifest.get("targets") or {}) if game is not None else {}
    if not isinstance(targets, dict):
        targets = {}
    manifest = f"{game.display_root}/game.toml" if game is not None else "game.toml"
    path = Path(target)
    if target.endswith(".toml") or (path.suffix and path.is_file()):
        if not path.is_file():
            raise ProfileError(f"no profile file {target!r}", hint="give the path to a .toml profile, or a "
                               "target name: " + ", ".join(bundled))
        kind, name, origin = "file", path.stem, target
        raw, text = _read_toml(path, target)
    elif target in targets and ("manifest", target) not in chain:
        kind, name, origin = "manifest", target, f"{manifest}#targets.{target}"
        raw = targets[target]
        try:
            text = (game.path / "game.toml").read_text(encoding="utf-8-sig")
        except OSError:
            text = ""
        mfile = TomlFile.of_text(manifest, text)
        if not isinstance(raw, dict):
            raise ProfileError(f"[targets.{target}] must be a table", location=mfile.location(f"targets.{target}"))
        if "extends" not in raw and target in bundled:
            raw = {**raw, "extends": target}
        elif "extends" not in raw and "output" not in raw:
            close = did_you_mean(target, bundled)
            raise ProfileError(f"[targets.{target}] is no bundled target and gives neither extends nor output",
                               location=mfile.location(f"targets.{target}"),
                               hint=(close + " " if close else "") + 'start from a bundled target with extends = '
                               '"tgc" (' + ", ".join(bundled) + "), or give output = " + " | ".join(OUTPUTS))
    elif target in bundled:
        kind, name, origin = "bundled", target, f"profiles/{target}.toml"
        raw, text = _read_toml(bundled[target], origin)
    else:
        if ("manifest", target) in chain:
            raise ProfileError("profiles extend each other in a cycle: "
                               + " -> ".join([n for _, n in chain] + [target]),
                               location=_manifest_file(game).location(f"targets.{target}.extends"))
        known = list(bundled) + [t for t in targets if t not in bundled]
        raise ProfileError(f"no target {target!r}", hint=did_you_mean(
            target, known, "targets: " + ", ".join(known) + "; or give a path to a .toml profile"))
    file = _origin_file(origin, text)
    if (kind, name) in chain:
        raise ProfileError("profiles extend each other in a cycle: "
                           + " -> ".join(n for _, n in chain + ((kind, name),)),
                           location=file.location("extends"))
    parent = raw.get("extends")
    if parent is not None:
        if not isinstance(parent, str):
            raise ProfileError(f"extends must be a target name, not {parent!r}", location=file.location("extends"))
        if len(chain) > 16:
            raise ProfileError("profiles extend each other too deeply", location=file.location("extends"))
        if kind == "file" and parent.endswith(".toml") and not Path(parent).is_absolute():
            parent = str(path.parent / parent)  # a profile file extends files beside it
        try:
            _, base, _, _ = _raw_profile(parent, game, chain + ((kind, name),))
        except ProfileError as exc:
            if exc.location is not None:
                raise
            raise ProfileError(exc.message, location=file.location("extends"), hint=exc.hint,
                               rule=exc.rule) from None  # an unknown parent: at the extends naming it
        raw = _merge(base, raw)
    return name, raw, origin, file


def load_profile(target: str, game: Game | None = None) -> Profile:
    """Read the profile for ``target``: a path to a ``.toml`` file, a ``[targets.NAME]`` table
    of ``game``'s manifest, or a bundled profile name (in that order).

    Raises ProfileError naming the file (or manifest table) and key for unknown targets or
    settings, lengths without units, values out of range and cycles in ``extends``.
    """
    name, raw, origin, file = _raw_profile(target, game)
    return parse_profile(name, raw, origin, file)


class ProfileTable(Struct, forbid_unknown_fields=True):
    """The settings of a profile (docs/export.md), their types, ranges and defaults. Lengths
    take a unit, or ``px`` at the profile's dpi."""

    output: Literal[OUTPUTS]  # type: ignore[valid-type]
    title: Union[str, None] = None
    description: str = ""
    source: str = ""
    extends: Union[str, None] = None
    color: Literal["rgb", "cmyk"] = "rgb"
    dpi: Annotated[int, Meta(ge=36, le=2400)] = 300
    image_dpi: Union[Annotated[int, Meta(ge=36, le=2400)], None] = None
    bleed: Union[str, int, float] = "0.125in"
    safe_zone: Union[str, int, float] = "0.125in"
    marks: Literal["none"] = "none"
    sizes: Union[dict[str, str], None] = None
    page_order: Literal[tuple(PAGE_ORDERS)] = "face-back"  # type: ignore[valid-type]
    group: Literal["deck", "card-size"] = "deck"
    copies: Union[Literal["repeat", "count"], None] = None
    face_file: str = "{deck}/{card}.png"
    back_file: str = "{deck}/back-{back}.png"
    file: str = "{game}-{deck}.pdf"
    ink_limit: Annotated[float, Meta(ge=100, le=400)] = 300
    rich_black: list[Annotated[float, Meta(ge=0, le=100)]] = msgspec.field(default_factory=lambda: [60, 40, 40, 100])
    rich_black_min_size: Union[str, int, float] = "0.5in"
    art: Literal["convert", "reject"] = "convert"
    cmyk: dict[str, list[Annotated[float, Meta(ge=0, le=100)]]] = {}
    columns: Annotated[int, Meta(ge=2, le=TTS_MAX_COLUMNS)] = TTS_MAX_COLUMNS
    rows: Annotated[int, Meta(ge=2, le=TTS_MAX_ROWS)] = TTS_MAX_ROWS
    max_sheet_width: Annotated[int, Meta(ge=256, le=16384)] = 4096
    max_sheet_height: Annotated[int, Meta(ge=256, le=16384)] = 4096
    image_url: Literal["file", "name"] = "file"
    url_prefix: str = ""
    min_text_size: Annotated[float, Meta(ge=0, le=72)] = 6.0
    products: dict[str, dict] = {}
    fit_tolerance: Union[str, int, float] = "2mm"
    max_enlargement: Annotated[float, Meta(ge=1, le=10)] = 1.5


RANGE_HINTS = {
    "dpi": "give 36 to 2400 pixels per inch (300 is what print shops take)",
    "image_dpi": "give 36 to 2400 pixels per inch, or leave it out to use dpi",
    "ink_limit": "give the shop's total ink limit in percent, 100 to 400 (300 when unsure)",
    "rich_black": "each ink is a percent, 0 to 100",
    "cmyk": "each ink is a percent, 0 to 100",
    "columns": f"Tabletop Simulator sheets hold 2 to {TTS_MAX_COLUMNS} columns",
    "rows": f"Tabletop Simulator sheets hold 2 to {TTS_MAX_ROWS} rows",
    "max_sheet_width": "give 256 to 16384 pixels (Tabletop Simulator loads up to 4096 reliably)",
    "max_sheet_height": "give 256 to 16384 pixels (Tabletop Simulator loads up to 4096 reliably)",
    "min_text_size": "give 0 to 72 pt (6 pt is the smallest type shops print)",
    "max_enlargement": "give 1 (never enlarged) to 10; the default is 1.5",
}
"""The hint of a setting whose number is out of its range."""


PROFILE_KEYS = frozenset(ProfileTable.__struct_fields__)
"""Every setting a profile may have."""


def _choices(key: str, allowed) -> tuple[str, callable]:
    return key, lambda value: (f"{key} {value!r} is not one of {', '.join(allowed)}",
                               did_you_mean(value, allowed) or None)


MAX_FIT_TOLERANCE = 10 * MM
"""The largest ``fit_tolerance`` (pt): a piece 10 mm off a product's trim on a side is another
product, not the same one cut a little larger."""


def parse_profile(name: str, raw: dict, origin: str, file: TomlFile | None = None) -> Profile:
    """Validate one profile's settings (``raw``, as read from TOML) into a :class:`Profile`.
    ``origin`` is the file they were read from, with ``#targets.NAME`` for a table of a game
    manifest; ``file`` knows its lines.

    Raises ProfileError naming the file, the line, the key and the value, with a hint, for
    every bad setting at once, in file order (a :class:`ProfileErrors` holding one per
    setting): after a setting is found bad, the profile is read again without it, until the
    rest reads or what is bad is a setting it cannot do without (``output``)."""
    file = file or _origin_file(origin)
    errors: list[ProfileError] = []
    left = dict(raw)
    for _ in range(len(raw) + 8):  # each pass drops one setting: it ends
        try:
            profile = _parse_profile(name, left, origin, file)
        except ProfileError as exc:
            if any(e.location == exc.location for e in errors):
                break  # a setting's default, once the bad one was dropped, clashes with another
            errors.append(exc)
            if not _drop(left, exc, file):
                break
            continue
        if not errors:
            return profile
        break
    errors.sort(key=lambda e: (e.location.line or 0) if e.location is not None else 0)  # in file order
    raise errors[0] if len(errors) == 1 else ProfileErrors(errors)


def _drop(raw: dict, exc: ProfileError, file: TomlFile) -> bool:
    """Remove from ``raw`` the setting ``exc`` is about (an entry of a table setting such as
    ``products.key``, else the whole setting), so the rest of the profile is read on; False when
    there is no such setting or it is ``output``, without which nothing else can be judged."""
    key = exc.location.column_name if exc.location is not None else None
    prefix = f"{file.prefix}." if file.prefix else ""
    if not key or not key.startswith(prefix):
        return False
    steps = re.split(r"[.\[]", key[len(prefix):])
    top = steps[0]
    if top not in raw or top == "output":
        return False
    value = raw[top]
    if len(steps) > 1 and isinstance(value, dict) and steps[1] in value and len(value) > 1:
        raw[top] = {k: v for k, v in value.items() if k != steps[1]}
    else:
        del raw[top]
    return True


def _parse_profile(name: str, raw: dict, origin: str, file: TomlFile) -> Profile:
    """:func:`parse_profile` of settings, raising ProfileError for the first bad one."""

    def err(key: str, message: str, hint: str | None = None) -> ProfileError:
        return file.error(key, message, hint, ProfileError)

    spec = check(raw, ProfileTable, file, "", ProfileError, what="profile setting",
                 hints={"output": "one of: " + ", ".join(OUTPUTS), **RANGE_HINTS},
                 choices=dict(_choices(k, a) for k, a in (
                     ("output", OUTPUTS), ("color", ("rgb", "cmyk")), ("marks", ("none",)),
                     ("page_order", tuple(PAGE_ORDERS)), ("group", ("deck", "card-size")),
                     ("copies", ("repeat", "count")), ("art", ("convert", "reject")), ("image_url", ("file", "name")))))
    output, dpi = spec.output, spec.dpi

    def length(key: str) -> float:
        value = getattr(spec, key)
        if isinstance(value, (int, float)) and value == 0:
            return 0.0
        s = str(value).strip()
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*px", s)
        if m:
            return float(m.group(1)) * 72.0 / dpi
        try:
            out = parse_length(s)
        except ValueError as exc:
            raise err(key, str(exc), "lengths take a unit: 3mm, 0.125in, 9pt, or 36px at the profile's dpi") from None
        if out < 0:
            raise err(key, f"{key} cannot be negative, not {value!r}", "give 0 or more, e.g. 0.125in")
        return out

    fit_tolerance = length("fit_tolerance")
    if fit_tolerance > MAX_FIT_TOLERANCE + 1e-9:
        raise err("fit_tolerance", f"fit_tolerance {spec.fit_tolerance!r} is {to_mm(fit_tolerance):g} mm, more than "
                  f"the {to_mm(MAX_FIT_TOLERANCE):g} mm a piece may be off a product's trim",
                  "give at most 10mm (the default is 2mm): a piece further off needs another product, or resizing")

    if output in ("png", "tts") and spec.color != "rgb":
        raise err("color", f"{output} output is RGB; a CMYK profile writes PDF",
                  hint='set output = "pdf", or color = "rgb" (docs/print-specs.md §2: PNG cannot carry CMYK)')
    sizes = None
    if spec.sizes is not None:
        if not spec.sizes:
            raise err("sizes", "sizes must be a table of card-size name = trim",
                      hint='for example [sizes] poker = "2.5in x 3.5in"')
        sizes = {}
        for sname, trim in spec.sizes.items():
            try:
                sizes[sname] = parse_size(trim, CARD_SIZES)
            except ValueError as exc:
                raise err(f"sizes.{sname}", str(exc),
                          hint=did_you_mean(str(trim).strip().lower(), CARD_SIZES) or None) from None
    ink = None
    if spec.color == "cmyk":
        limit, rich = spec.ink_limit, spec.rich_black
        if len(rich) != 4:
            raise err("rich_black", f"rich_black must be [C, M, Y, K] in percent, not {rich!r}")
        if sum(rich) > limit + 1e-9:
            raise err("rich_black", f"rich_black {rich} totals {sum(rich):g} %, above ink_limit {limit:g} %")
        overrides = {}
        for cname, value in spec.cmyk.items():
            if len(value) != 4:
                raise err(f"cmyk.{cname}", f"{value!r} is not [C, M, Y, K] in percent")
            if sum(value) > limit + 1e-9:
                raise err(f"cmyk.{cname}", f"{value} totals {sum(value):g} %, above ink_limit {limit:g} %")
            overrides[cname] = tuple(v / 100 for v in value)
        ink = InkSettings(ink_limit=limit / 100, rich_black=tuple(v / 100 for v in rich),
                          rich_black_min_size=length("rich_black_min_size"), art=spec.art, overrides=overrides)
    for key in ("face_file", "back_file", "file"):
        pattern = getattr(spec, key)
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(pattern) if f is not None}
        except ValueError as exc:
            raise err(key, f"{pattern!r} is not a file name pattern: {exc}") from None
        bad = fields - FILE_FIELDS
        if bad or "" in fields:
            raise err(key, f"{pattern!r} uses {sorted(bad or {''})[0]!r}",
                      hint="file names may use " + ", ".join("{" + f + "}" for f in sorted(FILE_FIELDS)))
        if pattern.startswith("/") or ".." in Path(pattern).parts:
            raise err(key, f"{pattern!r} must stay inside the export folder")
    products = parse_products(spec.products, err) if spec.products else {}
    if products and output != "png":
        raise err("products", f"{output} output takes no products", hint="boards and tokens are PNG files: "
                  'output = "png"')
    copies = spec.copies or ("repeat" if output == "pdf" else "count")
    if copies == "repeat" and output != "pdf":
        raise err("copies", f"{output} output writes each card once with its copy count",
                  hint='copies = "repeat" (a page per copy) is for PDF targets')
    if output == "pdf" and spec.group == "card-size" and "{deck}" in spec.file:
        raise err("file", "a profile grouped by card size cannot name its files by {deck}",
                  hint='use {size}, for example file = "{game}-{size}.pdf"')
    try:
        url_prefix = url_prefix_value(spec.url_prefix)
    except ValueError as exc:
        raise err("url_prefix", str(exc), URL_PREFIX_HINT) from None
    return Profile(
        name=name, title=spec.title or name, source=spec.source, origin=origin, output=output,
        color=spec.color, dpi=dpi, image_dpi=spec.image_dpi or (SCREEN_DPI if output == "tts" else dpi),
        bleed=length("bleed"), safe_zone=length("safe_zone"),
        marks=spec.marks, sizes=sizes, page_order=PAGE_ORDERS[spec.page_order], group=spec.group,
        copies=copies, face_file=spec.face_file, back_file=spec.back_file, file=spec.file, ink=ink,
        columns=spec.columns, rows=spec.rows, max_sheet_width=spec.max_sheet_width,
        max_sheet_height=spec.max_sheet_height, image_url=spec.image_url, url_prefix=url_prefix,
        min_text_size=spec.min_text_size, description=spec.description, products=products,
        fit_tolerance=fit_tolerance, max_enlargement=spec.max_enlargement, toml=file,
    )
