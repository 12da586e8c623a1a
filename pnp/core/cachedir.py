"""The folder of caches shared by every run on this machine: compiled templates, what
templates read, colour differences, the tables ``pnp list`` printed. What a cache holds is
only ever a faster way to the same result; deleting the folder costs time, never bytes."""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
from pathlib import Path
from typing import Callable

from .errors import PnpError
from .files import write_atomic

CACHE_ENV = "PNP_CACHE_DIR"
"""Environment variable naming the cache folder (empty: keep no cache). Default
``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``."""


def cache_root() -> Path | None:
    """The cache folder (:data:`CACHE_ENV`), or None when caching is switched off. Not made."""
    root = os.environ.get(CACHE_ENV)
    if root is None:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pnp")
    return Path(root) if root else None


def cache_folder(name: str) -> Path | None:
    """The sub-folder ``name`` of :func:`cache_root`, made if needed; None when caching is
    switched off or the folder cannot be made (a read-only home, a file in its place)."""
    root = cache_root()
    if root is None:
        return None
    folder = root / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def save_merged(path: Path, read: Callable[[Path], dict], added: dict, kept: int,
                encode: Callable[[dict], bytes]) -> None:
    """Add ``added`` to the cache file ``path``, merged with what the file holds now (``read``;
    other runs may have saved to it since this one read it), starting afresh from ``added``
    past ``kept`` entries, and write it whole (``encode``) atomically. A file that cannot be
    written is left as it is: what it would have held is worked out again next time."""
    merged = read(path)
    if len(merged) + len(added) > kept:
        merged = {}
    merged.update(added)
    try:
        write_atomic(path, encode(merged))
    except (OSError, PnpError, ValueError):
        pass


SEAL_DIGEST = 16
"""Bytes of the BLAKE2 digest a sealed cache file starts with (:func:`sealed`)."""


def sealed(payload: bytes) -> bytes:
    """``payload`` as a cache file holds it: a BLAKE2 digest of it first, so that a file
    damaged since it was written is not read (:func:`read_sealed`)."""
    return hashlib.blake2b(payload, digest_size=SEAL_DIGEST).digest() + payload


def read_sealed(path: Path, max_bytes: int) -> bytes | None:
    """The payload of the sealed cache file ``path`` (:func:`sealed`), or None when the file is
    absent, not a regular file (a pipe or a device would never end, or end too late), larger
    than ``max_bytes`` or not one written whole."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        with open(path, "rb") as fh:
            raw = fh.read(min(st.st_size, max_bytes) + 1)  # a buffer of the file's size, not of the limit
    except OSError:
        return None
    digest, payload = raw[:SEAL_DIGEST], raw[SEAL_DIGEST:]
    if len(raw) > max_bytes or hashlib.blake2b(payload, digest_size=SEAL_DIGEST).digest() != digest:
        return None
    return payload


def read_marshalled(path: Path, max_bytes: int) -> dict:
    """The dict a sealed cache file holds, written with ``marshal`` ({} when the file cannot be
    read by :func:`read_sealed` or does not hold a dict); the caller checks its entries."""
    payload = read_sealed(path, max_bytes)
    try:
        data = marshal.loads(payload) if payload is not None else {}
    except (ValueError, EOFError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


class MemoFile:
    """Answers worked out from text or values, kept in one cache file between runs: :meth:`known`
    is what this process knows (the file's entries, read on first use by ``read``, then those
    added); :meth:`add` records a new answer and :meth:`save` merges the answers added since
    the last save into the file (:func:`save_merged`, past ``kept`` entries starting afresh),
    written with ``encode`` (default: ``marshal``, sealed). ``locate`` gives the file, or None
    to keep answers in this process only. ``read`` must return {} for a file that is absent or
    not one this cache wrote."""

    def __init__(self, locate: Callable[[], Path | None], read: Callable[[Path], dict], kept: int,
                 encode: Callable[[dict], bytes] | None = None):
        self._locate, self._read, self.kept = locate, read, kept
        self._encode = encode or (lambda entries: sealed(marshal.dumps(entries)))
        self._state: list = []  # [(path or None, known answers)] once read
        self._added: set = set()

    def known(self) -> dict:
        if not self._state:
            path = self._locate()
            self._state.append((path, self._read(path) if path is not None else {}))
        return self._state[0][1]

    def add(self, key, value) -> None:
        self.known()[key] = value
        self._added.add(key)

    def save(self) -> None:
        if not self._added:
            return
        known = self.known()
        path = self._state[0][0]
        added = sorted(self._added)
        self._added.clear()
        if path is not None:
            save_merged(path, self._read, {k: known[k] for k in added if k in known}, self.kept, self._encode)

    def forget(self) -> None:
        """Drop what this process knows; the file is read afresh on next use."""
        self._state.clear()
        self._added.clear()

    @property
    def unsaved(self) -> bool:
        """Whether answers were added since the last save."""
        return bool(self._added)
