"""TOML documents parsed once per text: in this process and, between runs, in the cache folder.

A build reads the same TOML texts on every run (game.toml, layouts.toml, rules.toml), some of
them twice (the layouts and the check of the ``[rules]`` keys the templates read), and parses
each for its values (``tomllib``) and for the line of every key
(:func:`pnp.core.tomlpos.toml_key_lines`): about 25 ms for Periodic Shed's layouts alone.
Both answers depend only on the text (and the Python version's ``tomllib``), so they are kept
by a digest of the text, in memory and in ``toml/`` of the cache folder
(:func:`pnp.core.cachedir.cache_folder`) when :func:`save_parsed` is called. Every call returns
a fresh copy: a caller may change what it gets. A text that does not parse raises as
``tomllib.loads`` does, every time; a document marshal cannot store (one with dates) is
parsed again each time. Deleting the folder costs time, never a different answer.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable

from .cachedir import MemoFile, cache_folder, read_marshalled
from . import tomlpos
from .tomlpos import toml_key_lines

PARSED_KEPT = 300
"""Entries the cache file and a process keep (a long layouts file's is about 60 kB); past that
they start again (a preview open through hundreds of saves holds no more)."""
PARSED_MAX_BYTES = 64 * 1024 * 1024
"""A cache file larger than this is not read (it is not one pnp wrote)."""
CODE_VERSION = 1
"""Raised when what is kept changes shape: older files are then not read. The file's name also
holds the Python version (its ``tomllib``) and a digest of :mod:`pnp.core.tomlpos`'s source, so
key lines worked out by other code are not taken."""

_parsers: dict[str, Callable[[str], dict]] = {"values": tomllib.loads, "lines": toml_key_lines}
"""What works each kind of answer out from the text."""


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, parsed once per text. Raises ``tomllib.TOMLDecodeError``."""
    return _answer("values", text)


def key_lines(text: str) -> dict[str, int]:
    """:func:`pnp.core.tomlpos.toml_key_lines` of ``text`` (key -> 1-based line), worked out
    once per text."""
    return _answer("lines", text)


def _answer(kind: str, text: str) -> dict:
    key = (kind, hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    known = _MEMO.known()
    stored = known.get(key)
    if stored is not None:
        try:
            value = marshal.loads(stored)
        except (ValueError, EOFError, TypeError):
            value = None
        if isinstance(value, dict):
            return value
        known.pop(key, None)  # not an answer pnp kept: worked out again below
    value = _parsers[kind](text)
    if len(known) >= PARSED_KEPT:
        known.clear()
    try:
        _MEMO.add(key, marshal.dumps(value))
    except ValueError:  # dates and times: not kept
        pass
    return value


def save_parsed() -> None:
    """Add what was parsed since the last save to the cache file, merged with what other runs
    added meanwhile. A file that cannot be written is left as it is."""
    _MEMO.save()


def forget_parsed() -> None:
    """Drop what this process knows and read the cache file afresh on the next parse (for
    tests, and after the cache folder is changed)."""
    _MEMO.forget()


def _known() -> dict[tuple[str, bytes], bytes]:
    return _MEMO.known()


def _file() -> Path | None:
    """The cache file of this Python and this :mod:`~pnp.core.tomlpos`, or None (no cache
    folder, or the module's source cannot be read)."""
    folder = cache_folder("toml")
    try:
        code = Path(tomlpos.__file__).read_bytes()
    except (OSError, TypeError):
        return None
    if folder is None:
        return None
    digest = hashlib.blake2b(code, digest_size=8, person=b"pnp-toml-%d" % CODE_VERSION).hexdigest()
    return folder / f"py{sys.version_info[0]}{sys.version_info[1]}-{digest}.marshal"


def _read(path: Path) -> dict[tuple[str, bytes], bytes]:
    """The entries of a cache file that are of the shape this module writes ({} for a file
    pnp did not write whole: :func:`pnp.core.cachedir.read_marshalled`)."""
    data = read_marshalled(path, PARSED_MAX_BYTES)
    return {k: v for k, v in data.items() if isinstance(k, tuple) and len(k) == 2 and k[0] in _parsers
            and isinstance(k[1], bytes) and isinstance(v, bytes)}


_MEMO = MemoFile(_file, _read, PARSED_KEPT)
"""The answers: key (kind, digest of the text) -> marshal bytes of the answer."""
