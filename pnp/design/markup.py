"""Inline markup in the text of cards, boards and tokens (docs/fonts-and-text.md):

============================  ===========================================================
``**bold**``                  bold
``*italic*``                  italic (``***both***``, and either inside the other)
``[text](color:NAME)``        ``text`` in colour NAME of ``[colors]``, or ``#RRGGBB``
a line break                  a line break (a new line in the cell; ``\\n`` in a TOML string)
``\\`` and a space            a non-breaking space (as U+00A0): the words either side stay on one line
``\\*``, ``\\[``, ``\\\\`` …  the character itself: a backslash before any ASCII punctuation
============================  ===========================================================

``\\n`` in a cell is not a line break: it prints as typed, as does every backslash before a
letter or digit. A ``*`` run opens emphasis when a non-space follows it and closes it when a non-space precedes
it, as in CommonMark, so ``2 * 3`` is text. A delimiter that opens what is never closed (or
closes what was never opened) prints as typed and is a problem (``preflight.markup``); so is a
colour span's end without its start. A ``[`` that no ``](color:…)`` closes is ordinary text.

:func:`parse` is pure (no drawing) and cached: the same text is parsed once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

BOLD, ITALIC = 1, 2
"""Style bits of a span (an index of :data:`pnp.design.fonts.STYLES`)."""

MARKUP_CHARS = frozenset("*[]\\")
"""Characters that may start markup: text without any is one plain span."""

_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_COLOR_END = re.compile(r"\]\(color:(#[0-9A-Fa-f]{6}|[A-Za-z][A-Za-z0-9_\-]*)\)")


@dataclass(frozen=True)
class Span:
    """A run of text in one style (``BOLD | ITALIC`` bits) and colour (None: the box's)."""

    text: str
    style: int = 0
    color: str | None = None


@dataclass(frozen=True)
class Markup:
    """Parsed text: its spans in order, its text without markup, and what is wrong with the
    markup (messages; empty when it is sound)."""

    spans: tuple[Span, ...]
    plain: str
    problems: tuple[str, ...] = ()


@lru_cache(maxsize=4096)
def parse(text: str) -> Markup:
    """The spans of ``text`` (see the module docstring). Never raises: what cannot be read as
    markup prints as typed and is listed in ``problems``."""
    if not MARKUP_CHARS.intersection(text):
        return Markup((Span(text),), text)
    tokens = _tokens(text)
    problems = _match(tokens, text)
    spans: list[Span] = []
    style, colors = 0, []
    for tok in tokens:
        kind = tok[0]
        if kind == "text" or not tok[-1]:  # text, or a delimiter left unmatched: as typed
            value = tok[1]
            color = colors[-1] if colors else None
            if spans and spans[-1].style == style and spans[-1].color == color:
                spans[-1] = Span(spans[-1].text + value, style, color)
            elif value:
                spans.append(Span(value, style, color))
        elif kind == "*":
            style ^= BOLD if len(tok[1]) == 2 else ITALIC
        elif kind == "[":
            colors.append(tok[4])
        elif kind == "]":
            colors.pop()
    spans = [s for s in spans if s.text]
    return Markup(tuple(spans) or (Span(""),), "".join(s.text for s in spans), tuple(problems))


def _tokens(text: str) -> list[list]:
    """Text and delimiter tokens: ["text", s, True], ["*", run, can_open, can_close, pos,
    matched], ["[", "[", pos, end_index, color, matched], ["]", end_text, pos, color, matched]."""
    tokens: list[list] = []
    buf: list[str] = []

    def flush():
        if buf:
            tokens.append(["text", "".join(buf), True])
            buf.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == " ":
                buf.append("\u00a0")
            elif nxt in _PUNCT:
                buf.append(nxt)
            else:
                buf.append(ch + nxt)
            i += 2
            continue
        if ch == "*":
            j = i
            while j < n and text[j] == "*":
                j += 1
            run = text[i:j]
            before = text[i - 1] if i else " "
            after = text[j] if j < n else " "
            flush()
            if len(run) > 3:
                tokens.append(["text", run, True])
            else:
                opens, closes = not after.isspace(), not before.isspace()
                if len(run) == 3:  # bold and italic: opens as ** then *, closes as * then **
                    order = ("**", "*") if opens and not closes else ("*", "**")
                    for part in order:
                        tokens.append(["*", part, opens, closes, i, False])
                else:
                    tokens.append(["*", run, opens, closes, i, False])
            i = j
            continue
        if ch == "[":
            flush()
            tokens.append(["[", "[", i, None, None, False])
            i += 1
            continue
        if ch == "]":
            m = _COLOR_END.match(text, i)
            if m:
                flush()
                tokens.append(["]", m.group(0), i, m.group(1), False])
                i = m.end()
                continue
        buf.append(ch)
        i += 1
    flush()
    return tokens


def _match(tokens: list[list], text: str) -> list[str]:
    """Pair openers with closers (innermost first, as nested), marking each pair matched;
    returns a message for each delimiter that was meant as markup and found no partner."""
    problems: list[str] = []
    stack: list[list] = []
    for tok in tokens:
        kind = tok[0]
        if kind == "*":
            _, run, opens, closes, pos, _m = tok
            partner = next((k for k in range(len(stack) - 1, -1, -1)
                            if stack[k][0] == "*" and stack[k][1] == run), None) if closes else None
            if partner is not None:
                for dropped in stack[partner + 1:]:
                    _unclosed(dropped, text, problems)
                stack[partner][-1] = tok[-1] = True
                del stack[partner:]
            elif opens:
                stack.append(tok)
            elif closes:
                problems.append(f"{run!r} at character {pos + 1} closes {_what(run)} that was never opened")
        elif kind == "[":
            stack.append(tok)
        elif kind == "]":
            partner = next((k for k in range(len(stack) - 1, -1, -1) if stack[k][0] == "["), None)
            if partner is None:
                problems.append(f"{tok[1]!r} at character {tok[2] + 1} ends a colour span that has no '['")
                continue
            for dropped in stack[partner + 1:]:
                _unclosed(dropped, text, problems)
            stack[partner][4] = tok[3]
            stack[partner][-1] = tok[-1] = True
            del stack[partner:]
    for dropped in stack:
        _unclosed(dropped, text, problems)
    return problems


def _what(run: str) -> str:
    return "bold" if run == "**" else "italic"


def _unclosed(tok: list, text: str, problems: list[str]) -> None:
    if tok[0] == "*":
        problems.append(f"{tok[1]!r} at character {tok[4] + 1} opens {_what(tok[1])} that is never closed")
    # a '[' without its colour end is ordinary text


def escape(text: str) -> str:
    """``text`` written so that :func:`parse` reads it back as exactly ``text``."""
    return "".join("\\" + ch if ch in MARKUP_CHARS else ch for ch in text)
