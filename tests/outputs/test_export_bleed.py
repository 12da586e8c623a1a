"""Layouts whose bleed is shorter than a print shop's: the files keep the shop's bleed, the art
stops at the layouts' bleed and the rest of the page is blank paper, which the export and its
dry run (pnp check -t) both report as a preflight.bleed-short warning at the layouts' bleed."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
from PIL import Image

from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.export import render_export


def _with_bleed(game: Path, bleed: str | None) -> None:
    layouts = game / "templates" / "layouts.toml"
    if bleed is not None:
        layouts.write_text(f'bleed = "{bleed}"\n\n' + layouts.read_text(encoding="utf-8"), encoding="utf-8")


def _export(game: Path, out: Path, target: str, dry: bool):
    source = GameSource(game, "tiny", game / "templates", "tiny/templates")
    loaded = load_game(game, "tiny")
    return render_export(loaded, game_layouts(loaded, source), target, out, jobs=1, source=source, dry=dry)


def _short(result) -> list:
    return [f for f in result.findings if f.rule == "preflight.bleed-short"]


def test_a_bleed_short_of_the_shops_is_a_warning_and_the_page_edge_is_blank(tiny, tmp_path):
    _with_bleed(tiny, "2mm")
    checked = _short(_export(tiny, tmp_path / "dry", "tgc", dry=True))
    exported = _export(tiny, tmp_path / "out", "tgc", dry=False)
    found = _short(exported)
    assert found == checked and len(found) == 1  # the dry run finds it first, the same
    f = found[0]
    assert (f.severity, f.location) == ("warning", "tiny/templates/layouts.toml:1 (bleed)")
    assert "bleed is 2 mm" in f.message and "have 3.175 mm" in f.message and "outer 1.175 mm" in f.message
    # the finding is true of the file: the band that fills the bleed stops short of the edge
    face = next(data for path, data in exported.outputs if path.suffix == ".png" and "fire" in path.name)
    pixels = np.asarray(Image.open(io.BytesIO(face)).convert("RGB"))
    row = pixels[pixels.shape[0] // 2]
    px_mm = 300 / 25.4
    blank = row[: int(1.0 * px_mm)]  # the outer 1 mm: past the layouts' 2 mm of bleed art
    art = row[int(1.5 * px_mm): int(2.5 * px_mm)]  # inside it
    assert (blank == 255).all()
    assert (art != 255).any(axis=1).all()


def test_enough_bleed_or_no_bleed_in_the_files_finds_nothing(tiny, tmp_path):
    assert _short(_export(tiny, tmp_path / "default", "tgc", dry=True)) == []  # 1/8 in, as the shop asks
    _with_bleed(tiny, "3.1mm")
    assert _short(_export(tiny, tmp_path / "mpc", "mpc", dry=True)) == []  # MPC's 36 px are 3.05 mm
    assert len(_short(_export(tiny, tmp_path / "dtc", "dtc", dry=True))) == 1  # DriveThruCards' 1/8 in are not
    assert _short(_export(tiny, tmp_path / "tts", "tts", dry=True)) == []  # Tabletop Simulator shows the trim


def test_layouts_that_paint_nothing_past_the_trim_need_no_bleed(tiny, tmp_path):
    layouts = tiny / "templates" / "layouts.toml"
    text = layouts.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^background = .*\n', "", text).replace('area = "bleed"', 'area = "trim"')
    layouts.write_text('bleed = "1mm"\n\n' + text, encoding="utf-8")
    assert _short(_export(tiny, tmp_path / "out", "tgc", dry=True)) == []  # 1 mm, and nothing past the trim


def test_a_background_of_none_paints_nothing_past_the_trim(tiny, tmp_path):
    layouts = tiny / "templates" / "layouts.toml"
    text = re.sub(r'(?m)^background = .*$', 'background = "none"', layouts.read_text(encoding="utf-8"))
    layouts.write_text('bleed = "2mm"\n\n' + text.replace('area = "bleed"', 'area = "trim"'), encoding="utf-8")
    assert _short(_export(tiny, tmp_path / "out", "tgc", dry=True)) == []


def test_a_target_of_ones_own_with_more_bleed_than_the_default_is_told_so(tiny, tmp_path):
    shop = tmp_path / "shop.toml"
    shop.write_text('extends = "eu"\ntitle = "My shop"\nbleed = "5mm"\n', encoding="utf-8")
    (f,) = _short(_export(tiny, tmp_path / "out", str(shop), dry=True))  # the layouts' default 1/8 in
    assert "My shop's files have 5 mm" in f.message and "outer 1.825 mm" in f.message
    assert "at least 5 mm" in f.hint and "default" not in f.hint
