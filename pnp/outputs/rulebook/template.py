"""Running a rulebook template: ``rulebook.md.j2`` in a game's templates folder, in the Jinja2
sandbox (:mod:`pnp.design.templating`) over the game's views (:mod:`.views`), to Markdown.

Values printed with ``{{ }}`` are escaped, so text from a CSV cell is never read as Markdown; a
misspelt name stops with a :class:`~pnp.outputs.rulebook.markup.RulebookError` naming the
template file, the line, the name and the closest name. Besides the data, a template has the
functions ``card()``, ``count()``, ``toc()`` and ``back_cover()`` and the filters ``md``,
``code``, ``words``, ``plural``, ``pips``, ``cost_terms`` and ``items`` (docs/rulebooks.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Location, Problem, explain
from ...core.suggest import close_match
from ...design.layouts import game_layouts
from ...design.templating import bytecode_cache, sandbox
from ...model.cost import parse_cost, pips
from ...model.game import Component, Game
from ...model.games import RULEBOOK_FILE, GameSource
from .markup import BACK_COVER_MARKER, TOC_MARKER, Markdown, RulebookError, escape_markdown, finalize, width_spec
from .views import DEFAULT_PAGE, ComponentSet, PageView, RowView, TableSet, TomlTable, _View, template_context

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


def _numeral(catalogue):
    """``words`` in a translated rulebook: the English word's translation when the catalogue
    has one (an entry ``msgid "twelve"``), else the number in digits, never an English word."""
    def spell(n: Any) -> str:
        word = words(n)
        translated = catalogue.gettext(word)
        return translated if translated != word else str(n)
    return spell


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
    pnp.model.cost) as its terms, each with ``count`` and ``options`` (one name, or the names of a
    choice). Raises Problem for a cost that does not parse."""
    return parse_cost(text)


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


class TemplateText(Markdown):
    """A sentence of the template itself (``{% trans %}``, ``_()``), in the game's language:
    trusted Markdown like the rest of the template, whose ``%(name)s`` values are escaped as
    ``{{ name }}`` values are (:func:`finalize`)."""

    def __mod__(self, values: Any) -> Markdown:
        if isinstance(values, dict):
            return Markdown(str.__mod__(self, {k: finalize(v) for k, v in values.items()}))
        return Markdown(str.__mod__(self, values))


