"""Every sentence is our own: no run of 8 or more words is shared with the source rule documents.

The bundled games carry the facts of their designers' rule documents, never the sentences. The
documents are not part of the repository, so this test reads their fingerprint,
``seed_shingles.json`` beside it (hashes of every 8-word window that is not a name or a list of
components; ``scripts/seed_fingerprint.py`` writes it and says how words are normalised). It
hashes every 8-word window of the text we ship and write: the rulebook templates and layouts,
the games' data and READMEs, the docs and the top-level README.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("seed_fingerprint", ROOT / "scripts" / "seed_fingerprint.py")
seed_fingerprint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seed_fingerprint)

FINGERPRINT = Path(__file__).resolve().parent / "seed_shingles.json"
WINDOW = seed_fingerprint.WINDOW

# Jinja2 tags and comments: a run of words never continues across one.
_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


def project_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for top in ("card_data", "templates"):
        files += sorted(p for p in (ROOT / top).rglob("*")
                        if p.is_file() and p.suffix in {".md", ".csv", ".toml", ".j2"})
    return files


def segments(path: Path) -> list[tuple[int, str]]:
    """(first line, text) pieces of a file within which a run of words may continue: a CSV
    cell, a line of a TOML file, a paragraph of Markdown or of a template between its tags."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".csv":
        out = []
        reader = csv.reader(io.StringIO(text))
        for row in reader:
            out += [(reader.line_num, cell) for cell in row]
        return out
    # a tag becomes a break; keep its newlines so that line numbers stay right
    text = _TAG.sub(lambda m: "\x00" + "\n" * m.group(0).count("\n"), text)
    out = []
    line = 1
    splitter = r"(\n)" if path.suffix == ".toml" else r"(\n[ \t]*\n|\x00)"
    for piece in re.split(splitter, text):
        if piece and not re.fullmatch(splitter.strip("()"), piece):
            out.append((line, piece))
        line += piece.count("\n")
    return out


def shared_runs(path: Path, known: set[str], root: Path = ROOT) -> list[str]:
    """Each run of 8 or more words of a file found in the fingerprint, with its line."""
    found = []
    for line, piece in segments(path):
        piece = seed_fingerprint.normalise(piece)
        matches = list(seed_fingerprint.WORD.finditer(piece))
        ws = [m.group(0).lower() for m in matches]
        hits = [i for i, w in enumerate(seed_fingerprint.windows(ws)) if seed_fingerprint.shingle_hash(w) in known]
        start = None
        for j, i in enumerate(hits):
            if start is None:
                start = i
            if j + 1 == len(hits) or hits[j + 1] != i + 1:
                run = ws[start:i + WINDOW]
                at = line + piece[:matches[start].start()].count("\n")
                found.append(f"{path.relative_to(root)}:{at}: \"{' '.join(run)}\"")
                start = None
    return found


@pytest.fixture(scope="module")
def known() -> set[str]:
    data = json.loads(FINGERPRINT.read_text(encoding="utf-8"))
    assert data["window"] == WINDOW
    assert len(data["hashes"]) > 1000, "the fingerprint looks empty; regenerate it"
    return set(data["hashes"])


def test_no_sentence_is_shared_with_the_rule_documents(known):
    found = [hit for path in project_files() for hit in shared_runs(path, known)]
    assert not found, ("runs of 8 or more words shared with the source rule documents; "
                       "say it in our own words:\n" + "\n".join(found))


def test_the_check_finds_a_copied_sentence(known, tmp_path):
    # One sentence of a rule document, known only by its fingerprint, is found when a file
    # holds it; the same facts in other words are not. (The windows are built here from a
    # line of our own, then looked up the way the real check does.)
    ours = "every player keeps exactly one card hidden in a hand until the end"
    copied = tmp_path / "copied.md"
    copied.write_text(f"Intro.\n\nThen {ours} of play.\n", encoding="utf-8")
    fake = {seed_fingerprint.shingle_hash(w) for w in seed_fingerprint.windows(ours.split())}
    assert shared_runs(copied, fake, tmp_path) == [f"copied.md:3: \"{ours}\""]
    reworded = tmp_path / "reworded.md"
    reworded.write_text("Each player keeps one hidden card until play ends.\n", encoding="utf-8")
    assert shared_runs(reworded, fake, tmp_path) == []
    # a run broken by a template tag is two runs of fewer words, not one
    tagged = tmp_path / "tagged.j2"
    tagged.write_text("every player keeps exactly one card {{ x }} hidden in a hand until the end\n",
                      encoding="utf-8")
    assert shared_runs(tagged, fake, tmp_path) == []


def test_fingerprint_skips_names_and_component_lists():
    doc = ("Components\n"
           "- 20 resource cubes in four colours for every single player\n"
           "| a table row with many words that are only data here |\n"
           "Each Hero Card in the deck goes to the table when the round ends.\n"
           "players pass one card to the left at the end of each round.\n")
    hashes = seed_fingerprint.document_hashes(doc)
    lists = seed_fingerprint.words("20 resource cubes in four colours for every")
    table = seed_fingerprint.words("a table row with many words that are")
    named = seed_fingerprint.words("Hero Card in the deck goes to the")
    prose = seed_fingerprint.words("players pass one card to the left at")
    assert seed_fingerprint.shingle_hash(lists) not in hashes
    assert seed_fingerprint.shingle_hash(table) not in hashes
    assert seed_fingerprint.shingle_hash(named) not in hashes
    assert seed_fingerprint.shingle_hash(prose) in hashes
    # "Each" opens a sentence, so it is no name: the window after the names counts
    assert seed_fingerprint.shingle_hash(seed_fingerprint.words("in the deck goes to the table when")) in hashes
