"""Rulebooks built from a game's own data: a Jinja2 template -> Markdown -> PDF.

A game's rulebook template is ``templates/<game>/rulebook.md.j2`` (for a designer's own game
folder, ``mygame/templates/rulebook.md.j2``); docs/rulebooks.md describes it for designers.

1. :func:`render_template` runs the template in a sandbox (Jinja2
   ``ImmutableSandboxedEnvironment`` with strict names) over the game model
   (:func:`template_context`) and returns Markdown. Values printed with ``{{ }}`` are escaped,
   so text from a CSV cell is never read as Markdown; a misspelt name stops with a
   :class:`RulebookError` naming the template file, the line, the name and the closest name.
2. :func:`markdown_pdf` parses the Markdown (CommonMark plus tables, markdown-it-py) and lays
   it out with reportlab platypus: headings, paragraphs, lists, tables that split across pages
   and repeat their header row, images and the game's own cards scaled to the frame, a table of
   contents, PDF bookmarks and page numbers. Every font is a registered DejaVu TTF (pnp.fonts),
   embedded and subset. Same input, same bytes.
3. :func:`build_rulebook` writes ``<game>-rulebook.pdf`` (single pages in reading order) and,
   for a booklet, ``<game>-rulebook-booklet.pdf`` (pnp.booklet).
"""

from __future__ import annotations

import difflib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from xml.sax.saxutils import escape as xml_escape

from . import __version__, fonts
from .errors import BuildError, LayoutError, Location, PnpError
from .findings import Finding
from .model import Component, Game, Row
from .units import MM, PAPER_SIZES, Size, parse_length

TEMPLATE_NAME = "rulebook.md.j2"
"""The file name of a game's rulebook template, inside its templates folder."""

LINE_BREAK = "\u2028"
"""A line break inside one paragraph or table cell. A line break in a CSV cell prints as this
(a new line in the PDF, never a new Markdown block)."""

TOC_MARKER = "[TOC]"
"""A paragraph holding only this text becomes the table of contents (``[TOC 1]``: sections
only); ``toc()`` prints it."""
_TOC_RE = re.compile(r"^\[TOC(?: ([12]))?\]$")


class RulebookError(PnpError):
    """A rulebook template or its Markdown that cannot be built (misspelt name, bad call, an
    image that cannot be found). The location names the template file and line."""


# --------------------------------------------------------------------------------------------
# Markdown text: what the template writes is Markdown; what it prints from data is escaped.


class Markdown(str):
    """Text trusted as Markdown: the template's own text, the output of macros and blocks, and
    what ``card()``, ``toc()`` and the ``md``/``code`` filters return. Any other value printed
    with ``{{ }}`` is escaped first (:func:`escape_markdown`)."""


_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def escape_markdown(text: str) -> str:
    """``text`` as Markdown that reads back as exactly ``text``: every ASCII punctuation
    character gets a backslash (CommonMark §2.4) and line breaks become :data:`LINE_BREAK`,
    so a cell's ``*``, ``|``, ``#``, ``<`` or ``[`` is never markup and its line breaks stay
    inside their paragraph or table cell."""
    out = []
    for ch in str(text).replace("\r\n", "\n").replace("\r", "\n"):
        if ch in _PUNCT:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append(LINE_BREAK)
        else:
            out.append(ch)
    return "".join(out)


def _finalize(value: Any) -> str:
    if isinstance(value, Markdown):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_finalize(v) for v in value)
    return escape_markdown(str(value))


# --------------------------------------------------------------------------------------------
# The names a template sees


def _close(name: str, names) -> str | None:
    found = difflib.get_close_matches(str(name), [str(n) for n in names], n=1, cutoff=0.6)
    return found[0] if found else None


class _View:
    """Base of the read-only objects a template sees. ``_what`` describes the object in error
    messages; ``_names()`` lists the names it answers (for suggestions)."""

    _what = "this value"
    _kind = "attribute"
    _data: dict = {}

    def _names(self) -> list[str]:
        return list(self._data)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key) -> bool:
        return key in self._data


class TomlTable(_View):
    """A table of game.toml ([rules], [colors], the whole manifest) as seen by a template:
    ``rules.hand_limit`` or ``rules["hand_limit"]``; iterating gives the keys in file order."""

    _kind = "key"

    def __init__(self, data: dict, what: str):
        self._data = {k: _wrap_toml(v, f"{what[:-1]}.{k}]" if what.endswith("]") else f"{what} [{k}]")
                      for k, v in data.items()}
        self._what = what

    def __str__(self) -> str:
        return ", ".join(f"{k}: {_finalize(v)}" for k, v in self._data.items())


def _wrap_toml(value: Any, what: str) -> Any:
    if isinstance(value, dict):
        return TomlTable(value, what)
    if isinstance(value, list):
        return tuple(_wrap_toml(v, what) for v in value)
    return value


class RowView(_View):
    """One typed row of a table: ``row.cost`` or ``row["cost"]`` for each declared column.

    Values are typed as the manifest declares them (int, float, bool, str, a tuple for a list
    column, None for a blank cell); a ``ref`` cell is its id and also gives the referenced
    row's columns (``row.proof_token.label``). Iterating gives the column names.
    """

    _kind = "column"

    def __init__(self, game: Game, comp: Component, row: Row):
        from .build import resolved_values

        self._data = resolved_values(game, comp, row)
        self._what = f"a row of {comp.table_display or comp.id}"
        self._id = row.id

    def __str__(self) -> str:
        return str(self._id)


class ComponentView(_View):
    """One component: ``id``, ``kind``, ``name``, ``pieces`` (physical pieces in the box),
    ``copies`` (the manifest's copies, for a component without a copies column), ``rows``
    (RowView list in file order), ``columns`` (column names), ``table`` (the CSV file name or
    None), ``copies_column``, ``id_column``, ``card_size`` ("63.5 x 88.9 mm" or None),
    ``card_size_name``, ``back``, ``layout``; and every other manifest setting of the
    component by its key (``components.track.direction``)."""

    def __init__(self, game: Game, comp: Component):
        self.id = comp.id
        self.kind = comp.kind
        self.name = comp.name
        self.pieces = comp.pieces
        self.copies = comp.copies
        self.rows = [RowView(game, comp, r) for r in comp.rows]
        self.columns = list(comp.columns)
        self.table = comp.table.name if comp.table else None
        self.copies_column = comp.copies_column
        self.id_column = comp.id_column
        self.card_size = str(comp.card_size) if comp.card_size else None
        self.card_size_name = comp.card_size_name
        self.back = comp.back
        self.layout = comp.layout
        self._options = {k: _wrap_toml(v, f"[components.{comp.id}]") for k, v in comp.options.items()
                         if k != "ignore_columns"}
        self._what = f"component {comp.id!r}"

    _FIELDS = ("id", "kind", "name", "pieces", "copies", "rows", "columns", "table", "copies_column",
               "id_column", "card_size", "card_size_name", "back", "layout")

    def _names(self) -> list[str]:
        return list(self._FIELDS) + list(self._options)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._options[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        if key in self._FIELDS:
            return getattr(self, key)
        return self._options[key]

    def __str__(self) -> str:
        return self.name


class ComponentSet(_View):
    """Every component in manifest order: iterate it, or pick one by id
    (``components.blueprints`` or ``components["blueprints"]``)."""

    _what = "components"
    _kind = "component"

    def __init__(self, views: list[ComponentView]):
        self._data = {v.id: v for v in views}

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self._data.values())[key]
        return self._data[key]

    def __iter__(self):
        return iter(self._data.values())

    def __str__(self) -> str:
        return ", ".join(v.name for v in self._data.values())


class TableSet(_View):
    """The rows of every component that has a table, by component id (``tables.blueprints``);
    iterating gives the ids."""

    _what = "tables"
    _kind = "table"

    def __init__(self, views: list[ComponentView]):
        self._data = {v.id: v.rows for v in views if v.table}


