"""The benchmark's deck drawn with protograf, a peer tool, when it is installed (it is not a
dependency of pnp): ``PYTHON bench/protograf_deck.py GAME_DIR -o out.pdf`` with an interpreter
that has protograf.

Every row of the deck's cards.csv is one poker card, 3 x 3 on US Letter, with a coloured frame,
a family badge, the symbol, the title, the group and period line and the rule text, each from
its cell through protograf's Jinja2 templates. It draws less than the floor does (no icons, no
mirrored back sheets, no text fitting), so it flatters protograf, if anything."""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    from protograf import Card, Create, Data, Deck, Save, T, circle, rectangle, text

    rows = list(csv.DictReader((args.game / "cards.csv").open(encoding="utf-8")))
    data = [[key for key in rows[0]]] + [[row[key] or "" for key in rows[0]] for row in rows]
    os.chdir(args.output.parent)
    sys.argv = sys.argv[:1]  # protograf reads options of its own from the command line
    Create(filename=args.output.name, paper="letter", units="mm", margin=5)
    Data(data_list=data)
    Deck(card_size="poker", cols=3, rows=3, grid_marks=True)
    Card("all",
         rectangle(x=2, y=2, width=59.5, height=84.9, stroke="#333333", stroke_width=1.5, fill=None),
         circle(cx=10, cy=10, radius=5, fill="#4477AA"),
         text(text=T("{{ symbol }}"), x=31.75, y=22, font_size=28),
         text(text=T("{{ title }}"), x=31.75, y=32, font_size=12),
         text(text=T("{{ 'Group ' ~ group ~ ' · ' if group else '' }}Period {{ period }}"), x=31.75, y=40,
              font_size=7),
         text(text=T("{{ rule_text }}"), x=31.75, y=60, font_size=7))
    Save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
