"""``pnp diff --visual`` without git: since a release (its archive of the files the build read)
and since the last build (its card sheets). One game made by ``pnp new`` with art of its own per
card is built and released as 1.0, then a card's title and its art change; the old side of the
visual diff is compared, pixel for pixel, with a drawing of the card as it was."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from clirun import run

pytestmark = pytest.mark.slow  # a build, a release and several visual diffs of one game

DPI = 300  # the resolution the old faces are cut out of the sheets at (pnp.outputs.visual.PICTURE_DPI)
POKER = (63.5 * 72 / 25.4, 88.9 * 72 / 25.4)


def _art(path: Path, colour: tuple[int, int, int], mark: tuple[int, int, int] | None = None) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (160, 112), colour)
    if mark is not None:
        ImageDraw.Draw(image).ellipse((50, 30, 110, 90), fill=mark)
    image.save(path)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """(game folder, output folder, copy of the game as released, release zip bytes of two
    releases of the same build): built and released as 1.0, then spark's title and art changed."""
    from pnp.model.scaffold import new_game

    tmp = tmp_path_factory.mktemp("visual")
    game, out = tmp / "g", tmp / "out"
    new_game(game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("players = [2, 4]", 'players = [2, 4]\nversion = "1.0"'))
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace('"art/placeholder.png"', '"art/{{ id }}.png"'))
    for name, colour in (("spark", (40, 90, 160)), ("tide", (30, 140, 120)), ("reef", (170, 120, 40))):
        _art(game / "art" / f"{name}.png", colour)
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    run("release", str(game), "-o", str(out))
    first = (game / "releases" / "1.0.zip").read_bytes()
    run("release", str(game), "-o", str(out), "--force")
    second = (game / "releases" / "1.0.zip").read_bytes()
    released = tmp / "as-released"
    shutil.copytree(game, released, ignore=shutil.ignore_patterns("releases"))
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("spark,Spark,", "spark,Sparks,"))
    _art(game / "art" / "spark.png", (40, 90, 160), mark=(200, 40, 160))
    return game, out, released, (first, second)


def _drawing(game: Path, key: str, dpi: int = DPI):
    """The face of card ``key`` of the game folder ``game`` drawn alone on a page of its trim
    size and rendered at ``dpi``: the drawing the old side must match."""
    import pypdfium2 as pdfium

    from pnp.design.drawable import drawable_cards
    from pnp.design.layouts import game_layouts
    from pnp.model.games import source_of
    from pnp.model.load import load_game
    from pnp.render.canvas import new_canvas
    from pnp.render.renderer import Renderer

    source = source_of(game, str(game))
    loaded = load_game(source.path, source.display)
    layouts = game_layouts(loaded, source)
    card = next(c for c in drawable_cards(loaded, layouts)[0] if c.face.name == key)
    buf = io.BytesIO()
    c = new_canvas(buf, card.size, scratch=True)
    Renderer(layouts, loaded.path, game_display=loaded.display_root, draft=True).draw(
        c, card.face, (0, 0, card.size.width, card.size.height), (0, 0, 0, 0))
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0].render(scale=dpi / 72).to_pil().convert("RGB")


def _largest_difference(a, b) -> int:
    """The largest difference of a channel between ``a`` and ``b`` (0-255) where both have
    pixels (a cut face leaves out the trim's last part pixel)."""
    from PIL import ImageChops

    w, h = min(a.width, b.width), min(a.height, b.height)
    diff = ImageChops.difference(a.crop((0, 0, w, h)), b.crop((0, 0, w, h)))
    return max(hi for _, hi in diff.getextrema())


def _old_frame(page) -> dict:
    """The grey outline of the first row's old card (the leftmost, topmost card-sized rect)."""
    frames = [r for r in page.rects if abs(r["width"] - POKER[0]) < 0.1 and abs(r["height"] - POKER[1]) < 0.1]
    return min(frames, key=lambda r: (round(r["top"]), r["x0"]))


