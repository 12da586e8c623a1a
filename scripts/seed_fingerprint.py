"""Fingerprint the source rule documents, so that tests can prove our text is our own.

The bundled games take their facts (counts, costs, setup numbers) from the designers' rule
documents, but every sentence printed on a card, a board or in a rulebook, and every sentence of
the data folders and docs, must be written in our own words. The test
``tests/games/test_own_words.py`` looks for runs of 8 or more consecutive words that our files
share with those documents. CI runs on a clean checkout without the documents, so the test reads
a fingerprint instead: the sorted SHA-256 hashes (first 16 hex digits) of every 8-word window of
the documents, after normalising. The fingerprint holds no readable text.

Run it from the repository root with the folder of rule documents (``*.md``):

    python scripts/seed_fingerprint.py PATH/TO/SEEDS [-o tests/games/seed_shingles.json]

Normalising (``words`` below): NFKC, curly apostrophes made straight, lower case; a word is a run
of letters and digits (an apostrophe inside a word keeps it whole), so punctuation and markup
never matter. Windows stay inside one line of a document (a line is a paragraph there) and are
never taken from:

- names: a window holding a word written with a capital letter anywhere but at the start of a
  sentence (a game term such as "Proof Token", a card name, a chemical symbol) is skipped, so a
  shared run of names is not counted as shared prose;
- lists of components: table rows (lines starting with ``|``), and list items (``- ...``) that
  follow a line naming the components or the contents of the box.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import unicodedata
from pathlib import Path

WINDOW = 8
HASH_HEX = 16
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "tests" / "games" / "seed_shingles.json"

WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SENTENCE_END = tuple(".!?:;•([\"“”—–-")
_COMPONENT_HEADING = re.compile(r"component|in the box|what's in", re.IGNORECASE)


def normalise(text: str) -> str:
    """NFKC with straight apostrophes; case is kept (``words`` lowers it)."""
    return unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")


def words(text: str) -> list[str]:
    """The lower-cased words of a piece of text, punctuation and markup dropped."""
    return [m.group(0).lower() for m in WORD.finditer(normalise(text))]


def _marked_words(line: str) -> list[tuple[str, bool]]:
    """(word, is_name) for each word of a line of a rule document."""
    line = normalise(line)
    out = []
    for m in WORD.finditer(line):
        w = m.group(0)
        before = line[:m.start()].rstrip()
        at_start = not before or before.endswith(_SENTENCE_END)
        is_name = any(c.isupper() for c in w) and not (at_start and w[1:] == w[1:].lower())
        out.append((w.lower(), is_name))
    return out


def shingle_hash(window: list[str] | tuple[str, ...]) -> str:
    """The fingerprint of one window of lower-cased words."""
    return hashlib.sha256(" ".join(window).encode("utf-8")).hexdigest()[:HASH_HEX]


def windows(ws: list[str], n: int = WINDOW) -> list[tuple[str, ...]]:
    return [tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)]


def prose_lines(text: str) -> list[str]:
    """The lines of a rule document that count as prose (component lists and tables left out)."""
    out = []
    in_component_list = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        is_item = line.startswith("- ") or line == "-"
        if not is_item:
            in_component_list = bool(_COMPONENT_HEADING.search(line))
        if line.startswith("|") or (is_item and in_component_list):
            continue
        out.append(line)
    return out


def document_hashes(text: str) -> set[str]:
    """The fingerprint of one rule document: hashes of its name-free 8-word windows."""
    found: set[str] = set()
    for line in prose_lines(text):
        marked = _marked_words(line)
        for i in range(len(marked) - WINDOW + 1):
            part = marked[i:i + WINDOW]
            if any(is_name for _, is_name in part):
                continue
            found.add(shingle_hash([w for w, _ in part]))
    return found


def fingerprint(seeds: Path) -> dict:
    files = sorted(p for p in seeds.glob("*.md") if p.is_file())
    if not files:
        raise SystemExit(f"{seeds}: no .md rule documents found")
    hashes: set[str] = set()
    for path in files:
        hashes |= document_hashes(path.read_text(encoding="utf-8"))
    return {
        "about": "SHA-256 (first 16 hex digits) of each 8-word window of the source rule documents; "
                 "regenerate with scripts/seed_fingerprint.py",
        "window": WINDOW,
        "documents": [p.name for p in files],
        "hashes": sorted(hashes),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=Path, help="folder holding the rule documents (*.md)")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    data = fingerprint(args.seeds)
    args.output.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {args.output}: {len(data['hashes'])} windows from {len(data['documents'])} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
