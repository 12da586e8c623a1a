"""Physical-edition exports: print-shop files and Tabletop Simulator decks.

A **target** is a named **profile**, kept as data (a TOML file): the card sizes the target
takes and their trim, the bleed, the safe zone, the resolution, the kind of file (one PNG per
card, one PDF per deck, or Tabletop Simulator deck sheets), the colour space and total ink
limit, the page order and how files are named. Profiles are found, in this order:

1. a path to a ``.toml`` file (``pnp export --target path/to/shop.toml``);
2. a ``[targets.NAME]`` table in the game's manifest (game.toml), which may ``extends`` a
   bundled profile and change any setting;
3. a bundled profile, ``pnp/profiles/NAME.toml``: ``tgc`` (The Game Crafter), ``mpc``
   (MakePlayingCards), ``dtc`` (DriveThruCards), ``eu`` (a European shop with 3 mm bleed) and
   ``tts`` (Tabletop Simulator). Their figures and sources are print-specs.md §1 and §2.

Every card is drawn once by :class:`pnp.layout.Renderer` onto a one-card PDF page whose
MediaBox is the trim plus the profile's bleed (TrimBox and BleedBox set, no marks, corners not
rounded). PDF targets write those pages; raster targets render the same pages with pypdfium2
at exactly the profile's pixel size. Every export also writes ``manifest.csv`` and
``manifest.json``: each file, its deck, card id and copy count. Text inside the profile's safe
zone is a finding, measured on the drawn pages.

Outputs go to ``<out_dir>/export/<target>/``; ``out_dir`` is the game's output folder
(``output/<game>``). Everything is rendered in memory first and written atomically.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
import json
import os
import re
import string
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from . import __version__, fonts
from .build import BuildResult, CardInstance, card_instances, write_atomic
from .color import InkConverter, InkSettings, PrintCanvas
from .errors import Location, PnpError
from .findings import Finding
from .layout import LayoutSet, Piece, Renderer
from .model import Component, Game
from .units import CARD_SIZES, Size, parse_length, parse_size, to_mm

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
"""Where the bundled profiles live (one TOML file per target)."""

OUTPUTS = ("png", "pdf", "tts")
PAGE_ORDERS = {"face-back": ("face", "back"), "back-face": ("back", "face"), "face": ("face",)}
FILE_FIELDS = {"game", "deck", "card", "copy", "back", "size", "target"}
TTS_MAX_COLUMNS, TTS_MAX_ROWS = 10, 7
"""Tabletop Simulator's largest custom deck grid (10 x 7 images per sheet)."""

_KEYS = {
    "title", "description", "source", "extends", "output", "color", "dpi", "bleed", "safe_zone",
    "marks", "sizes", "page_order", "group", "copies", "face_file", "back_file", "file",
    "ink_limit", "rich_black", "rich_black_min_size", "art", "cmyk", "columns", "rows",
    "max_sheet_width", "max_sheet_height", "image_url", "url_prefix", "min_text_size",
}


class ProfileError(PnpError):
    """A target profile that is missing, malformed or cannot serve a game's decks."""


@dataclass(frozen=True)
class Profile:
    """One export target, read from TOML. Lengths in pt; ink values are fractions (2.4 = 240 %).

    ``output``: ``png`` (one image per distinct card face and per distinct back), ``pdf`` (one
    card per page, pages in ``page_order``, one file per deck or per card size), ``tts`` (deck
    sheets and a saved-object JSON per deck). ``sizes`` maps the card-size names the target
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


# --------------------------------------------------------------------------------------------
# Finding and reading profiles


def _where(origin: str, key: str | None = None) -> Location:
    """The Location of ``key`` in a profile read from ``origin`` (``file`` or
    ``game.toml#targets.NAME``)."""
    file, _, table = origin.partition("#")
    if table:
        return Location(file, column_name=f"{table}.{key}" if key else table)
    return Location(file, column_name=key)


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
    display = f"{game.display_root}/game.toml"
    if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
        raise ProfileError("targets must be a table of [targets.NAME] tables",
                           location=Location(display, column_name="targets"),
                           hint="for example [targets.dtc] (empty to use the bundled profile as it is)")
    return list(raw)


def _read_toml(path: Path, display: str) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"not valid TOML: {exc}", location=Location(display)) from None
    except OSError as exc:
        raise ProfileError(f"cannot be read: {exc.strerror}", location=Location(display)) from None


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if key in ("sizes", "cmyk") and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    out.pop("extends", None)
    return out


