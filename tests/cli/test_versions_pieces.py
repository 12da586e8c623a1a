"""``pnp diff`` and ``pnp build --changed-since`` on boards, tokens and dice: a game made by
``pnp new --from board-game`` with a second board drawn from a picture, a tokens table and a
die, released as 1.0, then changed: a token cell, a board's size, the other board's picture, a
token added, one removed, a token column no layout reads, and a face of the die. Built once
for the module."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest

from clirun import run
from pnp.model.games import source_of
from pnp.model.load import load_game
from pnp.model.scaffold import new_game
from pnp.pipeline.versions import current_snapshot


RESOURCES = """
[components.resources]
kind = "tokens"
name = "Resources"
table = "resources.csv"
id_column = "id"
copies_column = "copies"
shape = "square"
size = "15mm"
layout = "resource"

[components.resources.columns]
id = "id"
label = "str"
copies = { type = "int", min = 0 }
notes = { type = "str", required = false }

[components.die]
kind = "die"
name = "Die"
copies = 1
faces = [1, 2, 3, 4, 5, 6]
size = "16mm"

[components.map]
kind = "board"
name = "Map"
copies = 1
size = "120mm x 80mm"
layout = "map"
"""

LAYOUTS = """
[layouts.resource]
background = "white"

[layouts.resource.boxes.label]
type = "text"
text = "{{ label }}"
area = "trim"
size = 7
align = "center"
valign = "middle"
color = "ink"

