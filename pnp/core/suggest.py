"""Did-you-mean suggestions for a misspelt name: one rule for every message in `pnp`."""

from __future__ import annotations

import difflib
from pathlib import Path, PurePosixPath
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


def nearest_file(root: Path, rel: str) -> str | None:
    """The existing file a missing path ``rel`` (relative to the folder ``root``) most likely
    meant, as a path relative to ``root`` written with ``/``: the same name in other letter
    case, then the same name with another extension (``art/fox.jpg`` for ``art/fox.png``), then
    a close spelling in the same folder. None when the folder does not exist or nothing is
    close. Only the named folder is listed, never the tree."""
    wanted = PurePosixPath(rel.replace("\\", "/"))
    folder = root / wanted.parent
    try:
        names = sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    except OSError:
        return None
    found = (next((n for n in names if n.lower() == wanted.name.lower()), None)
             or next((n for n in names if PurePosixPath(n).stem.lower() == wanted.stem.lower()), None)
             or close_match(wanted.name, names, cutoff=0.75))
    return None if found is None else (wanted.parent / found).as_posix()
