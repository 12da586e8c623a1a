"""One language of a run (``--lang``): the loaded game translated before anything is drawn
(:func:`pnp.model.i18n.translate`), and the drawing's findings of fit and glyphs marked with
the language, so that a German card whose text overflows is reported as German, with the
catalogue entries of that card's texts.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import PnpError
from ..core.findings import Finding
from ..model.catalogue import catalogue_display, cell_context
from ..model.game import Game
from ..model.i18n import translate

LANGUAGE_RULES = ("preflight.text-overflow", "preflight.small-text", "preflight.missing-glyph",
                  "preflight.text-overlap", "preflight.text-outside", "preflight.right-to-left")
"""Findings of drawing that depend on the words: in a language's run they name the language."""


def localize(game: Game, source, lang: str) -> tuple[Game | None, list[Finding]]:
    """``game`` in ``lang`` and the translation findings; (None, [the error]) when the language
    is not the game's or its catalogue cannot be read."""
    try:
        return translate(game, lang, source.templates_dir, source.templates_display)
    except PnpError as exc:
        rule = exc.rule or "i18n.catalogue"
        return None, [Finding.at("error", rule, exc.location, exc.message, hint=exc.hint or "")]


def mark(findings: list[Finding], game: Game) -> list[Finding]:
    """``findings`` of a run in ``game.language`` with those of :data:`LANGUAGE_RULES` naming
    the language, and, for a piece of a translated table, the catalogue lines of its texts."""
    lang = game.language
    if not lang:
        return findings
    lines = _catalogue_lines(game)
    out = []
    for f in findings:
        if f.rule not in LANGUAGE_RULES:
            out.append(f)
            continue
        hint = f.hint
        where = [lines[p] for p in (f.pieces or (f.piece,)) if p and p in lines]
        if where:
            hint = (hint + "; " if hint else "") + f"the {lang} texts of this piece: " + ", ".join(
                dict.fromkeys(x for w in where for x in w))
        out.append(replace(f, message=f"in {lang}: {f.message}", hint=hint))
    return out


def _catalogue_lines(game: Game) -> dict[str, list[str]]:
    """Piece name (``deck/row-id``, as findings name pieces, and with `` back``) -> the
    catalogue entries (``i18n/de.po:41``) of its translated cells."""
    catalogue = game.translations
    if catalogue is None:
        return {}
    display = catalogue_display(game, game.language)
    out: dict[str, list[str]] = {}
    for comp in game:
        names = [n for n, spec in comp.columns.items() if spec.translatable]
        for row in comp.rows:
            if row.id is None:
                continue
            found = []
            for name in names:
                message = catalogue.by_context.get(cell_context(comp.id, row.id, name))
                if message is not None and getattr(message, "lineno", None):
                    found.append(f"{display}:{message.lineno}")
            if found:
                for key in (f"{comp.id}/{row.id}", f"{comp.id}/{row.id} back"):
                    out[key] = found
    return out
