"""TOML texts are parsed once: the next run takes the values and key lines from the cache
folder; a caller gets its own copy, errors are raised every time, and a damaged file is
not read."""

from __future__ import annotations

import os
import tomllib

import pytest

from pnp.core import tomlcache
from pnp.core.tomlpos import toml_key_lines

TEXT = '[game]\nid = "x"\nname = "X"\n\n[[rule]]\nid = "a"\nlimits = [1, 2.5, true]\n'


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    tomlcache.forget_parsed()
    yield tmp_path / "cache" / "toml"
    tomlcache.forget_parsed()


def new_run():
    """As a new process starts: what this one parsed is saved, then forgotten."""
    tomlcache.save_parsed()
    tomlcache.forget_parsed()


def no_parsing(monkeypatch):
    def refuse(text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(tomlcache, "_parsers", {"values": refuse, "lines": refuse})


def counting(monkeypatch) -> list[str]:
    """The texts parsed for their values from now on (each parse appends its text)."""
    calls: list[str] = []
    monkeypatch.setattr(tomlcache, "_parsers", {"values": lambda t: calls.append(t) or tomllib.loads(t),
                                                 "lines": toml_key_lines})
    return calls


def test_the_next_run_takes_values_and_lines_from_the_cache(monkeypatch):
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    assert tomlcache.key_lines(TEXT) == toml_key_lines(TEXT) and tomlcache.key_lines(TEXT)["rule[0].limits"] == 7
    new_run()
    no_parsing(monkeypatch)
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    assert tomlcache.key_lines(TEXT) == toml_key_lines(TEXT)


def test_each_caller_gets_its_own_copy():
    first = tomlcache.loads(TEXT)
    first["game"]["id"] = "changed"
    first["rule"].append({})
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)


def test_a_text_that_does_not_parse_raises_every_time_and_is_not_kept(cache):
    for _ in range(2):
        with pytest.raises(tomllib.TOMLDecodeError):
            tomlcache.loads("[game\n")
    new_run()
    assert not cache.exists() or not any(cache.iterdir())


def test_dates_are_parsed_again_each_time(monkeypatch):
    text = 'when = 2026-12-03\n'
    assert tomlcache.loads(text) == tomllib.loads(text)
    new_run()
    calls = counting(monkeypatch)
    assert tomlcache.loads(text) == tomllib.loads(text) and calls == [text]


def test_a_changed_text_is_parsed_again(monkeypatch):
    tomlcache.loads(TEXT)
    new_run()
    assert tomlcache.loads(TEXT.replace('"X"', '"Y"'))["game"]["name"] == "Y"


@pytest.mark.parametrize("damage", ["flip", "truncate", "fifo"])
def test_a_damaged_or_odd_cache_file_is_not_read(cache, monkeypatch, damage):
    tomlcache.loads(TEXT)
    new_run()
    (path,) = cache.iterdir()
    if damage == "flip":
        raw = bytearray(path.read_bytes())
        raw[-3] ^= 0xFF
        path.write_bytes(bytes(raw))
    elif damage == "truncate":
        path.write_bytes(path.read_bytes()[:-10])
    else:
        path.unlink()
        os.mkfifo(path)
    calls = counting(monkeypatch)
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT) and calls == [TEXT]


def test_without_a_cache_folder_texts_are_still_parsed_once_per_process(monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    tomlcache.forget_parsed()
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    no_parsing(monkeypatch)
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    tomlcache.save_parsed()  # nothing to write to: no error


def test_a_process_keeps_a_bounded_number_of_texts(monkeypatch):
    monkeypatch.setattr(tomlcache, "PARSED_KEPT", 3)
    texts = [f'n = {k}\n' for k in range(10)]
    assert [tomlcache.loads(t)["n"] for t in texts] == list(range(10))
    assert len(tomlcache._known()) <= 3
    new_run()
    assert len(tomlcache._known()) <= 3 and tomlcache.loads(texts[-1]) == {"n": 9}
