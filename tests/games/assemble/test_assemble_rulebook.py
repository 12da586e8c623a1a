"""The Assemble! rulebook: it builds, and its tables and sums follow the CSV files.

The expected values are read from card_data/assemble here, never typed, and the built PDF is
read back with pdfplumber.
"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from conftest import CARD_DATA, ROOT
from pnp.model.load import load_game
from pnp.model.games import GameSource
from pnp.outputs.rulebook import build_rulebook

GAME = CARD_DATA / "assemble"
TEMPLATES = ROOT / "templates" / "assemble"


def rows(game_dir: Path, name: str) -> list[dict[str, str]]:
    with open(game_dir / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def flat(texts: list[str]) -> str:
    """Page texts joined, all whitespace (line breaks too, so that a wrapped table cell reads
    as one) collapsed to single spaces."""
    return re.sub(r"\s+", " ", "\n".join(texts))


def build_text(game_dir: Path, templates_dir: Path, out: Path, until: tuple[str, ...] = ()) -> str:
    """Build the single-page rulebook and return the text of its pages after the cover.

    Parsing the card pictures is the slow part of reading the PDF, so the cover (a row of
    cards and the contents) is skipped: every heading it lists also opens its own section. With ``until``
    (regular expressions), pages are read from the back, where the Paragon Mode section and the
    worked example are, and reading stops once every pattern has been found.
    """
    game = load_game(game_dir, game_dir.name)
    result = build_rulebook(game, GameSource(game_dir, game_dir.name, templates_dir, str(templates_dir)), out, "letter",
                            False)
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    (pdf_path,) = result.files
    texts: list[str] = []
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) >= 6
        if not until:
            return flat([page.extract_text() or "" for page in pdf.pages[1:]])
        for page in reversed(pdf.pages[1:]):
            texts.insert(0, page.extract_text() or "")
            if all(re.search(p, flat(texts)) for p in until):
                break
    return flat(texts)


def team_power(heroes: list[dict[str, str]], insignia: str) -> int:
    return sum(int(h["power"]) for h in heroes if h["insignia"] == insignia and h["special"] == "no")


@pytest.fixture(scope="module")
def bundled_text(tmp_path_factory) -> str:
    return build_text(GAME, TEMPLATES, tmp_path_factory.mktemp("assemble-rb"))


def test_rulebook_builds_with_facts_from_the_data(bundled_text):
    text = bundled_text
    heroes = rows(GAME, "heroes.csv")
    teams = [t for t in rows(GAME, "insignias.csv") if t["team_score_rule"]]
    uno = next(h for h in heroes if h["special"] == "yes")
    for section in ("Components", "Setting up", "Playing a round", "Scoring", "The end of the game",
                    "Paragon Mode (optional variant)", "A worked example", "Quick reference"):
        assert section in text
    # the Components table counts the heroes of each insignia
    for t in teams:
        n = sum(int(h["copies"]) for h in heroes if h["insignia"] == t["id"])
        assert f"{n} {t['name']}" in text, t["name"]
    # the deck's power by team (Paragon Mode), summed from heroes.csv
    for t in teams:
        assert f"{t['name']} {team_power(heroes, t['id'])}" in text, t["name"]
    # El Número Uno's power and ability come from his row
    assert f"{uno['name']}'s power ({uno['power']})" in text
    assert "On recruit: take the 1st Player token" in text
    # the component counts come from the data
    deck = sum(int(h["copies"]) for h in heroes if h["special"] == "no")
    assert re.search(rf"Hero cards {deck} the draft deck", text)


def test_changed_csv_value_changes_the_rulebook(bundled_text, tmp_path):
    game_dir = tmp_path / "assemble"
    shutil.copytree(GAME, game_dir)
    shutil.copytree(TEMPLATES, game_dir / "templates")
    path = game_dir / "heroes.csv"
    heroes = rows(GAME, "heroes.csv")
    keystone = next(h for h in heroes if h["id"] == "captain-keystone")
    team = next(t["name"] for t in rows(GAME, "insignias.csv") if t["id"] == keystone["insignia"])
    old_total = team_power(heroes, keystone["insignia"])
    new_power = int(keystone["power"]) + 4
    text = path.read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.startswith("captain-keystone,"))
    cells = line.split(",")
    assert cells[6] == keystone["power"]
    cells[6] = str(new_power)
    path.write_text(text.replace(line, ",".join(cells)), encoding="utf-8")

    # the Paragon Mode section sums power by team; the worked example's Paragon table shows
    # Ada's and Ben's power per team, then the bonus
    paragon_row = rf"{team} (\d+) (\d+) (?:Ada|Ben|tie|nobody)"
    after = build_text(game_dir, game_dir / "templates", tmp_path / "out",
                       until=(rf"the teams hold .*{team} \d+", paragon_row))
    assert f"{team} {old_total}," in bundled_text
    assert f"{team} {old_total + 4}," in after
    assert f"{team} {old_total}," not in after
    # Captain Keystone is in Ada's force: her power for his team grows by the same 4
    before_row = re.search(paragon_row, bundled_text)
    after_row = re.search(paragon_row, after)
    assert before_row and after_row
    assert int(after_row.group(1)) == int(before_row.group(1)) + 4
