"""The folder of caches shared by every run on this machine: compiled templates, what
templates read, colour differences, the tables ``pnp list`` printed. What a cache holds is
only ever a faster way to the same result; deleting the folder costs time, never bytes."""

from __future__ import annotations

import hashlib
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
            raw = fh.read(max_bytes + 1)
    except OSError:
        return None
    digest, payload = raw[:SEAL_DIGEST], raw[SEAL_DIGEST:]
    if len(raw) > max_bytes or hashlib.blake2b(payload, digest_size=SEAL_DIGEST).digest() != digest:
        return None
    return payload
