"""The face hash changes exactly when what a piece prints changes."""

from __future__ import annotations

from pathlib import Path

from pnp.design.layouts import game_layouts
from pnp.design.stamp import face_hash, stamp_text
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.model.pieces import card_instances
from pnp.model.scaffold import new_game


def _hashes(game_dir: Path) -> dict[str, str]:
    source = GameSource(game_dir, "g", game_dir / "templates", "g/templates")
    game = load_game(game_dir, "g")
    layouts = game_layouts(game, source)
    out = {}
    for card in card_instances(game):
        digest = face_hash(layouts, card.face, card.size, game_dir)
        assert out.setdefault(card.face.name, digest) == digest  # every copy prints the same
    return out


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_the_hash_follows_the_face_and_only_the_face(tmp_path):
    game = tmp_path / "g"
    new_game(game)
    first = _hashes(game)
    assert len(set(first.values())) == 3

    _edit(game / "cards.csv", "Spark,1", "Sparks,1")  # a printed cell
    second = _hashes(game)
    assert second["cards/spark"] != first["cards/spark"]
    assert {k: v for k, v in second.items() if k != "cards/spark"} == \
           {k: v for k, v in first.items() if k != "cards/spark"}

    # a column no layout reads: declared, filled, never printed
    _edit(game / "game.toml", 'copies = { type = "int", min = 0 }',
          'copies = { type = "int", min = 0 }\nnotes = { type = "str", required = false }')
    rows = (game / "cards.csv").read_text().splitlines()
    rows = [rows[0] + ",notes"] + [r + ",playtest 3" for r in rows[1:3]] + rows[3:]
    rows[-1] += ",x"
    (game / "cards.csv").write_text("\n".join(rows) + "\n")
    assert _hashes(game) == second

    _edit(game / "cards.csv", ",2,", ",3,")  # copies: more of the same face
    assert _hashes(game) == second

    _edit(game / "templates" / "layouts.toml", "size = 14", "size = 13")  # the design
    assert all(a != b for a, b in zip(_hashes(game).values(), second.values()))


def test_the_hash_follows_the_art_file_bytes(tmp_path):
    game = tmp_path / "g"
    new_game(game)
    before = _hashes(game)
    art = sorted((game / "art").iterdir())[0]
    art.write_bytes(art.read_bytes() + b"\n<!-- changed -->\n" if art.suffix == ".svg" else art.read_bytes() + b"\0")
    after = _hashes(game)
    assert after != before


def test_the_stamp_text():
    assert stamp_text("1.2", "3f9a1c" + "0" * 58) == "v1.2 · 3f9a1c"
    assert stamp_text(None, "3f9a1c" + "0" * 58) == "3f9a1c"
