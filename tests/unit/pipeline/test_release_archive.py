"""The archive a release keeps (``releases/<version>.zip``): what it holds, that the same files
make the same bytes, and that unpacking it gives a game folder the cards are drawn from again,
also for a templates folder outside the game folder (as a bundled game has)."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import zipfile

import pytest

from pnp.core.errors import PnpError
from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.model.scaffold import new_game
from pnp.pipeline.archive import archive_bytes, archive_files, archive_path, unpack
from pnp.pipeline.versions import data_files


def test_an_archive_with_templates_outside_the_game_folder_unpacks_to_a_game_that_loads(tmp_path):
    game_dir = tmp_path / "g"
    new_game(game_dir)
    (game_dir / "notes.md").write_text("playtest notes, no input of the build")
    templates = tmp_path / "shared-templates"
    shutil.move(game_dir / "templates", templates)
    source = GameSource(game_dir, "g", templates, "templates/g")
    game = load_game(game_dir, "g")
    files, where = archive_files(game, source, data_files(game))
    assert where == "templates"
    assert list(files) == sorted(files) and "game/notes.md" not in files
    assert {"game/game.toml", "game/cards.csv", "game/art/placeholder.png", "templates/layouts.toml",
            "templates/rulebook.md.j2"} <= set(files)

    data = archive_bytes(files)
    os.utime(game_dir / "cards.csv", (1_000_000, 1_000_000))  # another date on disk: the same bytes
    assert archive_bytes(dict(reversed(list(files.items())))) == data
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert [i.date_time for i in zf.infolist()] == [(1980, 1, 1, 0, 0, 0)] * len(files)
        assert all((i.external_attr >> 16) == 0o100644 for i in zf.infolist())

    path = archive_path(game_dir, "1.0")
    path.parent.mkdir()
    path.write_bytes(data)
    release = {"archive": {"file": "1.0.zip", "sha256": hashlib.sha256(data).hexdigest(), "templates": where}}
    with unpack(source, "1.0", release) as old:
        assert (old.templates_dir / "layouts.toml").read_bytes() == (templates / "layouts.toml").read_bytes()
        old_game = load_game(old.path, old.display)
        assert set(game_layouts(old_game, old).layouts) == set(game_layouts(game, source).layouts)
        assert [r.id for r in old_game.components["cards"].rows] == [r.id for r in game.components["cards"].rows]
    assert not old.path.exists()  # the scratch folder lasts for the block only

    path.write_bytes(data.replace(b"game/", b"gamE/", 1))
    with pytest.raises(PnpError) as refused:
        with unpack(source, "1.0", release):
            pass
    assert refused.value.rule == "versions.visual" and "SHA-256 differs" in str(refused.value)


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_a_truncated_or_corrupt_archive_is_a_versions_error_naming_the_zip(tmp_path, damage):
    game_dir = tmp_path / "g"
    new_game(game_dir)
    source = GameSource(game_dir, "g", game_dir / "templates", "g/templates")
    game = load_game(game_dir, "g")
    files, where = archive_files(game, source, data_files(game))
    data = archive_bytes(files)
    bad = data[:len(data) // 2] if damage == "truncated" else data[:100] + b"x" * 50 + data[150:]
    path = archive_path(game_dir, "1.0")
    path.parent.mkdir()
    path.write_bytes(bad)
    # the release's JSON holds this zip's SHA-256: the damage is in what release wrote, not after
    release = {"archive": {"file": "1.0.zip", "sha256": hashlib.sha256(bad).hexdigest(), "templates": where}}
    with pytest.raises(PnpError) as refused:
        with unpack(source, "1.0", release):
            pass
    assert refused.value.rule == "versions.visual"
    assert f"{path} cannot be unpacked: it is truncated or corrupt" in refused.value.message
    assert "release it again" in refused.value.hint and "git revision" in refused.value.hint
