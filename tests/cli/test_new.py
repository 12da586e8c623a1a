"""``pnp new`` makes a game folder that checks and builds at once, and commands run inside a
game folder act on that game and write into its own output/."""

from __future__ import annotations

import json
import subprocess
import sys

import pdfplumber
import pytest

MM = 72 / 25.4


def pnp(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, cwd=cwd,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})


def test_the_quick_start_makes_a_pdf_whose_cards_sit_on_the_grid(tmp_path):
    made = pnp("new", "tide-pools", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    game = tmp_path / "tide-pools"
    checked = pnp("check", cwd=game)
    assert checked.returncode == 0 and "Tide Pools  .  ok" in checked.stdout, checked.stdout
    built = pnp("build", cwd=game)
    assert built.returncode == 0, built.stdout + built.stderr
    pdf_path = game / "output" / "tide-pools" / "tide-pools-cards.pdf"
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[2]  # after the calibration sheet and its back
        assert (round(page.width, 2), round(page.height, 2)) == (612, 792)
        titles = sorted((round(w["x0"], 2), round(w["top"], 2)) for w in page.extract_words()
                        if w["text"] in ("Spark", "Tide", "Reef"))
        assert len(titles) == 6
        # poker cards 3 x 3 on Letter, edge to edge and centred: trims start at 36 pt; each title
        # is 6 mm inside its card's trim
        lefts = sorted({x for x, _ in titles})
        for x, col in zip(lefts, range(3)):
            assert abs(x - (36 + col * 63.5 * MM + 6 * MM)) < 0.05 * MM
        assert len(pdf.pages) == 4  # calibration front and back, one sheet of faces, its backs
    assert (game / "output" / "tide-pools" / "tide-pools-rulebook.pdf").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("starter", ["minimal", "deck", "board-game"])
def test_every_starter_checks_clean_and_builds_every_part(tmp_path, starter):
    assert pnp("new", "g", "--from", starter, cwd=tmp_path).returncode == 0
    report = json.loads(pnp("check", "--format", "json", cwd=tmp_path / "g").stdout)
    assert [(f["rule"], f["message"]) for r in report for f in r["findings"] if f["severity"] != "info"] == []
    built = pnp("build", cwd=tmp_path / "g")
    assert built.returncode == 0, built.stdout
    made = sorted(p.name for p in (tmp_path / "g" / "output" / "g").glob("*.pdf"))
    expected = {"minimal": ["g-cards.pdf", "g-rulebook.pdf"], "deck": ["g-cards.pdf", "g-rulebook.pdf"],
                "board-game": ["g-boards.pdf", "g-cards.pdf", "g-rulebook.pdf", "g-tokens.pdf"]}[starter]
    assert made == expected
    again = pnp("build", cwd=tmp_path / "g")  # the outputs inside the folder are no inputs
    assert "inputs unchanged" in again.stdout and "wrote" not in again.stdout


def test_new_never_writes_over_a_folder_and_names_the_starters(tmp_path):
    (tmp_path / "taken").mkdir()
    result = pnp("new", "taken", cwd=tmp_path)
    assert result.returncode == 2 and "already exists; pnp new never writes over a folder" in result.stderr
    assert list((tmp_path / "taken").iterdir()) == []
    result = pnp("new", "g", "--from", "boardgame", cwd=tmp_path)
    assert result.returncode == 2 and "did you mean 'board-game'?" in result.stderr
    assert not (tmp_path / "g").exists()


def test_inside_a_game_folder_commands_act_on_it(tmp_path):
    pnp("new", "g", cwd=tmp_path)
    art = tmp_path / "g" / "art"
    listed = json.loads(pnp("check", "--format", "json", cwd=art).stdout)
    assert [r["game"] for r in listed] == [".."]
    built = pnp("rulebook", cwd=art)
    assert built.returncode == 0 and (tmp_path / "g" / "output" / "g" / "g-rulebook.pdf").is_file()
    elsewhere = pnp("rulebook", "-o", str(tmp_path / "elsewhere"), cwd=art)
    assert elsewhere.returncode == 0 and (tmp_path / "elsewhere" / "g" / "g-rulebook.pdf").is_file()


def test_only_makes_a_quick_sheet_of_the_named_cards_and_leaves_the_full_build_alone(tmp_path):
    pnp("new", "g", "--from", "deck", cwd=tmp_path)
    game = tmp_path / "g"
    assert pnp("build", cwd=game).returncode == 0
    out = game / "output" / "g"
    full = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != ".pnp-run.json"}
    quick = pnp("build", "--only", "goals", "--only", "cards/reef", cwd=game)
    assert quick.returncode == 0, quick.stdout
    with pdfplumber.open(out / "g-cards-only.pdf") as pdf:
        words = [w["text"] for page in pdf.pages for w in page.extract_words()]
    assert words.count("Reef") == 2 and "Spark" not in words  # reef's two copies, no other card
    assert words.count("VP") == 3  # the three goal cards
    after = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()
             and p.name not in ("g-cards-only.pdf", ".pnp-run.json")}
    record, before = json.loads(after.pop(".pnp-build.json")), json.loads(full.pop(".pnp-build.json"))
    assert after == full and {k: v for k, v in record.items() if k != "cards-only"} == before
    assert "inputs unchanged" in pnp("build", cwd=game).stdout  # the full build's record still holds
    wrong = pnp("build", "--only", "cards/reeff", cwd=game)
    assert wrong.returncode == 1 and "deck 'cards' has no card 'reeff'" in wrong.stdout
    assert "did you mean 'reef'?" in wrong.stdout
    card = pnp("build", "--only", "reef", cwd=game)  # a card's id where a deck is asked for
    assert card.returncode == 1 and "the game has no deck 'reef'" in card.stdout
    assert "'reef' is a card of 'cards': give --only cards/reef" in card.stdout


def test_a_name_with_accents_and_spaces_keeps_its_letters_and_is_quoted_in_the_next_step(tmp_path):
    from pnp.model.scaffold import game_id, title_of

    assert (game_id("Über Spiel"), title_of("Über Spiel")) == ("uber-spiel", "Über Spiel")
    assert (game_id("ÄÖÜ"), game_id("tide-pools"), title_of("tide-pools")) == ("aou", "tide-pools", "Tide Pools")
    made = pnp("new", "Über Spiel", cwd=tmp_path)
    assert made.returncode == 0 and "cd 'Über Spiel' && pnp check" in made.stdout
    assert 'title = "Über Spiel"' in (tmp_path / "Über Spiel" / "game.toml").read_text(encoding="utf-8")
