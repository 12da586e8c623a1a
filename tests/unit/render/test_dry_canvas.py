"""A dry run draws every piece on a canvas that paints nothing: it finds exactly what drawing
the piece for real finds (same findings, same order), leaves the file's graphics states as
they were, and still paints where the canvas itself finds things (a colour-converting one).
What a PDF cannot hold (a colour of none where one is painted, an infinite angle, an SVG dash
of length 0, arithmetic out of range) is the same finding in a build and its check, on cards
and in the rulebook, and never a crash."""

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


def test_the_dry_canvas_refuses_what_reportlab_refuses_with_its_words():
    from reportlab.pdfgen.canvas import Canvas

    calls = [("setFillColor", (None,)), ("setStrokeColor", ("nosuch",)), ("setFillColor", ((1, 2),)),
             ("setFont", ("no-such-font", 9)), ("setFont", ("Helvetica", 1e20))]
    for value in (1e35, -1e25, float("inf"), float("nan")):
        calls += [("rect", (0, 0, value, 10)), ("drawString", (value, 0, "x")), ("setLineWidth", (value,)),
                  ("line", (0, 0, 0, value)), ("roundRect", (0, 0, 10, 10, value)), ("ellipse", (0, 0, value, 1)),
                  ("circle", (0, 0, value)), ("setFillColorRGB", (value, 0, 0))]
    refused = 0
    for name, args in calls:
        by_reportlab = _raised(lambda: getattr(Canvas(io.BytesIO()), name)(*args))
        assert _raised(lambda: getattr(DryCanvas(Canvas(io.BytesIO())), name)(*args)) == by_reportlab, (name, args)
        refused += by_reportlab is not None
    assert refused >= 20  # most of these values are refused, so the comparison compares refusals
    dry = DryCanvas(Canvas(io.BytesIO()))
    dry.setFillColor("#336699")  # what reportlab takes passes
    dry.rect(0, 0, 1e20, 10)
    dry.setFont("Helvetica", 9)


