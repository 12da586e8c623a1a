"""Markdown as the rulebook handles it: text the template writes is Markdown, text it prints
from the game's data is escaped, and a line break inside a cell stays inside its paragraph."""

from __future__ import annotations

import html
import re
from typing import Any

from ...core.errors import PnpError
from ...core.units import parse_length


def xml_escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` written as entities, for paragraph markup: what
    ``xml.sax.saxutils.escape`` gives, without importing urllib and http with it."""
    return html.escape(text, quote=False)


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


def marker_text(node) -> str:
    """The text of a paragraph node that may be a marker (``[TOC]``, ``[BACK COVER]``), else ""."""
    if node is None or node.type != "paragraph" or not node.children:
        return ""
    return plain_text(node.children[0]).strip()


def plain_text(node) -> str:
    """The text of an inline node and its children, without markup."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak",):
        return " "
    if node.type == "hardbreak":
        return "\n"
    return "".join(plain_text(c) for c in node.children)


def plain_block(node) -> str:
    """The text of a block node and its children, without markup."""
    if node.type == "inline":
        return plain_text(node)
    return node.content if not node.children else " ".join(plain_block(c) for c in node.children)


def short_text(text: str, limit: int = 40) -> str:
    """``text`` on one line, cut after a whole word with an ellipsis when longer than ``limit``
    characters."""
    text = " ".join(text.replace(LINE_BREAK, " ").split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[:cut if cut > 0 else limit] + "\u2026"


def inline_markup(text: str) -> str:
    return xml_escape(text).replace(LINE_BREAK, "<br/>")
