"""Where the items of a TOML array begin (the lines messages about a cutter profile's marks
and keep-outs name)."""

from pnp.core.tomlpos import array_item_lines

TEXT = """x = 1
marks = [  # a comment with a [ bracket
  { kind = "s]", x = 1 },
  { kind = "c",
    x = 2 }, [1, 2],
  3
]
k = "["
"""


def test_each_item_of_a_multi_line_array_is_at_the_line_it_begins():
    assert array_item_lines(TEXT, 2) == [3, 4, 5, 6]


def test_items_on_one_line_share_it_and_a_key_without_an_array_has_none():
    assert array_item_lines("m = [{ a = 1 }, { b = 2 }]", 1) == [1, 1]
    assert array_item_lines("m = []", 1) == []
    assert array_item_lines(TEXT, 1) == [] and array_item_lines(TEXT, 8) == [] and array_item_lines(TEXT, None) == []