class _Record(_View):
    """A fixed set of named values (``game``, ``page``, one of ``totals``)."""

    _fields: tuple[str, ...] = ()

    def __init__(self, **values: Any):
        for key in self._fields:
            object.__setattr__(self, key, values.pop(key))
        if values:
            raise TypeError(f"unexpected fields {sorted(values)}")

    def _names(self) -> list[str]:
        return list(self._fields)

    def __getitem__(self, key: str) -> Any:
        if key not in self._fields:
            raise KeyError(key)
        return getattr(self, key)

    def __setattr__(self, key, value):
        raise AttributeError(f"{self._what} is read-only")


class GameView(_Record):
    """``game`` in a template: ``id``, ``title``, ``players_min``, ``players_max``, ``players``
    (text: "2-4", or "2" when min = max) and ``pieces`` (every physical piece in the box)."""

    _what = "game"
    _fields = ("id", "title", "players_min", "players_max", "players", "pieces")

    def __str__(self) -> str:
        return self.title


class TotalView(_Record):
    """One stated total: ``component``, ``count`` (as the rulebook states it), ``label``,
    ``source`` (rulebook section), ``where`` (column -> value) and ``in_data`` (what the data
    holds)."""

    _what = "a stated total"
    _fields = ("component", "count", "label", "source", "where", "in_data")

    def __str__(self) -> str:
        return f"{self.count} {self.label}"


class PageView(_Record):
    """``page`` in a template: ``paper`` (the page size name: "a4", "letter", "a5",
    "half-letter"), ``booklet`` (true while the booklet pages are laid out), ``width_mm``,
    ``height_mm`` and ``frame_width_mm`` (the text column's width)."""

    _what = "page"
    _fields = ("paper", "booklet", "width_mm", "height_mm", "frame_width_mm")

    def __str__(self) -> str:
        return self.paper


_DEFAULT_PAGE = dict(paper="letter", booklet=False, width_mm=215.9, height_mm=279.4, frame_width_mm=179.9)


def template_context(game: Game, page: PageView | None = None) -> dict[str, Any]:
    """The data names a rulebook template sees (functions and filters are added by
    :func:`render_template`): ``game``, ``components``, ``tables``, ``totals``, ``rules``
    (game.toml [rules]), ``colors`` (game.toml [colors]), ``manifest`` (all of game.toml) and
    ``page``. See docs/rulebooks.md."""
    views = [ComponentView(game, c) for c in game]
    players = str(game.players_min) if game.players_min == game.players_max else \
        f"{game.players_min}-{game.players_max}"
    totals = [TotalView(component=t.component, count=t.count, label=t.label, source=t.source,
                        where=TomlTable(dict(t.where), f"the where of total {t.label!r}"),
                        in_data=game.count(t)) for t in game.totals]
    return {
        "game": GameView(id=game.id, title=game.title, players_min=game.players_min,
                         players_max=game.players_max, players=players, pieces=game.pieces),
        "components": ComponentSet(views),
        "tables": TableSet(views),
        "totals": totals,
        "rules": TomlTable(game.manifest.get("rules", {}), "game.toml [rules]"),
        "colors": TomlTable(game.manifest.get("colors", {}), "game.toml [colors]"),
        "manifest": TomlTable(game.manifest, "game.toml"),
        "page": page or PageView(**_DEFAULT_PAGE),
    }


# --------------------------------------------------------------------------------------------
# Filters


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def words(n: Any) -> str:
    """A whole number 0-99 in English words (12 -> "twelve", 34 -> "thirty-four"); any other
    value as written. Capitalise with ``|capitalize``."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 100:
        return str(n)
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("-" + _ONES[ones] if ones else "")


def plural(n: Any, singular: str, plural_form: str | None = None) -> str:
    """``singular`` when ``n`` is 1, else ``plural_form`` (default ``singular + "s"``):
    ``{{ n }} {{ n|plural("card") }}``."""
    return singular if n == 1 else (plural_form if plural_form is not None else singular + "s")


def md(value: Any) -> Markdown:
    """Trust ``value`` as Markdown (it is printed without escaping). Only for text you wrote."""
    return Markdown("" if value is None else str(value))


def code(value: Any) -> Markdown:
    """``value`` as an inline code span in the monospaced font, escaped correctly (backticks
    inside are handled; line breaks become spaces)."""
    text = "" if value is None else str(value).replace("\r", " ").replace("\n", " ")
    runs = [len(m) for m in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return Markdown(f"{fence}{pad}{text}{pad}{fence}")


def _pips(text: Any) -> list[str]:
    from .cost import pips

    return pips(text)


def items(value: Any) -> list:
    """``(key, value)`` pairs of a game.toml table, a row or a dict, in their own order."""
    if isinstance(value, TomlTable):
        return list(value._data.items())
    if isinstance(value, RowView):
        return list(value._data.items())
    if isinstance(value, dict):
        return list(value.items())
    raise TypeError(f"|items needs a table, not {type(value).__name__}")


def cost_terms(text: Any) -> list:
    """A cost in the shared notation (``2 H + O``, ``1 green + 3 any``, ``Fe + C + (Cr | Mn)``;
    pnp.cost) as its terms, each with ``count`` and ``options`` (one name, or the names of a
    choice). Raises ValueError(message, hint) for a cost that does not parse."""
    from .cost import parse_cost

    return parse_cost(text)


# --------------------------------------------------------------------------------------------
# Running the template


class _CallError(Exception):
    """Raised by a template function; turned into a RulebookError at the calling line."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


def _undefined_class():
    from jinja2 import StrictUndefined, UndefinedError

    class UnknownName(UndefinedError):
        def __init__(self, undefined):
            super().__init__(undefined._undefined_message)
            self.obj = undefined._undefined_obj
            self.name = undefined._undefined_name
            self.missing_obj = undefined._undefined_obj is _missing()

    class PnpUndefined(StrictUndefined):
        __slots__ = ()

        def _fail_with_undefined_error(self, *args, **kwargs):
            if self._undefined_exception is UndefinedError and self._undefined_hint is None:
                raise UnknownName(self)
            return StrictUndefined._fail_with_undefined_error(self, *args, **kwargs)

    for name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__",
                 "__rdiv__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__",
                 "__mod__", "__rmod__", "__pos__", "__neg__", "__call__", "__getitem__", "__lt__",
                 "__le__", "__gt__", "__ge__", "__int__", "__float__", "__complex__", "__pow__",
                 "__rpow__", "__iter__", "__str__", "__len__", "__eq__", "__ne__", "__bool__",
                 "__hash__", "__contains__"):
        setattr(PnpUndefined, name, PnpUndefined._fail_with_undefined_error)
    return PnpUndefined, UnknownName


def _missing():
    from jinja2.utils import missing

    return missing


@dataclass
class RenderedTemplate:
    """The Markdown a template produced, the template's display path, and the folder that
    relative image paths are read from."""

    markdown: str
    display: str
    templates_dir: Path


