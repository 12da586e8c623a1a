"""The whole Tabletop Simulator table (``{game}.json``) of every bundled game, loaded and checked
against the game's composition as ``pnp check`` counts it (Component.pieces): each deck's cards,
each board, each token with its copies, each die; the images beside it exist at their declared
pixel sizes; each board's scale is its width in inches; nothing overlaps on the table."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from conftest import FIXTURES
from pnp.core.units import parse_size, to_mm
from pnp.design.layouts import game_layouts
from pnp.model.games import find_game, source_of
from pnp.model.load import load_game
from pnp.model.pieces import token_pieces
from pnp.outputs.export import export_game, render_export
from pnp.outputs.export.tts_objects import GAP, UNIT_MM, UNITS_AT_SCALE_1
from pnp.outputs.export.tts_pieces import D6_GRID, D6_ROTATIONS, D6_TEMPLATE, DIE_FACE_PX, d6_rotation_values, die_template
from pnp.outputs.export.tts_setup import setup_text

GAMES = ("ars-alchimia", "assemble", "atomic-assembly", "periodic-shed")


@pytest.fixture(scope="module", params=GAMES)
def table(request, tmp_path_factory):
    """(game, export folder, the loaded {game}.json, manifest.json): one export per game."""
    source = find_game(request.param)
    game = load_game(source.path, source.display)
    out = tmp_path_factory.mktemp("out")
    result = export_game(game, game_layouts(game, source), "tts", out, jobs=1, source=source)
    folder = out / "export" / "tts"
    assert not [f for f in result.findings if f.severity == "error"]
    doc = json.loads((folder / f"{game.file_stem}.json").read_text(encoding="utf-8"))
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return game, folder, doc, manifest


def _file(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def _shapes(game) -> dict[str, str]:
    """Each token's shape by ``component/name``, as the tokens sheets print it."""
    return {f"{tp.component}/{tp.name}": tp.shape for tp in token_pieces(game)[0]}


def _mm(value: str) -> tuple[float, float]:
    size = parse_size(value)
    return to_mm(size.width), to_mm(size.height)


@pytest.mark.slow
def test_every_component_is_on_the_table_with_its_count(table):
    game, folder, doc, _ = table
    states = doc["ObjectStates"]
    assert len({s["GUID"] for s in states}) == len(states)
    decks = {}
    for s in states:
        if s["Name"] == "DeckCustom":
            ids = {c["Description"].split("/")[0] for c in s["ContainedObjects"]}
            assert len(ids) == 1 and s["DeckIDs"] == [c["CardID"] for c in s["ContainedObjects"]]
            decks[ids.pop()] = len(s["ContainedObjects"])
        elif s["Name"] == "Card":
            decks[s["Description"].split("/")[0]] = 1
    boards = Counter(s["Description"] for s in states if s["Name"] in ("Custom_Board", "Custom_Tile"))
    tokens = Counter(s["Description"].split("/")[0] for s in states if s["Name"] == "Custom_Token")
    dice = Counter(s["Description"] for s in states if s["Name"] == "Custom_Dice")
    for comp in game:
        if comp.kind == "deck":
            assert decks.get(comp.id, 0) == comp.pieces, comp.id
        elif comp.kind == "board":
            assert boards[comp.id] == comp.pieces, comp.id
        elif comp.kind == "tokens":
            assert tokens[comp.id] == comp.pieces, comp.id
        elif comp.kind == "die":
            assert dice[comp.id] == comp.pieces, comp.id
        sheet = comp.options.get("sheet")
        if isinstance(sheet, dict):
            assert boards[f"{comp.id} sheet"] == sheet.get("copies", 1)
    assert set(decks) == {c.id for c in game if c.kind == "deck" and c.pieces}
    assert set(tokens) == {c.id for c in game if c.kind == "tokens" and c.pieces}
    for s in states:
        if s["Name"] == "Custom_Token":
            token = s["CustomImage"]["CustomToken"]
            assert token["Stackable"] is True and token["Thickness"] > 0 and token["MergeDistancePixels"] > 0
            assert token["StandUp"] is (_shapes(game)[s["Description"]] == "standee")
        if s["Name"] == "Custom_Dice":
            assert s["CustomImage"]["CustomDice"]["Type"] == 1  # six faces
    notes = [s for s in states if s["Name"] == "Notecard"]
    assert len(notes) == 1
    for comp in game:
        if comp.kind in ("deck", "board", "tokens", "die") and comp.pieces:
            assert f"- {comp.name}: {comp.pieces}\n" in notes[0]["Description"] + "\n"