[layouts.map.boxes.picture]
type = "image"
image = "art/map.png"
area = "trim"
"""



def picture(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    Image.new("RGB", (1500, 1000), colour).save(path)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """(game folder, output folder): version 1.0 built and released, then changed."""
    root = tmp_path_factory.mktemp("pieces")
    game, out = root / "g", root / "out"
    new_game(game, "board-game")
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("players = [2, 4]", 'players = [2, 4]\nversion = "1.0"') + RESOURCES)
    boards = game / "templates" / "boards.toml"
    boards.write_text(boards.read_text() + LAYOUTS)
    picture(game / "art" / "map.png", (40, 120, 200))
    (game / "resources.csv").write_text("id,label,copies,notes\nwood,Wood,3,\nstone,Stone,2,\nclay,Clay,2,\n")
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    released = run("release", str(game), "-o", str(out)).output
    assert "(3 cards, 2 boards, 4 tokens, 1 die, " in released
    # the playtest: a token cell, a board setting, a board's picture, a token added and one
    # removed, and a column no layout reads
    (game / "resources.csv").write_text("id,label,copies,notes\nwood,Timber,3,\nclay,Clay,2,too common\n"
                                        "gold,Gold,1,\n")
    toml.write_text(toml.read_text().replace('size = "240mm x 60mm"', 'size = "250mm x 60mm"')
                    .replace("faces = [1, 2, 3, 4, 5, 6]", "faces = [1, 2, 3, 4, 5, 5]"))
    picture(game / "art" / "map.png", (200, 60, 40))
    return game, out


def diff_json(game: Path, out: Path, since: str) -> dict:
    (result,) = json.loads(run("diff", str(game), "-o", str(out), "--format", "json", "--since", since).output)
    return result


def test_diff_lists_exactly_the_boards_and_tokens_changed(game):
    game, out = game
    d = diff_json(game, out, "1.0")
    assert d["counts"] == {"boards": {"changed": 2, "added": 0, "removed": 0},
                           "tokens": {"changed": 2, "added": 1, "removed": 1},
                           "dice": {"changed": 1, "added": 0, "removed": 0}}
    assert d["added"] == [{"piece": "resources/gold", "kind": "token", "copies": 1}]
    assert d["removed"] == [{"piece": "resources/stone", "kind": "token", "copies": 2}]
    changed = {c["piece"]: c for c in d["changed"]}
    assert list(changed) == ["boards/board", "boards/map", "resources/wood", "resources/clay", "dice/die"]
    assert changed["dice/die"]["fields"] == {"faces": {"old": "1; 2; 3; 4; 5; 6", "new": "1; 2; 3; 4; 5; 5"}}
    assert changed["dice/die"]["face_changed"] and changed["dice/die"]["kind"] == "die"
    assert changed["boards/board"]["fields"] == {"size": {"old": "240mm x 60mm", "new": "250mm x 60mm"}}
    assert changed["boards/map"]["fields"] == {} and changed["boards/map"]["face_changed"]  # the picture
    assert changed["resources/wood"]["fields"] == {"label": {"old": "Wood", "new": "Timber"}}
    assert all(changed[k]["printed"] for k in ("boards/board", "boards/map", "resources/wood"))
    clay = changed["resources/clay"]
    assert clay["fields"] == {"notes": {"old": "", "new": "too common"}} and not clay["printed"]
    assert d["not_compared"] == []

    text = run("diff", str(game), "-o", str(out), "--since", "1.0").output.splitlines()
    assert text[0] == "G v1.0: boards 2 changed; tokens 2 changed, 1 added, 1 removed; dice 1 changed " \
                      "since release 1.0"
    assert "  changed  boards/board  face" in text and "             size: 240mm x 60mm → 250mm x 60mm" in text
    assert "  changed  resources/clay  data only" in text and "  added    resources/gold  (1 copy)" in text
    md = run("diff", str(game), "-o", str(out), "--since", "1.0", "--format", "md").output
    assert "- **resources/wood** (face); label: Wood → Timber" in md
    assert "### Data only (nothing printed changed)\n\n- **resources/clay**; notes: \"\" → too common" in md


def _token_labels(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return sorted(w["text"] for page in pdf.pages[1:] for w in page.extract_words()
                      if w["text"] in ("Wood", "Timber", "Stone", "Clay", "Gold"))


def test_changed_since_reprints_exactly_the_changed_and_added_boards_and_tokens(game):
    game, out = game
    run("check", str(game), "-o", str(out), "--changed-since", "1.0")
    done = run("build", str(game), "-o", str(out), "--changed-since", "1.0", "--stamp")
    # the boards: a cover and one page each; the tokens: a cover, one token sheet, one die sheet
    assert "boards-changed: 6 sheet(s) of boards, tokens and dice" in done.output
    folder = out / "g"
    assert not (folder / "g-cards-changed.pdf").exists()  # no card changed: no card sheet
    with pdfplumber.open(folder / "g-boards-changed.pdf") as pdf:
        # the cover, then one page per board: each fits a sheet, as in the full build
        assert len(pdf.pages) == 3
        footers = [" ".join(p.extract_text().split()) for p in pdf.pages[1:]]
        assert "Score board · 250 x 60 mm · cut on the crop marks" in footers[0]
        assert "Map · 120 x 80 mm" in footers[1]
    assert _token_labels(folder / "g-tokens-changed.pdf") == ["Gold", "Timber", "Timber", "Timber"]
    with pdfplumber.open(folder / "g-tokens-changed.pdf") as pdf:
        assert len(pdf.pages) == 3 and pdf.pages[2].extract_text().startswith("Die: cut on the grey outline")
        words = [w["text"] for w in pdf.pages[1].extract_words()]
    # each reprinted token is stamped with the face hash its snapshot entry holds
    now = current_snapshot(load_game(game, "g"), source_of(game, "g"))
    stamps = [now["pieces"][k]["face"][:6] for k in ("resources/wood", "resources/gold")]
    assert [w for w in words if w in stamps] == [stamps[0]] * 3 + [stamps[1]]
    assert _token_labels(folder / "g-tokens.pdf") == ["Clay", "Clay", "Stone", "Stone", "Wood", "Wood", "Wood"]
    with pdfplumber.open(folder / "g-changes.pdf") as pdf:
        lines = pdf.pages[0].extract_text().splitlines()
    take, put = lines.index("Take out of the old print: 5"), lines.index("Put in from these sheets: 5")
    keep = lines.index("Keep as printed (only data that prints nowhere changed): 1")
    assert [line.split("x", 1)[1].strip() for line in lines[take + 1:put]] == [
        "boards/board (Score board)", "boards/map (Map)", "resources/wood (Wood)", "resources/stone (Stone)",
        "dice/die (Die)"]
    assert [line.split("x", 1)[1].strip() for line in lines[put + 1:keep]] == [
        "boards/board (Score board)", "boards/map (Map)", "resources/wood (Timber)", "resources/gold (Gold)",
        "dice/die (Die)"]
    assert lines[keep + 1].strip() == "resources/clay (Clay)"


def test_a_release_of_the_cards_only_format_still_diffs(game, tmp_path):
    """A release made before boards and tokens were recorded: they are not compared, and the
    diff and the reprint's list say so instead of listing them all as added."""
    game, out = game
    saved = json.loads((game / "releases" / "1.0.json").read_text())
    old = {**saved, "format": 1, "pieces": {k: {f: v for f, v in e.items() if f != "kind"}
                                             for k, e in saved["pieces"].items() if "kind" not in e}}
    del old["kinds"]
    assert set(old["pieces"]) == {"cards/spark", "cards/tide", "cards/reef"}
    (game / "releases" / "0.9.json").write_text(json.dumps(old))
    try:
        d = diff_json(game, out, "0.9")
        assert d["added"] == [] and d["removed"] == [] and d["changed"] == [] and d["counts"] == {}
        assert [p["piece"] for p in d["not_compared"]] == [
            "boards/board", "boards/map", "tokens/markers", "resources/wood", "resources/clay", "resources/gold",
            "dice/die"]
        text = run("diff", str(game), "-o", str(out), "--since", "0.9").output.splitlines()
        assert text == ["G v1.0: nothing changed since release 0.9",
                        "  boards, tokens and dice (7) not compared: release 0.9 recorded cards only; rebuild them in "
                        "full (pnp build) if they changed"]
        shutil.copytree(out, tmp_path / "out")
        run("build", str(game), "-o", str(tmp_path / "out"), "--changed-since", "0.9")
        made = sorted(p.name for p in (tmp_path / "out" / "g").glob("*-change*.pdf"))
        assert made == ["g-changes.pdf"]  # nothing known to have changed: no sheets
        with pdfplumber.open(tmp_path / "out" / "g" / "g-changes.pdf") as pdf:
            lines = pdf.pages[0].extract_text().splitlines()
        assert lines[-2:] == ["Boards, tokens and dice (7) not compared: release 0.9 recorded cards only;",
                              "rebuild them in full (pnp build) if they changed."]
    finally:
        (game / "releases" / "0.9.json").unlink()


