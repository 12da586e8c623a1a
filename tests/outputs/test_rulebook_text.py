"""Rulebook text as the cards write it: colour spans, icons at the size of the text they sit in
(a heading's icon is a heading line high) and pictures inside a sentence, which stay in its
line (or beside the paragraph, when taller) instead of breaking the paragraph in two."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from conftest import FIXTURES
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.rulebook import build_rulebook


def build(tmp_path: Path, template: str):
    from PIL import Image

    game_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game_dir)
    tdir = game_dir / "templates"
    (tdir / "rulebook.md.j2").write_text(template, encoding="utf-8")
    Image.new("RGB", (600, 300), (20, 90, 40)).save(tdir / "pic.png", dpi=(300, 300))
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter",
                            False)
    return result


def test_a_picture_inside_a_sentence_stays_in_its_line(tmp_path):
    result = build(tmp_path, "# T\n\nBefore the picture ![pic](pic.png) and after it, one sentence.\n\n"
                             "Wide ![pic](pic.png \"30mm\") too.\n")
    with pdfplumber.open(result.files[0]) as pdf:
        page = pdf.pages[0]
        small, wide = sorted(page.images, key=lambda im: im["top"])
        words = page.extract_words()
        before = next(w for w in words if w["text"] == "Before")
        after = next(w for w in words if w["text"] == "after")
        assert abs(before["top"] - after["top"]) < 0.5  # one line: the paragraph is not broken
        assert before["x1"] < small["x0"] < after["x0"]
        assert small["bottom"] - small["top"] == pytest.approx(10 * 1.05, abs=0.05)  # a line high
        # a picture taller than the line stands beside its paragraph, at the right; the words
        # either side of it stay in one line
        assert wide["x1"] - wide["x0"] == pytest.approx(30 * 72 / 25.4, abs=0.05)
        assert wide["x1"] == pytest.approx(612 - 18 * 72 / 25.4, abs=0.05)
        wide_word = next(w for w in words if w["text"] == "Wide")
        too = next(w for w in words if w["text"] == "too.")
        assert abs(wide_word["top"] - too["top"]) < 0.5 and too["x1"] < wide["x0"]
        assert wide["top"] < wide_word["bottom"] + 1 and wide_word["top"] > small["bottom"]
    assert [f for f in result.findings if f.severity != "info"] == []


def test_colour_spans_and_icons_at_the_size_of_their_text(tmp_path):
    result = build(tmp_path, "# T\n\n## Costs :fire:\n\nPay [red mana](color:red) or [ash](color:#777777), "
                             "not [teal](color:teal).\n")
    with pdfplumber.open(result.files[0]) as pdf:
        page = pdf.pages[0]
        colours = {ch["text"]: tuple(round(v, 3) for v in ch["non_stroking_color"]) for ch in page.chars}
        assert colours["m"] == pytest.approx((0xC0 / 255, 0x39 / 255, 0x2B / 255), abs=0.002)
        assert colours["h"] == pytest.approx((0x77 / 255,) * 3, abs=0.002)
        (icon,) = page.images
        assert icon["bottom"] - icon["top"] == pytest.approx(10 * 1.55 * 1.05, abs=0.05)  # an h2 line high
        assert "teal" in page.extract_text()
    bad = [f for f in result.findings if f.rule == "preflight.markup"]
    assert [(f.severity, f.location) for f in bad] == [("warning", "tiny/templates/rulebook.md.j2:5")]
    assert "'teal' is not a colour of this game" in bad[0].message
