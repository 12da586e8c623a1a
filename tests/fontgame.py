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


_FONTS: dict[str, bytes] = {}
"""The fonts' bytes, made once per test process."""


def _fonts(scratch: Path) -> dict[str, bytes]:
    if not _FONTS:
        made = {"Body-Regular.ttf": subset_font("serif", scratch / "Body-Regular.ttf", LATIN, "PnpTestBody"),
                "Body-Bold.ttf": subset_font("serif-bold", scratch / "Body-Bold.ttf", LATIN, "PnpTestBody"),
                "Symbols.ttf": subset_font("sans", scratch / "Symbols.ttf", "—★", "PnpTestSymbols"),
                "Dragon.ttf": dragon_font(scratch / "Dragon.ttf")}
        _FONTS.update({name: path.read_bytes() for name, path in made.items()})
    return _FONTS


def make_font_game(root: Path, text: str = MIXED, game_toml: str = GAME_TOML) -> Path:
    """Write the game into ``root`` (a new folder) with its card saying ``text``; returns it."""
    root.mkdir(parents=True)
    fonts = root / "fonts"
    fonts.mkdir()
    for name, data in _fonts(fonts).items():
        (fonts / name).write_bytes(data)
    (root / "game.toml").write_text(game_toml, encoding="utf-8")
    quoted = text.replace('"', '""')
    (root / "cards.csv").write_text(f'id,text,copies\nattack,"{quoted}",1\n', encoding="utf-8")
    (root / "templates").mkdir()
    (root / "templates" / "layouts.toml").write_text(LAYOUTS_TOML, encoding="utf-8")
    return root
