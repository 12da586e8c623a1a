"""Findings made while drawing: one constructor per kind, so that card sheets, boards, tokens,
exports, rulebooks and ``pnp check`` report each problem with the same rule id, severity, words
and place. The ``preflight.*`` findings are warnings (the file can still be printed, and
``--strict`` fails on them); missing art and unknown icons are errors.

``where`` is a :class:`~pnp.core.errors.Location` (the cell or layout setting the problem comes
from) or a text; ``piece`` names the piece drawn (:attr:`pnp.model.pieces.Piece.card_key`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..core.errors import LayoutError, Location, PnpError
from ..core.findings import Finding, merge
from ..core.suggest import did_you_mean


def _finding(severity: str, rule: str, where: Location | str, message: str, hint: str, piece: str) -> Finding:
    if isinstance(where, Location):
        return Finding.at(severity, rule, where, message, hint=hint, piece=piece)
    return Finding(severity, rule, where, message, hint=hint, piece=piece)

GLYPH_HINT = "use a character the font has, or another font"


def glyph_names(chars: Iterable[str]) -> str:
    """Characters as a message names them: ``'☃' (U+2603), '€' (U+20AC)``."""
    return ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)


def missing_glyph(where: Location | str, face: str, chars: Iterable[str], hint: str = GLYPH_HINT,
                  piece: str = "") -> Finding:
    """``preflight.missing-glyph``: ``face`` (``the font sans``) has no glyph for ``chars``,
    which print as empty boxes."""
    verb = "have" if face.startswith("the fonts ") else "has"
    return _finding("warning", "preflight.missing-glyph", where, f"{face} {verb} no glyph for {glyph_names(chars)}",
                    hint, piece)


def markup_problem(where: Location | str, text: str, problems: Iterable[str], font: str = "",
                   missing_styles: Iterable[str] = (), piece: str = "", hint: str = "") -> Finding:
    """``preflight.markup``: the inline markup of ``text`` (docs/fonts-and-text.md) cannot be
    read as written (``problems``: a ``**`` never closed, a colour that is none), so that part
    prints as typed; or it asks for styles (``bold``) that ``font``'s family has no face for,
    which print in its nearest face."""
    said = list(problems)
    styles = list(missing_styles)
    if styles:
        said.append(f"the font {font} has no {' or '.join(styles)} face, so that text prints in its nearest face")
    shown = text if len(text) <= 60 else text[:59] + "…"
    return _finding("warning", "preflight.markup", where, "; ".join(said) + f": {shown!r}",
                    hint or ("write \\* for an asterisk that is not markup; **bold**, *italic* and "
                             "[text](color:NAME) must each be closed" if problems else
                             "give the family that face in [fonts] of game.toml"), piece)


def right_to_left(where: Location | str, piece: str = "") -> Finding:
    """``preflight.right-to-left``: Arabic-script text, which the PDF text cannot shape."""
    return _finding("warning", "preflight.right-to-left", where,
                    "Arabic-script text is drawn left to right without joined letter forms",
                    "set that text as an image, or keep it off the card", piece)


def text_overflow(where: Location | str, min_size: float, text: str, piece: str = "") -> Finding:
    """``preflight.text-overflow``: the text does not fit its box even at ``min_size`` pt (it
    is cut, ending in an ellipsis)."""
    shown = text if len(text) <= 60 else text[:59] + "…"
    return _finding("warning", "preflight.text-overflow", where,
                    f"the text does not fit its box even at {min_size:g} pt: {shown!r}",
                    "shorten the text, or give the box more room or a smaller min_size", piece)


def small_text(where: Location | str, what: str, size: float, minimum: float, hint: str, piece: str = "") -> Finding:
    """``preflight.small-text``: ``what`` (a text box's text, an icon's label) prints at
    ``size`` pt, below ``minimum`` pt (6 pt: the smallest type print shops take, MeinSpiel,
    docs/print-specs.md §8)."""
    return _finding("warning", "preflight.small-text", where,
                    f"{what} prints at {size:.1f} pt, below {minimum:g} pt, too small to read or print cleanly",
                    hint, piece)


def text_overlap(where: Location | str, found, piece: str = "") -> Finding:
    """``preflight.text-overlap``: another box hides part of a text box's text, or the text
    runs across that box's edge (``found``, a :class:`pnp.render.overlap.Overlap`; sizes pt)."""
    depth = f"{found.depth * 25.4 / 72:.1f} mm"
    if found.other.kind == "text":
        message = f"the text of box {found.other.box!r} runs {depth} into the text of box {found.text.box!r}"
    elif found.above:
        message = f"box {found.other.box!r} covers the text of box {found.text.box!r} by {depth}"
    else:
        message = f"the text of box {found.text.box!r} runs {depth} across the edge of box {found.other.box!r}"
    return _finding("warning", "preflight.text-overlap", where, message,
                    f"move or resize one of them, or set overlap = true on box {found.other.box!r} "
                    "if it is meant to lie there", piece)


