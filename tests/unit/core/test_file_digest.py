"""A file's digest is read once a process while the file does not change, and read again
whenever it may have: a rewrite, even one of as many bytes within one tick of the file clock."""

from __future__ import annotations

import hashlib
import os

from pnp.core import files
from pnp.core.files import file_digest, inputs_key


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def counting_open(monkeypatch) -> list[str]:
    opened: list[str] = []

    def spy(path, *args, **kwargs):
        opened.append(str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(files, "open", spy, raising=False)
    return opened


def test_a_settled_file_is_read_once(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_digests", {})
    monkeypatch.setattr(files, "SETTLED_NS", -1)  # every file counts as settled
    path = tmp_path / "font.ttf"
    path.write_bytes(b"glyphs" * 1000)
    opened = counting_open(monkeypatch)
    assert [file_digest(path) for _ in range(3)] == [sha(b"glyphs" * 1000)] * 3
    assert opened == [str(path)]
    # the same bytes named by many stages' inputs are hashed once
    keys = {inputs_key([path], ("cards", n)) for n in range(5)}
    assert len(keys) == 5 and opened == [str(path)]


def test_a_changed_file_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_digests", {})
    monkeypatch.setattr(files, "SETTLED_NS", -1)
    path = tmp_path / "cards.csv"
    path.write_bytes(b"id,title\nleaf,Leaf\n")
    first = file_digest(path)
    path.write_bytes(b"id,title\nleaf,Lief\n")  # as many bytes
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # and the clock moved on
    assert file_digest(path) == sha(b"id,title\nleaf,Lief\n") != first


def test_a_file_rewritten_within_one_tick_is_never_taken_from_the_memo(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_digests", {})
    path = tmp_path / "cards.csv"
    path.write_bytes(b"id,title\nleaf,Leaf\n")
    stat = os.stat(path)
    assert file_digest(path) == sha(b"id,title\nleaf,Leaf\n")
    path.write_bytes(b"id,title\nleaf,Lief\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same times, as within one tick
    assert file_digest(path) == sha(b"id,title\nleaf,Lief\n")
    assert files._digests == {}  # just changed: not kept


def test_the_memo_starts_afresh_past_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_digests", {})
    monkeypatch.setattr(files, "SETTLED_NS", -1)
    monkeypatch.setattr(files, "KEPT_DIGESTS", 3)
    for n in range(5):
        (tmp_path / f"{n}.txt").write_text(str(n))
        file_digest(tmp_path / f"{n}.txt")
    assert 1 <= len(files._digests) <= 3
