"""A one-card test game with fonts of its own: a Latin family (regular and bold, ASCII only),
a CJK fallback (only 龍) and a symbol fallback (only — and ★), all made by :mod:`fontmaker`."""

from __future__ import annotations

from pathlib import Path

from fontmaker import LATIN, dragon_font, subset_font

MIXED = "**Attack** 3 — 龍 ★"
"""The card text of the done-when: bold, regular, and three characters only the fallbacks have."""

GAME_TOML = """\
[game]
id = "fonty"
title = "Fonty"
players = [1, 2]

[components.cards]
kind = "deck"
name = "Cards"
table = "cards.csv"
id_column = "id"
copies_column = "copies"
card_size = "poker"
layout = "card"
back = "back"

[components.cards.columns]
id = "id"
text = "text"
copies = "int"

[colors]
red = "#C0392B"

[fonts.body]
regular = "fonts/Body-Regular.ttf"
bold = "fonts/Body-Bold.ttf"
fallback = ["cjk", "symbols"]

[fonts.cjk]
regular = "fonts/Dragon.ttf"

[fonts.symbols]
regular = "fonts/Symbols.ttf"
"""

LAYOUTS_TOML = """\
[layouts.back]
background = "red"

[layouts.card]
background = "white"

[layouts.card.boxes.text]
type = "text"
text = "{{ text }}"
x = "5mm"
y = "20mm"
width = "53.5mm"
height = "30mm"
font = "body"
size = 20
"""


def make_font_game(root: Path, text: str = MIXED, game_toml: str = GAME_TOML) -> Path:
    """Write the game into ``root`` (a new folder) with its card saying ``text``; returns it."""
    root.mkdir(parents=True)
    fonts = root / "fonts"
    subset_font("serif", fonts / "Body-Regular.ttf", LATIN, "PnpTestBody")
    subset_font("serif-bold", fonts / "Body-Bold.ttf", LATIN, "PnpTestBody")
    subset_font("sans", fonts / "Symbols.ttf", "—★", "PnpTestSymbols")
    dragon_font(fonts / "Dragon.ttf")
    (root / "game.toml").write_text(game_toml, encoding="utf-8")
    quoted = text.replace('"', '""')
    (root / "cards.csv").write_text(f'id,text,copies\nattack,"{quoted}",1\n', encoding="utf-8")
    (root / "templates").mkdir()
    (root / "templates" / "layouts.toml").write_text(LAYOUTS_TOML, encoding="utf-8")
    return root
