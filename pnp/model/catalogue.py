"""A game's translation catalogues: one gettext ``.po`` file per language in ``i18n/<lang>.po``,
read and written with Babel (docs/translating.md says why ``.po``).

Every string players read and a translator translates is a :class:`SourceString`:

- a cell of a ``translatable`` column, keyed by ``msgctxt`` ``<component>/<row id>/<column>``
  (so a translation stays with its row when rows move or are sorted), with the cell's source
  text as ``msgid``;
- a ``{% trans %}`` block or ``_()`` call of a rulebook template (``*.j2`` in the game's
  templates folder), without a context: the same sentence is translated once.

A translation is *stale* when the source text changed after it was translated: the entry's
``msgid`` (the source text it was made from) differs from the cell, or ``pnp i18n extract``
marked it ``fuzzy`` and kept the earlier source as ``#| msgid`` for the translator.
"""

from __future__ import annotations

import difflib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..core.errors import DataError, Location
from .game import Game

CATALOGUE_DIR = "i18n"
"""The folder of a game's catalogues, inside the game folder."""

FUZZY_CUTOFF = 0.6
"""How alike (difflib ratio) an earlier template sentence must be to a new one for its
translation to be carried over, marked fuzzy, when the sentence changed."""


@dataclass(frozen=True)
class SourceString:
    """One translatable string of the source language. ``context`` is
    ``<component>/<row id>/<column>`` for a cell and None for a template sentence; ``where``
    is the cell or the template line."""

    context: str | None
    text: str
    where: Location
    plural: str | None = None
    """The plural source of a sentence with ``{% pluralize %}`` (its catalogue entry has one
    translation per plural form of the language)."""

    @property
    def key(self) -> tuple[str, str | None]:
        """How the catalogue finds this string's entry: by context for a cell (whatever its
        source text is now), by source text for a template sentence."""
        return ("ctx", self.context) if self.context is not None else ("id", self.text)


def cell_context(component: str, row_id: str, column: str) -> str:
    """The ``msgctxt`` of one table cell."""
    return f"{component}/{row_id}/{column}"


def catalogue_path(game: Game, lang: str) -> Path:
    """Where the catalogue of ``lang`` is: ``<game>/i18n/<lang>.po``."""
    return game.path / CATALOGUE_DIR / f"{lang}.po"


def catalogue_display(game: Game, lang: str) -> str:
    """How messages name the catalogue of ``lang``."""
    return f"{game.display_root}/{CATALOGUE_DIR}/{lang}.po"


def cell_strings(game: Game) -> list[SourceString]:
    """Every non-blank cell of a translatable column, in manifest, row and column order."""
    out = []
    for comp in game:
        columns = [name for name, spec in comp.columns.items() if spec.translatable]
        for row in comp.rows:
            if row.id is None:
                continue
            for name in columns:
                value = row.values.get(name)
                if isinstance(value, str) and value.strip():
                    out.append(SourceString(cell_context(comp.id, row.id, name), value, row.location(name)))
    return out


def template_strings(templates_dir: Path | None, templates_display: str) -> list[SourceString]:
    """Every ``{% trans %}`` block and ``_()``/``gettext()``/``ngettext()`` call of the Jinja2
    templates (``*.j2``) in ``templates_dir``, in file and line order, then the literal labels
    of ``layouts.toml`` and ``boards.toml`` there (``text = "{{ _('Cost') }}"``), each sentence
    once. Raises DataError for a template Jinja2 cannot parse, naming the file and line."""
    if templates_dir is None or not Path(templates_dir).is_dir():
        return []
    from jinja2 import TemplateSyntaxError
    from jinja2.ext import babel_extract

    out: list[SourceString] = []
    seen: set[str] = set()
    for path in sorted(Path(templates_dir).rglob("*.j2")):
        display = f"{templates_display}/{path.relative_to(templates_dir).as_posix()}"
        options = {"trim_blocks": "true", "lstrip_blocks": "true", "keep_trailing_newline": "true",
                   "extensions": "jinja2.ext.i18n"}
        try:
            with path.open("rb") as fh:
                found = list(babel_extract(fh, ("_", "gettext", "ngettext"), [], options))
        except TemplateSyntaxError as exc:
            raise DataError(f"the template cannot be read for translation: {exc.message}",
                            location=Location(display, exc.lineno), rule="i18n.template") from None
        out += _new_sentences(found, display, seen)
    for name in ("layouts.toml", "boards.toml"):
        path = Path(templates_dir) / name
        if path.is_file():
            out += _layout_strings(path, f"{templates_display}/{name}", seen)
    return out


