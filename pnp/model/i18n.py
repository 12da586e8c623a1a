"""A game in one of its languages: the tables' translatable cells replaced by the catalogue's
translations (:mod:`pnp.model.catalogue`) after the tables are read and before any layout or
template evaluates, with a finding for every string that could not be translated faithfully.

Findings (warnings unless said), each naming the catalogue file and line and the table cell or
template line:

- ``i18n.missing``: no translation (or no catalogue); the source text is used;
- ``i18n.stale``: the source changed since it was translated (the entry's msgid is not the
  cell's text, or the entry is fuzzy); the source text is used, as gettext does;
- ``i18n.placeholders`` (error): the translation has other icons (``:name:``), variables
  (``{{ x }}``, ``{x}``, ``%(x)s``), markup runs (``**``, ``*``) or numbered tags (``<1>``)
  than its source, so a card would print without an icon or with a raw token; not used.

Numbers, counts, ids and every column not declared ``translatable`` are never touched.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

from ..core.errors import Location, ManifestError
from ..core.findings import Finding
from ..core.suggest import did_you_mean
from .catalogue import (Catalogue, SourceString, catalogue_display, catalogue_path, cell_context, cell_strings,
                        read_catalogue, template_strings, update_catalogue, write_catalogue)
from .game import Game

PLACEHOLDERS = (
    ("icon", re.compile(r":[A-Za-z0-9_\-]+:")),
    ("variable", re.compile(r"\{\{.*?\}\}|\{[A-Za-z_][\w.]*\}|%\([A-Za-z_]\w*\)[sd]")),
    ("tag", re.compile(r"</?\d+>")),
    ("bold", re.compile(r"\*\*")),
    ("italic", re.compile(r"(?<!\*)\*(?!\*)")),
)
"""What must be the same in a source text and its translation, by kind: inline icons,
template variables, numbered tags, and the markers of bold and italic runs."""


def placeholders(text: str) -> Counter:
    """The placeholders of ``text`` as a Counter of (kind, token); markup markers count by kind."""
    found: Counter = Counter()
    rest = text
    for kind, pattern in PLACEHOLDERS:
        for m in pattern.finditer(rest):
            found[(kind, m.group(0))] += 1
        rest = pattern.sub(" ", rest)
    return found


def placeholder_difference(source: str, translation: str) -> str:
    """What the translation drops or adds against its source (``drops :shield:; adds {n}``), or
    '' when both hold the same placeholders."""
    a, b = placeholders(source), placeholders(translation)
    parts = []
    dropped = sorted((a - b).elements())
    added = sorted((b - a).elements())
    if dropped:
        parts.append("drops " + ", ".join(_name(k, t) for k, t in dropped))
    if added:
        parts.append("adds " + ", ".join(_name(k, t) for k, t in added))
    return "; ".join(parts)


def _name(kind: str, token: str) -> str:
    return {"bold": "a ** (bold) marker", "italic": "a * (italic) marker"}.get(kind, token)


def check_language(game: Game, lang: str) -> None:
    """Raise ManifestError at ``[game] languages`` when ``lang`` is not one of the game's."""
    if not game.languages:
        raise ManifestError(f"{game.id} declares no languages, so there is no {lang!r} to build",
                            location=game.key_location("game"),
                            hint='add languages = ["en", "' + lang + '"] under [game] (the source first)',
                            rule="i18n.language")
    if lang not in game.languages:
        raise ManifestError(f"{lang!r} is not one of the languages of {game.id} ({', '.join(game.languages)})",
                            location=game.key_location("game.languages"), rule="i18n.language",
                            hint=did_you_mean(lang, game.languages) or "add it to [game] languages")


def translate(game: Game, lang: str, templates_dir: Path | None = None, templates_display: str = "templates"
              ) -> tuple[Game, list[Finding]]:
    """``game`` in language ``lang``: a new Game (the original is not changed) whose translatable
    cells hold their translations, ``language`` set and ``translations`` the catalogue for
    templates (None in the source language), and the findings of the module docstring. The
    rulebook templates in ``templates_dir`` are checked against the catalogue too.

    Raises ManifestError when ``lang`` is not a language of the game, and DataError for a
    catalogue that cannot be read."""
    check_language(game, lang)
    if lang == game.languages[0]:
        return replace(game, language=lang, translations=None), []
    path, display = catalogue_path(game, lang), catalogue_display(game, lang)
    cells = cell_strings(game)
    templates = template_strings(templates_dir, templates_display)
    if not path.is_file():
        if not cells and not templates:
            return replace(game, language=lang, translations=None), []
        finding = Finding.at("warning", "i18n.missing", Location(display),
                             f"there is no {lang} catalogue: {len(cells) + len(templates)} text(s) "
                             f"print in {game.languages[0]}",
                             hint=f"run pnp i18n extract to write {display}, then translate it")
        return replace(game, language=lang, translations=None), [finding]
    catalogue = read_catalogue(path, display, lang)
    findings: list[Finding] = []
    translated: dict[str, str] = {}
    for source in cells + templates:
        text = _translation(catalogue, source, game.languages[0], findings)
        if text is not None and source.context is not None:
            translated[source.context] = text
    components = {}
    for cid, comp in game.components.items():
        names = [n for n, spec in comp.columns.items() if spec.translatable]
        if not names:
            components[cid] = comp
            continue
        rows = []
        for row in comp.rows:
            values = dict(row.values)
            for name in names:
                if row.id is not None and cell_context(cid, row.id, name) in translated:
                    values[name] = translated[cell_context(cid, row.id, name)]
            rows.append(replace(row, values=values))
        components[cid] = replace(comp, rows=rows)
    return replace(game, components=components, language=lang, translations=catalogue), findings