def _raw_profile(target: str, game: Game | None, chain: tuple[tuple[str, str], ...] = ()) -> tuple[str, dict, str]:
    """(name, raw settings with ``extends`` resolved, where it was read). ``chain`` holds the
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
        raw = _read_toml(path, target)
    elif target in targets and ("manifest", target) not in chain:
        kind, name, origin = "manifest", target, f"{manifest}#targets.{target}"
        raw = targets[target]
        if not isinstance(raw, dict):
            raise ProfileError(f"[targets.{target}] must be a table",
                               location=Location(manifest, column_name=f"targets.{target}"))
        if "extends" not in raw and target in bundled:
            raw = {**raw, "extends": target}
    elif target in bundled:
        kind, name, origin = "bundled", target, f"profiles/{target}.toml"
        raw = _read_toml(bundled[target], origin)
    else:
        if ("manifest", target) in chain:
            raise ProfileError("profiles extend each other in a cycle: "
                               + " -> ".join([n for _, n in chain] + [target]),
                               location=Location(manifest, column_name=f"targets.{target}.extends"))
        known = list(bundled) + [t for t in targets if t not in bundled]
        close = difflib.get_close_matches(target, known, n=1)
        raise ProfileError(f"no target {target!r}", hint=(f"did you mean {close[0]!r}? " if close else "")
                           + "targets: " + ", ".join(known) + "; or give a path to a .toml profile")
    if (kind, name) in chain:
        raise ProfileError("profiles extend each other in a cycle: "
                           + " -> ".join(n for _, n in chain + ((kind, name),)),
                           location=_where(origin, "extends"))
    parent = raw.get("extends")
    if parent is not None:
        if not isinstance(parent, str):
            raise ProfileError(f"extends must be a target name, not {parent!r}",
                               location=_where(origin, "extends"))
        if len(chain) > 16:
            raise ProfileError("profiles extend each other too deeply", location=_where(origin, "extends"))
        if kind == "file" and parent.endswith(".toml") and not Path(parent).is_absolute():
            parent = str(path.parent / parent)  # a profile file extends files beside it
        _, base, _ = _raw_profile(parent, game, chain + ((kind, name),))
        raw = _merge(base, raw)
    return name, raw, origin


def load_profile(target: str, game: Game | None = None) -> Profile:
    """Read the profile for ``target``: a path to a ``.toml`` file, a ``[targets.NAME]`` table
    of ``game``'s manifest, or a bundled profile name (in that order).

    Raises ProfileError naming the file (or manifest table) and key for unknown targets or
    settings, lengths without units, values out of range and cycles in ``extends``.
    """
    name, raw, origin = _raw_profile(target, game)
    return parse_profile(name, raw, origin)


def parse_profile(name: str, raw: dict, origin: str) -> Profile:
    """Validate one profile's settings (``raw``, as read from TOML) into a :class:`Profile`.
    ``origin`` is the file they were read from, with ``#targets.NAME`` for a table of a game
    manifest; errors name it and the key."""

    def err(key: str, message: str, hint: str | None = None) -> ProfileError:
        return ProfileError(message, location=_where(origin, key), hint=hint)

    for key in raw:
        if key not in _KEYS:
            close = difflib.get_close_matches(key, sorted(_KEYS), n=1)
            raise err(key, f"unknown profile setting {key!r}", f"did you mean {close[0]!r}?" if close
                      else "settings: " + ", ".join(sorted(_KEYS)))

    def text(key: str, default: str | None = None, choices=None) -> str:
        value = raw.get(key, default)
        if value is None:
            raise err(key, f"the profile needs {key}", hint=f"one of: {', '.join(choices)}" if choices else None)
        if not isinstance(value, str):
            raise err(key, f"{key} must be text, not {value!r}")
        if choices and value not in choices:
            raise err(key, f"{key} {value!r} is not one of {', '.join(choices)}")
        return value

    def number(key: str, default, lo: float, hi: float, kind=int):
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
            raise err(key, f"{key} must be a {'whole ' if kind is int else ''}number, not {value!r}")
        if not lo <= value <= hi:
            raise err(key, f"{key} {value!r} is outside {lo:g}..{hi:g}")
        return value

    output = text("output", None, OUTPUTS)
    dpi = number("dpi", 300, 36, 2400)

    def length(key: str, default: str) -> float:
        value = raw.get(key, default)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
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
            raise err(key, f"{key} cannot be negative")
        return out

    color = text("color", "rgb", ("rgb", "cmyk"))
    if output in ("png", "tts") and color != "rgb":
        raise err("color", f"{output} output is RGB; a CMYK profile writes PDF",
                  hint='set output = "pdf", or color = "rgb" (print-specs.md §2: PNG cannot carry CMYK)')
    marks = text("marks", "none", ("none",))
    sizes = None
    if "sizes" in raw:
        if not isinstance(raw["sizes"], dict) or not raw["sizes"]:
            raise err("sizes", "sizes must be a table of card-size name = trim",
                      hint='for example [sizes] poker = "2.5in x 3.5in"')
        sizes = {}
        for sname, trim in raw["sizes"].items():
            try:
                sizes[sname] = parse_size(str(trim), CARD_SIZES)
            except ValueError as exc:
                raise err(f"sizes.{sname}", str(exc)) from None
    order = text("page_order", "face-back", tuple(PAGE_ORDERS))
    ink = None
    if color == "cmyk":
        limit = number("ink_limit", 300, 100, 400, float)
        rich = raw.get("rich_black", [60, 40, 40, 100])
        if not (isinstance(rich, list) and len(rich) == 4 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100 for v in rich)):
            raise err("rich_black", f"rich_black must be [C, M, Y, K] in percent, not {rich!r}")
        if sum(rich) > limit + 1e-9:
            raise err("rich_black", f"rich_black {rich} totals {sum(rich):g} %, above ink_limit {limit:g} %")
        overrides = {}
        cmyk = raw.get("cmyk", {})
        if not isinstance(cmyk, dict):
            raise err("cmyk", "cmyk must be a table of colour = [C, M, Y, K]")
        for cname, value in cmyk.items():
            if not (isinstance(value, list) and len(value) == 4 and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100 for v in value)):
                raise err(f"cmyk.{cname}", f"{value!r} is not [C, M, Y, K] in percent")
            if sum(value) > limit + 1e-9:
                raise err(f"cmyk.{cname}", f"{value} totals {sum(value):g} %, above ink_limit {limit:g} %")
            overrides[cname] = tuple(v / 100 for v in value)
        ink = InkSettings(ink_limit=limit / 100, rich_black=tuple(v / 100 for v in rich),
                          rich_black_min_size=length("rich_black_min_size", "0.5in"),
                          art=text("art", "convert", ("convert", "reject")), overrides=overrides)
    files = {}
    for key, default in (("face_file", "{deck}/{card}.png"), ("back_file", "{deck}/back-{back}.png"),
                         ("file", "{game}-{deck}.pdf")):
        pattern = text(key, default)
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
        files[key] = pattern
    group = text("group", "deck", ("deck", "card-size"))
    copies = text("copies", "repeat" if output == "pdf" else "count", ("repeat", "count"))
    if copies == "repeat" and output != "pdf":
        raise err("copies", f"{output} output writes each card once with its copy count",
                  hint='copies = "repeat" (a page per copy) is for PDF targets')
    if output == "pdf" and group == "card-size" and "{deck}" in files["file"]:
        raise err("file", "a profile grouped by card size cannot name its files by {deck}",
                  hint='use {size}, for example file = "{game}-{size}.pdf"')
    image_url = text("image_url", "file", ("file", "name"))
    return Profile(
        name=name, title=text("title", name), source=text("source", ""), origin=origin, output=output,
        color=color, dpi=dpi, bleed=length("bleed", "0.125in"), safe_zone=length("safe_zone", "0.125in"),
        marks=marks, sizes=sizes, page_order=PAGE_ORDERS[order], group=group,
        copies=copies,
        face_file=files["face_file"], back_file=files["back_file"], file=files["file"], ink=ink,
        columns=number("columns", TTS_MAX_COLUMNS, 2, TTS_MAX_COLUMNS),
        rows=number("rows", TTS_MAX_ROWS, 2, TTS_MAX_ROWS),
        max_sheet_width=number("max_sheet_width", 4096, 256, 16384),
        max_sheet_height=number("max_sheet_height", 4096, 256, 16384),
        image_url=image_url, url_prefix=text("url_prefix", ""),
        min_text_size=number("min_text_size", 6.0, 0, 72, float),
        description=text("description", ""),
    )


# --------------------------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class CardPage:
    """The page one card is drawn on, in pt: the page (MediaBox = BleedBox) and the trim inside
    it, centred. ``px`` is the raster size (width, height) at the profile's dpi, or None."""

    page: Size
    trim: Size
    px: tuple[int, int] | None = None

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(llx, lly, urx, ury) of the TrimBox."""
        x = (self.page.width - self.trim.width) / 2
        y = (self.page.height - self.trim.height) / 2
        return x, y, x + self.trim.width, y + self.trim.height


def card_page(trim: Size, bleed: float, dpi: int | None = None) -> CardPage:
    """The page for a card of ``trim`` with ``bleed`` pt on every side. With ``dpi`` the page
    is snapped to whole pixels (the trim stays centred and exact; the bleed absorbs at most half
    a pixel), so that rendering it gives exactly ``px`` pixels: US poker with 1/8 in bleed is
    825 x 1125 px, with MakePlayingCards' 36 px bleed 822 x 1122 px (print-specs.md §8 check 2)."""
    w, h = trim.width + 2 * bleed, trim.height + 2 * bleed
    if dpi is None:
        return CardPage(Size(w, h), trim)
    px = (max(1, round(w * dpi / 72.0)), max(1, round(h * dpi / 72.0)))
    return CardPage(Size(px[0] * 72.0 / dpi, px[1] * 72.0 / dpi), trim, px)