def _raised(call) -> tuple[type, str] | None:
    """The class and words of what ``call()`` raises, or None."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - what is raised is what is compared
        return type(exc), str(exc)
    return None


def _svg(path: Path, body: str) -> None:
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{body}</svg>',
                    encoding="utf-8")


def test_values_a_pdf_cannot_hold_are_findings_in_a_build_and_its_dry_run_alike(tiny, tmp_path):
    """Colours of none paint nothing; an infinite angle, an SVG dash of length 0 and a number too
    large for a PDF are each a layout.render error at the box, in the build as in its check."""
    (tiny / "art").mkdir()
    _svg(tiny / "art" / "fire.svg", '<line x1="0" y1="0" x2="100" y2="100" stroke="black" stroke-dasharray="0"/>')
    _svg(tiny / "art" / "leaf.svg", '<rect x="0" y="0" width="1e35" height="10" fill="red"/>')
    with open(tiny / "templates" / "layouts.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[layouts.action.boxes.art]\ntype = "image"\nimage = "art/{{ id }}.svg"\nx = "5mm"\ny = "30mm"\n'
                 'width = "20mm"\nheight = "20mm"\n'
                 '\n[layouts.action.boxes.ghost]\ntype = "text"\ntext = "{{ title }}"\ncolor = "none"\n'
                 'x = "5mm"\ny = "60mm"\nwidth = "20mm"\nheight = "8mm"\n'
                 '\n[layouts.action.boxes.rule]\ntype = "line"\nstroke = "none"\nx = "5mm"\ny = "70mm"\n'
                 'x2 = "40mm"\ny2 = "70mm"\n'
                 '\n[layouts.cell]\n[layouts.cell.boxes.dot]\ntype = "rect"\narea = "trim"\nfill = "black"\n'
                 '\n[layouts.action.boxes.spin]\ntype = "repeat"\nitems = "[1, 2]"\nlayout = "cell"\n'
                 'item_width = "3mm"\nitem_height = "3mm"\nitem_rotate = "inf"\nx = "5mm"\ny = "75mm"\n'
                 'width = "20mm"\nheight = "5mm"\n')
    built = _render(tiny, tmp_path / "built", dry=False)
    checked = _render(tiny, tmp_path / "checked", dry=True)
    errors = [f for f in built.findings if f.severity == "error"]
    assert checked.findings == built.findings
    said = {(f.location.split(" (")[-1], f.message) for f in errors}
    assert ("layouts.action.boxes.spin)", "this box cannot be drawn: an angle that is not a finite number") in said
    assert any(m.startswith("this box cannot be drawn: ") and "dash" in m for _, m in said), said
    assert any(m == "this box cannot be drawn: a number too large for a PDF" for _, m in said), said
    assert not any("ghost" in f.location or "rule" in f.location for f in built.findings)  # none paints nothing


def test_a_rulebook_picture_a_pdf_cannot_hold_is_a_finding_in_the_build_and_its_check(tiny, tmp_path):
    from pnp.model.games import GameSource as Source
    from pnp.outputs.base import BuildSettings, SheetOptions
    from pnp.pipeline.build import BuildJob, run_game

    (tiny / "templates" / "art").mkdir()
    _svg(tiny / "templates" / "art" / "dash.svg",
         '<line x1="0" y1="0" x2="100" y2="100" stroke="black" stroke-dasharray="0"/>')
    (tiny / "templates" / "rulebook.md.j2").write_text(
        '# {{ game.title }}\n\n![a dashed line](art/dash.svg "20mm")\n', encoding="utf-8")
    settings = BuildSettings(SheetOptions(contact_sheets=False))
    source = Source(tiny, "tiny", tiny / "templates", "tiny/templates")
    checked, built = (run_game(BuildJob(source, tmp_path / name, settings, write=write))
                      for name, write in (("checked", False), ("built", True)))
    found = [(f.rule, f.location, f.message) for f in built.findings if f.severity == "error"]
    assert found == [(f.rule, f.location, f.message) for f in checked.findings if f.severity == "error"]
    assert [m for rule, _, m in found if rule == "rulebook.layout"] == [
        "the picture 'art/dash.svg' cannot be drawn: dash cycle should be larger than zero"]


def test_template_arithmetic_out_of_range_is_a_finding_not_a_crash(tiny, tmp_path):
    """Jinja2 writes a constant expression's infinite result into the code it makes, where it
    fails as an unknown name; on a card and in the rulebook that is a clean error at the
    template."""
    from pnp.model.games import GameSource as Source
    from pnp.outputs.base import BuildSettings, SheetOptions
    from pnp.pipeline.build import BuildJob, run_game

    with open(tiny / "templates" / "layouts.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[layouts.action.boxes.huge]\ntype = "text"\ntext = "{{ 0.0 * 1e400 }}"\n'
                 'x = "5mm"\ny = "60mm"\nwidth = "20mm"\nheight = "8mm"\n')
    (tiny / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\n{{ 0.0 * 1e400 }}\n",
                                                       encoding="utf-8")
    settings = BuildSettings(SheetOptions(contact_sheets=False))
    source = Source(tiny, "tiny", tiny / "templates", "tiny/templates")
    checked, built = (run_game(BuildJob(source, tmp_path / name, settings, write=write))
                      for name, write in (("checked", False), ("built", True)))
    said = sorted((f.rule, f.location.split(":")[0], f.message) for f in built.findings if f.severity == "error")
    assert said == sorted((f.rule, f.location.split(":")[0], f.message)
                          for f in checked.findings if f.severity == "error")
    assert ("layout.render", "tiny/templates/layouts.toml",
            "the arithmetic comes out infinite or not a number") in said
    assert ("rulebook.template", "tiny/templates/rulebook.md.j2",
            "the arithmetic comes out infinite or not a number") in said
