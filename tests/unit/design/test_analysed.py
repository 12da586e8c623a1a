"""What templates read is worked out once per source and kept in the cache folder: a later
run reads the answer instead of parsing again, and never takes an answer it should not."""

from __future__ import annotations

import pytest
from jinja2 import TemplateError

from pnp.design import templating
from pnp.design.names import piece_fields, template_names
from pnp.design.templating import analysed, forget_analyses, save_analyses, undeclared


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    forget_analyses()
    yield tmp_path / "cache" / "analysis"
    forget_analyses()


def counting(calls: list):
    def work(source: str) -> frozenset[str]:
        calls.append(source)
        return frozenset(source.split())
    return work


def test_an_answer_saved_is_read_by_the_next_run_without_working_it_out(cache):
    calls: list[str] = []
    work = counting(calls)
    assert analysed("words", "a b", work) == frozenset({"a", "b"})
    assert analysed("words", "a b", work) == frozenset({"a", "b"}) and calls == ["a b"]  # once per process
    save_analyses()
    assert len(list(cache.glob("*.marshal"))) == 1
    forget_analyses()  # as a new process starts
    assert analysed("words", "a b", work) == frozenset({"a", "b"}) and calls == ["a b"]
    assert analysed("words", "c", work) == frozenset({"c"}) and calls == ["a b", "c"]


def test_an_answer_of_other_code_or_another_kind_is_not_taken(cache):
    first: list[str] = []
    analysed("words", "x y", counting(first))
    save_analyses()
    forget_analyses()

    def other(source: str) -> frozenset[str]:  # the same kind worked out by changed code
        return frozenset({source.upper()})

    assert analysed("words", "x y", other) == frozenset({"X Y"})
    later: list[str] = []
    assert analysed("letters", "x y", counting(later)) == frozenset({"x", "y"}) and later == ["x y"]


def test_saves_of_two_runs_are_merged(cache):
    analysed("words", "one", counting([]))
    save_analyses()
    forget_analyses()
    analysed("words", "two", counting([]))
    templating._ANALYSES.known().pop(next(iter(templating._ANALYSES.known())), None)  # as if read before the first saved
    save_analyses()
    forget_analyses()
    calls: list[str] = []
    analysed("words", "one", counting(calls))
    analysed("words", "two", counting(calls))
    assert calls == []


def test_an_error_is_not_remembered_and_a_damaged_file_is_ignored(cache):
    with pytest.raises(TemplateError):
        undeclared("{{ broken")
    with pytest.raises(TemplateError):
        undeclared("{{ broken")  # raised again, for every caller to report
    assert undeclared("{{ title }} {{ cost }}") == frozenset({"title", "cost"})
    save_analyses()
    (path,) = cache.glob("*.marshal")
    path.write_bytes(b"\x00not marshal")
    forget_analyses()
    assert undeclared("{{ title }} {{ cost }}") == frozenset({"title", "cost"})


def test_layout_names_and_piece_fields_are_the_same_from_the_cache(cache):
    from types import SimpleNamespace

    layout = SimpleNamespace(background="{{ colors.bg }}", boxes=[
        SimpleNamespace(type="text", props={"text": "{{ title }} ({{ piece.copy }})", "when": "cost > 1"})])
    layouts = SimpleNamespace(layouts={"card": layout}, icons={}, names={}, piece_fields={})
    cold = template_names(layouts, "card"), piece_fields(layouts, "card")
    save_analyses()
    forget_analyses()
    again = SimpleNamespace(layouts={"card": layout}, icons={}, names={}, piece_fields={})
    assert (template_names(again, "card"), piece_fields(again, "card")) == cold
    assert cold == (frozenset({"colors", "title", "piece", "cost"}), frozenset({"copy"}))


def test_a_changed_byte_or_a_file_that_never_ends_is_not_read(cache):
    import os

    assert undeclared("{{ piece.copy }} {{ title }}") == frozenset({"piece", "title"})
    save_analyses()
    (path,) = cache.glob("*.marshal")
    data = path.read_bytes()
    assert b"title" in data
    path.write_bytes(data.replace(b"title", b"titlf"))  # same length, still loads as marshal
    forget_analyses()
    assert undeclared("{{ piece.copy }} {{ title }}") == frozenset({"piece", "title"})  # not the damaged answer
    path.unlink()
    os.mkfifo(path)  # read_bytes() of a pipe with no writer would wait for ever
    forget_analyses()
    assert undeclared("{{ cost }}") == frozenset({"cost"})