def _deck_trim(comp: Component, profile: Profile) -> tuple[Size, str]:
    """The trim of ``comp``'s cards in ``profile`` and the size's name; ProfileError when the
    profile does not take that size."""
    size = comp.card_size
    label = comp.card_size_name or f"{to_mm(size.width):g}x{to_mm(size.height):g}mm"
    if profile.sizes is None:
        return size, label
    for name, trim in profile.sizes.items():
        if abs(trim.width - size.width) < 0.01 and abs(trim.height - size.height) < 0.01:
            return size, name
        if abs(trim.width - size.height) < 0.01 and abs(trim.height - size.width) < 0.01:
            return size, name
    offered = ", ".join(f"{n} ({s})" for n, s in profile.sizes.items())
    raise ProfileError(f"deck {comp.id!r} is {label} ({size}), which the {profile.name} profile does not take",
                       location=_where(profile.origin, "sizes"),
                       hint=f"{profile.title} takes: {offered}. If the target takes this size, add it to the "
                       f"profile's sizes (in game.toml: [targets.{profile.name}.sizes] {label} = \"W x H\")")


# --------------------------------------------------------------------------------------------
# Drawing one card page


def _new_canvas(target, page: Size, title: str, profile: Profile, converter: InkConverter | None):
    from reportlab.pdfgen.canvas import Canvas

    kwargs = dict(pagesize=(page.width, page.height), invariant=1, pageCompression=1,
                  initialFontName=fonts.register("sans"), initialFontSize=9)
    c = PrintCanvas(target, converter, **kwargs) if converter is not None else Canvas(target, **kwargs)
    c.setTitle(title)
    c.setSubject(f"{profile.title} print file")
    c.setCreator(f"pnp {__version__}")
    c.setAuthor("")
    return c


def _draw_page(c, renderer: Renderer, piece: Piece, geom: CardPage, converter: InkConverter | None) -> None:
    """One card on the current page: MediaBox = BleedBox = trim + bleed, TrimBox centred."""
    llx, lly, urx, ury = geom.trim_box
    c.setPageSize((geom.page.width, geom.page.height))
    c.setBleedBox((0, 0, geom.page.width, geom.page.height))
    c.setTrimBox((llx, lly, urx, ury))
    if converter is not None:
        converter.piece = piece.label
    renderer.draw(c, piece, (llx, lly, geom.trim.width, geom.trim.height),
                  (llx, lly, geom.page.width - urx, geom.page.height - ury))
    c.showPage()


def card_pdf(renderer: Renderer, piece: Piece, geom: CardPage, profile: Profile, title: str,
             converter: InkConverter | None = None) -> bytes:
    """A one-page PDF of ``piece`` on ``geom`` (the drawing every raster is rendered from)."""
    buf = io.BytesIO()
    c = _new_canvas(buf, geom.page, title, profile, converter)
    _draw_page(c, renderer, piece, geom, converter)
    c.save()
    return buf.getvalue()