class _Template:
    """One rulebook template of one game, ready to render (loads lazily, reports by line)."""

    def __init__(self, game: Game, source: GameSource):
        self.game = game
        self.source = source
        self.dir = source.templates_dir
        self.display = source.templates_display
        self.layouts = None
        self._env = None

    def file_display(self, filename: str | None) -> str:
        if not filename:
            return f"{self.display}/{RULEBOOK_FILE}"
        try:
            rel = Path(filename).resolve().relative_to(self.dir.resolve()).as_posix()
        except ValueError:
            rel = Path(filename).name
        return f"{self.display}/{rel}"

    def env(self):
        from jinja2 import FileSystemLoader

        undefined, self._unknown = _undefined_class()
        env = sandbox(loader=FileSystemLoader(str(self.dir)), undefined=undefined, autoescape=False,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, finalize=finalize,
                      auto_reload=False, extensions=["jinja2.ext.i18n"],
                      bytecode_cache=bytecode_cache())
        catalogue = self.game.translations  # {% trans %} and _() read the game's language

        def gettext(text: str) -> TemplateText:
            return TemplateText(catalogue.gettext(text) if catalogue is not None else text)

        def ngettext(singular: str, plural_form: str, n: int) -> TemplateText:
            if catalogue is not None:
                return TemplateText(catalogue.ngettext(singular, plural_form, n))
            return TemplateText(singular if n == 1 else plural_form)

        env.install_gettext_callables(gettext, ngettext, newstyle=False)
        env.concat = lambda parts: Markdown("".join(parts))
        spell = words if catalogue is None else _numeral(catalogue)
        env.filters.update({"md": md, "code": code, "words": spell, "plural": plural, "pips": _pips,
                           "cost_terms": cost_terms, "items": items})
        env.globals.update({"card": self.card, "count": self.count, "toc": self.toc,
                            "back_cover": self.back_cover})
        return env

    # -- template functions ------------------------------------------------------------------
    def _component(self, component: Any) -> Component:
        comps = self.game.components
        if component not in comps:
            close = close_match(component, comps)
            raise Problem(f"there is no component {component!r}",
                          hint=(f"did you mean {close!r}? " if close else "") + "components: " + ", ".join(comps))
        return comps[component]

    def toc(self, depth: int = 2) -> Markdown:
        """The table of contents, on its own line: H2 headings (``depth=1``) or H2 and H3
        headings (``depth=2``, the default) with their page numbers."""
        if depth not in (1, 2):
            raise Problem(f"toc(depth={depth!r}): depth is 1 (sections) or 2 (sections and subsections)")
        marker = TOC_MARKER if depth == 2 else "[TOC 1]"
        return Markdown(f"\n\n{marker}\n\n")

    def back_cover(self) -> Markdown:
        """A new page, on its own line, that starts the back cover: in the booklet the padding
        blanks go before it, so it is the outside of the last sheet (a quick-reference page,
        say). In the single pages it is only a new page."""
        return Markdown(f"\n\n{BACK_COVER_MARKER}\n\n")

    def count(self, component: str, **where: Any) -> int:
        """Pieces of ``component`` whose columns equal ``where``, as stated totals and
        ``rules.toml`` count them (:meth:`pnp.model.game.Component.count`)."""
        comp = self._component(component)
        for col in where:
            if col not in comp.columns and col not in ("id", "copies"):
                close = close_match(col, comp.columns)
                raise Problem(f"count({component!r}, {col}=...): {comp.table_name or component} "
                              f"has no column {col!r}",
                              hint=f"did you mean {close!r}?" if close else "columns: " + ", ".join(comp.columns))
        return comp.count(where)

    def card(self, component: str, row: str, width: str | None = None, side: str = "face") -> Markdown:
        """Markdown image syntax for one card of a deck drawn with the game's own layouts:
        ``![name](card:component/row "width")``. ``width`` is a length (``"30mm"``) or a
        percentage of the text column (``"40%"``); default: the card's trim size, scaled down
        to fit. ``side`` is ``"face"`` or ``"back"``."""
        comp = self._component(component)
        if comp.kind != "deck" or comp.card_size is None:
            raise Problem(f"card({component!r}, ...): {comp.name} is a {comp.kind}, not a deck of cards",
                          hint="card() draws cards of decks; decks: "
                          + ", ".join(c.id for c in self.game if c.kind == "deck"))
        rows = comp.by_id()
        if row not in rows:
            close = close_match(row, rows)
            raise Problem(f"card({component!r}, {row!r}): {comp.table_name} has no row with id {row!r}",
                          hint=f"did you mean {close!r}?" if close else
                          (f"ids: {', '.join(list(rows)[:12])}" if rows else f"{comp.table_name} has no rows"))
        if side not in ("face", "back"):
            raise Problem(f"card({component!r}, {row!r}, side={side!r}): side is 'face' or 'back'")
        if width is not None:
            try:
                width_spec(str(width))
            except ValueError as exc:
                raise Problem(f"card({component!r}, {row!r}, width={width!r}): {exc}") from None
        layout = comp.layout_of(rows[row]) if side == "face" else comp.back_of(rows[row])
        if not layout:
            raise Problem(f"card({component!r}, {row!r}): the card has no {side} layout",
                          hint=f"set layout/back for [components.{component}] in game.toml")
        # a layouts file that does not load is the cards' error, with its own place: it passes on
        # unchanged (a layout the file lacks is found where the card is drawn, as on the sheets)
        self.load_layouts()
        name = rows[row].get("name") or rows[row].get("title") or row
        alt = escape_markdown(str(name).replace("\n", " "))
        title = f' "{width}"' if width is not None else ""
        target = f"card:{component}/{row}" + ("#back" if side == "back" else "")
        return Markdown(f"![{alt}]({target}{title})")

    def load_layouts(self):
        if self.layouts is None:
            self.layouts = game_layouts(self.game, self.source)
        return self.layouts

    # -- rendering ---------------------------------------------------------------------------
    def render(self, page: PageView) -> RenderedTemplate:
        from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError
        from jinja2.exceptions import SecurityError

        path = self.dir / RULEBOOK_FILE
        main_display = f"{self.display}/{RULEBOOK_FILE}"
        if not path.is_file():
            raise RulebookError("no rulebook template", location=Location(main_display),
                                hint=f"write {RULEBOOK_FILE} beside layouts.toml; see docs/rulebooks.md")
        if self._env is None:
            self._env = self.env()
        env = self._env
        ctx = template_context(self.game, page)
        try:
            template = env.get_template(RULEBOOK_FILE)
            text = template.render(ctx)
        except TemplateSyntaxError as exc:
            raise RulebookError(f"the template does not parse: {exc.message}",
                                location=Location(self.file_display(exc.filename), exc.lineno),
                                hint="check the {{ }} and {% %} tags on this line") from None
        except self._unknown as exc:
            where, line, local_names = self._where(exc)
            message, hint = self._unknown_message(exc, env, ctx, local_names)
            raise RulebookError(message, location=Location(where, line), hint=hint) from None
        except Problem as exc:  # a template function or filter was called wrongly
            where, line, _ = self._where(exc)
            raise RulebookError(exc.message, location=Location(where, line), hint=exc.hint or None) from None
        except TemplateNotFound as exc:
            where, line, _ = self._where(exc)
            raise RulebookError(f"no template {exc.name!r} to include", location=Location(where, line),
                                hint=f"included files live in {self.display}/") from None
        except SecurityError as exc:
            where, line, _ = self._where(exc)
            raise RulebookError(f"not allowed in a template: {exc}", location=Location(where, line)) from None
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError,
                NameError) as exc:  # NameError: arithmetic out of range (core.errors.explain)
            where, line, _ = self._where(exc)
            message, hint = explain(exc)
            raise RulebookError(message, location=Location(where, line), hint=hint) from None
        return RenderedTemplate(str(text), main_display, self.dir)

    def _where(self, exc: BaseException) -> tuple[str, int | None, list[str]]:
        """The innermost template file and line in the exception's traceback, and the
        template's local variable names there."""
        tb = exc.__traceback__
        found: tuple[str, int | None, list[str]] = (f"{self.display}/{RULEBOOK_FILE}", None, [])
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
            close = close_match(name, names)
            hint = f"did you mean {close!r}?" if close else "names: " + ", ".join(
                n for n in names if not n.startswith("_"))
            return f"unknown name {name!r}", hint
        obj = exc.obj
        if isinstance(obj, _View):
            names = obj._names()
            close = close_match(name, names)
            if isinstance(obj, (ComponentSet, TableSet)):
                message = f"there is no {obj._kind} {name!r}"
            else:
                message = f"{obj._what} has no {obj._kind} {name!r}"
            listed = ", ".join(names[:30]) + (" ..." if len(names) > 30 else "")
            return message, f"did you mean {close!r}?" if close else (f"{obj._kind}s: {listed}" if names else None)
        if isinstance(obj, dict):
            close = close_match(name, obj)
            return (f"no key {name!r}", f"did you mean {close!r}?" if close else None)
        return str(exc), None


def render_template(game: Game, source: GameSource, page: PageView | None = None) -> RenderedTemplate:
    """Run ``rulebook.md.j2`` of the game's templates folder (``source``) over ``game`` and
    return its Markdown.

    Raises RulebookError with the template file and line for a misspelt name (with the closest
    name as a hint), a syntax error, a bad ``card()``/``count()`` call or a failing filter.
    """
    return _Template(game, source).render(page or PageView(**DEFAULT_PAGE))
