"""The last build's snapshot file: its ``build`` key is added to the text made beside the
stages, and the file is what json.dumps writes of the whole."""

from __future__ import annotations

import json
import os

import pytest

from pnp.core.files import PIECES_RECORD, same_bytes, write_atomic
from pnp.pipeline.versions import save_last, snapshot_document

SNAPSHOT = {"format": 2, "game": "g", "version": "1.2", "kinds": ["card"], "data": "ab12",
            "pieces": {"deck/fire": {"title": "Feu \u00e9t\u00e9 \u2014 \"chaud\"", "cost": 2, "tags": ["a", "b"],
                                     "nested": {"x": [1, {"y": None}]}}, "deck/leaf": {}}}


@pytest.mark.parametrize("parts", [None, {}, {"rulebook": "k2", "cards": "k1"}])
@pytest.mark.parametrize("positions", [None, {"file": "g-cards.pdf", "cards": {"deck/fire": {"page": 1, "trim": [1.5, 2, 3, 4]}}}])
def test_the_file_is_the_whole_document_as_json_dumps_writes_it(tmp_path, parts, positions):
    save_last(tmp_path, snapshot_document(SNAPSHOT, positions), parts)
    whole = dict(SNAPSHOT)
    if positions is not None:
        whole["positions"] = positions
    if parts is not None:
        whole["build"] = dict(sorted(parts.items()))
    expected = (json.dumps(whole, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    assert (tmp_path / PIECES_RECORD).read_bytes() == expected


def test_an_empty_document_takes_the_key_too(tmp_path):
    save_last(tmp_path, snapshot_document({}), {"cards": "k"})
    assert json.loads((tmp_path / PIECES_RECORD).read_text(encoding="utf-8")) == {"build": {"cards": "k"}}


def test_an_unchanged_snapshot_is_not_written_again(tmp_path):
    save_last(tmp_path, snapshot_document(SNAPSHOT), {"cards": "k"})
    path = tmp_path / PIECES_RECORD
    os.utime(path, (1_000_000, 1_000_000))
    save_last(tmp_path, snapshot_document(SNAPSHOT), {"cards": "k"})
    assert path.stat().st_mtime == 1_000_000
    save_last(tmp_path, snapshot_document(SNAPSHOT), {"cards": "other"})
    assert path.stat().st_mtime != 1_000_000 and b'"other"' in path.read_bytes()


def test_a_file_is_compared_and_written_in_pieces(tmp_path):
    path = tmp_path / "f.bin"
    big = bytes(range(256)) * 9000  # over a read's 1 MiB
    write_atomic(path, [memoryview(big)[:-3], b"xyz"])
    assert path.read_bytes() == big[:-3] + b"xyz"
    assert same_bytes(path, [big[:-3], b"xyz"]) and same_bytes(path, [big[:-3] + b"xyz"])
    assert not same_bytes(path, [big[:-3], b"xyZ"])
    assert not same_bytes(path, [big])  # same length, other bytes
    assert not same_bytes(path, [big[:-3]])
    assert not same_bytes(tmp_path / "missing", [b""])