class _Template:
    """One rulebook template of one game, ready to render (loads lazily, reports by line)."""

    def __init__(self, game: Game, templates_dir: Path, templates_display: str):
        self.game = game
        self.dir = templates_dir
        display = templates_display.rstrip("/")
        if display.endswith("/layouts.toml"):  # the layouts file was named instead of its folder
            display = display[: -len("/layouts.toml")]
        self.display = display
        self.layouts = None
        self._env = None

    def file_display(self, filename: str | None) -> str:
        if not filename:
            return f"{self.display}/{TEMPLATE_NAME}"
        try:
            rel = Path(filename).resolve().relative_to(self.dir.resolve()).as_posix()
        except ValueError:
            rel = Path(filename).name
        return f"{self.display}/{rel}"

    def env(self):
        from jinja2 import FileSystemLoader
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        undefined, self._unknown = _undefined_class()
        env = ImmutableSandboxedEnvironment(
            loader=FileSystemLoader(str(self.dir)), undefined=undefined, autoescape=False,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, finalize=_finalize,
            auto_reload=False)
        env.concat = lambda parts: Markdown("".join(parts))
        env.filters.update({"md": md, "code": code, "words": words, "plural": plural, "pips": _pips,
                            "cost_terms": cost_terms, "items": items})
        env.globals.update({"card": self.card, "count": self.count, "toc": self.toc})
        return env

    # -- template functions ------------------------------------------------------------------
    def _component(self, component: Any) -> Component:
        comps = self.game.components
        if component not in comps:
            close = _close(component, comps)
            raise _CallError(f"there is no component {component!r}",
                             (f"did you mean {close!r}? " if close else "") + "components: " + ", ".join(comps))
        return comps[component]

    def toc(self, depth: int = 2) -> Markdown:
        """The table of contents, on its own line: H2 headings (``depth=1``) or H2 and H3
        headings (``depth=2``, the default) with their page numbers."""
        if depth not in (1, 2):
            raise _CallError(f"toc(depth={depth!r}): depth is 1 (sections) or 2 (sections and subsections)")
        marker = TOC_MARKER if depth == 2 else "[TOC 1]"
        return Markdown(f"\n\n{marker}\n\n")

    def count(self, component: str, **where: Any) -> int:
        """Pieces of ``component`` (copies summed) whose columns equal ``where``; rows when the
        component has no copies column; every piece when ``where`` is empty."""
        comp = self._component(component)
        for col in where:
            if col not in comp.columns:
                close = _close(col, comp.columns)
                raise _CallError(f"count({component!r}, {col}=...): {comp.table_display or component} "
                                 f"has no column {col!r}",
                                 f"did you mean {close!r}?" if close else "columns: " + ", ".join(comp.columns))
        if not where:
            return comp.pieces
        n = 0
        for row in comp.rows:
            if all(row.get(col) == want for col, want in where.items()):
                n += row.copies if comp.copies_column else 1
        return n

    def card(self, component: str, row: str, width: str | None = None, side: str = "face") -> Markdown:
        """Markdown image syntax for one card of a deck drawn with the game's own layouts:
        ``![name](card:component/row "width")``. ``width`` is a length (``"30mm"``) or a
        percentage of the text column (``"40%"``); default: the card's trim size, scaled down
        to fit. ``side`` is ``"face"`` or ``"back"``."""
        comp = self._component(component)
        if comp.kind != "deck" or comp.card_size is None:
            raise _CallError(f"card({component!r}, ...): {comp.name} is a {comp.kind}, not a deck of cards",
                             "card() draws cards of decks; decks: "
                             + ", ".join(c.id for c in self.game if c.kind == "deck"))
        rows = comp.by_id()
        if row not in rows:
            close = _close(row, rows)
            raise _CallError(f"card({component!r}, {row!r}): {comp.table_display} has no row with id {row!r}",
                             f"did you mean {close!r}?" if close else f"ids: {', '.join(list(rows)[:12])}")
        if side not in ("face", "back"):
            raise _CallError(f"card({component!r}, {row!r}, side={side!r}): side is 'face' or 'back'")
        if width is not None:
            try:
                _width_spec(str(width))
            except ValueError as exc:
                raise _CallError(f"card({component!r}, {row!r}, width={width!r}): {exc}") from None
        layout = comp.layout_of(rows[row]) if side == "face" else comp.back_of(rows[row])
        if not layout:
            raise _CallError(f"card({component!r}, {row!r}): the card has no {side} layout",
                             f"set layout/back for [components.{component}] in game.toml")
        try:
            self.load_layouts().get(layout, f"card({component!r}, {row!r})")
        except LayoutError as exc:
            raise _CallError(exc.render().replace("\n  hint: ", " (") + (")" if exc.hint else "")) from None
        name = rows[row].get("name") or rows[row].get("title") or row
        alt = escape_markdown(str(name).replace("\n", " "))
        title = f' "{width}"' if width is not None else ""
        target = f"card:{component}/{row}" + ("#back" if side == "back" else "")
        return Markdown(f"![{alt}]({target}{title})")

    def load_layouts(self):
        if self.layouts is None:
            from .build import game_layouts

            self.layouts = game_layouts(self.game, self.dir, f"{self.display}/layouts.toml")
        return self.layouts

    # -- rendering ---------------------------------------------------------------------------
    def render(self, page: PageView) -> RenderedTemplate:
        from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError
        from jinja2.exceptions import SecurityError

        path = self.dir / TEMPLATE_NAME
        main_display = f"{self.display}/{TEMPLATE_NAME}"
        if not path.is_file():
            raise RulebookError("no rulebook template", location=Location(main_display),
                                hint=f"write {TEMPLATE_NAME} beside layouts.toml; see docs/rulebooks.md")
        if self._env is None:
            self._env = self.env()
        env = self._env
        ctx = template_context(self.game, page)
        try:
            template = env.get_template(TEMPLATE_NAME)
            text = template.render(ctx)
        except TemplateSyntaxError as exc:
            raise RulebookError(f"the template does not parse: {exc.message}",
                                location=Location(self.file_display(exc.filename), exc.lineno),
                                hint="check the {{ }} and {% %} tags on this line") from None
        except self._unknown as exc:
            where, line, local_names = self._where(exc)
            message, hint = self._unknown_message(exc, env, ctx, local_names)
            raise RulebookError(message, location=Location(where, line), hint=hint) from None
        except _CallError as exc:
            where, line, _ = self._where(exc)
            raise RulebookError(exc.message, location=Location(where, line), hint=exc.hint) from None
        except TemplateNotFound as exc:
            where, line, _ = self._where(exc)
            raise RulebookError(f"no template {exc.name!r} to include", location=Location(where, line),
                                hint=f"included files live in {self.display}/") from None
        except SecurityError as exc:
            where, line, _ = self._where(exc)
            raise RulebookError(f"not allowed in a template: {exc}", location=Location(where, line)) from None
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as exc:
            where, line, _ = self._where(exc)
            if isinstance(exc, ValueError) and len(exc.args) == 2:
                message, hint = exc.args
            else:
                message, hint = str(exc) or type(exc).__name__, None
            raise RulebookError(message, location=Location(where, line), hint=hint) from None
        return RenderedTemplate(str(text), main_display, self.dir)

    def _where(self, exc: BaseException) -> tuple[str, int | None, list[str]]:
        """The innermost template file and line in the exception's traceback, and the
        template's local variable names there."""
        tb = exc.__traceback__
        found: tuple[str, int | None, list[str]] = (f"{self.display}/{TEMPLATE_NAME}", None, [])
        root = self.dir.resolve()
        while tb is not None:
            filename = tb.tb_frame.f_code.co_filename
            if filename and not filename.endswith(".py") and Path(filename).resolve().is_relative_to(root):
                names = []
                for key in tb.tb_frame.f_locals:
                    m = re.match(r"^l_\d+_(.+)$", key)
                    if m:
                        names.append(m.group(1))
                    elif not key.startswith("__") and not key.startswith("t_"):
                        names.append(key)
                found = (self.file_display(filename), tb.tb_lineno, names)
            tb = tb.tb_next
        return found

    def _unknown_message(self, exc, env, ctx: dict, local_names: list[str]) -> tuple[str, str | None]:
        name = exc.name
        if exc.missing_obj:
            names = sorted(set(ctx) | set(env.globals) | set(local_names))
            close = _close(name, names)
            hint = f"did you mean {close!r}?" if close else "names: " + ", ".join(
                n for n in names if not n.startswith("_"))
            return f"unknown name {name!r}", hint
        obj = exc.obj
        if isinstance(obj, _View):
            names = obj._names()
            close = _close(name, names)
            if isinstance(obj, (ComponentSet, TableSet)):
                message = f"there is no {obj._kind} {name!r}"
            else:
                message = f"{obj._what} has no {obj._kind} {name!r}"
            listed = ", ".join(names[:30]) + (" ..." if len(names) > 30 else "")
            return message, f"did you mean {close!r}?" if close else (f"{obj._kind}s: {listed}" if names else None)
        if isinstance(obj, dict):
            close = _close(name, obj)
            return (f"no key {name!r}", f"did you mean {close!r}?" if close else None)
        return str(exc), None