@pytest.mark.slow
def test_images_exist_at_their_sizes_and_boards_are_to_scale(table):
    game, folder, doc, manifest = table
    declared = {f["file"]: (f.get("width_px"), f.get("height_px")) for f in manifest["files"]}
    for s in doc["ObjectStates"]:
        urls = [d[k] for d in s.get("CustomDeck", {}).values() for k in ("FaceURL", "BackURL")]
        urls += [s["CustomImage"]["ImageURL"]] if "CustomImage" in s else []
        for url in urls:
            path = _file(url)
            assert path.parent == folder and path.is_file(), url
            with Image.open(path) as im:
                assert im.size == declared[path.name]
                size, mode = im.size, im.mode
        if s["Name"] in ("Custom_Board", "Custom_Tile"):
            comp_id, _, side = s["Description"].partition(" ")
            comp = game.components[comp_id]
            w, h = _mm(comp.options["sheet"]["size"] if side == "sheet" else comp.options["size"])
            t = s["Transform"]
            assert t["scaleX"] == t["scaleZ"] == pytest.approx(w / UNIT_MM / UNITS_AT_SCALE_1, abs=1e-4)
            assert size[1] / size[0] == pytest.approx(h / w, abs=1.5 / size[0])
            assert max(size) <= 4096
            assert s["Name"] == ("Custom_Board" if max(w, h) >= 300 else "Custom_Tile")
        if s["Name"] == "Custom_Token":
            with Image.open(_file(s["CustomImage"]["ImageURL"])) as im:
                assert mode == "RGBA"
                corner, centre = im.getpixel((0, 0))[3], im.getpixel((im.width // 2, im.height // 2))[3]
            assert centre == 255
            if _shapes(game)[s["Description"]] in ("circle", "hexagon"):
                assert corner == 0  # transparent outside the round shape
            else:
                assert corner == 255
        if s["Name"] == "Custom_Dice":
            assert size == (D6_GRID[0] * DIE_FACE_PX, D6_GRID[1] * DIE_FACE_PX)


@pytest.mark.slow
def test_nothing_overlaps_on_the_table(table):
    game, _, doc, _ = table
    rects = {}
    for s in doc["ObjectStates"]:
        t = s["Transform"]
        if "CustomImage" in s:
            with Image.open(_file(s["CustomImage"]["ImageURL"])) as im:
                aspect = im.height / im.width
            if s["Name"] == "Custom_Dice":
                aspect = 1.0
            w = t["scaleX"] * UNITS_AT_SCALE_1
            d = w * aspect
        elif s["Name"] in ("DeckCustom", "Card"):
            comp = game.components[(s.get("ContainedObjects") or [s])[0]["Description"].split("/")[0]]
            w, d = (to_mm(v) / UNIT_MM for v in (comp.card_size.width, comp.card_size.height))
        else:
            w, d = 6.0, 4.0
        key = (t["posX"], t["posZ"])
        rect = (t["posX"] - w / 2, t["posZ"] - d / 2, t["posX"] + w / 2, t["posZ"] + d / 2)
        if key in rects:  # a stack: copies of one token only, each raised above the last
            assert s["Name"] == "Custom_Token" and rects[key][1] == s["Description"]
            assert t["posY"] == pytest.approx(rects[key][2] + s["CustomImage"]["CustomToken"]["Thickness"])
            rects[key] = (rects[key][0], rects[key][1], t["posY"])
            continue
        rects[key] = (rect, s.get("Description"), t["posY"])
    boxes = [r for r, _, _ in rects.values()]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] + GAP - 1e-3 <= b[0] or b[2] + GAP - 1e-3 <= a[0] or \
                a[3] + GAP - 1e-3 <= b[1] or b[3] + GAP - 1e-3 <= a[1], (a, b)


def test_a_die_tabletop_simulator_cannot_make_is_a_located_finding(tmp_path):
    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[components.dice]\nkind = "die"\nname = "Odd die"\ncopies = 1\nfaces = [1, 2, 3, 4, 5, 6, 7]\n')
    source = source_of(game_dir, "tiny")
    game = load_game(game_dir, "tiny")
    result = render_export(game, game_layouts(game, source), "tts", tmp_path / "out", dry=True, source=source)
    found = [f for f in result.findings if f.rule == "export.tts-die"]
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].field == "components.dice.faces" and found[0].file.endswith("game.toml")
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    assert lines[found[0].line - 1].startswith("faces = [1, 2, 3, 4, 5, 6, 7]")
    assert "7 faces" in found[0].message and "4, 6, 8, 10, 12 or 20" in found[0].hint
    assert not result.outputs  # a dry run writes nothing