def _cut(pdf: Path, frame: dict, dpi: int = DPI):
    """The region of ``frame`` (a pdfplumber rect of page 1) of ``pdf`` rendered at ``dpi``,
    its top-left pixel at the frame's top-left corner."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(pdf.read_bytes())[0]
    height = page.get_height()
    page.set_cropbox(frame["x0"], height - frame["bottom"], frame["x1"], height - frame["top"])
    return page.render(scale=dpi / 72).to_pil().convert("RGB")


def _colour(rect) -> tuple:
    c = rect.get("stroking_color") or ()
    return tuple(round(v, 2) for v in (c if isinstance(c, (list, tuple)) else (c,)))


def _shows_spark_old_and_new(pdf_path: Path) -> dict:
    """Checks the first row of the visual diff: spark's key, its old title on the left and the
    new on the right, the red frame on the new card only; returns the old card's outline."""
    import pdfplumber

    from pnp.outputs.visual import HIGHLIGHT

    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        frame = _old_frame(page)
        assert [w["text"] for w in words if w["text"].startswith("cards/")] == ["cards/spark"]
        red = [r for r in page.rects if _colour(r) == HIGHLIGHT]
        assert len(red) == 1 and red[0]["x0"] > frame["x1"]  # the change framed on the new card only
        new_title = [w for w in words if w["text"] == "Sparks"]
        assert new_title and all(w["x0"] > frame["x1"] for w in new_title)
        # the frame holds the new letter and the new art's mark (art box 17-53 mm from the top)
        assert red[0]["x0"] <= new_title[0]["x1"] and red[0]["bottom"] >= frame["top"] + 40 * 72 / 25.4
        images = page.images
    return {"frame": frame, "images": images}


def test_visual_since_a_release_draws_the_old_cards_from_its_archive(played, tmp_path):
    game, out, released, (first, second) = played
    assert first == second  # the same build released twice: the same bytes
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        names = zf.namelist()
        assert names == sorted(names) and {"game/game.toml", "game/cards.csv", "game/art/spark.png",
                                           "game/templates/layouts.toml"} <= set(names)
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert zf.read("game/art/spark.png") == (released / "art" / "spark.png").read_bytes()
    body = json.loads((game / "releases" / "1.0.json").read_text())
    assert body["archive"]["sha256"] == hashlib.sha256(first).hexdigest() and body["archive"]["file"] == "1.0.zip"

    pdf_path = tmp_path / "since-release.pdf"
    done = run("diff", str(game), "-o", str(out), "--since", "1.0", "--visual", str(pdf_path))
    assert f"wrote {pdf_path} (1 cards, old beside new)" in done.output
    frame = _shows_spark_old_and_new(pdf_path)["frame"]
    old_side, drawn = _cut(pdf_path, frame), _drawing(released, "cards/spark")
    assert abs(old_side.width - drawn.width) <= 1 and _largest_difference(old_side, drawn) <= 2
    assert _largest_difference(_cut(pdf_path, frame), _drawing(game, "cards/spark")) > 100  # not the new card