def render_template(game: Game, templates_dir: Path, templates_display: str,
                    page: PageView | None = None) -> RenderedTemplate:
    """Run ``templates_dir/rulebook.md.j2`` over ``game`` and return its Markdown.

    ``templates_display`` names the templates folder in messages (``templates/<game>``).
    Raises RulebookError with the template file and line for a misspelt name (with the closest
    name as a hint), a syntax error, a bad ``card()``/``count()`` call or a failing filter.
    """
    return _Template(game, templates_dir, templates_display).render(page or PageView(**_DEFAULT_PAGE))


# --------------------------------------------------------------------------------------------
# Styles and fonts


@dataclass(frozen=True)
class RulebookStyle:
    """Type sizes (pt) and colours of a rulebook's pages. ``base`` is the body size; the
    others scale from it. Margins are in pt."""

    base: float = 10.0
    margin: float = 18 * MM
    margin_bottom: float = 20 * MM
    ink: str = "#222222"
    accent: str = "#2F4A6D"
    muted: str = "#6B7079"
    rule: str = "#C5CBD3"
    shade: str = "#F1F3F6"
    callout: str = "#EEF2F7"


SINGLE_STYLE = RulebookStyle()
"""Single pages on A4 or Letter."""
BOOKLET_STYLE = RulebookStyle(base=9.0, margin=12 * MM, margin_bottom=14 * MM)
"""Booklet pages (A5, half-letter)."""

FONT_FAMILIES = {
    "pnp-sans": ("sans", "sans-bold", "sans-italic", "sans-bold-italic"),
    "pnp-mono": ("mono", "mono-bold", "mono", "mono-bold"),
}
"""PDF font families of the rulebook (regular, bold, italic, bold italic), all DejaVu TTF from
pnp.fonts; monospaced italic is drawn upright (DejaVu Sans Mono ships no oblique in the set)."""


def register_fonts() -> None:
    """Register the rulebook's DejaVu fonts and their bold/italic families with reportlab."""
    from reportlab.pdfbase.pdfmetrics import registerFontFamily

    for family, names in FONT_FAMILIES.items():
        pdf = [fonts.register(n) for n in names]
        registerFontFamily(family, normal=pdf[0], bold=pdf[1], italic=pdf[2], boldItalic=pdf[3])


def _styles(st: RulebookStyle) -> dict[str, Any]:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.enums import TA_LEFT
    from reportlab.lib.styles import ParagraphStyle

    register_fonts()
    b = st.base
    ink, accent = HexColor(st.ink), HexColor(st.accent)
    sans, bold = fonts.register("sans"), fonts.register("sans-bold")
    common = dict(fontName=sans, textColor=ink, alignment=TA_LEFT, bulletFontName=sans)
    body = ParagraphStyle("body", fontSize=b, leading=b * 1.42, spaceAfter=b * 0.6, allowWidows=0,
                          allowOrphans=0, **common)
    s = {
        "body": body,
        "tight": ParagraphStyle("tight", parent=body, spaceAfter=b * 0.2),
        "h1": ParagraphStyle("h1", parent=body, fontName=bold, fontSize=b * 2.4, leading=b * 2.8,
                             spaceBefore=0, spaceAfter=b * 0.8, textColor=accent, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=bold, fontSize=b * 1.55, leading=b * 1.9,
                             spaceBefore=b * 1.1, spaceAfter=b * 0.5, textColor=accent, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName=bold, fontSize=b * 1.18, leading=b * 1.5,
                             spaceBefore=b * 0.8, spaceAfter=b * 0.3, keepWithNext=1),
        "h4": ParagraphStyle("h4", parent=body, fontName=bold, spaceBefore=b * 0.5, spaceAfter=b * 0.2,
                             keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=b * 0.92, leading=b * 1.2, spaceAfter=0),
        "head": ParagraphStyle("head", parent=body, fontName=bold, fontSize=b * 0.92, leading=b * 1.2,
                               spaceAfter=0, textColor=HexColor("#FFFFFF")),
        "code": ParagraphStyle("code", parent=body, fontName=fonts.register("mono"), fontSize=b * 0.88,
                               leading=b * 1.25, spaceAfter=b * 0.6, backColor=HexColor(st.shade),
                               borderPadding=(b * 0.4, b * 0.5, b * 0.4, b * 0.5), leftIndent=b * 0.5,
                               rightIndent=b * 0.5),
        "toc0": ParagraphStyle("toc0", parent=body, fontName=bold, fontSize=b * 1.02, leading=b * 1.55,
                               spaceBefore=b * 0.25, spaceAfter=0),
        "toc1": ParagraphStyle("toc1", parent=body, fontSize=b * 0.95, leading=b * 1.35, leftIndent=b * 1.4,
                               spaceAfter=0),
        "footer": ParagraphStyle("footer", parent=body, fontSize=b * 0.8, textColor=HexColor(st.muted)),
    }
    return s


# --------------------------------------------------------------------------------------------
# Images: pictures and the game's own cards


def _width_spec(text: str) -> tuple[str, float]:
    """Parse an image width: a length (``"30mm"``) -> ("abs", pt) or ``"40%"`` -> ("pct", 0.4).
    Raises ValueError saying what is accepted."""
    text = text.strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", text)
    if m:
        pct = float(m.group(1))
        if not 0 < pct <= 100:
            raise ValueError(f"width {text!r} must be between 0 % and 100 %")
        return "pct", pct / 100
    try:
        value = parse_length(text)
    except ValueError:
        raise ValueError(f"width {text!r} is not a length (30mm, 1.5in) or a percentage (40%)") from None
    if value <= 0:
        raise ValueError(f"width {text!r} must be greater than zero")
    return "abs", value


class ImageItem:
    """One picture to place: its natural size in pt and how to draw it into a box."""

    width: float
    height: float

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:  # pragma: no cover
        raise NotImplementedError


class CardItem(ImageItem):
    """A card drawn as vectors with the game's layouts (pnp.layout.Renderer), clipped to its
    trim with rounded corners (radius 1/8 in, print-specs.md §5) and outlined with a hairline."""

    def __init__(self, renderer, piece, size: Size):
        self.renderer, self.piece, self.size = renderer, piece, size
        self.width, self.height = size.width, size.height

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        from reportlab.lib.colors import HexColor

        scale = w / self.size.width
        radius = 0.125 * 72 * scale
        canv.saveState()
        path = canv.beginPath()
        path.roundRect(x, y, w, h, radius)
        canv.clipPath(path, stroke=0, fill=0)
        canv.translate(x, y)
        canv.scale(scale, scale)
        self.renderer.draw(canv, self.piece, (0, 0, self.size.width, self.size.height), (0, 0, 0, 0))
        canv.restoreState()
        canv.saveState()
        canv.setStrokeColor(HexColor("#9AA0A8"))
        canv.setLineWidth(0.4)
        canv.roundRect(x, y, w, h, radius, stroke=1, fill=0)
        canv.restoreState()


