"""A TOML syntax error in any of a game's files is located and comes with a hint in a
designer's words, whichever file it is in."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pnp.core.tomlpos import _TOML_HINTS, toml_hint


def check(game, *args: str) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "pnp", "check", str(game), "--format", "json", *args],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    return [f for f in json.loads(run.stdout)[0]["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("file, text, rule, line, hint", [
    ("game.toml", '\ntitle "Tiny"\n', "schema.manifest", 49, "each setting is key = value"),
    ("templates/layouts.toml", "\n[layouts.extra\n", "layout.file", 92, "close the table's name with ]"),
    ("rules.toml", 'x = "open\n', "rules.file", 1, "a quoted text is not closed on its line"),
    ("shop.toml", "dpi = three\n", "export.profile", 1, "quote text values"),
])
def test_a_syntax_error_in_any_file_is_located_with_a_hint(tiny, file, text, rule, line, hint):
    path = tiny / file
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + text, encoding="utf-8")
    extra = ("-t", str(path)) if file == "shop.toml" else ()
    (finding,) = check(tiny, *extra)
    assert (finding["rule"], finding["line"]) == (rule, line)
    assert finding["message"].startswith("not valid TOML: ") and finding["hint"].startswith(hint)


def test_every_hint_is_reached_by_the_error_it_names():
    import tomllib

    broken = ['x = "a\n', 'x = """a', "[a\n", "[[a]\n", "a b = 1\n", "x = three\n", "x = 1 2\n",
              "? = 1\n", "a.? = 1\n", "x = [1, 2\n", "x = {a = 1\n", "x = 1\nx = 2\n", "[a]\n[a]\n", 'x = "a\\q"\n']
    reached = set()
    for text in broken:
        with pytest.raises(tomllib.TOMLDecodeError) as exc:
            tomllib.loads(text)
        hint = toml_hint(f"not valid TOML: {exc.value}")
        assert hint, f"no hint for {exc.value}"
        reached.add(hint)
    assert reached == {hint for _, hint in _TOML_HINTS}


def test_a_missing_layouts_file_is_named_where_it_was_looked_for(tmp_path):
    import pytest

    from pnp.core.errors import LayoutError
    from pnp.design.layouts import load_layouts

    with pytest.raises(LayoutError) as raised:
        load_layouts(tmp_path / "templates", "my-game/templates/layouts.toml", {})
    assert raised.value.message == "no layouts.toml"
    assert "my-game/templates/layouts.toml" in raised.value.hint  # the path a designer writes it to


@pytest.mark.parametrize("text, place", [
    ('a = 1\nplayers = [2, 4\n\n[components.cards]\nkind = "deck"\n', (2, 11)),  # noticed at the next table
    ('x = [\n  "a",\n  "b"\n\n[t]\nk = 1\n', (1, 5)),  # a list over several lines
    ('x = [\n 1,\n 2,\n]\ny = [3, 4\n[t]\n', (5, 5)),  # the closed list above is not it
    ('z = [[1, 2], [3, 4]\n[t]\n', (1, 5)),  # the outer list is the open one
    ('q = ["a[b", "c" # ] [\n[t]\n', (1, 5)),  # brackets in quoted text and comments do not count
    ('p = {a = 1, b = 2\n[t]\n', (1, 5)),  # an inline table, noticed on its own line
    ('a = 1\nq = [1, 2', (2, 5)),  # noticed at the end of the file
    ('foo = [\n 1,\n 2,\n\n[x]\n', (1, 7)),  # a trailing comma: tomllib takes [x] for a value
    ('a = 1\nfoo = [1,', (2, 7)),  # the same at the end of the file
    ('x = { a = 1,\n[t]\n', (1, 5)),  # an inline table ended by a comma: tomllib wants a key
    ('x = { a = 1,', (1, 5)),
])
def test_a_list_left_open_is_found_at_its_bracket(text, place):
    import tomllib

    from pnp.core.tomlpos import toml_error

    with pytest.raises(tomllib.TOMLDecodeError) as exc:
        tomllib.loads(text)
    where, message = toml_error("f.toml", exc.value, text)
    assert (where.line, where.column) == place and message.startswith("not valid TOML: Unclosed")


@pytest.mark.parametrize("text", ['x = three\n', 'a = [1,\n 2]\nb = three\n', 'x = { a = 1, ? = 2 }\n'])
def test_other_errors_stay_where_tomllib_finds_them(text):
    import tomllib

    from pnp.core.tomlpos import toml_error

    with pytest.raises(tomllib.TOMLDecodeError) as exc:
        tomllib.loads(text)
    where, message = toml_error("f.toml", exc.value, text)
    assert f"(at line {where.line}, column {where.column})" in str(exc.value)
    assert "Unclosed" not in message


def test_a_list_left_open_in_game_toml_is_reported_at_its_line(tiny):
    path = tiny / "game.toml"
    text = path.read_text(encoding="utf-8")
    assert "players = [2, 4]\n" in text
    path.write_text(text.replace("players = [2, 4]\n", "players = [2, 4\n"), encoding="utf-8")
    line = text.splitlines().index("players = [2, 4]") + 1
    (finding,) = check(tiny)
    assert (finding["rule"], finding["line"], finding["column"]) == ("schema.manifest", line, 11)
    assert finding["hint"].startswith("close the list with ]")
