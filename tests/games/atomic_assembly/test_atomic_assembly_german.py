"""Atomic Assembly ships in English and German: its German catalogue is complete and current,
and ``pnp build --lang all`` prints a card and a rulebook page in each language."""

from __future__ import annotations

import subprocess
import sys

import pdfplumber
import pytest

from conftest import CARD_DATA, ROOT
from pnp.model.catalogue import catalogue_path
from pnp.model.i18n import coverage, extract, translate
from pnp.model.load import load_game
from tests.bundled import bundled_source, flat

GID = "atomic-assembly"


def _game():
    source = bundled_source(GID)
    return load_game(source.path, source.display), source


def test_the_german_catalogue_is_complete_current_and_as_extract_writes_it():
    game, source = _game()
    assert game.languages == ("en", "de")
    counts = coverage(game, "de", source.templates_dir, source.templates_display)
    assert counts["strings"] > 250 and counts["translated"] == counts["strings"], counts
    [(lang, path, data, stats)] = extract(game, source.templates_dir, source.templates_display)
    assert lang == "de" and path == catalogue_path(game, "de")
    assert data == path.read_bytes() and stats.added == stats.stale == 0  # nothing to update
    german, findings = translate(game, "de", source.templates_dir, source.templates_display)
    assert findings == []
    assert german.components["elements"].by_id()["h"]["name"] == "Wasserstoff"
    assert german.components["elements"].by_id()["h"]["atomic_number"] == 1  # numbers untouched
    assert german.components["blueprints"].by_id()["aqueduct"]["cost"] == "2 H + O"  # costs too


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    out = tmp_path_factory.mktemp("langs")
    done = subprocess.run([sys.executable, "-m", "pnp", "build", GID, "--lang", "all", "-o", str(out), "-q",
                           "--no-contact-sheets"], capture_output=True, text=True, cwd=ROOT,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr
    return out / GID


def _page_with(pdf_path, needle: str) -> str:
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            text = flat(page.extract_text() or "")
            if needle in text:
                return text
    raise AssertionError(f"{needle!r} is on no page of {pdf_path.name}")


@pytest.mark.slow
def test_build_all_prints_a_card_and_a_rulebook_page_in_each_language(both):
    assert sorted(p.name for p in (both / "de").glob("*.pdf")) == [
        f"{GID}-de-{part}.pdf" for part in ("boards", "cards", "rulebook", "tokens")]
    english_card = _page_with(both / "en" / f"{GID}-en-cards.pdf", "Hydrogen")
    german_card = _page_with(both / "de" / f"{GID}-de-cards.pdf", "Wasserstoff")
    assert "RED DECK" in english_card and "STAPEL ROT" in german_card and "Hydrogen" not in german_card
    assert "1.008" in german_card  # the atomic mass is the same in every language
    english_book = _page_with(both / "en" / f"{GID}-en-rulebook.pdf", "Sort the element cards by their backs")
    german_book = _page_with(both / "de" / f"{GID}-de-rulebook.pdf", "Sortiert die Elementkarten nach ihren Rückseiten")
    assert "Setting up" in english_book and "Aufbau" in german_book
    assert "Legt den Spielplan in die Tischmitte" in german_book and "Sort the" not in german_book


def test_the_source_language_build_is_the_default_build_renamed():
    """--lang en draws from the same untranslated game: no catalogue is read, nothing changes."""
    game, source = _game()
    english, findings = translate(game, "en", source.templates_dir, source.templates_display)
    assert findings == [] and english.translations is None and english.file_stem == f"{GID}-en"
    assert [r.values for r in english.components["blueprints"].rows] == \
        [r.values for r in game.components["blueprints"].rows]
    assert (CARD_DATA / GID / "i18n" / "de.po").is_file()