class RasterItem(ImageItem):
    """A PNG or JPEG file; natural size from its pixel size at the DPI stored in the file
    (300 dpi when it stores none)."""

    def __init__(self, path: Path, label: str):
        from PIL import Image as PILImage
        from reportlab.lib.utils import ImageReader

        with PILImage.open(path) as im:
            self.px = im.size
            dpi = im.info.get("dpi", (300, 300))
        try:
            dpi_x = float(dpi[0]) or 300.0
            dpi_y = float(dpi[1]) or 300.0
        except (TypeError, ValueError, IndexError):
            dpi_x = dpi_y = 300.0
        self.width = self.px[0] / dpi_x * 72
        self.height = self.px[1] / dpi_y * 72
        self.reader = ImageReader(str(path))
        self.label = label

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        canv.drawImage(self.reader, x, y, w, h, mask="auto")


class SvgItem(ImageItem):
    """An SVG file drawn as vectors (svglib); natural size from the SVG's own size."""

    def __init__(self, path: Path, label: str):
        from svglib.svglib import svg2rlg

        drawing = svg2rlg(str(path))
        if drawing is None or not drawing.width or not drawing.height:
            raise ValueError(f"{label}: the SVG has no size or cannot be read")
        self.drawing = drawing
        self.width, self.height = float(drawing.width), float(drawing.height)

    def draw(self, canv, x: float, y: float, w: float, h: float) -> None:
        from reportlab.graphics import renderPDF

        canv.saveState()
        canv.translate(x, y)
        canv.scale(w / self.width, h / self.height)
        renderPDF.draw(self.drawing, canv, 0, 0)
        canv.restoreState()


@dataclass
class PlacedImage:
    """An image with the width the Markdown asked for (``spec``: None, ("abs", pt) or
    ("pct", fraction of the frame width))."""

    item: ImageItem
    spec: tuple[str, float] | None
    label: str


def _image_flow_class():
    from reportlab.platypus import Flowable

    class ImageFlow(Flowable):
        """Images side by side, wrapping onto new lines, centred, each scaled down to fit the
        frame (never up unless a width was asked for). Splits between lines."""

        def __init__(self, images: list[PlacedImage], gap: float, space_after: float,
                     findings: list[Finding] | None = None, where: str = ""):
            super().__init__()
            self.images = images
            self.gap = gap
            self.spaceAfter = space_after
            self.findings = findings
            self.where = where
            self._lines: list[list[tuple[PlacedImage, float, float]]] = []

        def _sizes(self, avail_w: float, avail_h: float) -> list[tuple[PlacedImage, float, float]]:
            out = []
            for im in self.images:
                w, h = im.item.width, im.item.height
                if im.spec is not None:
                    kind, value = im.spec
                    target = value if kind == "abs" else value * avail_w
                    w, h = target, h * target / w
                scale = min(1.0, avail_w / w, avail_h / h)
                out.append((im, w * scale, h * scale))
            return out

        def _layout(self, avail_w: float, avail_h: float):
            lines: list[list[tuple[PlacedImage, float, float]]] = []
            for entry in self._sizes(avail_w, avail_h):
                if lines:
                    used = sum(e[1] for e in lines[-1]) + self.gap * len(lines[-1])
                    if used + entry[1] <= avail_w + 0.01:
                        lines[-1].append(entry)
                        continue
                lines.append([entry])
            return lines

        def wrap(self, avail_w, avail_h):
            self._avail_w = avail_w
            self._lines = self._layout(avail_w, self._frame_h())
            self.width = avail_w
            self.height = self._height(self._lines)
            return avail_w, self.height

        def _frame_h(self) -> float:
            return getattr(self, "_max_h", 10_000.0)

        def _height(self, lines) -> float:
            return sum(max(e[2] for e in line) for line in lines) + self.gap * max(0, len(lines) - 1)

        def split(self, avail_w, avail_h):
            lines = self._layout(avail_w, self._frame_h())
            if len(lines) < 2:
                return []
            head: list = []
            for line in lines:
                trial = head + [line]
                if self._height(trial) > avail_h:
                    break
                head = trial
            if not head:
                return []
            n = sum(len(line) for line in head)
            first = ImageFlow(self.images[:n], self.gap, 0, self.findings, self.where)
            rest = ImageFlow(self.images[n:], self.gap, self.spaceAfter, self.findings, self.where)
            first._max_h = rest._max_h = self._frame_h()
            return [first, rest]

        def draw(self):
            if getattr(self.canv, "_pnp_draft", False):
                return  # a layout pass: only sizes matter
            y = self.height
            for line in self._lines:
                line_h = max(e[2] for e in line)
                total = sum(e[1] for e in line) + self.gap * (len(line) - 1)
                x = (self._avail_w - total) / 2
                for im, w, h in line:
                    im.item.draw(self.canv, x, y - line_h + (line_h - h) / 2, w, h)
                    if isinstance(im.item, RasterItem) and self.findings is not None:
                        dpi = im.item.px[0] / (w / 72)
                        key = (im.label, round(dpi))
                        if dpi < 299.5 and key not in {(f.location, f.message) for f in self.findings}:
                            self.findings.append(Finding(
                                "warning", "preflight.low-resolution", self.where,
                                f"{im.label} prints at {dpi:.0f} dpi, below 300 dpi",
                                hint=f"supply at least {int(w / 72 * 300 + 0.999)} px across, or ask for a smaller width"))
                    x += w + self.gap
                y -= line_h + self.gap

    return ImageFlow


# --------------------------------------------------------------------------------------------
# Markdown -> platypus


class _Resolver:
    """Turns a Markdown image target into an ImageItem: ``card:component/row[#back]`` draws a
    card of the game; any other target is a PNG, JPEG or SVG file relative to the templates
    folder (it must stay inside the templates folder or the game folder)."""

    def __init__(self, template: _Template | None, base: Path | None, display: str):
        self.template = template
        self.base = base
        self.display = display
        self._renderer = None
        self._cache: dict[str, ImageItem] = {}

    def __call__(self, src: str) -> ImageItem:
        if src in self._cache:
            return self._cache[src]
        item = self._card(src) if src.startswith("card:") else self._file(src)
        self._cache[src] = item
        return item

    def _card(self, src: str) -> ImageItem:
        from .build import piece_context
        from .layout import Piece, Renderer

        t = self.template
        if t is None:
            raise RulebookError(f"image {src!r}: cards can be drawn only for a game", location=Location(self.display))
        ref, _, side = src[5:].partition("#")
        cid, _, rid = ref.partition("/")
        comp = t.game.components.get(cid)
        row = comp.by_id().get(rid) if comp is not None and comp.id_column else None
        if comp is None or row is None or comp.card_size is None:
            raise RulebookError(f"image {src!r}: no card {ref!r} in this game", location=Location(self.display),
                                hint="draw cards with {{ card('component', 'row-id') }}")
        layout = comp.back_of(row) if side == "back" else comp.layout_of(row)
        if self._renderer is None:
            self._renderer = Renderer(t.load_layouts(), t.game.path)
        piece = Piece(f"{cid}/{rid}" + (" back" if side == "back" else ""), layout,
                      piece_context(t.game, comp, row, 1))
        return CardItem(self._renderer, piece, comp.card_size)

    def _file(self, src: str) -> ImageItem:
        where = Location(self.display)
        if re.match(r"^[a-z][a-z0-9+.\-]*:", src, re.I):
            raise RulebookError(f"image {src!r}: only files in the templates folder and card:... images "
                                "can be placed", location=where, hint="copy the picture beside the template")
        if self.base is None:
            raise RulebookError(f"image {src!r}: no folder to read images from", location=where)
        path = (self.base / src).resolve()
        allowed = [self.base.resolve()] + ([self.template.game.path.resolve()] if self.template else [])
        if not any(path == a or a in path.parents for a in allowed):
            raise RulebookError(f"image {src!r} is outside the templates and game folders", location=where,
                                hint="keep pictures beside the template")
        if not path.is_file():
            raise RulebookError(f"image {src!r} does not exist (looked for {path.name} in "
                                f"{self.display.rsplit('/', 1)[0]}/)", location=where,
                                hint="image paths are relative to the template's folder")
        suffix = path.suffix.lower()
        try:
            if suffix == ".svg":
                return SvgItem(path, src)
            if suffix in (".png", ".jpg", ".jpeg"):
                return RasterItem(path, src)
        except (OSError, ValueError) as exc:
            raise RulebookError(f"image {src!r} cannot be read: {exc}", location=where) from None
        raise RulebookError(f"image {src!r}: {suffix or 'no suffix'} is not a PNG, JPEG or SVG file", location=where)