def _new_sentences(found, display: str, seen: set[str], lines: list[str] | None = None) -> list[SourceString]:
    """SourceStrings of babel_extract's results not yet ``seen``; with ``lines`` (a file's
    lines), each is placed on the first line that holds its text."""
    out = []
    for lineno, _func, message, _comments in found:
        text, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
        if text and text not in seen:
            seen.add(text)
            if lines is not None:
                head = text.split("%(")[0].splitlines()[0][:40] if text.split("%(")[0].strip() else text
                lineno = next((i for i, line in enumerate(lines, 1) if head in line), None)
            out.append(SourceString(None, text, Location(display, lineno), plural))
    return out


def _wordlike(label: str) -> bool:
    """Whether an icon's label is a word to translate (``ANY``, ``RED``): three letters or
    more and no digit, subscript or ``/``, so element symbols (``Cu``), formulas (``H₂O``) and
    choices (``Cr/Mn``) stay as they are."""
    return sum(ch.isalpha() for ch in label) >= 3 and not any(ch.isdigit() or ch == "/" for ch in label)


def _layout_strings(path: Path, display: str, seen: set[str]) -> list[SourceString]:
    """The labels of a layouts file's icons that are words (:func:`_wordlike`), then the
    ``_("...")`` labels and ``{% trans %}`` blocks of its template strings (a TOML file that cannot be read has none here: loading the layouts reports it)."""
    import tomllib

    from jinja2 import TemplateSyntaxError
    from jinja2.ext import babel_extract

    try:
        text = path.read_text(encoding="utf-8-sig")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    values: list[str] = []
    stack: list = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and ("_(" in item or "trans" in item):
            values.append(item)
    out = []
    lines = text.splitlines()
    for name, icon in sorted((data.get("icons") or {}).items()):
        label = icon.get("label") if isinstance(icon, dict) else None
        if isinstance(label, str) and _wordlike(label) and label not in seen:
            seen.add(label)
            line = next((i for i, row in enumerate(lines, 1) if f'"{label}"' in row), None)
            out.append(SourceString(None, label, Location(display, line, column_name=f"icons.{name}.label")))
    for value in values:
        if "{{" not in value and "{%" not in value:
            value = "{{ (" + value + ") }}"  # an expression setting (items, when)
        try:
            found = list(babel_extract(io.BytesIO(value.encode()), ("_", "gettext", "ngettext"), [],
                                       {"extensions": "jinja2.ext.i18n"}))
        except TemplateSyntaxError:
            continue  # drawing the layout reports the template's error
        out += _new_sentences(found, display, seen, text.splitlines())
    return out


@dataclass
class Catalogue:
    """The catalogue of one language as read: its Babel ``Catalog``, where it is, and its
    entries by context (cells) and by source text (template sentences)."""

    lang: str
    display: str
    catalog: object
    by_context: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, lang: str, display: str, catalog) -> "Catalogue":
        cat = cls(lang, display, catalog)
        for message in catalog:
            if message.id and message.context is not None:
                cat.by_context[message.context] = message
        return cat

    def entry(self, source: SourceString):
        """The entry for ``source`` (a Babel ``Message``) or None."""
        if source.context is not None:
            return self.by_context.get(source.context)
        return self.catalog.get(source.text)

    def where(self, message) -> Location:
        """The catalogue line of an entry (its ``msgid`` line)."""
        return Location(self.display, getattr(message, "lineno", None))

    # -- template gettext ----------------------------------------------------------------------
    def gettext(self, text: str) -> str:
        """The translation of a template sentence; the source text when it has none that is
        current (missing or fuzzy), as gettext does."""
        message = self.catalog.get(text)
        if message is None or message.fuzzy or not isinstance(message.string, str) or not message.string:
            return text
        return message.string

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """A plural sentence: its translated form for ``n``, or the source's."""
        message = self.catalog.get(singular)
        if message is None or message.fuzzy or not isinstance(message.string, tuple) \
                or not all(message.string):
            return singular if n == 1 else plural
        import gettext

        index = int(gettext.c2py(self.catalog.plural_expr)(n))  # the catalogue's Plural-Forms rule
        return message.string[min(index, len(message.string) - 1)]


def read_catalogue(path: Path, display: str, lang: str) -> Catalogue:
    """Read the ``.po`` file at ``path``. Raises DataError naming the file and line for a file
    that is not UTF-8 or not gettext syntax."""
    from babel.messages.pofile import PoFileError, read_po

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read the catalogue: {exc.strerror}", location=Location(display),
                        rule="i18n.catalogue") from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError("the catalogue is not UTF-8 text", location=Location(display), rule="i18n.catalogue",
                        hint="save it as UTF-8 (every translation tool can)") from None
    try:
        catalog = read_po(io.BytesIO(data), locale=lang.replace("-", "_"), abort_invalid=True, charset="utf-8")
    except PoFileError as exc:
        line = getattr(exc, "lineno", None)
        raise DataError(f"the catalogue is not gettext .po syntax: {exc}", location=Location(display, line),
                        rule="i18n.catalogue",
                        hint="open it in a .po editor (Poedit) or run pnp i18n extract on a copy") from None
    for message in list(catalog) + list(catalog.obsolete.values()):
        _previous_from_comments(message)
    return Catalogue.of(lang, display, catalog)


