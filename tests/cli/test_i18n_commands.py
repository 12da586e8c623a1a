"""``pnp i18n extract|status`` and ``--lang`` on check and build, on a tiny game made by
``pnp new``: each language into its own folder, and the checks of fit and glyphs naming the
language and the catalogue entries."""

from __future__ import annotations

import json
import subprocess
import sys

import pdfplumber
import pytest

from tests.unit.model.test_i18n import GERMAN, _tiny, _translate_po


def pnp(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, cwd=cwd,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})


def _findings(game, *args: str) -> list[dict]:
    done = pnp("check", "--format", "json", *args, cwd=game)
    assert done.returncode in (0, 1), done.stderr
    return [f for report in json.loads(done.stdout) for f in report["findings"]]


@pytest.mark.slow
def test_extract_then_status_then_build_every_language(tmp_path):
    game = _tiny(tmp_path)
    made = pnp("i18n", "extract", cwd=game)
    assert made.returncode == 0 and "i18n/de.po written: 0 kept, 7 new" in made.stdout, made.stdout + made.stderr
    _translate_po(game / "i18n" / "de.po", {**GERMAN, "Keep this card in front of you.\\n": ""})
    status = pnp("i18n", "status", cwd=game)
    assert status.returncode == 0
    de = next(line for line in status.stdout.splitlines() if line.strip("│ ").startswith("de "))
    assert [c.strip() for c in de.split("│")[1:-1]] == ["de", "7", "6", "0", "1", "86 %"], status.stdout
    built = pnp("build", "--lang", "all", "-q", cwd=game)
    assert built.returncode == 0, built.stdout + built.stderr
    out = game / "output" / "tide"
    assert (out / "en" / "tide-en-cards.pdf").is_file() and (out / "en" / "tide-en-rulebook.pdf").is_file()
    assert not (out / "tide-cards.pdf").exists()  # the plain build is not made by --lang
    with pdfplumber.open(out / "de" / "tide-de-cards.pdf") as pdf:
        words = pdf.pages[2].extract_text()
    assert "Funke" in words and "Zieh eine Karte." in words and "Spark" not in words
    with pdfplumber.open(out / "en" / "tide-en-cards.pdf") as pdf:
        assert "Spark" in pdf.pages[2].extract_text()
    with pdfplumber.open(out / "de" / "tide-de-rulebook.pdf") as pdf:
        assert "Aufbau" in pdf.pages[0].extract_text()
    # the translation left out is reported by the build as by check, at its catalogue line
    assert "i18n.missing" in built.stdout and "cards/reef/text" in built.stdout


def test_text_that_overflows_only_in_german_is_reported_as_german_with_its_entry(tmp_path):
    game = _tiny(tmp_path)
    assert pnp("i18n", "extract", cwd=game).returncode == 0
    long = " ".join(["Ziehe eine Karte vom Nachziehstapel, lies sie laut vor und lege sie ab."] * 12)
    _translate_po(game / "i18n" / "de.po", {**GERMAN, "Draw a card.": long})
    english = [f for f in _findings(game) if f["rule"] == "preflight.text-overflow"]
    assert english == []
    german = [f for f in _findings(game, "--lang", "de") if f["rule"] == "preflight.text-overflow"]
    assert len(german) == 1 and german[0]["message"].startswith("in de: the text does not fit")
    assert german[0]["piece"] == "cards/spark"
    assert "tide/i18n/de.po:" not in german[0]["hint"] and "./i18n/de.po:" in german[0]["hint"]


def test_a_glyph_the_fonts_lack_in_one_language_is_reported_for_it(tmp_path):
    game = _tiny(tmp_path, languages='["en", "ja"]')
    assert pnp("i18n", "extract", cwd=game).returncode == 0
    _translate_po(game / "i18n" / "ja.po", {"Spark": "火花"})
    assert not [f for f in _findings(game) if f["rule"] == "preflight.missing-glyph"]
    glyphs = [f for f in _findings(game, "--lang", "ja") if f["rule"] == "preflight.missing-glyph"]
    assert glyphs and all(f["message"].startswith("in ja: ") for f in glyphs)
    assert any("U+706B" in f["message"] for f in glyphs)  # 火


def test_a_language_a_game_does_not_list_is_a_located_error(tmp_path):
    game = _tiny(tmp_path)
    done = pnp("check", "--lang", "fr", cwd=game)
    assert done.returncode == 1
    assert "i18n.language" in done.stdout and "'fr' is not one of the languages" in done.stdout
