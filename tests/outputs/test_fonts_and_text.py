"""A game's own fonts and inline markup, measured in the real PDF: the mixed text of a card
(bold, regular, a CJK and a symbol fallback) prints every glyph in the face that has it, every
font is embedded, markup shrinks to fit by the widths of its styled runs, and broken fonts and
markup are located findings that pnp check and pnp build report alike."""

from __future__ import annotations

import sys
from pathlib import Path

import pdfplumber
import pytest

from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fontgame import GAME_TOML, MIXED, make_font_game  # noqa: E402
from fontmaker import cff_font  # noqa: E402
from pdfwalk import fonts as font_uses  # noqa: E402


def runs(game: Path, out: Path):
    """(check, build) of ``game``: the dry run, then the build writing into ``out``."""
    source = GameSource(game, "fonty", game / "templates", "fonty/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False))
    return (run_game(BuildJob(source, out, settings, write=False)),
            run_game(BuildJob(source, out, settings, write=True)))


def placed(findings) -> set[tuple[str, str, str]]:
    return {(f.severity, f.rule, f.location) for f in findings if f.severity != "info"}


def card_chars(pdf: Path) -> list[tuple[str, str]]:
    """(character, font name without its subset prefix) of every glyph on the first card page."""
    with pdfplumber.open(pdf) as doc:
        return [(ch["text"], ch["fontname"].split("+", 1)[-1]) for ch in doc.pages[2].chars if ch["text"].strip()]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("fonts")
    game = make_font_game(root / "fonty")
    check, build = runs(game, root / "out")
    return game, root / "out" / "fonty" / "fonty-cards.pdf", check, build


def test_mixed_text_prints_every_glyph_in_the_face_that_has_it(built):
    _, pdf, check, build = built
    assert placed(check.findings) == placed(build.findings) == set()
    chars = card_chars(pdf)
    assert "".join(c for c, _ in chars) == MIXED.replace("**", "").replace(" ", "")
    faces = dict(chars)
    assert {c: f for c, f in chars if c in "Attack"} == {c: "PnpTestBody-Bold" for c in "Atack"}
    assert faces["3"] == "PnpTestBody-Regular"
    assert faces["—"] == faces["★"] == "PnpTestSymbols-Regular"
    assert faces["龍"] == "PnpTestDragon"


def test_every_font_of_the_card_sheets_is_embedded(built):
    _, pdf, _, _ = built
    uses = font_uses(pdf)
    names = {u.base_font.lstrip("/").split("+", 1)[-1] for u in uses}
    assert {"PnpTestBody-Bold", "PnpTestBody-Regular", "PnpTestSymbols-Regular", "PnpTestDragon"} <= names
    assert [u for u in uses if not u.embedded] == []


def test_bold_and_regular_runs_render_in_their_faces(built, tmp_path):
    """At 300 dpi the bold run carries more ink per glyph area than the regular run beside it."""
    import pypdfium2 as pdfium

    _, pdf, _, _ = built
    doc = pdfium.PdfDocument(str(pdf))
    image = doc[2].render(scale=300 / 72).to_pil().convert("L")
    with pdfplumber.open(pdf) as plumb:
        page = plumb.pages[2]
        chars = [ch for ch in page.chars if ch["text"].strip()]

    def ink(ch) -> float:
        box = tuple(round(v * 300 / 72) for v in (ch["x0"], ch["top"], ch["x1"], ch["bottom"]))
        region = image.crop((box[0], box[1], box[2], box[3]))
        return sum(255 - p for p in region.tobytes()) / (255 * region.size[0] * region.size[1])

    bold_t = [ink(ch) for ch in chars if ch["text"] == "t"]
    regular = ink(next(ch for ch in chars if ch["text"] == "3"))
    assert min(bold_t) > 0.3 and regular > 0.05
    assert min(bold_t) > regular * 1.3
    doc.close()


def test_markup_shrinks_to_fit_by_the_width_of_its_bold_runs(tmp_path):
    """The same words fit one line regular and need a smaller size bold: autofit measures the
    bold face."""
    from pnp.design.layouts import game_layouts
    from pnp.model.load import load_game
    from pnp.render.elements.text import TextFitter
    from pnp.render.renderer import Renderer
    from reportlab.pdfbase.pdfmetrics import stringWidth

    game_dir = make_font_game(tmp_path / "fonty", text="x")
    game = load_game(game_dir, "fonty")
    layouts = game_layouts(game, GameSource(game_dir, "fonty", game_dir / "templates", "fonty/templates"))
    renderer = Renderer(layouts, game_dir)
    fitter = TextFitter(renderer, "body")
    plain, bold = fitter.words("Strike now")[0], fitter.words("**Strike now**")[0]
    bold_face = renderer.fonts.chain("body", 1)[0]
    assert fitter.word_width(bold[0][0]) == pytest.approx(stringWidth("Strike", bold_face, 1))
    width = fitter.word_width(plain[0][0]) * 20 + fitter.width(" ") * 20 + fitter.word_width(plain[0][1]) * 20 + 1
    size_plain, lines_plain, _ = fitter.fit(plain, 20, 6, 1.2, width, 30)
    size_bold, lines_bold, _ = fitter.fit(bold, 20, 6, 1.2, width, 30)
    assert (size_plain, len(lines_plain)) == (20, 1)
    assert size_bold < 20 and len(lines_bold) == 1
    assert lines_bold[0][1] <= width


BAD_CASES = {
    "missing file": (GAME_TOML.replace("fonts/Body-Bold.ttf", "fonts/Body-Blod.ttf"), MIXED,
                     ("error", "font.file", "fonty/game.toml:26 (fonts.body.bold)"), "no font file fonty/fonts/Body-Blod.ttf"),
    "corrupt font": (GAME_TOML.replace("fonts/Dragon.ttf", "fonts/Broken.ttf"), MIXED,
                     ("error", "font.file", "fonty/game.toml:30 (fonts.cjk.regular)"), "is not a usable TrueType font"),
    "PostScript outlines": (GAME_TOML.replace("fonts/Symbols.ttf", "fonts/Cff.otf"), MIXED,
                            ("error", "font.file", "fonty/game.toml:33 (fonts.symbols.regular)"),
                            "'fonts/Cff.otf' has PostScript (CFF) outlines"),
    "character no face has": (GAME_TOML.replace(', "symbols"]', "]"), MIXED,
                              ("warning", "preflight.missing-glyph", "fonty/cards.csv:2:2 (text)"),
                              "the fonts body and cjk have no glyph for '—' (U+2014), '★' (U+2605)"),
    "unclosed bold": (GAME_TOML, "**Attack 3",
                      ("warning", "preflight.markup", "fonty/cards.csv:2:2 (text)"),
                      "'**' at character 1 opens bold that is never closed"),
    "unknown span colour": (GAME_TOML, "[Attack](color:blu) 3",
                            ("warning", "preflight.markup", "fonty/cards.csv:2:2 (text)"),
                            "colour span: 'blu' is not a colour of this game"),
}


@pytest.mark.parametrize("case", list(BAD_CASES))
def test_bad_fonts_and_markup_are_located_findings_in_check_and_build(case, tmp_path):
    game_toml, text, where, message = BAD_CASES[case]
    game = make_font_game(tmp_path / "fonty", text=text, game_toml=game_toml)
    (game / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00" + b"not a font at all" * 20)
    cff_font(game / "fonts" / "Cff.otf")
    check, build = runs(game, tmp_path / "out")
    assert placed(check.findings) == placed(build.findings)
    hits = [f for f in check.findings if (f.severity, f.rule, f.location) == where]
    assert hits and message in hits[0].message, [(f.rule, f.location, f.message) for f in check.findings]
    if where[0] == "error":
        assert not (tmp_path / "out" / "fonty" / "fonty-cards.pdf").exists()  # an error writes nothing
    else:
        assert (tmp_path / "out" / "fonty" / "fonty-cards.pdf").exists()  # a warning: the draft prints


def test_two_fonts_of_one_postscript_name_are_an_error(tmp_path):
    """A viewer or printer that caches embedded fonts by name would draw one for the other."""
    from fontTools.ttLib import TTFont

    from pnp.validate.check import check_game

    game = make_font_game(tmp_path / "fonty")
    dragon = TTFont(str(game / "fonts" / "Dragon.ttf"))
    dragon["name"].setName("PnpTestBody-Regular", 6, 3, 1, 0x409)
    dragon["name"].setName("PnpTestBody-Regular", 6, 1, 0, 0)
    dragon.save(str(game / "fonts" / "Dragon.ttf"))
    _, findings = check_game(GameSource(game, "fonty", game / "templates", "fonty/templates"))
    assert [(f.rule, f.location) for f in findings if f.severity == "error"] == [
        ("font.file", "fonty/game.toml:30 (fonts.cjk.regular)")]
    assert "same PostScript name 'PnpTestBody-Regular'" in findings[0].message


def test_the_rulebook_draws_what_dejavu_lacks_in_the_games_fonts(tmp_path):
    """The rulebook is DejaVu Sans; 龍 and a bold 龍 come from the game's CJK family, and a
    character no font has is still reported."""
    from pnp.model.load import load_game
    from pnp.outputs.rulebook import build_rulebook

    game_dir = make_font_game(tmp_path / "fonty")
    (game_dir / "templates" / "rulebook.md.j2").write_text("# Fonty\n\nThe dragon 龍 and **龍 bold** \u0e01.\n",
                                                             encoding="utf-8")
    game = load_game(game_dir, "fonty")
    result = build_rulebook(game, GameSource(game_dir, "fonty", game_dir / "templates", "fonty/templates"),
                            tmp_path / "out", "letter", False)
    with pdfplumber.open(result.files[0]) as pdf:
        faces = [(ch["text"], ch["fontname"].split("+", 1)[-1]) for ch in pdf.pages[0].chars if ch["text"].strip()]
    assert [f for c, f in faces if c == "龍"] == ["PnpTestDragon", "PnpTestDragon"]
    assert {f for c, f in faces if c == "g"} == {"DejaVuSans"}  # "dragon": the rulebook face
    assert [u for u in font_uses(result.files[0]) if not u.embedded] == []
    glyphs = [f for f in result.findings if f.rule == "preflight.missing-glyph"]
    assert len(glyphs) == 1 and "'\u0e01' (U+0E01)" in glyphs[0].message and "龍" not in glyphs[0].message