def _translation(catalogue: Catalogue, source: SourceString, source_lang: str, findings: list[Finding]
                 ) -> str | None:
    """The usable translation of ``source``, or None (with its finding)."""
    what = f"the {source.context} cell ({source.where})" if source.context else f"the sentence at {source.where}"
    shown = source.text if len(source.text) <= 50 else source.text[:49] + "…"
    message = catalogue.entry(source)
    lang = catalogue.lang
    if message is None or not message.string or (isinstance(message.string, tuple) and not all(message.string)):
        where = catalogue.where(message) if message is not None else source.where
        findings.append(Finding.at(
            "warning", "i18n.missing", where,
            f"no {lang} translation of {what}" + (f" in {catalogue.display}" if message is None else "")
            + f": {shown!r} prints in {source_lang}",
            hint=f"translate it in {catalogue.display}" if message is not None
            else f"run pnp i18n extract to add it to {catalogue.display}, then translate it"))
        return None
    if (message.id[0] if isinstance(message.id, tuple) else message.id) != source.text or message.fuzzy:
        findings.append(Finding.at(
            "warning", "i18n.stale", catalogue.where(message),
            f"the {lang} translation of {what} was made for an earlier source text, so {shown!r} "
            f"prints in {source_lang}",
            hint="check the translation against the new source and clear its fuzzy mark"
            if message.fuzzy else "run pnp i18n extract, then review the entries it marks fuzzy"))
        return None
    text = message.string if isinstance(message.string, str) else message.string[0]
    difference = placeholder_difference(source.text, text)
    if difference:
        findings.append(Finding.at(
            "error", "i18n.placeholders", catalogue.where(message),
            f"the {lang} translation of {what} {difference}",
            hint="keep every :icon:, {{ variable }}, <1> tag and ** / * marker of the source in the translation"))
        return None
    return text


def coverage(game: Game, lang: str, templates_dir: Path | None, templates_display: str) -> dict[str, int]:
    """How much of ``lang`` is translated: ``{"strings", "translated", "stale", "missing"}``
    counts of the game's translatable strings (cells and template sentences). Raises DataError
    for an unreadable catalogue."""
    strings = cell_strings(game) + template_strings(templates_dir, templates_display)
    counts = {"strings": len(strings), "translated": 0, "stale": 0, "missing": 0}
    if lang == game.languages[0]:
        counts["translated"] = len(strings)
        return counts
    path = catalogue_path(game, lang)
    catalogue = read_catalogue(path, catalogue_display(game, lang), lang) if path.is_file() else None
    for source in strings:
        message = catalogue.entry(source) if catalogue is not None else None
        if message is None or not message.string or (isinstance(message.string, tuple) and not all(message.string)):
            counts["missing"] += 1
        elif (message.id[0] if isinstance(message.id, tuple) else message.id) != source.text or message.fuzzy:
            counts["stale"] += 1
        else:
            counts["translated"] += 1
    return counts




def extract(game: Game, templates_dir: Path | None, templates_display: str) -> list[tuple[str, Path, bytes, object]]:
    """The catalogue of every translation (each language but the source) brought up to date
    with the game's translatable strings (:func:`pnp.model.catalogue.update_catalogue`):
    (language, path, the .po bytes, ExtractStats) each. Nothing is written here. Raises
    ManifestError for a game without languages, DataError for an unreadable catalogue."""
    if not game.languages:
        raise ManifestError(f"{game.id} declares no languages to translate into", location=game.key_location("game"),
                            hint='add languages = ["en", "de"] under [game] (the source first)',
                            rule="i18n.language")
    strings = cell_strings(game) + template_strings(templates_dir, templates_display)
    out = []
    for lang in game.languages[1:]:
        path = catalogue_path(game, lang)
        old = read_catalogue(path, catalogue_display(game, lang), lang).catalog if path.is_file() else None
        catalog, stats = update_catalogue(game, lang, strings, old)
        out.append((lang, path, write_catalogue(catalog), stats))
    return out