def _plain(node) -> str:
    """The text of an inline node and its children, without markup."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak",):
        return " "
    if node.type == "hardbreak":
        return "\n"
    return "".join(_plain(c) for c in node.children)


def _inline_markup(text: str) -> str:
    return xml_escape(text).replace(LINE_BREAK, "<br/>")


class _Story:
    """Builds platypus flowables from a markdown-it syntax tree."""

    def __init__(self, styles: dict, st: RulebookStyle, frame_w: float, frame_h: float,
                 resolver: Callable[[str], ImageItem], display: str, findings: list[Finding]):
        self.s = styles
        self.st = st
        self.frame_w = frame_w
        self.frame_h = frame_h
        self.resolve = resolver
        self.display = display
        self.findings = findings
        self.heading_count = 0
        self.ImageFlow = _image_flow_class()
        self._glyph_seen: set[str] = set()

    # -- text --------------------------------------------------------------------------------
    def _check_glyphs(self, text: str, font: str = "sans") -> None:
        lacking = [ch for ch in fonts.missing(font, text.replace(LINE_BREAK, " ")) if ch not in self._glyph_seen]
        if lacking:
            self._glyph_seen.update(lacking)
            shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in lacking)
            self.findings.append(Finding("warning", "preflight.missing-glyph", self.display,
                                         f"the rulebook font has no glyph for {shown}",
                                         hint="use a character DejaVu Sans has, or write it out"))

    def inline(self, node) -> list[tuple[str, Any]]:
        """Segments of an inline node: ("text", platypus markup) and ("image", PlacedImage)."""
        out: list[tuple[str, Any]] = []

        def text(markup: str):
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + markup)
            else:
                out.append(("text", markup))

        def walk(n):
            t = n.type
            if t == "text":
                self._check_glyphs(n.content)
                text(_inline_markup(n.content))
            elif t == "softbreak":
                text(" ")
            elif t == "hardbreak":
                text("<br/>")
            elif t == "code_inline":
                self._check_glyphs(n.content, "mono")
                text(f'<font face="pnp-mono">{_inline_markup(n.content)}</font>')
            elif t in ("strong", "em"):
                tag = "b" if t == "strong" else "i"
                text(f"<{tag}>")
                for c in n.children:
                    walk(c)
                text(f"</{tag}>")
            elif t == "link":
                href = str(n.attrs.get("href", ""))
                if re.match(r"^(https?:|mailto:)", href):
                    text(f'<a href="{xml_escape(href, {chr(34): "&quot;"})}" color="{self.st.accent}"><u>')
                    for c in n.children:
                        walk(c)
                    text("</u></a>")
                else:
                    for c in n.children:
                        walk(c)
            elif t == "image":
                src = str(n.attrs.get("src", ""))
                title = n.attrs.get("title")
                spec = None
                if title:
                    try:
                        spec = _width_spec(str(title))
                    except ValueError as exc:
                        raise RulebookError(f"image {src!r}: {exc}", location=Location(self.display),
                                            hint='write the width as the image title: ![alt](file.png "40mm")') from None
                out.append(("image", PlacedImage(self.resolve(src), spec, src)))
            else:
                for c in n.children:
                    walk(c)
                if not n.children and n.content:
                    text(_inline_markup(n.content))

        for child in node.children:
            walk(child)
        return out

    def inline_flowables(self, node, style) -> list:
        """A paragraph's flowables: text as Paragraphs, runs of images as one ImageFlow."""
        from reportlab.platypus import Paragraph

        flows: list = []
        images: list[PlacedImage] = []

        def flush():
            if images:
                flows.append(self.ImageFlow(list(images), gap=self.st.base * 0.8, space_after=style.spaceAfter,
                                            findings=self.findings, where=self.display))
                images.clear()

        for kind, value in self.inline(node):
            if kind == "image":
                images.append(value)
            elif re.sub(r"(<br/>|\s)", "", value):
                flush()
                flows.append(Paragraph(value.strip(), style))
        flush()
        return flows

    # -- blocks ------------------------------------------------------------------------------
    def blocks(self, nodes, tight: bool = False) -> list:
        from reportlab.platypus import PageBreak, Paragraph, Preformatted

        flows: list = []
        nodes = list(nodes)
        for index, node in enumerate(nodes):
            t = node.type
            if t == "heading":
                flows.extend(self.heading(node))
            elif t == "paragraph":
                inline = node.children[0] if node.children else None
                toc = _TOC_RE.match(_plain(inline).strip()) if inline is not None else None
                if toc:
                    flows.append(self.toc(int(toc.group(1) or 2)))
                    continue
                style = self.s["tight"] if tight else self.s["body"]
                para = self.inline_flowables(inline, style) if inline is not None else []
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                if para and following is not None and following.type in LEAD_IN_TARGETS:
                    para[-1].keepWithNext = 1  # a lead-in sentence stays with what it introduces
                flows.extend(para)
            elif t in ("bullet_list", "ordered_list"):
                flows.append(self.listing(node))
            elif t == "table":
                flows.append(self.table(node))
            elif t == "blockquote":
                flows.append(self.callout(node))
            elif t in ("fence", "code_block"):
                self._check_glyphs(node.content, "mono")
                flows.append(Preformatted(node.content.rstrip("\n"), self.s["code"]))
            elif t == "hr":
                flows.append(PageBreak())
            elif t in ("html_block",):
                flows.append(Paragraph(_inline_markup(node.content), self.s["body"]))
            else:
                flows.extend(self.blocks(node.children, tight))
        return flows

    def heading(self, node) -> list:
        from reportlab.platypus import Paragraph

        level = int(node.tag[1])
        inline = node.children[0]
        style = self.s["h1"] if level == 1 else self.s["h2"] if level == 2 else \
            self.s["h3"] if level == 3 else self.s["h4"]
        segments = self.inline(inline)
        markup = "".join(v for k, v in segments if k == "text").strip()
        para = Paragraph(markup, style)
        if level in (2, 3):
            self.heading_count += 1
            para._pnp_toc = (level - 2, xml_escape(_plain(inline).strip()), f"h{self.heading_count}")
        out = [para]
        images = [v for k, v in segments if k == "image"]
        if images:
            out.append(self.ImageFlow(images, gap=self.st.base * 0.8, space_after=self.st.base * 0.6,
                                      findings=self.findings, where=self.display))
        return out

    def toc(self, depth: int):
        from reportlab.platypus.tableofcontents import TableOfContents

        class Contents(TableOfContents):
            def notify(self, kind, stuff):
                if kind == "TOCEntry" and stuff[0] >= depth:
                    return
                super().notify(kind, stuff)

        from reportlab.platypus import TableStyle

        style = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                            ("LEFTPADDING", (0, 0), (-1, -1), 0),
                            ("FONTNAME", (0, 0), (-1, -1), fonts.register("sans"))])
        return Contents(levelStyles=[self.s["toc0"], self.s["toc1"]], dotsMinLevel=0,
                        rightColumnWidth=self.st.base * 3, tableStyle=style)

    def listing(self, node):
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import ListFlowable, ListItem

        b = self.st.base
        ordered = node.type == "ordered_list"
        items = []
        for item in node.children:
            tight = all(c.type != "paragraph" or c.hidden for c in item.children)
            children = self.blocks(item.children, tight=tight)
            items.append(ListItem(children or [], spaceAfter=b * 0.25))
        kwargs = dict(bulletFontName=fonts.register("sans-bold") if ordered else fonts.register("sans"),
                      bulletFontSize=b, leftIndent=b * 1.7, bulletColor=HexColor(self.st.accent),
                      spaceAfter=b * 0.6)
        if ordered:
            start = int(node.attrs.get("start", 1) or 1)
            return ListFlowable(items, bulletType="1", start=str(start), bulletFormat="%s.", **kwargs)
        return ListFlowable(items, bulletType="bullet", start="\u2022", **kwargs)

    def callout(self, node):
        """A block quote: a shaded box with an accent bar, one row per block so it splits."""
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import Table, TableStyle

        b = self.st.base
        inner = self.blocks(node.children)
        rows = [[f] for f in inner] or [[""]]
        gaps = [("BOTTOMPADDING", (0, i), (0, i), f.getSpaceAfter() or 0) for i, f in enumerate(inner)]
        table = Table(rows, colWidths=[self.frame_w], splitByRow=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), HexColor(self.st.callout)),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, HexColor(self.st.accent)),
            ("LEFTPADDING", (0, 0), (-1, -1), b * 0.9),
            ("RIGHTPADDING", (0, 0), (-1, -1), b * 0.9),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, 0), b * 0.6),
            *gaps,
            ("BOTTOMPADDING", (0, -1), (-1, -1), b * 0.5),
            ("FONTNAME", (0, 0), (-1, -1), fonts.register("sans")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        table.spaceAfter = b * 0.8
        return table

    def table(self, node):
        """A Markdown table: header row repeated on every page it continues to, rows split
        between pages, column widths from the content, alignment from the ``:---:`` row."""
        from reportlab.lib.colors import HexColor
        from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.pdfbase.pdfmetrics import stringWidth
        from reportlab.platypus import Table, TableStyle

        b = self.st.base
        pad = b * 0.45
        rows_nodes = []
        for part in node.children:
            for tr in part.children:
                rows_nodes.append((part.type == "thead", tr))
        aligns: list[int] = []
        data: list[list] = []
        texts: list[list[str]] = []
        for is_head, tr in rows_nodes:
            row, plain = [], []
            for i, cell in enumerate(tr.children):
                style_attr = str(cell.attrs.get("style", ""))
                align = TA_CENTER if "center" in style_attr else TA_RIGHT if "right" in style_attr else TA_LEFT
                if is_head:
                    aligns.append(align)
                base = self.s["head"] if is_head else self.s["cell"]
                style = ParagraphStyle(f"{base.name}-{align}", parent=base, alignment=align)
                inline = cell.children[0] if cell.children else None
                flows = self.inline_flowables(inline, style) if inline is not None else []
                for f in flows:
                    f.spaceAfter = 0
                row.append(flows if len(flows) != 1 else flows[0])
                plain.append(_plain(inline) if inline is not None else "")
            data.append(row)
            texts.append(plain)
        ncols = max(len(r) for r in data)
        for r, p in zip(data, texts):
            while len(r) < ncols:
                r.append("")
                p.append("")
        font, bold = fonts.register("sans"), fonts.register("sans-bold")
        size = b * 0.92
        max_w, min_w = [0.0] * ncols, [0.0] * ncols
        for ri, p in enumerate(texts):
            f = bold if ri == 0 else font
            for ci, text in enumerate(p):
                lines = text.replace(LINE_BREAK, "\n").split("\n")
                longest = max((stringWidth(line, f, size) for line in lines), default=0)
                word = max((stringWidth(w, f, size) for w in text.split()), default=0)
                max_w[ci] = max(max_w[ci], longest + 2 * pad + 1)
                min_w[ci] = max(min_w[ci], word + 2 * pad + 1)
        avail = self.frame_w
        if sum(max_w) <= avail:
            widths = [w * avail / sum(max_w) for w in max_w] if sum(max_w) else [avail / ncols] * ncols
        elif sum(min_w) >= avail:
            widths = [w * avail / sum(min_w) for w in min_w]
        else:
            extra = avail - sum(min_w)
            spread = [mx - mn for mx, mn in zip(max_w, min_w)]
            widths = [mn + extra * sp / sum(spread) for mn, sp in zip(min_w, spread)]
        frame_h = self.frame_h

        class DataTable(Table):
            """Splits between rows, unless it is short enough to move to the next page whole."""

            def split(self, avail_w, avail_h):
                if len(data) <= KEEP_TOGETHER_ROWS and getattr(self, "_height", 0) <= frame_h:
                    return []
                return super().split(avail_w, avail_h)

        table = DataTable(data, colWidths=widths, repeatRows=1, splitByRow=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, 0), HexColor(self.st.accent)),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [HexColor("#FFFFFF"), HexColor(self.st.shade)]),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, HexColor(self.st.rule)),
            ("BOX", (0, 0), (-1, -1), 0.4, HexColor(self.st.rule)),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), pad * 0.7),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.9),
            ("FONTNAME", (0, 0), (-1, -1), font),
        ]))
        table.spaceBefore = b * 0.2
        table.spaceAfter = b * 0.9
        return table


