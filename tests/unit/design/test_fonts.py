"""Font names and a game's [fonts] table (pnp.design.fonts): what a name means, and every
setting that cannot be used as a located font.setting or font.file error."""

from __future__ import annotations

from fontgame import GAME_TOML, make_font_game
from pnp.design.fonts import BUNDLED, read_fonts
from pnp.model.load import load_game


def test_font_names_mean_a_family_and_a_style_it_has():
    assert [(BUNDLED.resolve(n)[0].name, BUNDLED.resolve(n)[1]) for n in ("sans", "sans-bold-italic", "serif-italic")] \
        == [("sans", 0), ("sans", 3), ("serif", 2)]
    assert BUNDLED.resolve("serif-bold-italic") is None and BUNDLED.resolve("mono-italic") is None
    assert BUNDLED.names()[:2] == ["sans", "sans-bold"] and "mono-italic" not in BUNDLED.names()


def test_a_games_families_and_what_is_wrong_with_them(tmp_path):
    bad = GAME_TOML.replace('fallback = ["cjk", "symbols"]', 'fallback = ["cjk", "symbol"]\nweight = 700') + (
        '\n[fonts.away]\nbold = "../outside.ttf"\n\n[fonts.sans]\nregular = "fonts/Dragon.ttf"\n'
        '\n[fonts.txt]\nregular = "cards.csv"\n')
    game_dir = make_font_game(tmp_path / "fonty", game_toml=bad)
    fonts, problems = read_fonts(load_game(game_dir, "fonty"))
    assert fonts.resolve("body-bold")[1] == 1 and fonts.resolve("body-italic") is None
    assert fonts.families["body"].fallback == ("cjk",)
    assert [(p.rule, p.location, p.message) for p in problems] == [
        ("font.setting", "fonty/game.toml:28 (fonts.body.weight)", "unknown font setting 'weight'"),
        ("font.file", "fonty/game.toml:37 (fonts.away.bold)", "'../outside.ttf' is outside the game folder"),
        ("font.setting", "fonty/game.toml:36 (fonts.away)", "font family 'away' has no regular face"),
        ("font.setting", "fonty/game.toml:39 (fonts.sans)", "'sans' cannot name a font family: it is a bundled font"),
        ("font.file", "fonty/game.toml:43 (fonts.txt.regular)", "'cards.csv' is not a TTF, OTF or TTC font file"),
        ("font.setting", "fonty/game.toml:27 (fonts.body.fallback)",
         "fallback 'symbol' of font family 'body' is no font family"),
    ]
    assert problems[-1].hint.startswith("did you mean 'symbols'?")
