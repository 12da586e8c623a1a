"""A dry run draws every piece on a canvas that paints nothing: it finds exactly what drawing
the piece for real finds (same findings, same order), leaves the file's graphics states as
they were, and still paints where the canvas itself finds things (a colour-converting one)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from pnp.core.units import MM, Size
from pnp.design.layouts import game_layouts, load_layouts
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.model.pieces import Piece
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import render_cards
from pnp.render.canvas import new_canvas
from pnp.render.dry import DryCanvas
from pnp.render.renderer import Renderer

HEADER = "id,title,cost,colour,text,copies\n"


def _troubled(game: Path) -> None:
    """Cards that find something when drawn: text too long for its box, a character the font
    lacks, an icon that does not exist, art below 300 dpi and art that is missing."""
    rows = [
        "fire,Fire & Ice,2,red,\"Draw 2.\nDiscard <1>.\",1\n",
        "long,Long,1,green," + '"' + " ".join(["overflowing"] * 120) + '"' + ",1\n",
        "kanji,Kanji,1,green,Ok 漢,1\n",
        "icon,Icon,1,green,Pay :fier:,1\n",
        "small,Small,1,red,Art,1\n",
    ]
    (game / "cards.csv").write_text(HEADER + "".join(rows), encoding="utf-8")
    (game / "art").mkdir()
    Image.new("RGB", (40, 40), (10, 120, 30)).save(game / "art" / "small.png")  # 40 px over 20 mm: 51 dpi
    with open(game / "templates" / "layouts.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[layouts.action.boxes.art]\ntype = "image"\nimage = "art/{{ id }}.png"\nx = "5mm"\ny = "30mm"\n'
                 'width = "20mm"\nheight = "20mm"\n')


def _render(game_dir: Path, out: Path, dry: bool):
    game = load_game(game_dir, "tiny")
    layouts = game_layouts(game, GameSource(game_dir, "tiny", game_dir / "templates", "tiny/templates"))
    return render_cards(game, layouts, out, SheetOptions(contact_sheets=False), dry=dry)


def test_a_dry_run_finds_what_drawing_finds_in_the_same_order(tiny, tmp_path):
    _troubled(tiny)
    built = _render(tiny, tmp_path / "built", dry=False)
    checked = _render(tiny, tmp_path / "checked", dry=True)
    rules = {f.rule for f in built.findings}
    # the cards meet every kind of trouble, so the comparison below compares something
    assert {"preflight.text-overflow", "preflight.missing-glyph", "layout.icon-unknown",
            "layout.art-missing"} <= rules, rules
    assert any("dpi" in f.message for f in built.findings)
    assert checked.findings == built.findings
    assert built.outputs and not checked.outputs  # the dry run makes no file


def _layouts(tmp_path: Path):
    (tmp_path / "layouts.toml").write_text(
        '[layouts.card]\nbackground = "#336699"\n'
        '[layouts.card.boxes.frame]\ntype = "rect"\nx = "2mm"\ny = "2mm"\nwidth = "20mm"\nheight = "10mm"\n'
        'fill = "#FFFFFF"\nstroke = "#000000"\n'
        '[layouts.card.boxes.title]\ntype = "text"\ntext = "{{ title }}"\nx = "3mm"\ny = "3mm"\n'
        'width = "18mm"\nheight = "8mm"\n'
        '[layouts.card.boxes.broken]\ntype = "rect"\nx = "2mm"\ny = "20mm"\nwidth = "5mm"\nheight = "5mm"\n'
        'fill = "{{ hue }}"\n', encoding="utf-8")
    return load_layouts(tmp_path, "layouts.toml", {})


def test_a_dry_canvas_paints_nothing_and_keeps_the_states_balanced(tmp_path):
    layouts = _layouts(tmp_path)
    piece = Piece("card", {"title": "Hello world", "hue": "nocolour"})
    painted = {}
    found = {}
    for dry in (False, True):
        renderer = Renderer(layouts, tmp_path)
        renderer.dry = dry
        c = new_canvas(io.BytesIO(), Size(100 * MM, 100 * MM))
        before = len(c._code)
        renderer.draw(c, piece, (10 * MM, 10 * MM, 30 * MM, 40 * MM), (0, 0, 0, 0))
        painted[dry] = "\n".join(c._code[before:])
        found[dry] = renderer.findings
        assert len(c.state_stack) == 0  # the failed box's saved states were restored, or never saved
    assert " Tj" in painted[False] and " re" in painted[False]
    assert painted[True] == ""
    assert found[True] == found[False] and any(f.severity == "error" for f in found[True])


def test_a_canvas_that_converts_colours_is_painted_even_in_a_dry_run(tmp_path):
    layouts = _layouts(tmp_path)
    renderer = Renderer(layouts, tmp_path)
    renderer.dry = True
    renderer.converter = object()  # the canvas converts every colour (and finds what it cannot)
    c = new_canvas(io.BytesIO(), Size(100 * MM, 100 * MM))
    seen = []
    renderer.draw(_Spy(c, seen), Piece("card", {"title": "Hello", "hue": "#112233"}),
                  (0, 0, 30 * MM, 40 * MM), (0, 0, 0, 0))
    assert "setFillColor" in seen and "drawString" in seen


class _Spy:
    """A canvas that notes the name of every call made on it."""

    def __init__(self, canvas, seen: list):
        self._canvas, self._seen = canvas, seen

    def __getattr__(self, name: str):
        self._seen.append(name)
        return getattr(self._canvas, name)


def test_the_dry_canvas_hands_other_calls_to_the_canvas(tmp_path):
    c = new_canvas(io.BytesIO(), Size(100 * MM, 100 * MM))
    dry = DryCanvas(c)
    assert dry.getPageNumber() == c.getPageNumber()
    dry.saveState()
    dry.saveState()
    assert len(dry.state_stack) == 2 and len(c.state_stack) == 0
    dry.restoreState()
    assert len(dry.state_stack) == 1
