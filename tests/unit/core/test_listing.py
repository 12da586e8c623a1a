"""The files of a game folder as a build reads them and a run snapshot lists them."""

from __future__ import annotations

import os
from pathlib import Path

from pnp.core.files import game_files
from pnp.core.listing import BUILD_RECORD, game_file_names, game_file_parts, run_listing


def make(root: Path) -> Path:
    game = root / "g"
    for rel in ("a.csv", "sub/b.csv", "sub/deep/c.png", ".hidden", ".cache/d", "sub/.e", "releases/1.0.json",
                f"output/g/{BUILD_RECORD}", "output/g/g-cards.pdf", "output/stray.txt",
                f"work/proofs/{BUILD_RECORD}", "work/proofs/x.pdf", "work/notes.md", "outside/o.txt"):
        path = (root if rel.startswith("outside") else game) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rel, encoding="utf-8")
    os.symlink(root / "outside", game / "linked-folder")  # not entered
    os.symlink(root / "outside" / "o.txt", game / "linked.txt")  # a file
    os.symlink(root / "nowhere", game / "broken.txt")  # not a file
    return game


def test_hidden_files_releases_outputs_and_linked_folders_are_left_out(tmp_path):
    game = make(tmp_path)
    assert game_file_parts(str(game)) == [("a.csv",), ("linked.txt",), ("sub", "b.csv"), ("sub", "deep", "c.png")]
    # a build record's folder and the folder holding it are outputs: work/notes.md goes with them
    assert game_files(game) == [game / "a.csv", game / "linked.txt", game / "sub" / "b.csv",
                                game / "sub" / "deep" / "c.png"]
    assert game_file_parts(str(game) + "/") == game_file_parts(str(game))
    assert game_file_parts(str(game / "output")) == [("stray.txt",)]  # g holds a record; output is the folder


def test_a_folder_holding_a_build_record_itself_has_no_inputs(tmp_path):
    game = make(tmp_path)
    (game / BUILD_RECORD).write_text("{}", encoding="utf-8")
    assert game_file_parts(str(game)) == [] and game_file_parts(str(tmp_path / "missing")) == []


def test_the_listing_is_resolved_and_sorted_as_text(tmp_path):
    game = make(tmp_path)
    names = game_file_names(str(game))
    assert names == sorted(str(p.resolve()) for p in game_files(game))
    assert str((tmp_path / "outside" / "o.txt").resolve()) in names  # the link's target
    assert run_listing(str(game), str(game / "sub")) == sorted(names + game_file_names(str(game / "sub")))
    assert run_listing(str(game), None) == names
