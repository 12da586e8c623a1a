"""The schema translator: every kind of violation becomes a located message in a designer's
words, at the line of the key, with the closest name where one was misspelt."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import pytest
from msgspec import Meta, Struct

from pnp.core.errors import PnpError
from pnp.core.schema import TomlFile, check

TEXT = """\
[thing]
kind = "dek"
count = -2
name = 3
colour = "red"
"""


class Thing(Struct, forbid_unknown_fields=True):
    kind: Literal["deck", "board"]
    name: str
    count: Annotated[int, Meta(ge=0)] = 1
    color: Union[str, None] = None
    size: float = 1.0


FILE = TomlFile.of_text("g/game.toml", TEXT)


def violation(data: dict, **kwargs) -> PnpError:
    with pytest.raises(PnpError) as caught:
        check(data, Thing, FILE, "thing", **kwargs)
    return caught.value


def test_a_missing_setting_names_the_table_and_how_to_add_it():
    file = TomlFile.of_text("g/game.toml", '# a game\n[thing]\nkind = "deck"\n')
    with pytest.raises(PnpError) as caught:
        check({"kind": "deck"}, Thing, file, "thing")
    assert caught.value.render() == "g/game.toml:2 (thing.name): 'name' is missing\n  hint: add name = ... under [thing]"


def test_an_unknown_setting_suggests_the_closest():
    err = violation({"kind": "deck", "name": "n", "colour": "red"}, what="thing setting")
    assert err.location.line == 5 and err.location.column_name == "thing.colour"
    assert err.message == "unknown thing setting 'colour'"
    assert err.hint.startswith("did you mean 'color'? settings: kind, name, count, color, size")


def test_a_wrong_type_says_what_was_expected_in_words():
    err = violation({"kind": "deck", "name": 3})
    assert err.render() == "g/game.toml:4 (thing.name): 'name' must be text in quotes, not 3"
    assert violation({"kind": "deck", "name": "n", "count": "2"}).message == "'count' must be a whole number, not '2'"
    assert violation({"kind": "deck", "name": "n", "count": True}).message == "'count' must be a whole number, not True"
    assert violation({"kind": "deck", "name": "n", "size": "big"}).message == "'size' must be a number, not 'big'"


def test_a_value_out_of_range_gives_the_bound():
    err = violation({"kind": "deck", "name": "n", "count": -2})
    assert err.render() == "g/game.toml:3 (thing.count): count must be at least 0, not -2"


def test_a_choice_can_word_its_own_message():
    err = violation({"kind": "dek", "name": "n"},
                    choices={"kind": lambda v: (f"unknown kind {v!r}", "kinds: deck, board")})
    assert err.render() == "g/game.toml:2 (thing.kind): unknown kind 'dek'\n  hint: kinds: deck, board"
    assert violation({"kind": "dek", "name": "n"}).message == "kind 'dek' is not one of the allowed values"


def test_a_file_with_a_prefix_locates_keys_inside_its_table():
    text = "[game]\nid = 'x'\n\n[targets.shop]\ndpi = 'high'\n"
    file = TomlFile.of_text("g/game.toml", text, prefix="targets.shop")
    assert file.location("dpi").line == 5 and file.location("dpi").column_name == "targets.shop.dpi"
    assert file.location("bleed").line == 4  # not written: the table's own line
    assert file.location("fill, drawing layout card").line == 4


def test_a_table_named_only_by_its_sub_tables_is_at_the_first_of_them():
    text = "[game]\nid = 'x'\n\n[icon.fire]\nshape = 'circle'\n\n[icon.leaf]\n\n[[total]]\ncount = 1\n"
    file = TomlFile.of_text("g/layouts.toml", text)
    assert file.location("icon").line == 4  # [icon.fire]: "icon" has no line of its own
    assert file.location("total").line == 9  # [[total]]: its first entry
    assert file.location("game.title").line == 1  # not written: still its table's line
