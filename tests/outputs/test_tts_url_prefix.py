"""Tabletop Simulator image URLs under ``--url-prefix`` (or a profile's ``url_prefix``): the
prefix and the file name joined with exactly one ``/``; a prefix that is no http(s) or file URL
is refused before anything is drawn."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pnp.cli import typer_app
from pnp.model.scaffold import new_game
from pnp.outputs.export.profiles import url_prefix_value

app = typer_app()


@pytest.mark.parametrize("raw, joined", [
    ("https://example.com/mm", "https://example.com/mm/"),
    ("https://example.com/mm/", "https://example.com/mm/"),
    ("https://example.com/mm//", "https://example.com/mm/"),
    ("http://example.com", "http://example.com/"),
    ("file:///C:/decks", "file:///C:/decks/"),
    ("", ""),
])
def test_a_prefix_ends_in_one_slash(raw, joined):
    assert url_prefix_value(raw) == joined


@pytest.mark.parametrize("raw", ["notaurl", "ftp://example.com/x", "https://", "C:/decks", "file:relative",
                                 "https://example.com/a b", "https://example.com/?x=1"])
def test_what_is_no_folder_url_is_refused(raw):
    with pytest.raises(ValueError, match="URL"):
        url_prefix_value(raw)


@pytest.mark.parametrize("raw, scheme", [("https:///x", "https"), ("http:", "http"), ("http://", "http"),
                                         ("https://:8080/x", "https")])
def test_a_web_prefix_without_a_host_is_told_so(raw, scheme):
    with pytest.raises(ValueError) as refused:
        url_prefix_value(raw)
    assert str(refused.value).startswith(f"{raw!r} is an {scheme} URL with no host: write {scheme}://HOST/folder/")


def test_a_profile_url_prefix_without_a_host_is_an_error_at_its_line(tmp_path):
    game = tmp_path / "g"
    new_game(game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text() + '\n[targets.web]\nextends = "tts"\nurl_prefix = "https:///decks"\n')
    checked = CliRunner().invoke(app, ["check", str(game), "-t", "web", "--format", "json"])
    (finding,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["severity"] == "error"]
    assert finding["rule"] == "export.profile" and finding["field"] == "targets.web.url_prefix"
    assert toml.read_text().splitlines()[finding["line"] - 1] == 'url_prefix = "https:///decks"'
    assert "with no host" in finding["message"] and "example.com" in finding["hint"]


def test_tts_export_joins_with_one_slash_and_refuses_a_bad_prefix(tmp_path):
    game, out = tmp_path / "g", tmp_path / "out"
    new_game(game)
    bad = CliRunner().invoke(app, ["export", str(game), "-o", str(out), "-t", "tts", "--url-prefix", "notaurl"])
    assert bad.exit_code == 2 and "--url-prefix" in bad.output and "'notaurl' is not an http(s) or file URL" \
        in bad.output and not out.exists()
    done = CliRunner().invoke(app, ["export", str(game), "-o", str(out), "-t", "tts", "-q",
                                    "--url-prefix", "https://example.com/mm"])
    assert done.exit_code == 0, done.output
    folder = out / "g" / "export" / "tts"
    decks = [p for p in folder.glob("*.json") if p.name != "manifest.json"]
    urls = [v for deck in decks for k, v in _items(json.loads(deck.read_text())) if k in ("FaceURL", "BackURL")]
    assert urls
    for url in urls:
        name = url.removeprefix("https://example.com/mm/")
        assert name != url and "/" not in name and (folder / name).is_file(), url

    toml = game / "game.toml"
    toml.write_text(toml.read_text() + '\n[targets.web]\nextends = "tts"\nurl_prefix = "ftp://example.com/x"\n')
    checked = CliRunner().invoke(app, ["check", str(game), "-t", "web", "--format", "json"])
    assert checked.exit_code == 1
    (finding,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["severity"] == "error"]
    lines = toml.read_text().splitlines()
    assert finding["file"].endswith("game.toml") and lines[finding["line"] - 1].startswith("url_prefix")
    assert "'ftp://example.com/x' is not an http(s) or file URL" in finding["message"]


def _items(node):
    """Every (key, value) of a JSON document, at any depth."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from _items(v)
    elif isinstance(node, list):
        for v in node:
            yield from _items(v)
