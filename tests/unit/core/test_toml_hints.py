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
