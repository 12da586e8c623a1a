"""A run reads the translation catalogue of its own language only: editing another language's
catalogue keeps every part of a build, editing its own makes the parts again, and what they
make equals a clean build's, byte for byte."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.model.games import GameSource
from pnp.model.load import LoadOptions
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

from test_cache_edits import written
from tests.unit.model.test_i18n import GERMAN, _extract, _tiny, _translate_po


def build(game: Path, out: Path, lang: str | None):
    source = GameSource(game, "tide", game / "templates", "tide/templates")
    settings = replace(BuildSettings(SheetOptions()), language=lang)
    return run_game(BuildJob(source, out, settings, LoadOptions(), stage_workers=1))


def test_only_the_runs_own_catalogue_is_an_input(tmp_path):
    game = _tiny(tmp_path)
    po = _extract(game)
    _translate_po(po, GERMAN)
    out = tmp_path / "out"
    for lang in (None, "en", "de"):
        first = build(game, out, lang)
        assert first.written and first.ran, lang
    po.write_text(po.read_text().replace('msgstr "Funke"', 'msgstr "Funken"'))  # a translator's edit
    plain, english = build(game, out, None), build(game, out, "en")
    assert not plain.ran and not english.ran  # neither reads the German catalogue: every part kept
    assert "cards" in plain.kept and "cards" in english.kept
    german = build(game, out, "de")
    assert {"cards", "rulebook"} <= set(german.ran)  # its own catalogue changed: made again
    assert build(game, tmp_path / "clean", "de").written
    a, b = written(out / "tide" / "de"), written(tmp_path / "clean" / "tide" / "de")
    assert sorted(a) == sorted(b) and all(a[n] == b[n] for n in a)
    assert a["tide-de-cards.pdf"] != written(out / "tide" / "en")["tide-en-cards.pdf"]


def test_a_catalogue_in_a_linked_folder_is_an_input(tmp_path):
    import os
    import shutil

    game = _tiny(tmp_path)
    po = _extract(game)
    _translate_po(po, GERMAN)
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.move(str(game / "i18n"), str(shared / "i18n"))
    os.symlink(shared / "i18n", game / "i18n")  # the catalogues kept outside the game folder
    out = tmp_path / "out"
    assert build(game, out, "de").written
    linked = shared / "i18n" / "de.po"
    linked.write_text(linked.read_text().replace('msgstr "Funke"', 'msgstr "Funken"'))
    again = build(game, out, "de")
    assert {"cards", "rulebook"} <= set(again.ran)
    assert build(game, tmp_path / "clean", "de").written
    a, b = written(out / "tide" / "de"), written(tmp_path / "clean" / "tide" / "de")
    assert sorted(a) == sorted(b) and all(a[n] == b[n] for n in a)
