"""game.toml refuses the names it does not know: a misspelt top-level table or [game] setting is
a schema.manifest error at its line with the closest name, and every table the docs describe
is accepted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.core.errors import ManifestError
from pnp.model.games import bundled_ids, data_root, folder_label
from pnp.model.load import load_game
from pnp.model.manifest import TOP_TABLES, read_manifest

DOCS = Path(__file__).resolve().parents[3] / "docs"


def refusal(folder: Path, old: str, new: str) -> ManifestError:
    manifest = folder / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        load_game(folder, "g")
    return info.value


@pytest.mark.parametrize("old, new, line, message, close", [
    ("[[totals]]", "[[total]]", 32, "unknown table [[total]]", "totals"),
    ("players = [2, 4]", 'players = [2, 4]\nverison = "0.3"', 5, "unknown game setting 'verison'", "version"),
    ("players = [2, 4]", "playrs = [2, 5]", 4, "unknown game setting 'playrs'", "players"),
    ("[colors]", "[colours]", 45, "unknown table [colours]", "colors"),
    ("[colors]", "[bulid]\nstamp = true\n\n[colors]", 45, "unknown table [bulid]", "build"),
    ("[colors]", "[rule]\nhand = 5\n\n[colors]", 45, "unknown table [rule]", "rules"),
    ("[colors]", "[boxs.all]\ndecks = [\"cards\"]\n\n[colors]", 45, "unknown table [boxs]", "boxes"),
])
def test_a_misspelt_name_is_refused_at_its_line_with_the_closest(tiny, old, new, line, message, close):
    error = refusal(tiny, old, new)
    assert error.rule == "schema.manifest"
    assert (error.location.file, error.location.line) == ("g/game.toml", line)
    assert error.message == message
    assert error.hint.startswith(f"did you mean {close!r}?")


def test_a_game_setting_outside_game_says_where_it_belongs(tiny):
    error = refusal(tiny, "[game]", 'title = "Tiny"\n\n[game]')
    assert (error.location.line, error.message) == (1, "unknown setting 'title' outside every table")
    assert error.hint == "title is a setting of the game: write it under [game]"


def test_a_misspelt_card_size_suggests_the_named_size(tiny):
    error = refusal(tiny, 'card_size = "poker"', 'card_size = "Pokr"')
    assert error.location.line == 12 and error.message.startswith("'Pokr' is not a size")
    assert error.hint == "did you mean 'poker'?"


def test_every_table_the_docs_describe_is_accepted():
    """The tables docs/game-format.md lists are exactly those game.toml may have, so a valid
    table is never refused as a typo (nor a typo kept as a table)."""
    text = (DOCS / "game-format.md").read_text(encoding="utf-8")
    manifest = text[text.index("## The manifest"):text.index("### Component kinds")]
    others = text[text.index("## Other tables of game.toml"):text.index("## Stated totals")]
    named = set(re.findall(r"^\[\[?([a-z_]+)", manifest, re.M)) | set(re.findall(r"^\| `\[([a-z_]+)", others, re.M))
    assert named == set(TOP_TABLES)


def test_the_bundled_games_use_only_known_tables():
    for gid in bundled_ids():
        game = read_manifest(data_root() / gid, f"card_data/{gid}")
        assert set(game.manifest) <= set(TOP_TABLES)


def test_a_folder_named_dot_is_called_by_its_own_name(tmp_path, monkeypatch):
    folder = tmp_path / "mygame"
    folder.mkdir()
    monkeypatch.chdir(folder)
    assert folder_label(".") == "mygame"
    assert folder_label("card_data/assemble") == "card_data/assemble"
    assert folder_label("../mygame") == "../mygame"