def test_check_finds_what_the_reprint_of_a_token_would_refuse(game, tmp_path):
    """A token added that fits no sheet: check --changed-since reports the error the reprint
    build finds, at the same place, and the build writes nothing (the files of the last
    reprint stay)."""
    game, out = game
    copy, out2 = tmp_path / "g", tmp_path / "out"
    shutil.copytree(game, copy)
    shutil.copytree(out, out2)
    toml = copy / "game.toml"
    (copy / "resources.csv").write_text("id,label,copies,notes,size\nwood,Timber,3,,\nhuge,Huge,1,,400mm\n")
    text = toml.read_text().replace('notes = { type = "str", required = false }',
                                    'notes = { type = "str", required = false }\nsize = { type = "str", '
                                    'required = false }')
    toml.write_text(text)
    checked = run("check", str(copy), "-o", str(out2), "--changed-since", "1.0", "--format", "json", ok=False)
    (found,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["severity"] == "error"]
    assert found["rule"] == "sheet.fit"
    assert found["file"].endswith("game.toml") and found["line"]  # the component's size
    before = {p.name: p.read_bytes() for p in (out2 / "g").glob("*.pdf")}
    built = run("build", str(copy), "-o", str(out2), "--changed-since", "1.0", ok=False)
    assert built.exit_code == 1 and found["rule"] in built.output and found["message"] in built.output
    assert {p.name: p.read_bytes() for p in (out2 / "g").glob("*.pdf")} == before  # nothing written
