"""The cost notation shared by the bundled games, parsed into terms.

A cost is terms joined by ``+``. A term is an optional count and a name (``2 H``, ``O``,
``1 green``, ``3 any``), or a choice of names in parentheses (``(Cr | Mn)``, with an optional
count before it). Examples: ``2 H + O``, ``1 green + 3 any``, ``Fe + C + (Cr | Mn)``,
``2 fire + 1 snow``. Names are the game's own (elements, deck colours, resources); this module
only parses, and the rules checks decide what names mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import Problem

_NAME = r"[A-Za-z][A-Za-z0-9_\-]*"
_TERM_RE = re.compile(rf"^(?:(\d+)\s*)?(?:({_NAME})|\(\s*({_NAME}(?:\s*\|\s*{_NAME})+)\s*\))$")


@dataclass(frozen=True)
class Term:
    """``count`` of one of ``options`` (a single name, or several for a choice)."""

    count: int
    options: tuple[str, ...]

    @property
    def label(self) -> str:
        """The term's name, or its choices joined by '/'."""
        return "/".join(self.options)


def parse_cost(text: str) -> list[Term]:
    """Parse a cost such as ``2 H + O`` into terms.

    Raises Problem (a ValueError with a hint) naming the term that does not parse.
    """
    text = str(text).strip()
    if not text:
        raise Problem("the cost is empty", hint="write terms joined by +, for example 2 H + O")
    terms = []
    for part in _split_plus(text):
        part = part.strip()
        match = _TERM_RE.match(part)
        if not match:
            raise Problem(f"{part!r} is not a cost term",
                          hint="a term is a count and a name (2 H), a name (O) or a choice ((Cr | Mn))")
        count = int(match.group(1)) if match.group(1) else 1
        if count < 1:
            raise Problem(f"{part!r} asks for {count} of something", hint="counts start at 1")
        names = match.group(2) or match.group(3)
        terms.append(Term(count, tuple(n.strip() for n in names.split("|"))))
    return terms


def _split_plus(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "+" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def pips(text: str) -> list[str]:
    """The cost as one label per unit, for drawing: ``2 H + O`` gives ``["H", "H", "O"]``."""
    out: list[str] = []
    for term in parse_cost(text):
        out.extend([term.label] * term.count)
    return out
