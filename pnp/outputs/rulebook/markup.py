"""Markdown as the rulebook handles it: text the template writes is Markdown, text it prints
from the game's data is escaped, and a line break inside a cell stays inside its paragraph."""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import PnpError
from ...core.units import parse_length

LINE_BREAK = "\u2028"
"""A line break inside one paragraph or table cell. A line break in a CSV cell prints as this
(a new line in the PDF, never a new Markdown block)."""


TOC_MARKER = "[TOC]"
"""A paragraph holding only this text becomes the table of contents (``[TOC 1]``: sections
only); ``toc()`` prints it."""


BACK_COVER_MARKER = "[BACK COVER]"
"""A paragraph holding only this text starts a new page that the booklet puts on its back cover
(the padding blanks go before it); ``back_cover()`` prints it."""


class RulebookError(PnpError):
    """A rulebook template or its Markdown that cannot be built (misspelt name, bad call, an
    image that cannot be found). The location names the template file and line."""

    default_rule = "rulebook.template"


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


def finalize(value: Any) -> str:
    """How a template prints a value: Markdown as it is, None as nothing, yes/no for a truth
    value, a list joined by commas, anything else escaped (:func:`escape_markdown`)."""
    if isinstance(value, Markdown):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(finalize(v) for v in value)
    return escape_markdown(str(value))


def width_spec(text: str) -> tuple[str, float]:
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