def test_a_die_of_a_face_count_pnp_does_not_lay_out_stays_off_the_table(tmp_path):
    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[components.dice]\nkind = "die"\nname = "Pyramid"\ncopies = 1\nfaces = [1, 2, 3, 4]\n')
    source = source_of(game_dir, "tiny")
    game = load_game(game_dir, "tiny")
    result = render_export(game, game_layouts(game, source), "tts", tmp_path / "out", dry=True, source=source)
    found = [f for f in result.findings if f.rule == "export.tts-die"]
    assert len(found) == 1 and found[0].severity == "error" and found[0].line is not None
    assert "4 faces" in found[0].message and "not put on the table" in found[0].message
    assert "six faces" in found[0].hint


@pytest.mark.parametrize("faces, message", [
    ("6", "die 'Odd die' has faces = 6, not a list of its faces"),
    ("[1, 2, 3, 4, 5, [6]]", "face 6 of die 'Odd die' is [6], not a number or a text, so it has no image on the die"),
    ("[1, 2, 3, 4, true, 6]", "face 5 of die 'Odd die' is true, not a number or a text"),
])
def test_a_die_with_bad_faces_is_the_same_located_error_in_check_and_export(tmp_path, faces, message):
    from clirun import run

    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write(f'\n[components.dice]\nkind = "die"\nname = "Odd die"\ncopies = 1\nfaces = {faces}\n')
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    source = source_of(game_dir, str(game_dir))
    game = load_game(game_dir, str(game_dir))
    result = render_export(game, game_layouts(game, source), "tts", tmp_path / "out", dry=True, source=source)
    (found,) = [f for f in result.findings if f.severity == "error"]
    assert (found.rule, found.field, lines[found.line - 1]) == ("export.tts-die", "components.dice.faces",
                                                                f"faces = {faces}")
    assert found.message.startswith(message) and found.hint
    report = json.loads(run("check", str(game_dir), "-t", "tts", "--format", "json", ok=False).output)[0]
    checked = [f for f in report["findings"] if f["rule"] == "export.tts-die"]
    assert [(f["location"], f["message"], f["hint"]) for f in checked] == [(found.location, found.message, found.hint)]
    built = [f for f in report["findings"] if f["rule"] == "pieces.definition"]  # the die net cannot print either
    assert [(f["line"], f["field"]) for f in built] == [(found.line, found.field)]


def test_the_setup_notecard_holds_the_rules_setup_numbers_by_player_count():
    source = find_game("ars-alchimia")
    text = setup_text(load_game(source.path, source.display))
    assert text.startswith("Ars Alchimia: 3-4 players\n\nIn the box:\n- Game board: 1\n- Player boards: 4\n")
    setup = text.split("Setup (game.toml [rules]):\n")[1].split("\n\n")[0].splitlines()
    assert "- starting workers: 9" in setup and "- face up orders: C 3, B 2, A 1" in setup
    three = text.split("With 3 players:\n")[1].split("\n\n")[0].splitlines()
    assert three[:2] == ["- max workers: 18", "- face up assistants: 2"]
    assert "- removed factory cards: factory-4" in three
    assert text.endswith("With 4 players:\n- max workers: 20")


def _up(rotation: dict) -> tuple[int, int, int]:
    """The local axis of a die (x, y, z, each -1, 0 or 1) that ``rotation`` (Unity Euler degrees,
    applied z, then x, then y) turns to point up (+y)."""
    import math

    def rot(axis, deg, v):
        c, s = round(math.cos(math.radians(deg))), round(math.sin(math.radians(deg)))
        x, y, z = v
        if axis == "x":
            return (x, c * y - s * z, s * y + c * z)
        if axis == "y":
            return (c * x + s * z, y, -s * x + c * z)
        return (c * x - s * y, s * x + c * y, z)

    axes = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    for v in axes:
        w = rot("y", rotation["y"], rot("x", rotation["x"], rot("z", rotation["z"], v)))
        if w == (0, 1, 0):
            return v
    raise AssertionError(rotation)


def test_each_face_of_a_six_sided_die_is_named_at_the_rotation_that_shows_its_slot():
    faces = ["sword", "shield", 3, "skull", 5, "blank"]
    values = d6_rotation_values(faces)
    assert [v["Value"] for v in values] == ["sword", "shield", "3", "skull", "5", "blank"]
    ups = {slot: _up(v["Rotation"]) for slot, v in zip(sorted(D6_TEMPLATE), values)}
    assert len(set(ups.values())) == 6  # every rotation shows another face
    for slot in (1, 2, 3):  # opposite slots (summing to 7) are opposite sides of the cube
        assert ups[7 - slot] == tuple(-a for a in ups[slot])
    # on the cross, the slots beside slot 3 (the centre) are the four sides around it
    assert {D6_TEMPLATE[k] for k in (1, 2, 5, 6)} == {(1, 0), (0, 1), (2, 1), (1, 2)}
    with pytest.raises(ValueError):
        d6_rotation_values([1, 2, 3, 4])