def svg_unsupported(where: Location | str, art: str, problem: str, piece: str = "") -> Finding:
    """``preflight.svg-unsupported``: something in the SVG ``art`` that the converter skips."""
    return _finding("warning", "preflight.svg-unsupported", where, f"{art}: {problem}",
                    "simplify the SVG (convert text and effects to paths)", piece)


def low_resolution(where: Location | str, art: str, dpi: float, min_dpi: int, hint: str, *, here: bool = True,
                   piece: str = "") -> Finding:
    """``preflight.low-resolution``: raster ``art`` placed at ``dpi``, below ``min_dpi``
    (300, docs/print-specs.md §2)."""
    return _finding("warning", "preflight.low-resolution", where,
                    f"{art} prints at {dpi:.0f} dpi{' here' if here else ''}, below {min_dpi} dpi", hint, piece)


ART_DRAFT = "; a placeholder is printed in its place"
ART_REFUSED = "; an export or a --strict build prints no placeholder"
ART_HINT = "add the file (paths are relative to the game folder)"
ART_DRAFT_HINT = "; pnp export and build --strict refuse missing art"
"""The words of :func:`art_missing` that tell the draft's warning from the refusal's error."""


def art_missing(where: Location | str, rel: str, piece: str = "", *, draft: bool = False,
                close: str | None = None) -> Finding:
    """``layout.art-missing``: no file ``rel`` (relative to the game folder) to draw. In a
    ``draft`` (a home build, ``pnp check``, the preview) it is a warning and a placeholder is
    printed in its place; an export, and a ``--strict`` run (:func:`refused_art`), refuse it as
    an error. ``close`` is the file it most likely meant (``core.suggest.nearest_file``),
    offered first in the hint."""
    guess = f"did you mean {close!r}? " if close else ""
    if draft:
        return _finding("warning", "layout.art-missing", where, f"no file {rel!r} in the game folder{ART_DRAFT}",
                        guess + ART_HINT + ART_DRAFT_HINT, piece)
    return _finding("error", "layout.art-missing", where, f"no file {rel!r} in the game folder{ART_REFUSED}",
                    guess + ART_HINT, piece)


def refused_art(findings: Iterable[Finding]) -> list[Finding]:
    """The findings of a ``--strict`` run, which refuses missing art: each draft
    ``layout.art-missing`` warning becomes the error :func:`art_missing` gives without
    ``draft`` (same place, pieces and file guess; worded as what happens: no placeholder, as
    exit 1 and nothing written say), merged with an export's error at the same place. The
    rest are as they are; order is kept."""
    out = []
    for f in findings:
        if f.rule == "layout.art-missing" and f.severity == "warning" and f.message.endswith(ART_DRAFT):
            f = replace(f, severity="error", message=f.message.removesuffix(ART_DRAFT) + ART_REFUSED,
                        hint=f.hint.removesuffix(ART_DRAFT_HINT))
        out.append(f)
    return merge(out)