LEAD_IN_TARGETS = ("table", "blockquote", "bullet_list", "ordered_list")
"""A paragraph followed by one of these Markdown blocks is kept on the same page as its start."""

KEEP_TOGETHER_ROWS = 10
"""A table of this many rows or fewer (header included) moves to the next page whole rather than
split; a longer one splits between rows and repeats its header row."""


@dataclass
class RulebookPdf:
    """A laid-out rulebook: the PDF bytes, its page count and preflight findings."""

    pdf: bytes
    pages: int
    findings: list[Finding] = field(default_factory=list)


def markdown_pdf(markdown: str, page: Size, *, title: str, style: RulebookStyle = SINGLE_STYLE,
                 resolver: Callable[[str], ImageItem] | None = None, display: str = "rulebook",
                 outer_numbers: bool = False) -> RulebookPdf:
    """Lay out ``markdown`` (CommonMark plus tables) on pages of ``page`` size (pt).

    - ``# H1`` is a title (kept out of the contents); ``## H2`` and ``### H3`` are listed in
      the table of contents (a paragraph holding only ``[TOC]``) and as PDF bookmarks.
    - ``---`` (a thematic break) starts a new page.
    - Tables repeat their header row on every page they run onto and split between rows.
    - Images: ``![alt](target "width")``; ``resolver`` turns a target into an ImageItem.
      Images in one paragraph sit side by side and wrap; every image is scaled to the frame.
    - Page 1 has no footer; every other page has the title and its page number in the footer
      (``outer_numbers``: numbers on the outer edge, odd pages right, even pages left, as in a
      booklet).

    Raises RulebookError for images that cannot be placed and BuildError for content that
    cannot fit a page. Same input, same bytes (reportlab invariant mode).
    """
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate
    from reportlab.platypus.doctemplate import LayoutError as RLLayoutError

    styles = _styles(style)
    findings: list[Finding] = []
    frame_w = page.width - 2 * style.margin
    frame_h = page.height - style.margin - style.margin_bottom

    def no_images(src: str) -> ImageItem:
        raise RulebookError(f"image {src!r}: this document has no images", location=Location(display))

    story_maker = _Story(styles, style, frame_w, frame_h, resolver or no_images, display, findings)
    parser = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    tree = SyntaxTreeNode(parser.parse(markdown))
    story = story_maker.blocks(tree.children)
    for flow in story:
        if hasattr(flow, "images"):
            flow._max_h = frame_h
    footer = styles["footer"]
    sans = fonts.register("sans")

    def on_page(canv, doc):
        n = canv.getPageNumber()
        if n == 1:
            return
        canv.saveState()
        canv.setFont(sans, footer.fontSize)
        canv.setFillColor(footer.textColor)
        canv.setStrokeColor(HexColor(style.rule))
        canv.setLineWidth(0.5)
        y = style.margin_bottom - 2.4 * footer.fontSize
        left, right = style.margin, page.width - style.margin
        canv.line(left, y + footer.fontSize * 1.3, right, y + footer.fontSize * 1.3)
        if outer_numbers and n % 2 == 0:
            canv.drawString(left, y, str(n))
            canv.drawRightString(right, y, title)
        else:
            canv.drawString(left, y, title)
            canv.drawRightString(right, y, str(n))
        canv.restoreState()

    class Doc(BaseDocTemplate):
        draft = False

        def handle_documentBegin(self):
            self.canv._pnp_draft = self.draft
            super().handle_documentBegin()

        def afterFlowable(self, flowable):
            entry = getattr(flowable, "_pnp_toc", None)
            if entry is None:
                return
            level, text, key = entry
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
                                      key, level=level, closed=True)
            self.notify("TOCEntry", (level, text, self.page, key))

    def make_doc(target, draft: bool):
        frame = Frame(style.margin, style.margin_bottom, frame_w, frame_h, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc = Doc(target, pagesize=(page.width, page.height), invariant=1, pageCompression=1,
                  title=title, subject=f"Rules of {title}", creator=f"pnp {__version__}", author="",
                  producer=f"pnp {__version__}", initialFontName=sans, initialFontSize=style.base,
                  leftMargin=style.margin, rightMargin=style.margin, topMargin=style.margin,
                  bottomMargin=style.margin_bottom)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
        doc.draft = draft
        return doc

    # Layout passes run without drawing pictures until the table of contents settles; one more
    # pass draws everything. (The contents flowable keeps its settled entries between passes;
    # platypus marks flowables it had to push to the next page, and those marks are undone
    # after every pass, as multiBuild does between its own passes.)
    indexing = [f for f in story if f.isIndexing()]

    def one_pass(target, draft: bool):
        doc = make_doc(target, draft)
        doc._doSave = 0 if draft else 1  # a layout pass is never written
        doc._indexingFlowables = indexing
        edits: list = []
        doc._multiBuildEdits = edits.append
        for fl in indexing:
            fl.beforeBuild()
        doc.build(story[:])
        for fl in indexing:
            fl.afterBuild()
        for edit in edits:
            edit[0](*edit[1:])
        return doc

    buf = io.BytesIO()
    try:
        for _ in range(8):
            one_pass(io.BytesIO(), draft=True)
            if all(fl.isSatisfied() for fl in indexing):
                break
        else:
            raise BuildError(f"{display}: the table of contents does not settle",
                             hint="a heading may move between pages as the contents grow; add a page break")
        doc = one_pass(buf, draft=False)
    except RLLayoutError as exc:
        raise BuildError(f"{display}: something in the rulebook is too big for a page: {str(exc)[:200]}",
                         hint="make the image or table smaller, or split it") from None
    return RulebookPdf(buf.getvalue(), doc.page, findings)


# --------------------------------------------------------------------------------------------
# Whole rulebooks


def rulebook_templates(game: Game, game_path: Path, game_display: str) -> tuple[Path, str]:
    """The templates folder of a game and its display name, as every command finds it
    (:func:`pnp.games.templates_for`): the bundled ``templates/<game id>`` for a bundled game,
    ``<game folder>/templates`` for any other."""
    from .games import templates_for

    folder, display = templates_for(game_path, game_display, game.id)
    return folder, display.rsplit("/", 1)[0]


@dataclass
class Rulebook:
    """A game's rulebook as PDFs: ``single`` pages in reading order (with their page count) and,
    if asked for, the imposed ``booklet`` bytes; ``booklet_pages`` counts the booklet's pages
    before padding to a multiple of 4; ``findings`` are the preflight findings of both."""

    single: RulebookPdf
    booklet: bytes | None = None
    booklet_pages: int = 0
    findings: list[Finding] = field(default_factory=list)


def _paper(paper: str) -> Size:
    key = paper.lower()
    if key not in PAPER_SIZES:
        raise BuildError(f"unknown paper {paper!r}", hint="papers: " + ", ".join(PAPER_SIZES))
    return PAPER_SIZES[key]


def render_rulebook(game: Game, templates_dir: Path, templates_display: str, paper: str = "letter",
                    booklet: bool = False) -> Rulebook:
    """Render a game's rulebook to PDF bytes (nothing is written).

    Single pages are laid out on ``paper`` (a4, letter, ...); with ``booklet`` the rulebook is
    laid out again on half sheets (A5 for a4, half-letter for letter; pnp.booklet) and imposed
    2-up. Raises RulebookError (template or Markdown), LayoutError (card layouts) or
    BuildError (paper, page overflow).
    """
    from .booklet import BOOKLET_PAGES, booklet_page, booklet_sheet, impose_booklet

    key = paper.lower()
    size = _paper(key)
    template = _Template(game, templates_dir, templates_display)
    display = f"{template.display}/{TEMPLATE_NAME}"
    jobs = [(key, size, SINGLE_STYLE, False)]
    if booklet:
        jobs.append((BOOKLET_PAGES.get(key, key), booklet_page(key), BOOKLET_STYLE, True))
    results = []
    for name, page_size, style, is_booklet in jobs:
        frame_mm = (page_size.width - 2 * style.margin) / MM
        view = PageView(paper=name, booklet=is_booklet, width_mm=round(page_size.width / MM, 1),
                        height_mm=round(page_size.height / MM, 1), frame_width_mm=round(frame_mm, 1))
        rendered = template.render(view)
        resolver = _Resolver(template, templates_dir, display)
        results.append(markdown_pdf(rendered.markdown, page_size, title=game.title, style=style,
                                    resolver=resolver, display=display, outer_numbers=is_booklet))
    findings = list(results[0].findings)
    book = Rulebook(results[0], findings=findings)
    if booklet:
        seen = {(f.rule, f.message) for f in findings}
        findings.extend(f for f in results[1].findings if (f.rule, f.message) not in seen)
        book.booklet = impose_booklet(results[1].pdf, booklet_sheet(key), title=f"{game.title} (booklet)",
                                      creator=f"pnp {__version__}")
        book.booklet_pages = results[1].pages
    return book


def build_rulebook(game: Game, templates_dir: Path, templates_display: str, out_dir: Path,
                   paper: str, booklet: bool):
    """Build a game's rulebook into ``out_dir``: ``<game>-rulebook.pdf`` (single pages on
    ``paper``) and, with ``booklet``, ``<game>-rulebook-booklet.pdf`` (2-up landscape sheets for
    duplex short-edge printing).

    ``templates_dir`` is the folder holding ``rulebook.md.j2`` (and layouts.toml for card
    images); ``templates_display`` names that folder in messages (``templates/<game>``).
    A game without a rulebook template builds nothing and gets an info finding
    ``rulebook.none``. Returns a pnp.build.BuildResult whose ``sheets`` counts the single
    pages. Files are written atomically and only after everything rendered. Raises
    RulebookError, LayoutError or BuildError.
    """
    from .build import BuildResult, write_atomic

    result = BuildResult()
    if not (templates_dir / TEMPLATE_NAME).is_file():
        result.findings.append(Finding("info", "rulebook.none", f"{templates_display.rstrip('/')}/{TEMPLATE_NAME}",
                                       "no rulebook template; no rulebook built",
                                       hint="write one to build the rulebook; see docs/rulebooks.md"))
        return result
    book = render_rulebook(game, templates_dir, templates_display, paper, booklet)
    outputs = [(out_dir / f"{game.id}-rulebook.pdf", book.single.pdf)]
    if book.booklet is not None:
        outputs.append((out_dir / f"{game.id}-rulebook-booklet.pdf", book.booklet))
    for path, data in outputs:
        write_atomic(path, data)
        result.files.append(path)
    result.sheets = book.single.pages
    result.findings = book.findings
    return result
