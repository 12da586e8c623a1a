"""One meaning of "count pieces where": stated totals, rules.toml's count() and the rulebook's
count() agree on every kind of component."""

from __future__ import annotations

import shutil

import pytest

from conftest import FIXTURES
from pnp.core.errors import Problem
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.rulebook.template import _Template
from pnp.validate.expressions import Evaluator

EXTRA = """
[components.board]
kind = "board"
name = "Board"
table = "spaces.csv"
id_column = "id"

[components.board.columns]
id = "id"
kind = "str"

[components.notes]
kind = "table"
name = "Notes"
table = "notes.csv"
id_column = "id"

[components.notes.columns]
id = "id"
topic = "str"
"""


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", folder)
    manifest = folder / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + EXTRA, encoding="utf-8")
    (folder / "spaces.csv").write_text("id,kind\ns1,start\ns2,plain\ns3,plain\ns4,goal\n", encoding="utf-8")
    (folder / "notes.csv").write_text("id,topic\nn1,setup\nn2,setup\nn3,scoring\n", encoding="utf-8")
    return load_game(folder, "tiny")


QUERIES = [
    ("cards", {}, 5),
    ("cards", {"colour": "red"}, 3),
    ("cards", {"colour": ["red", "green"]}, 5),
    ("cards", {"id": "leaf"}, 2),
    ("cards", {"cost": 2, "colour": "red"}, 3),
    ("board", {}, 1),
    ("board", {"kind": "plain"}, 2),
    ("notes", {}, 3),
    ("notes", {"topic": "setup"}, 2),
    ("tokens", {}, 10),
]


@pytest.mark.parametrize("component, where, expected", QUERIES)
def test_every_count_agrees(game, component, where, expected):
    evaluator = Evaluator(game)
    template = _Template(game, GameSource(game.path, "tiny", game.path / "templates", "tiny/templates"))
    assert game.components[component].count(where) == expected
    assert evaluator.count(component, **where) == expected
    assert template.count(component, **where) == expected


def test_a_stated_total_counts_the_same_way(game):
    from pnp.model.game import StatedTotal

    assert game.count(StatedTotal("cards", 3, "red cards", "Components", (("colour", "red"),))) == 3
    assert game.count(StatedTotal("notes", 3, "notes", "Components")) == 3


def test_a_component_without_a_table_cannot_be_filtered(game):
    with pytest.raises(Problem, match="tokens has no table to filter"):
        game.components["tokens"].count({"colour": "red"})
