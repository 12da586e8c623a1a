"""Did-you-mean suggestions for a misspelt name: one rule for every message in `pnp`."""

from __future__ import annotations

import difflib
from typing import Any, Iterable


def close_match(word: Any, choices: Iterable[Any], cutoff: float = 0.6) -> str | None:
    """The choice closest to ``word`` (both compared as text), or None when none is close
    enough (``cutoff`` is difflib's similarity ratio, 0..1)."""
    found = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(word: Any, choices: Iterable[Any], then: str = "", cutoff: float = 0.6) -> str:
    """``did you mean 'x'?`` for the choice closest to ``word``, followed by ``then`` (after a
    space); just ``then`` (possibly empty) when no choice is close. For hints such as
    ``did you mean 'deck'? kinds: deck, board, tokens``."""
    close = close_match(word, choices, cutoff)
    if close is None:
        return then
    return f"did you mean {close!r}?" + (f" {then}" if then else "")