def test_the_die_image_puts_each_face_in_its_template_slot():
    colours = [(200, 0, 0), (0, 200, 0), (0, 0, 200), (200, 200, 0), (0, 200, 200), (200, 0, 200)]
    images = [Image.new("RGB", (DIE_FACE_PX, DIE_FACE_PX), c) for c in colours]
    sheet = die_template(list(range(1, 7)), images)
    cols, rows = D6_GRID
    assert sheet.size == (cols * DIE_FACE_PX, rows * DIE_FACE_PX)
    used = {}
    for slot, colour in zip(sorted(D6_TEMPLATE), colours):
        col, row = D6_TEMPLATE[slot]
        used[(col, row)] = colour
    for col in range(cols):
        for row in range(rows):
            centre = (col * DIE_FACE_PX + DIE_FACE_PX // 2, row * DIE_FACE_PX + DIE_FACE_PX // 2)
            assert sheet.getpixel(centre) == used.get((col, row), (255, 255, 255))


def test_an_exported_die_names_its_faces_where_its_image_shows_them(tmp_path):
    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[components.dice]\nkind = "die"\nname = "Rune die"\ncopies = 2\n'
                 'faces = ["A", "B", "C", "D", "E", "F"]\n')
    source = source_of(game_dir, "tiny")
    game = load_game(game_dir, "tiny")
    export_game(game, game_layouts(game, source), "tts", tmp_path / "out", jobs=1, source=source)
    folder = tmp_path / "out" / "export" / "tts"
    doc = json.loads((folder / f"{game.file_stem}.json").read_text(encoding="utf-8"))
    dice = [s for s in doc["ObjectStates"] if s["Name"] == "Custom_Dice"]
    assert len(dice) == 2
    for die in dice:
        assert die["CustomImage"]["CustomDice"]["Type"] == 1
        values = die["RotationValues"]
        assert [v["Value"] for v in values] == ["A", "B", "C", "D", "E", "F"]
        assert [(v["Rotation"]["x"], v["Rotation"]["y"], v["Rotation"]["z"]) for v in values] == \
            [D6_ROTATIONS[k] for k in sorted(D6_TEMPLATE)]
    sheet = Image.open(_file(dice[0]["CustomImage"]["ImageURL"])).convert("RGB")
    cells = {}
    for col in range(D6_GRID[0]):
        for row in range(D6_GRID[1]):
            box = (col * DIE_FACE_PX, row * DIE_FACE_PX, (col + 1) * DIE_FACE_PX, (row + 1) * DIE_FACE_PX)
            cells[(col, row)] = sheet.crop(box).tobytes()
    blank = Image.new("RGB", (DIE_FACE_PX, DIE_FACE_PX), (255, 255, 255)).tobytes()
    faces = [cells[D6_TEMPLATE[k]] for k in sorted(D6_TEMPLATE)]
    assert all(f != blank for f in faces) and len(set(faces)) == 6  # six different faces drawn
    assert all(cells[c] == blank for c in cells if c not in D6_TEMPLATE.values())


def test_a_board_or_tokens_without_a_layout_are_not_on_the_table_and_check_says_so_first(tmp_path):
    from clirun import run

    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    with open(game_dir / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[components.map]\nkind = "board"\nname = "Map"\nsize = "200mm x 200mm"\n'
                 '\n[components.chips]\nkind = "tokens"\nname = "Chips"\nshape = "circle"\nsize = "20mm"\ncopies = 5\n')
    lines = (game_dir / "game.toml").read_text(encoding="utf-8").splitlines()
    source = source_of(game_dir, "tiny")
    game = load_game(game_dir, "tiny")
    result = render_export(game, game_layouts(game, source), "tts", tmp_path / "out", dry=True, source=source)
    found = [f for f in result.findings if f.rule == "export.tts-table"]
    assert [(f.severity, f.field, lines[f.line - 1]) for f in found] == [
        ("warning", "components.map", "[components.map]"), ("warning", "components.chips", "[components.chips]")]
    assert found[0].message == ("board 'Map' is not on the Tabletop Simulator table: it has no layout, so there is "
                                "no image to put there")
    assert "tokens 'Chips' are not on the Tabletop Simulator table" in found[1].message
    assert all('layout = "..."' in f.hint for f in found)
    report = json.loads(run("check", str(game_dir), "-t", "tts", "--format", "json").output)[0]
    checked = [(f["rule"], f["line"], f["field"], f["message"]) for f in report["findings"]
               if f["rule"] == "export.tts-table"]
    assert checked == [(f.rule, f.line, f.field, f.message) for f in found]