def rasterise(pdf: bytes, px: tuple[int, int], page_index: int = 0, encode: bool = True) -> bytes:
    """Render page ``page_index`` of ``pdf`` to an RGB PNG of exactly ``px`` = (width, height)
    pixels (the page is scaled to fill the bitmap exactly; pdfium's own scale-based sizing can
    round up a pixel). The PNG records the page's px/in as its resolution. With ``encode``
    False, the raw RGB bytes (width x height x 3) instead of a PNG."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[page_index]
        w, h = px
        bitmap = pdfium.PdfBitmap.new_native(w, h, raw.FPDFBitmap_BGR, rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
        raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, raw.FPDF_ANNOT | raw.FPDF_REVERSE_BYTE_ORDER)
        image = bitmap.to_pil().convert("RGB")
        dpi = round(w / (page.get_width() / 72.0), 3)
        page.close()
    finally:
        doc.close()
    if not encode:
        return image.tobytes()
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()


def _rasterise_job(args: tuple[bytes, tuple[int, int], bool]) -> bytes:
    pdf, px, encode = args
    return rasterise(pdf, px, encode=encode)


POOL_MIN_JOBS = 12
"""Fewer rasters than this are rendered in this process (starting workers costs more)."""


def _rasterise_all(jobs: list[tuple[bytes, tuple[int, int]]], workers: int, encode: bool = True) -> list[bytes]:
    """Rasterise every (pdf, px) job, in order. With ``workers`` > 1 and at least
    POOL_MIN_JOBS jobs, in a pool of processes; the bytes are the same either way (each job is
    a pure function of its PDF and size, and results keep the jobs' order)."""
    if workers > 1 and len(jobs) >= max(POOL_MIN_JOBS, 2 * workers):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from concurrent.futures.process import BrokenProcessPool

        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                return list(pool.map(_rasterise_job, [(pdf, px, encode) for pdf, px in jobs],
                                     chunksize=max(1, len(jobs) // (workers * 4))))
        except (BrokenProcessPool, OSError):
            pass  # no worker processes here (a sandbox, a frozen app): render in this process
    return [rasterise(pdf, px, encode=encode) for pdf, px in jobs]


# --------------------------------------------------------------------------------------------
# Preflight on the drawn pages


def safe_zone_findings(pdf: bytes, labels: list[str], safe: float, profile: Profile) -> list[Finding]:
    """Text glyphs closer than ``safe`` pt to the TrimBox edge (or outside it), measured on
    every page of ``pdf`` with pdfium's glyph boxes. ``labels[i]`` names the piece on page i.
    One finding per card (its copies are one), located at the piece without its copy number
    (print-specs.md §8 check 21)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out: list[Finding] = []
    if safe <= 0:
        return out
    doc = pdfium.PdfDocument(pdf)
    seen = set()
    try:
        for i, label in enumerate(labels):
            label = label.split(" (copy ")[0]
            if label in seen:
                continue
            page = doc[i]
            tl, tb, tr, tt = page.get_trimbox()
            text = page.get_textpage()
            worst = None
            worst_at = 0
            for j in range(text.count_chars()):
                if raw.FPDFText_IsGenerated(text, j) == 1:
                    continue
                ch = chr(raw.FPDFText_GetUnicode(text, j) or 32)
                if ch.isspace():
                    continue
                left, bottom, right, top = text.get_charbox(j)
                if right - left <= 0 or top - bottom <= 0:
                    continue
                dist = min(left - tl, bottom - tb, tr - right, tt - top)
                if dist < safe - 0.05 and (worst is None or dist < worst):
                    worst, worst_at = dist, j
            if worst is not None:
                line = _line_at(text.get_text_range(), worst_at)
            text.close()
            page.close()
            if worst is not None:
                seen.add(label)
                where = "outside the trim" if worst < 0 else f"{to_mm(worst):.2f} mm from the trim"
                out.append(Finding(
                    "warning", "preflight.safe-zone", label,
                    f"text {line!r} lies {where}, inside the {profile.name} safe zone of "
                    f"{to_mm(safe):.3g} mm",
                    source=f"{profile.title}: safe zone (print-specs.md §2)",
                    hint="move the text inward, or give the layout a larger safe_zone"))
    finally:
        doc.close()
    return out


def _line_at(text: str, index: int, limit: int = 48) -> str:
    """The line of ``text`` holding character ``index`` (pdfium's text, one char per index)."""
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    ends = [e for e in (text.find("\n", index), text.find("\r", index)) if e != -1]
    line = text[start:min(ends) if ends else len(text)].strip()
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _rgb_check(pdf: bytes, name: str, profile: Profile) -> list[Finding]:
    """A CMYK file must hold no RGB colour space (print-specs.md §8 check 23)."""
    if b"/DeviceRGB" in pdf:
        return [Finding("error", "preflight.rgb-in-cmyk", name, f"{name} holds an RGB colour space, which "
                        f"the {profile.name} profile does not allow",
                        hint="report this: every colour should have been converted to CMYK")]
    return []


# --------------------------------------------------------------------------------------------
# The export


@dataclass
class Entry:
    """One row of the export manifest: a file (and page or sheet slot) and what it holds."""

    file: str
    side: str
    deck: str
    card_id: str
    copies: int
    page: int | None = None
    slot: int | None = None
    copy: int | None = None
    size: str = ""
    width_px: int | None = None
    height_px: int | None = None


MANIFEST_COLUMNS = ("file", "page", "slot", "side", "deck", "card_id", "copy", "copies", "size",
                    "width_px", "height_px")


@dataclass
class _Job:
    game: Game
    layouts: LayoutSet
    profile: Profile
    folder: Path
    renderer: Renderer
    converter: InkConverter | None
    outputs: list[tuple[Path, bytes]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Lower-case file name -> (file name, sha256 of its content), to tell a clash from the
    same file."""
    signatures: Any = None

    def name(self, pattern: str, **fields: Any) -> str:
        fields = {"game": self.game.id, "target": self.profile.name, **fields}
        try:
            return pattern.format(**{k: fields.get(k, "") for k in FILE_FIELDS})
        except (KeyError, IndexError, ValueError) as exc:
            raise ProfileError(f"file name pattern {pattern!r} cannot be filled: {exc}",
                               location=_where(self.profile.origin)) from None

    def claim(self, name: str, data: bytes) -> str:
        """A file name for ``data``: ``name``, or ``name-2`` ... when ``name`` holds other bytes.
        Returns the name to use; the same bytes under the same name are written once."""
        digest = hashlib.sha256(data).hexdigest()
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        candidate, n = name, 1
        # names compare case-blind: Fe.png and fe.png are one file on macOS and Windows
        while candidate.lower() in self.names and self.names[candidate.lower()][1] != digest:
            n += 1
            candidate = f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"
        if candidate.lower() in self.names:
            return self.names[candidate.lower()][0]
        self.names[candidate.lower()] = (candidate, digest)
        self.outputs.append((self.folder / candidate, data))
        return candidate


def _piece_info(piece: Piece) -> dict[str, Any]:
    """The ``piece`` entry of a piece's template context (id, copy, copies, ...) as a dict."""
    info = piece.context.get("piece") or {}
    return dict(info) if isinstance(info, dict) else dict(vars(info))


def _card_id(piece: Piece) -> str:
    return str(_piece_info(piece).get("id") or piece.label)


def _copy(piece: Piece) -> int:
    return int(_piece_info(piece).get("copy") or 1)


def _nickname(piece: Piece) -> str:
    for key in ("title", "name"):
        value = piece.context.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return _card_id(piece)


def _decks(game: Game, cards: list[CardInstance]) -> list[tuple[Component, list[CardInstance]]]:
    out = []
    for comp in game:
        deck = [c for c in cards if c.deck == comp.id]
        if deck:
            out.append((comp, deck))
    return out


def export_game(game: Game, layouts: LayoutSet, target: str, out_dir: Path, *, jobs: int | None = None,
                url_prefix: str | None = None) -> BuildResult:
    """Export every deck of ``game`` for ``target`` (a profile name or a path to a profile
    TOML file) into ``out_dir/export/<target>/``, where ``out_dir`` is the game's output folder.

    Writes the target's files, ``manifest.csv`` and ``manifest.json``; files a previous export
    of this target listed and this one does not are removed. ``jobs`` is how many processes
    rasterise PNGs (default: up to 2); ``url_prefix`` overrides a Tabletop Simulator profile's
    image URLs. Returns a BuildResult: files written, findings (drawing, colour conversion,
    safe zone), ``cards`` (card instances) and ``sheets`` (files holding cards). Raises
    ProfileError, BuildError or LayoutError; on an error no file is written.
    """
    profile = load_profile(target, game)
    if url_prefix is not None:
        profile = replace(profile, url_prefix=url_prefix)
    folder = Path(out_dir) / "export" / profile.name
    converter = None
    if profile.color == "cmyk":
        converter = InkConverter(_palette_overrides(profile, game), profile.name)
    renderer = Renderer(layouts, game.path, min_text_size=profile.min_text_size,
                        color_convert=converter.convert if converter else None)
    if converter is not None:
        converter.art_name = _art_namer(renderer, game)
    job = _Job(game, layouts, profile, folder, renderer, converter, signatures=_Signatures(layouts))
    cards = card_instances(game)
    workers = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    decks = _decks(game, cards)
    if profile.output == "png":
        _export_png(job, decks, workers)
    elif profile.output == "pdf":
        _export_pdf(job, decks)
    else:
        _export_tts(job, decks, workers)
    sheets = len(job.outputs)
    findings = _one_per_card(renderer.findings + (converter.findings if converter else []) + job.findings)
    _write_manifest(job, cards, findings)
    stale = _stale_files(folder, {p for p, _ in job.outputs})
    result = BuildResult(cards=len(cards), sheets=sheets)
    for path, data in job.outputs:
        write_atomic(path, data)
        result.files.append(path)
    for path in stale:
        path.unlink(missing_ok=True)
        parent = path.parent
        while parent != folder and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    result.findings = findings
    return result


_COPY_RE = re.compile(r" \(copy \d+ of \d+\)")


def _one_per_card(findings: list[Finding]) -> list[Finding]:
    """Findings with the copy number taken out of their location, each said once: the copies
    of a card are drawn alike, so a finding on one is a finding on the card."""
    out, seen = [], set()
    for f in findings:
        f = replace(f, location=_COPY_RE.sub("", f.location))
        key = (f.severity, f.rule, f.location, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _palette_overrides(profile: Profile, game: Game) -> InkSettings:
    """The profile's ink settings with ``cmyk`` keys (palette names or #RRGGBB) as #RRGGBB."""
    ink = profile.ink
    palette = {k: str(v).upper() for k, v in (game.manifest.get("colors") or {}).items()}
    palette.update({"black": "#000000", "white": "#FFFFFF"})
    resolved = {}
    for key, value in ink.overrides.items():
        if re.fullmatch(r"#[0-9A-Fa-f]{6}", key):
            resolved[key.upper()] = value
        elif key in palette:
            resolved[palette[key]] = value
        else:
            close = difflib.get_close_matches(key, list(palette), n=1)
            raise ProfileError(f"cmyk names {key!r}, which is not a colour of {game.id}",
                               location=_where(profile.origin, f"cmyk.{key}"),
                               hint=(f"did you mean {close[0]!r}? " if close else "")
                               + "use a name from [colors] in game.toml, or #RRGGBB")
    return replace(ink, overrides=resolved)


def _art_namer(renderer: Renderer, game: Game):
    def name(reader) -> str | None:
        for path, held in getattr(renderer, "_images", {}).items():
            if held is reader:
                try:
                    return str(Path(path).relative_to(game.path.resolve()))
                except ValueError:
                    return Path(path).name
        return None
    return name


def _title(job: _Job, comp: Component) -> str:
    return f"{job.game.title} - {comp.name} ({job.profile.title})"


class _Signatures:
    """What a piece's drawing depends on: its layout's name and the values of the template
    names that layout (with its icons) reads, found by parsing its templates with Jinja2.
    Two pieces with equal signatures draw the same, so one is drawn for both. ``piece.copy``
    counts only when some layout mentions ``copy``."""

    def __init__(self, layouts: LayoutSet):
        self.layouts = layouts
        self._names: dict[str, frozenset[str] | None] = {}
        try:
            text = Path(layouts.path).read_text(encoding="utf-8")
        except OSError:
            text = "copy"
        self.copy_matters = re.search(r"\bcopy\b", text) is not None

    def names(self, layout_name: str, depth: int = 0) -> frozenset[str] | None:
        """Template names the layout reads (with the layouts its ``repeat`` boxes draw), or
        None when they cannot be told (then every piece is drawn)."""
        if layout_name in self._names:
            return self._names[layout_name]
        from jinja2 import TemplateError, meta

        from .layout import env

        layout = self.layouts.layouts.get(layout_name)
        found: set[str] | None = set()
        if layout is None or depth > 8:
            found = None
        else:
            values = [("", layout.background)]
            for box in layout.boxes:
                values += list(box.props.items())
                if box.type == "repeat":
                    nested = self.names(str(box.props.get("layout")), depth + 1)
                    if nested is None:
                        found = None
                        break
                    found |= nested
            for icon in self.layouts.icons.values():
                values += [(k, v) for k, v in vars(icon).items()]
            try:
                for key, value in values if found is not None else []:
                    if not isinstance(value, str):
                        continue
                    if key in ("when", "items"):
                        source = "{{ (" + value + ") }}"
                    elif "{{" in value or "{%" in value:
                        source = value
                    else:
                        continue
                    found |= meta.find_undeclared_variables(env().parse(source))
            except TemplateError:
                found = None
        self._names[layout_name] = frozenset(found) if found is not None else None
        return self._names[layout_name]

    def of(self, piece: Piece):
        """A hashable signature of ``piece``'s drawing, or None when it cannot be told."""
        names = self.names(piece.layout)
        if names is None:
            return None
        values = []
        for name in sorted(names):
            value = piece.context.get(name)
            if name == "piece" and value is not None and not self.copy_matters:
                value = {k: v for k, v in _piece_info(piece).items() if k != "copy"}
            values.append((name, _freeze(value)))
        return piece.layout, tuple(values)


def _freeze(value):
    if isinstance(value, SimpleNamespace):
        value = vars(value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, str):
        return (type(value).__name__, str(value))
    return (type(value).__name__, repr(value))


def _distinct(job: _Job, comp: Component, deck: list[CardInstance], geom: CardPage, side: str):
    """The distinct drawings of one side of a deck, in order: [(pdf, [instances])]. Pieces
    whose drawing depends on the same values (copies of a card, cards sharing a plain back)
    are drawn once; drawings that come out byte-identical are merged too. Faces of different
    cards never merge; identical backs do."""
    groups: dict[tuple[str, str], tuple[bytes, list[CardInstance]]] = {}
    by_signature: dict[Any, tuple[str, str]] = {}
    title = _title(job, comp)
    for card in deck:
        piece = card.face if side == "face" else card.back
        owner = _card_id(card.face) if side == "face" else ""
        signature = job.signatures.of(piece)
        if signature is not None and (owner, signature) in by_signature:
            groups[by_signature[(owner, signature)]][1].append(card)
            continue
        pdf = card_pdf(job.renderer, piece, geom, job.profile, title, job.converter)
        key = (owner, hashlib.sha256(pdf).hexdigest())
        if signature is not None:
            by_signature[(owner, signature)] = key
        if key in groups:
            groups[key][1].append(card)
        else:
            groups[key] = (pdf, [card])
    return list(groups.values())


def _size_text(geom: CardPage) -> str:
    return f"{to_mm(geom.trim.width):g} x {to_mm(geom.trim.height):g} mm"


def _export_png(job: _Job, decks, workers: int) -> None:
    p = job.profile
    pending: list[tuple[str, Entry, bytes, tuple[int, int], str]] = []
    for comp, deck in decks:
        trim, size_name = _deck_trim(comp, p)
        geom = card_page(trim, p.bleed, p.dpi)
        for side in ("face", "back"):
            for pdf, group in _distinct(job, comp, deck, geom, side):
                first = group[0]
                piece = first.face if side == "face" else first.back
                if side == "face":
                    name = job.name(p.face_file, deck=comp.id, card=_card_id(piece), copy=_copy(piece),
                                    back=first.back.layout, size=size_name)
                    ids = _card_id(piece)
                else:
                    name = job.name(p.back_file, deck=comp.id, card=_card_id(first.face), copy=1,
                                    back=piece.layout, size=size_name)
                    ids = ";".join(_ids(group))
                entry = Entry(name, side, comp.id, ids, len(group), size=_size_text(geom),
                              width_px=geom.px[0], height_px=geom.px[1])
                pending.append((name, entry, pdf, geom.px, piece.label))
    job.findings += _safe_zone_many([(pdf, label) for _, _, pdf, _, label in pending], p)
    pngs = _rasterise_all([(pdf, px) for _, _, pdf, px, _ in pending], workers)
    for (name, entry, _, _, _), png in zip(pending, pngs):
        entry.file = job.claim(name, png)
        same = next((e for e in job.entries if (e.file, e.side, e.card_id) == (entry.file, entry.side, entry.card_id)),
                    None)
        if same is not None:  # copies drawn apart that came out pixel-identical
            same.copies += entry.copies
        else:
            job.entries.append(entry)


def _safe_zone_many(items: list[tuple[bytes, str]], profile: Profile) -> list[Finding]:
    out: list[Finding] = []
    seen: set[str] = set()
    for pdf, label in items:
        base = label.split(" (copy")[0]
        if base in seen:
            continue
        found = safe_zone_findings(pdf, [label], profile.safe_zone, profile)
        if found:
            seen.add(base)
            out += found
    return out


def _export_pdf(job: _Job, decks) -> None:
    p = job.profile
    files: dict[str, list[tuple[Component, list[CardInstance], CardPage, str]]] = {}
    for comp, deck in decks:
        trim, size_name = _deck_trim(comp, p)
        geom = card_page(trim, p.bleed)
        key = job.name(p.file, deck=comp.id, size=size_name) if p.group == "deck" else \
            job.name(p.file, size=size_name)
        files.setdefault(key, []).append((comp, deck, geom, size_name))
    for name, parts in files.items():
        buf = io.BytesIO()
        first_comp = parts[0][0]
        title = _title(job, first_comp) if p.group == "deck" else \
            f"{job.game.title} - {parts[0][3]} cards ({p.title})"
        c = _new_canvas(buf, parts[0][2].page, title, p, job.converter)
        labels: list[str] = []
        entries: list[Entry] = []
        page_no = 0
        for comp, deck, geom, _ in parts:
            if p.copies == "count":
                units = [(group[0], len(group)) for _, group in _distinct(job, comp, deck, geom, "face")]
            else:
                units = [(card, int(_piece_info(card.face).get("copies") or 1)) for card in deck]
            for card, copies in units:
                for side in p.page_order:
                    piece = card.face if side == "face" else card.back
                    _draw_page(c, job.renderer, piece, geom, job.converter)
                    page_no += 1
                    labels.append(piece.label)
                    entries.append(Entry(name, side, comp.id, _card_id(card.face), copies, page=page_no,
                                         copy=_copy(card.face) if p.copies == "repeat" else None,
                                         size=_size_text(geom)))
        c.save()
        pdf = buf.getvalue()
        job.findings += safe_zone_findings(pdf, labels, p.safe_zone, p)
        if p.color == "cmyk":
            job.findings += _rgb_check(pdf, name, p)
        job.claim(name, pdf)
        job.entries += entries


# --------------------------------------------------------------------------------------------
# Tabletop Simulator


def tts_card_pixels(trim: Size, profile: Profile) -> tuple[int, int]:
    """Pixel size of one card image on a Tabletop Simulator deck sheet: as large as lets a full
    ``columns`` x ``rows`` sheet stay within ``max_sheet_width`` x ``max_sheet_height``
    (4096 x 4096 by default), keeping the trim's aspect ratio."""
    ratio = trim.height / trim.width
    w = int(min(profile.max_sheet_width / profile.columns, profile.max_sheet_height / profile.rows / ratio))
    while w > 1 and round(w * ratio) * profile.rows > profile.max_sheet_height:
        w -= 1
    return w, max(1, round(w * ratio))


def _tts_grid(n: int, profile: Profile) -> tuple[int, int]:
    """Columns and rows of a sheet holding ``n`` images plus the hidden-card slot: near square,
    at least 2 x 2 (Tabletop Simulator's import dialog requires it), at most ``columns`` x
    ``rows``."""
    import math

    slots = n + 1
    cols = max(2, min(profile.columns, math.ceil(math.sqrt(slots))))
    if -(-slots // cols) > profile.rows:
        cols = -(-slots // profile.rows)
    rows = max(2, -(-slots // cols))
    return cols, rows


def _guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


_TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
              "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _tts_object(name: str, nickname: str, guid: str) -> dict:
    return {"GUID": guid, "Name": name, "Transform": dict(_TRANSFORM), "Nickname": nickname,
            "Description": "", "GMNotes": "", "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
            "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "MeasureMovement": False,
            "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": True, "Hands": True, "SidewaysCard": False,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _export_tts(job: _Job, decks, workers: int) -> None:
    """Per deck: face sheets ``{game}-{deck}-faces-N.png``, the back ``{game}-{deck}-back.png``
    (or back sheets ``{game}-{deck}-backs-N.png`` when the deck's cards have different backs)
    and the saved object ``{game}-{deck}.json``."""
    from PIL import Image

    p = job.profile
    per_sheet = p.columns * p.rows - 1
    for comp, deck in decks:
        trim, _ = _deck_trim(comp, p)
        cw, ch = tts_card_pixels(trim, p)
        geom = CardPage(trim, trim, (cw, ch))  # the whole image shows in the game: trim only, no bleed
        size = _size_text(geom)
        faces = _distinct(job, comp, deck, geom, "face")
        backs = _distinct(job, comp, deck, geom, "back")
        unique_back = len(backs) > 1
        job.findings += _safe_zone_many([(pdf, g[0].face.label) for pdf, g in faces]
                                        + [(pdf, g[0].back.label) for pdf, g in backs], p)
        raws = _rasterise_all([(pdf, (cw, ch)) for pdf, _ in faces + backs], workers, encode=False)
        images = [Image.frombytes("RGB", (cw, ch), b) for b in raws]
        face_img, back_img = images[:len(faces)], images[len(faces):]
        back_index = {id(card): i for i, (_, group) in enumerate(backs) for card in group}
        single_back = None
        if not unique_back:
            single_back = job.claim(job.name("{game}-{deck}-back.png", deck=comp.id), _png(back_img[0]))
            job.entries.append(Entry(single_back, "back", comp.id, ";".join(_ids(deck)), len(deck),
                                     size=size, width_px=cw, height_px=ch))
        custom: dict[str, dict] = {}
        card_ids: dict[int, int] = {}
        for s, start in enumerate(range(0, len(faces), per_sheet)):
            chunk = faces[start:start + per_sheet]
            cols, rows = _tts_grid(len(chunk), p)
            sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
            back_sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255)) if unique_back else None
            for slot, (_, group) in enumerate(chunk):
                r, col = divmod(slot, cols)
                sheet.paste(face_img[start + slot], (col * cw, r * ch))
                if back_sheet is not None:
                    back_sheet.paste(back_img[back_index[id(group[0])]], (col * cw, r * ch))
                for card in group:
                    card_ids[id(card)] = (s + 1) * 100 + slot
            if single_back is not None:  # the last slot holds the hidden-card image, by convention
                last = cols * rows - 1
                sheet.paste(back_img[0], ((last % cols) * cw, (last // cols) * ch))
            face_name = job.claim(job.name("{game}-{deck}-faces-{card}.png", deck=comp.id, card=str(s + 1)),
                                  _png(sheet))
            for slot, (_, group) in enumerate(chunk):
                job.entries.append(Entry(face_name, "face", comp.id, _card_id(group[0].face), len(group),
                                         slot=slot + 1, size=size, width_px=cw, height_px=ch))
            back_url = single_back
            if back_sheet is not None:
                back_url = job.claim(job.name("{game}-{deck}-backs-{card}.png", deck=comp.id, card=str(s + 1)),
                                     _png(back_sheet))
                for slot, (_, group) in enumerate(chunk):
                    job.entries.append(Entry(back_url, "back", comp.id, _card_id(group[0].face), len(group),
                                             slot=slot + 1, size=size, width_px=cw, height_px=ch))
            custom[str(s + 1)] = {"FaceURL": _tts_url(job, face_name), "BackURL": _tts_url(job, back_url),
                                  "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                                  "UniqueBack": unique_back, "Type": 0}
        data = _tts_json(job, comp, deck, card_ids, custom)
        name = job.claim(job.name("{game}-{deck}.json", deck=comp.id), data)
        job.entries.append(Entry(name, "object", comp.id, ";".join(_ids(deck)), len(deck), size=size))


def _ids(cards: list[CardInstance]) -> list[str]:
    """The distinct card ids of ``cards``, in order."""
    return list(dict.fromkeys(_card_id(c.face) for c in cards))


def _png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _tts_url(job: _Job, name: str) -> str:
    if job.profile.url_prefix:
        return job.profile.url_prefix + name
    if job.profile.image_url == "name":
        return name
    return (job.folder / name).resolve().as_uri()


def _tts_json(job: _Job, comp: Component, deck: list[CardInstance], card_ids: dict[int, int],
              custom: dict[str, dict]) -> bytes:
    """The saved object: one DeckCustom holding one Card per copy (a lone card when the deck
    has one card, since a Tabletop Simulator deck holds at least two)."""
    cards = []
    for i, card in enumerate(deck):
        cid = card_ids[id(card)]
        obj = _tts_object("Card", _nickname(card.face), _guid(job.game.id, comp.id, "card", str(i)))
        obj["Description"] = f"{comp.id}/{_card_id(card.face)}"
        obj["CardID"] = cid
        key = str(cid // 100)
        obj["CustomDeck"] = {key: custom[key]}
        cards.append(obj)
    if len(cards) == 1:
        state = cards[0]
    else:
        state = _tts_object("DeckCustom", comp.name, _guid(job.game.id, comp.id, "deck"))
        state["DeckIDs"] = [c["CardID"] for c in cards]
        state["CustomDeck"] = custom
        state["ContainedObjects"] = cards
    saved = {"SaveName": "", "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
             "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
             "ObjectStates": [state], "TabStates": {}, "VersionNumber": ""}
    return (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# --------------------------------------------------------------------------------------------
# The manifest


def _write_manifest(job: _Job, cards: list[CardInstance], findings: list[Finding]) -> None:
    p = job.profile
    rows = [{k: ("" if getattr(e, k) is None else getattr(e, k)) for k in MANIFEST_COLUMNS} for e in job.entries]
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=MANIFEST_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    files = []
    for path, data in job.outputs:
        item = {"file": path.relative_to(job.folder).as_posix(), "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data)}
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            item["width_px"] = int.from_bytes(data[16:20], "big")
            item["height_px"] = int.from_bytes(data[20:24], "big")
        elif data[:5] == b"%PDF-":
            item["pages"] = sum(1 for e in job.entries if e.file == item["file"] and e.page is not None)
        files.append(item)
    doc = {
        "game": job.game.id, "title": job.game.title, "target": p.name,
        "profile": {
            "title": p.title, "source": p.source, "origin": p.origin, "output": p.output, "color": p.color,
            "dpi": p.dpi, "bleed_mm": round(to_mm(p.bleed), 4), "safe_zone_mm": round(to_mm(p.safe_zone), 4),
            "marks": p.marks, "page_order": list(p.page_order) if p.output == "pdf" else None,
            "copies": p.copies, "ink_limit_percent": round(p.ink.ink_limit * 100, 3) if p.ink else None,
        },
        "cards": len(cards), "files": files, "entries": [{k: getattr(e, k) for k in MANIFEST_COLUMNS}
                                                         for e in job.entries],
        "findings": [f.as_dict() for f in findings],
        "generator": f"pnp {__version__}",
    }
    job.outputs.append((job.folder / "manifest.csv", text.getvalue().encode("utf-8")))
    job.outputs.append((job.folder / "manifest.json",
                        (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")))


def _stale_files(folder: Path, keep: set[Path]) -> list[Path]:
    """Files the previous export of this target listed in its manifest and this one does not."""
    old = folder / "manifest.json"
    if not old.is_file():
        return []
    try:
        listed = json.loads(old.read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for item in listed:
        rel = item.get("file") if isinstance(item, dict) else None
        if not isinstance(rel, str) or Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue
        path = folder / rel
        if path not in keep and path.is_file():
            out.append(path)
    return out