def art_outside(where: Location | str, rel: str, piece: str = "") -> Finding:
    """``layout.art-outside``: art ``rel`` lies outside the game folder, which pnp does not read."""
    return _finding("error", "layout.art-outside", where, f"{rel!r} is outside the game folder",
                    "keep art inside the game folder and give its path relative to it", piece)


def icon_unknown(where: Location | str, name: str, known: Iterable[str], piece: str = "") -> Finding:
    """``layout.icon-unknown``: ``:name:`` (or an icon row's item) names no icon of the layouts
    file; it would print as typed."""
    known = sorted(known)
    return _finding("error", "layout.icon-unknown", where, f"no icon {name!r}",
                    did_you_mean(name, known, ("icons: " + ", ".join(known)) if known else
                                 "define it under [icons] in the layouts file"), piece)


def printed_fact(where: Location | str, said: str, snippet: str, key: str, value, piece: str = "") -> Finding:
    """``facts.printed``: printed text states a number of the data (``key``, a ``[rules]``
    key or ``game.players``) as ``said`` where the data holds ``value``
    (:func:`pnp.model.facts.contradictions`)."""
    shown = f"{value[0]} to {value[1]}" if isinstance(value, tuple) else str(value)
    template = "{{ game.players }}" if key == "game.players" else "{{ " + key + " }}"
    return _finding("warning", "facts.printed", where,
                    f"the text says {snippet!r}, but the data holds {shown} ({key})",
                    f"print the number from the data, {template}, or correct it", piece)


def text_outside(where: Location | str, past: dict[str, float], piece: str = "") -> Finding:
    """``preflight.text-outside``: a text box reaches past the trim by ``past`` pt on the edges
    it names (``left``, ``right``, ``top``, ``bottom``); what lies outside is cut off with the
    card (or not printed at all)."""
    order = ("left", "right", "top", "bottom")
    said = " and ".join(f"{past[e] / 72 * 25.4:.2f} mm past the {e} edge" for e in order if e in past)
    return _finding("warning", "preflight.text-outside", where,
                    f"the text box reaches {said} of the trim, where the text is cut off",
                    "move the box inside the trim (and keep text inside the safe zone)", piece)


def icon_pip(where: Location | str, name: str, known: Iterable[str], piece: str = "") -> Finding:
    """``layout.icon-pip``: an icon row's item ``name`` is no icon of the layouts file, so it is
    drawn as a pip labelled with the name."""
    known = sorted(known)
    return _finding("warning", "layout.icon-pip", where, f"no icon {name!r}: it is drawn as a pip labelled {name!r}",
                    did_you_mean(name, known, ("icons: " + ", ".join(known)) if known else
                                 "define it under [icons] in the layouts file"), piece)


UNWRITABLE_HINT = ("give the box's settings values a page can hold for this piece: a colour where one is painted "
                   "(none paints nothing only where a fill, stroke or text may be left out), lengths and angles "
                   "that are finite numbers of a sensible size")


def drawing_error(exc: Exception) -> PnpError:
    """``exc``, raised while a box was drawn, as the error that box is reported with: a
    PnpError as it is; a ValueError (reportlab refusing a value a PDF cannot hold: a colour
    that is no colour, a number too large to write or not finite, an impossible dash) as a
    ``layout.render`` error saying which. The renderer reports it at the box and draws the rest
    (:meth:`pnp.render.renderer.Renderer.fail`), in a build and its dry run alike."""
    if isinstance(exc, PnpError):
        return exc
    return LayoutError(f"this box cannot be drawn: {unwritable(exc)}", hint=UNWRITABLE_HINT, rule="layout.render")


def unwritable(exc: ValueError) -> str:
    """What reportlab's ValueError ``exc`` says a PDF cannot hold, in a designer's words."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[-1] if lines else type(exc).__name__
    if "number too large" in text:  # which number is reportlab's reckoning (a curve's point, say)
        return "a number too large for a PDF"
    if "math domain" in text:
        return "an angle that is not a finite number"
    if text.startswith("Unknown color"):
        return f"a colour that cannot be painted ({text.removeprefix('Unknown color ')})"
    return text
