"""The incremental cache is correct before it is fast: after any kind of edit, a build over the
previous build's files writes exactly the bytes a clean build of the edited game writes.

Every kind of input a build reads is edited once: a table cell, a row added, a layout key, an
icon, a picture a card draws (its pixels changed, and it removed), a board layout, ``rules.toml``,
the rulebook template, the export profile a manifest target uses, and the game's settings. The
game builds its cards, tokens, rulebook and a manifest target (``[targets.proof]``) each time, so
every stage's record is exercised.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from pnp.core.files import BUILD_RECORD
from pnp.model.games import GameSource
from pnp.model.load import LoadOptions
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game
from pnp.pipeline.fresh import RUN_FILE

SETTINGS = BuildSettings(SheetOptions())


def build(game: Path, out: Path):
    source = GameSource(game, "tiny", game / "templates", "tiny/templates")
    return run_game(BuildJob(source, out, SETTINGS, LoadOptions()))


def written(folder: Path) -> dict[str, bytes]:
    """Every file a build left in ``folder`` (relative path to bytes), records left out."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in (BUILD_RECORD, RUN_FILE)}


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def prepare(game: Path) -> None:
    """The tiny game with a picture on every action card, a rules file and an export target."""
    (game / "art").mkdir()
    Image.new("RGB", (40, 40), (20, 90, 200)).save(game / "art" / "emblem.png")
    append(game / "templates" / "layouts.toml",
           '\n[layouts.action.boxes.emblem]\ntype = "image"\nimage = "art/emblem.png"\n'
           'x = "40mm"\ny = "6mm"\nwidth = "10mm"\nheight = "10mm"\noverlap = true\n')
    (game / "rules.toml").write_text(
        '[[rule]]\nid = "cards.cheap"\nfor_each = "cards"\nassert = "cost <= 5"\ncolumn = "cost"\n'
        'message = "{title} costs {cost}"\nsource = "Components"\n', encoding="utf-8")
    append(game / "game.toml", '\n[targets.proof]\nextends = "tgc"\ndpi = 60\n')
    (game / "templates" / "rulebook.md.j2").write_text(
        "# {{ game.title }}\n\n[TOC]\n\n## Setup\n\nDeal five cards to each player.\n", encoding="utf-8")


def recolour_art(game: Path) -> None:
    Image.new("RGB", (40, 40), (200, 30, 30)).save(game / "art" / "emblem.png")


def remove_art(game: Path) -> None:
    (game / "art" / "emblem.png").unlink()  # a draft build prints its placeholder


def add_row(game: Path) -> None:
    append(game / "cards.csv", "spark,Spark,0,red,Gain 1.,1\n")
    replace_in(game / "game.toml", "count = 5", "count = 6")  # the totals the rulebook states
    replace_in(game / "game.toml", "count = 3", "count = 4")


EDITS = {
    "a table cell": lambda g: replace_in(g / "cards.csv", "Leaf", "Leaves"),
    "a row added": add_row,
    "a layout key": lambda g: replace_in(g / "templates" / "layouts.toml", "size = 14", "size = 12"),
    "an icon": lambda g: replace_in(g / "templates" / "layouts.toml", 'label = "F"', 'label = "X"'),
    "a picture's pixels": recolour_art,
    "a picture removed": remove_art,
    "a token layout": lambda g: replace_in(g / "templates" / "boards.toml", "#F1C40F", "#E67E22"),
    "rules.toml, still met": lambda g: replace_in(g / "rules.toml", "cost <= 5", "cost <= 9"),
    "rules.toml, now broken": lambda g: replace_in(g / "rules.toml", "cost <= 5", "cost <= 1"),
    "the rulebook template": lambda g: replace_in(g / "templates" / "rulebook.md.j2", "five", "six"),
    "the export profile": lambda g: replace_in(g / "game.toml", "dpi = 60", "dpi = 72"),
    "the game's settings": lambda g: replace_in(g / "game.toml", "Tiny Test Game", "Tiny Game"),
    "a colour": lambda g: replace_in(g / "game.toml", '"#C0392B"', '"#A93226"'),
}
# Edits that change what the game means but no printed file.
NO_PRINTED_CHANGE = {"rules.toml, still met"}
# Edits that make an error: the missing picture is refused by the export target, which never
# takes a draft, and the broken rule by every build.
REFUSED = {"a picture removed", "rules.toml, now broken"}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_build_after_an_edit_writes_what_a_clean_build_writes(edit, tiny, tmp_path):
    game = tmp_path / "tiny"
    if game != tiny:
        shutil.move(tiny, game)
    prepare(game)
    out = tmp_path / "out"
    first = build(game, out)
    assert first.ran, "the first build draws every part"
    before = written(out / "tiny")
    assert any(name.startswith("export/proof/") for name in before), "the target is exported"

    EDITS[edit](game)
    again = build(game, out)
    clean = build(game, tmp_path / "clean")
    assert again.findings == clean.findings
    after, expected = written(out / "tiny"), written(tmp_path / "clean" / "tiny")
    assert any(f.severity == "error" for f in clean.findings) == (edit in REFUSED)
    if edit in REFUSED:
        # a refused build writes nothing, and leaves the previous build's files as they were
        assert expected == {} and after == before
        return
    assert sorted(after) == sorted(expected)
    differing = sorted(name for name in expected if after[name] != expected[name])
    assert differing == [], f"{edit}: these files differ from a clean build's"
    printed = {name for name in after if not name.rsplit("/", 1)[-1].startswith(".")}  # records left out
    unchanged = all(after[name] == before.get(name) for name in printed) and printed == {
        name for name in before if not name.rsplit("/", 1)[-1].startswith(".")}
    assert unchanged == (edit in NO_PRINTED_CHANGE), f"{edit}: unexpected change of printed output"