def test_visual_since_the_last_build_cuts_the_old_faces_out_of_its_sheets(played, tmp_path):
    import pdfplumber
    from PIL import Image

    game, out, released, _ = played
    snapshot = json.loads((out / "g" / ".pnp-pieces.json").read_text())
    spark = snapshot["positions"]["cards"]["cards/spark"]
    assert snapshot["positions"]["file"] == "g-cards.pdf" and spark["page"] == 2  # after the calibration pair
    x0, y0, x1, y1 = spark["trim"]
    assert (round(x1 - x0, 3), round(y1 - y0, 3)) == tuple(round(v, 3) for v in POKER)
    with pdfplumber.open(out / "g" / "g-cards.pdf") as sheets:  # the trim recorded is where spark is drawn
        h = float(sheets.pages[2].height)
        title = [w for w in sheets.pages[2].extract_words() if w["text"] == "Spark"]
        assert any(x0 < w["x0"] < x1 and y0 < h - w["bottom"] < y1 for w in title)

    pdf_path = tmp_path / "since-last.pdf"
    done = run("diff", str(game), "-o", str(out), "--visual", str(pdf_path))
    assert f"wrote {pdf_path} (1 cards, old beside new)" in done.output
    found = _shows_spark_old_and_new(pdf_path)
    frame, (image,) = found["frame"], [i for i in found["images"] if i["x0"] < found["frame"]["x1"]]
    assert abs(image["x0"] - frame["x0"]) < 0.05 * 72 / 25.4 and abs(image["top"] - frame["top"]) < 0.05 * 72 / 25.4
    assert abs(image["x1"] - image["x0"] - POKER[0]) < 0.05 * 72 / 25.4  # 750 px at 300 dpi: the whole trim
    with pdfplumber.open(pdf_path) as pdf:
        stream = pdf.pages[0].images[0]["stream"]
        picture = Image.frombytes("RGB", (int(stream["Width"]), int(stream["Height"])), stream.get_data())
    assert picture.size == (750, 1050)
    assert _largest_difference(picture, _drawing(released, "cards/spark")) <= 2
    assert _largest_difference(_cut(pdf_path, frame), _drawing(released, "cards/spark")) <= 2


def test_a_changed_archive_or_sheet_is_an_error_that_says_what_to_do(played, tmp_path):
    game, out, _, _ = played
    pdf_path = tmp_path / "v.pdf"
    zipped, record = game / "releases" / "1.0.zip", game / "releases" / "1.0.json"
    kept_zip, kept_json = zipped.read_bytes(), record.read_text()
    try:
        zipped.write_bytes(kept_zip[:-1] + bytes([kept_zip[-1] ^ 1]))
        done = run("diff", str(game), "-o", str(out), "--since", "1.0", "--visual", str(pdf_path), ok=False)
        assert done.exception.rule == "versions.visual" and "1.0.zip is not the archive release 1.0 wrote" in str(
            done.exception) and "backup" in done.exception.hint
        zipped.unlink()
        done = run("diff", str(game), "-o", str(out), "--since", "v1.0", "--visual", str(pdf_path), ok=False)
        assert done.exception.rule == "versions.visual" and "1.0.zip is missing" in str(done.exception)
        body = json.loads(kept_json)
        del body["archive"]  # a release made before releases kept archives
        record.write_text(json.dumps(body))
        done = run("diff", str(game), "-o", str(out), "--since", "1.0", "--visual", str(pdf_path), ok=False)
        assert done.exception.rule == "versions.visual" and "keeps no archive" in str(done.exception)
        assert "git revision" in done.exception.hint
    finally:
        zipped.write_bytes(kept_zip)
        record.write_text(kept_json)

    snapshot = out / "g" / ".pnp-pieces.json"
    kept_snapshot = snapshot.read_text()
    try:
        snapshot.write_text(json.dumps({k: v for k, v in json.loads(kept_snapshot).items() if k != "positions"}))
        done = run("diff", str(game), "-o", str(out), "--visual", str(pdf_path), ok=False)
        assert done.exception.rule == "versions.visual" and "recorded no card positions" in str(done.exception)
    finally:
        snapshot.write_text(kept_snapshot)

    sheets = out / "g" / "g-cards.pdf"
    kept = sheets.read_bytes()
    try:
        sheets.write_bytes(kept + b"\n% edited\n")
        done = run("diff", str(game), "-o", str(out), "--visual", str(pdf_path), ok=False)
        assert done.exception.rule == "versions.visual"
        assert f"{sheets} is not as the last build wrote it" in str(done.exception)
        assert "build again" in done.exception.hint and "release" in done.exception.hint
    finally:
        sheets.write_bytes(kept)
    assert not pdf_path.exists()