def _previous_from_comments(message) -> None:
    """Babel reads a ``#| msgid`` line (the source an entry was translated from) as a user
    comment ``| msgid ...``; give it back as the entry's ``previous_id`` so it is kept once."""
    from babel.messages.pofile import unescape

    parts: list[str] = []
    rest = []
    for comment in message.user_comments:
        if comment.startswith("| msgid "):
            parts = [comment[len("| msgid "):]]
        elif comment.startswith('| "') and parts:
            parts.append(comment[2:])
        else:
            rest.append(comment)
    if parts:
        message.previous_id = ["".join(unescape(p.strip()) for p in parts)]
        message.user_comments = rest


@dataclass
class ExtractStats:
    """What :func:`update_catalogue` did: entries ``kept`` as they were, ``added`` (new source
    strings), ``stale`` (source changed: kept translation marked fuzzy), ``dropped`` (source
    strings gone, kept as obsolete ``#~`` entries)."""

    kept: int = 0
    added: int = 0
    stale: int = 0
    dropped: int = 0


def update_catalogue(game: Game, lang: str, strings: Iterable[SourceString], old=None):
    """The catalogue of ``lang`` for ``strings``: every earlier translation kept; a string whose
    source changed keeps its translation marked ``fuzzy`` with the earlier source as the
    previous msgid (``#|``); a new string has an empty translation; one no longer in the game
    is kept obsolete (``#~``). ``old`` is the earlier Babel Catalog or None. Returns
    (Catalog, :class:`ExtractStats`)."""
    from babel.messages.catalog import Catalog, Message

    source_lang = game.languages[0] if game.languages else "the source language"
    catalog = Catalog(locale=lang.replace("-", "_"), project=game.title, charset="utf-8", fuzzy=False,
                      header_comment=f"# {game.title}: the {lang} translation of its {source_lang} texts.\n"
                      "# Written by pnp i18n extract, which keeps every translation (docs/translating.md).")
    catalog.version = "1"
    catalog.msgid_bugs_address = ""
    if old is not None:  # what translators' tools wrote in the header stays
        catalog.creation_date, catalog.revision_date = old.creation_date, old.revision_date
        catalog.last_translator, catalog.language_team = old.last_translator, old.language_team
        catalog.version = old.version or "1"
    else:
        catalog.revision_date = catalog.creation_date
    stats = ExtractStats()
    old_ctx = {m.context: m for m in old if m.id and m.context is not None} if old is not None else {}
    old_plain = {_source(m.id): m for m in old if m.id and m.context is None} if old is not None else {}
    used: set[tuple] = set()
    strings = list(strings)
    new_plain = {s.text for s in strings if s.context is None}
    for s in strings:
        file = str(s.where.file)
        file = file[len(game.display_root) + 1:] if file.startswith(game.display_root + "/") else file
        location = [(file, s.where.line)] if s.where.line else []
        prev = old_ctx.get(s.context) if s.context is not None else old_plain.get(s.text)
        if prev is None and s.context is None:
            gone = [m for text, m in old_plain.items() if text not in new_plain and (text, None) not in used]
            close = difflib.get_close_matches(s.text, [_source(m.id) for m in gone], n=1, cutoff=FUZZY_CUTOFF)
            if close:
                prev = old_plain[close[0]]
        message = Message((s.text, s.plural) if s.plural else s.text, ("", "") if s.plural else "",
                          locations=location, context=s.context)
        if prev is None:
            stats.added += 1
        else:
            used.add((prev.id, prev.context))
            message.string = prev.string if isinstance(prev.string, tuple) == bool(s.plural) else message.string
            message.user_comments = list(prev.user_comments)
            if _source(prev.id) != s.text and prev.string:
                message.flags.add("fuzzy")
                message.previous_id = list(prev.id) if isinstance(prev.id, tuple) else [prev.id]
                stats.stale += 1
            elif prev.fuzzy:
                message.flags.add("fuzzy")
                message.previous_id = list(prev.previous_id)
                stats.stale += 1
            else:
                stats.kept += 1
        catalog[s.text] = message
    if old is not None:
        for m in list(old) + list(old.obsolete.values()):
            if m.id and (m.id, m.context) not in used and m.string:
                if catalog.get(m.id, m.context) is None:
                    catalog.obsolete[(_source(m.id), m.context) if m.context else _source(m.id)] = m
                    stats.dropped += 1
    return catalog, stats


def _source(msgid) -> str:
    """The singular source of an entry's msgid (a plural entry's id is a pair)."""
    return msgid[0] if isinstance(msgid, tuple) else msgid


def write_catalogue(catalog) -> bytes:
    """The ``.po`` text of ``catalog``, without line-wrapping churn (width 79), entries in the
    order of the game (tables, then templates)."""
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, width=79, include_previous=True, sort_output=False, omit_header=False)
    return buf.getvalue()
