"""SVG art in the CMYK exports (dtc, eu), measured in the files they write: every colour of it
converted (fills, strokes, gradient stops, the pictures inside an SVG), the findings naming
the art, and the same findings from the dry run (pnp check -t dtc). The SVG test game is
tests/fixtures/svgart; its game.toml lists the dtc and eu targets."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import FIXTURES
from pdfwalk import rgb_uses, unembedded
from pnp.core.units import MM
from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

DTC = "export/dtc/svgart-cards.pdf"
EU = "export/eu/svgart-cards-poker.pdf"
BLEED = {DTC: 0.125 * 72, EU: 3 * MM}
LIMIT = {DTC: 2.4, EU: 3.0}


def copy_game(dest: Path) -> Path:
    shutil.copytree(FIXTURES / "svgart", dest)
    return dest


def run(game: Path, out: Path, *, write: bool = True, force: bool = False):
    """``pnp build`` (``write``) or ``pnp check`` of the game's export targets alone."""
    settings = BuildSettings(SheetOptions(contact_sheets=False), outputs=("export",), force=force)
    return run_game(BuildJob(GameSource(game, "svgart", game / "templates", "svgart/templates"), out, settings,
                             write=write))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """The SVG test game exported for dtc and eu: the game's output folder."""
    game = copy_game(tmp_path_factory.mktemp("game") / "svgart")
    out = tmp_path_factory.mktemp("out")
    report = run(game, out)
    assert report.written and not [f for f in report.findings if f.severity == "error"]
    return out / "svgart"


def plain_cmyk(hexcolor: str) -> tuple[float, float, float, float]:
    """The plain conversion docs/export.md gives (these colours are under every ink limit):
    K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K), likewise M and Y."""
    r, g, b = (int(hexcolor[i:i + 2], 16) / 255 for i in (1, 3, 5))
    k = 1 - max(r, g, b)
    return tuple((1 - v - k) / (1 - k) for v in (r, g, b)) + (k,)


def _functions(function) -> list:
    """The exponential (type 2) functions of a shading function, stitched (type 3) or not."""
    if function.get("/FunctionType") == 3:
        return [f for part in function.Functions for f in _functions(part)]
    return [function]


@pytest.mark.parametrize("name", [DTC, EU])
def test_svg_art_leaves_no_rgb_and_no_unembedded_font_in_a_cmyk_export(exported, name):
    assert rgb_uses(exported / name) == []
    assert unembedded(exported / name) == []


@pytest.mark.parametrize("name", [DTC, EU])
def test_gradient_stops_become_cmyk_shadings(exported, name):
    """Every shading is DeviceCMYK and its colours are the SVG's stops converted plainly:
    sky.svg's linear #1E90FF, #FFD700, #C0392B and badge.svg's radial #FFF3B0, #D35400
    (to 0.1 %, the quantum of the conversion; C, M and Y round down)."""
    want = {tuple(round(v, 3) for v in plain_cmyk(h)) for h in ("#1E90FF", "#FFD700", "#C0392B", "#FFF3B0", "#D35400")}
    got = set()
    with pikepdf.open(exported / name) as pdf:
        for page in pdf.pages:
            for shading in (page.Resources.get("/Shading") or {}).values():
                assert shading.ColorSpace == "/DeviceCMYK"
                for function in _functions(shading.Function):
                    for key in ("/C0", "/C1"):
                        got.add(tuple(float(v) for v in function[key]))
    assert got and all(sum(c) <= LIMIT[name] + 1e-6 for c in got)
    for colour in got:
        assert any(max(abs(a - b) for a, b in zip(colour, w)) <= 0.0015 for w in want), colour
    for w in want:
        assert any(max(abs(a - b) for a, b in zip(colour, w)) <= 0.0015 for colour in got), w


def test_the_picture_inside_an_svg_is_a_cmyk_image(exported):
    """badge.svg holds an 8 x 8 RGB PNG, green (40, 160, 60) above red (200, 40, 40): on the
    backs it is an image XObject in DeviceCMYK with those colours converted plainly (to 1/255),
    and no inline image is left."""
    with pikepdf.open(exported / DTC) as pdf:
        back = pdf.pages[0]  # back 1, face 1, ...: the backs draw badge.svg
        assert not any(str(op) == "INLINE IMAGE" for _, op in pikepdf.parse_content_stream(back))
        images = [x for x in back.Resources.XObject.values() if x.get("/Subtype") == "/Image"]
        assert len(images) == 1 and images[0].ColorSpace == "/DeviceCMYK"
        pixels = np.asarray(pikepdf.PdfImage(images[0]).as_pil_image()).reshape(-1, 4).astype(int)
    colours = {tuple(p) for p in pixels}
    for rgb in ((40, 160, 60), (200, 40, 40)):
        want = np.array(plain_cmyk("#%02X%02X%02X" % rgb)) * 255
        assert any(np.abs(np.array(c) - want).max() <= 1.01 for c in colours), (rgb, colours)


def _render_reference(cmyk: tuple[float, float, float, float]) -> np.ndarray:
    """pdfium's pixel for a plain ``k`` fill of ``cmyk`` (how the viewer shows that ink)."""
    import pikepdf as pk

    pdf = pk.new()
    page = pdf.add_blank_page(page_size=(10, 10))
    page.obj.Contents = pdf.make_stream(("%.4f %.4f %.4f %.4f k 0 0 10 10 re f" % cmyk).encode())
    buf = io.BytesIO()
    pdf.save(buf)
    return np.asarray(pdfium.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB"))[5, 5].astype(int)


@pytest.mark.parametrize("name", [DTC, EU])
def test_the_gradient_is_painted_in_its_cmyk_stops_at_300_dpi(exported, name):
    """On the first face, sky.svg covers the 22 x 9 mm box at (6 mm, 30 mm) from the trim's top
    left at 0.22 mm per SVG unit, centred: SVG row 60, the #FFD700 stop, lies 6.699 mm below
    the box top. 2.2 mm in from the box's left edge (clear of the circle) that row is painted
    as the stop's CMYK is (a plain fill rendered by pdfium beside it), within 4 of 255, at the
    best of the rows 0.25 mm either side (pdfium paints a shading in steps)."""
    scale = 300 / 72
    doc = pdfium.PdfDocument(exported / name)
    index = 1 if name == DTC else 0  # dtc: back, face, ...; eu: face, back, ...
    image = np.asarray(doc[index].render(scale=scale).to_pil().convert("RGB")).astype(int)
    height = doc[index].get_height()
    bleed = BLEED[name]
    x = bleed + 6 * MM + 10 * 0.22 * MM
    y = height - bleed - 30 * MM - (60 - 29.55) * 0.22 * MM
    row, col = int((height - y) * scale), int(x * scale)
    reference = _render_reference(plain_cmyk("#FFD700"))
    best = min(np.abs(image[r, col] - reference).max() for r in range(row - 3, row + 4))
    assert best <= 4, (image[row, col], reference)


def test_findings_name_the_svg_art_and_check_reports_them_alike(tmp_path):
    """The conversions and the font substitution of SVG art are findings at the SVG file with
    every piece that uses it, the same from pnp check (the dry run) as from the export."""
    game = copy_game(tmp_path / "svgart")
    checked = run(game, tmp_path / "out", write=False)
    built = run(game, tmp_path / "out")
    assert built.written

    def art(report):
        return {(f.severity, f.rule, f.location, f.message, f.pieces or (f.piece,)) for f in report.findings
                if f.rule == "preflight.rgb-art"}

    assert art(checked) == art(built)
    fonts_named = {(f.rule, f.location, f.message) for f in built.findings if f.rule == "preflight.svg-unsupported"}
    assert fonts_named == {(f.rule, f.location, f.message) for f in checked.findings
                           if f.rule == "preflight.svg-unsupported"}
    assert ("preflight.svg-unsupported", "svgart/art/label.svg",
            "art/label.svg: font-family 'Arial' is drawn in DejaVu Sans, a font pnp embeds") in fonts_named
    found = {(loc, message.split(";")[0]) for _, _, loc, message, _ in art(built)}
    assert found == {
        ("svgart/art/sky.svg", "art/sky.svg is drawn in RGB (first #1E90FF)"),
        ("svgart/art/label.svg", "art/label.svg is drawn in RGB (first #F4E4C1)"),
        ("svgart/art/badge.svg", "art/badge.svg is drawn in RGB (first #FFF3B0)"),
        ("svgart/art/badge.svg", "the picture inside art/badge.svg is RGB art"),
    }
    pieces = {loc: p for _, _, loc, _, p in art(built)}
    assert pieces["svgart/art/sky.svg"] == ("cards/fire", "cards/leaf")
    assert pieces["svgart/art/badge.svg"] == ("cards/fire back", "cards/leaf back")


def test_rgb_raster_art_is_one_finding_at_the_art_file_with_every_piece(tiny, tmp_path):
    """A picture on several cards converted for a CMYK target is one preflight.rgb-art
    warning at the picture's file, listing every piece that uses it, from the check of the
    export (-t dtc) and from the export alike."""
    from PIL import Image

    (tiny / "art").mkdir()
    Image.new("RGB", (200, 280), (200, 30, 40)).save(tiny / "art" / "moth.png")
    with open(tiny / "templates" / "layouts.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[layouts.action.boxes.art]\ntype = "image"\nimage = "art/moth.png"\narea = "bleed"\nz = -1\n')
    settings = BuildSettings(SheetOptions(contact_sheets=False), outputs=("export",), targets=("dtc",))
    source = GameSource(tiny, "g", tiny / "templates", "g/templates")
    for write in (False, True):
        report = run_game(BuildJob(source, tmp_path / "out", settings, write=write))
        found = [(f.location, f.file, f.pieces, f.count, f.message) for f in report.findings
                 if f.rule == "preflight.rgb-art"]
        assert found == [("g/art/moth.png", "g/art/moth.png", ("cards/fire", "cards/leaf"), 2,
                          "'art/moth.png' is RGB art; it was converted to CMYK (total ink at most 240 %)")]
    assert (tmp_path / "out" / "tiny" / "export" / "dtc" / "tiny-cards.pdf").is_file()


def test_svg_art_refused_by_a_cmyk_only_profile_names_the_art(tmp_path):
    game = copy_game(tmp_path / "svgart")
    with open(game / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[targets.strict]\nextends = "dtc"\nart = "reject"\n')
    checked = run(game, tmp_path / "out", write=False)
    built = run(game, tmp_path / "out")

    def errors(report):
        return {(f.rule, f.location, f.message) for f in report.findings if f.severity == "error"}

    assert errors(checked) == errors(built) and not built.written
    assert ("export.color", "svgart/art/sky.svg",
            "art/sky.svg is drawn in RGB (#1E90FF); the strict profile takes CMYK only") in errors(built)
    assert not (tmp_path / "out" / "svgart" / "export").exists()


def _cli(args: list[str], capsys) -> tuple[int, str]:
    """``pnp ARGS`` run in this process (so that a monkeypatch holds), exit status and output."""
    import sys

    from pnp.cli import main

    old = sys.argv
    sys.argv = ["pnp", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    return code, capsys.readouterr().out


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_rgb_left_in_a_cmyk_file_stops_the_export_and_check_says_so_alike(tmp_path, monkeypatch, capsys):
    """If any RGB were left in a CMYK file (here: gradients drawn as reportlab draws them,
    unconverted), the walk over the file finds it and the export refuses before writing, with
    --force too: a first export leaves no file, a later one leaves the previous files as they
    were, and pnp check -t dtc reports the same error (rule and location)."""
    import json

    from pnp.render.color import PrintCanvas
    from pnp.render.pdfcanvas import Canvas

    game = copy_game(tmp_path / "svgart")
    out = tmp_path / "out"
    assert _cli(["export", str(game), "-t", "dtc", "-o", str(out)], capsys)[0] == 0
    before = _files(out / "svgart" / "export")
    assert "dtc/svgart-cards.pdf" in before

    monkeypatch.setattr(PrintCanvas, "linearGradient", Canvas.linearGradient)
    code, text = _cli(["check", str(game), "-t", "dtc", "--format", "json", "-o", str(tmp_path / "fresh")], capsys)
    assert code == 1
    checked = [(f["rule"], f["location"], f["message"]) for f in json.loads(text)[0]["findings"]
               if f["severity"] == "error"]
    assert ("export.color", "export/dtc/svgart-cards.pdf") in {(r, loc) for r, loc, _ in checked}
    message = next(m for r, loc, m in checked if loc == "export/dtc/svgart-cards.pdf")
    assert message.startswith("the dtc export takes CMYK only, but would hold RGB colour: svgart-cards.pdf "
                              "page 2 (cards/fire): an RGB shading /Sh")
    assert message.endswith("it writes no file")

    for args in (["-o", str(out)], ["-o", str(out), "--force"], ["-o", str(tmp_path / "first"), "--force"]):
        code, text = _cli(["export", str(game), "-t", "dtc", *args], capsys)
        assert code == 1 and "export.color" in text and "export/dtc/svgart-cards.pdf" in text, text
        assert _files(out / "svgart" / "export") == before  # the previous export, untouched
    assert not (tmp_path / "first" / "svgart" / "export").exists()  # a failed first export: no file

    code, text = _cli(["check", str(game), "-t", "dtc", "-o", str(tmp_path / "fresh")], capsys)
    assert "export/dtc/svgart-cards.pdf" in text and code == 1


def _rgb_sampler(kind: str) -> bytes:
    """A one-page PDF whose only RGB is ``kind``, drawn in a form inside a form (everything
    else CMYK)."""
    pdf = pikepdf.new()
    rgb_image = pikepdf.Stream(pdf, b"\xff\x00\x00", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                               Width=1, Height=1, BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB)
    icc = pikepdf.Stream(pdf, b"", N=3)
    indexed = pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 0, pikepdf.String(b"\xff\x00\x00")])
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 1, 0],
                                 Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0],
                                                             C1=[0, 0, 1], N=1))
    inner_content, inner_res = b"0 0 0 1 k 0 0 1 1 re f", pikepdf.Dictionary()
    if kind == "operator":
        inner_content = b"1 0 0 rg 0 0 1 1 re f"
    elif kind == "image":
        inner_res.XObject = pikepdf.Dictionary(Im0=rgb_image)
        inner_content = b"/Im0 Do"
    elif kind == "icc":
        inner_res.ColorSpace = pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.ICCBased, icc]))
        inner_content = b"/CS0 cs 1 0 0 sc 0 0 1 1 re f"
    elif kind == "indexed":
        inner_res.XObject = pikepdf.Dictionary(Im0=pikepdf.Stream(
            pdf, b"\x00", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1, Height=1,
            BitsPerComponent=8, ColorSpace=indexed))
        inner_content = b"/Im0 Do"
    elif kind == "shading":
        inner_res.Shading = pikepdf.Dictionary(Sh0=shading)
        inner_content = b"/Sh0 sh"
    elif kind == "inline":
        inner_content = b"q 1 0 0 1 0 0 cm BI /W 1 /H 1 /CS /RGB /BPC 8 ID \xff\x00\x00 EI Q"
    elif kind == "group":
        pass
    inner = pikepdf.Stream(pdf, inner_content, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 1, 1], Resources=inner_res)
    if kind == "group":
        inner.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB)
    outer = pikepdf.Stream(pdf, b"/Fm1 Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 1, 1], Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm1=inner)))
    page = pdf.add_blank_page(page_size=(10, 10))
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=outer))
    page.obj.Contents = pdf.make_stream(b"0 0 0 1 K /Fm0 Do")
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["operator", "image", "icc", "indexed", "shading", "inline", "group"])
def test_the_export_walk_finds_rgb_however_deep(kind, tmp_path):
    """The preflight an export runs on every CMYK file, and the test walk, both find each kind
    of RGB inside a form inside a form; neither finds RGB in the same page without it."""
    from pnp.outputs.export.preflight import rgb_uses as export_rgb_uses

    data = _rgb_sampler(kind)
    assert {page for page, _ in export_rgb_uses(data)} == {0}, export_rgb_uses(data)
    (tmp_path / "f.pdf").write_bytes(data)
    assert len(rgb_uses(tmp_path / "f.pdf")) >= 1
    clean = _rgb_sampler("none")
    (tmp_path / "g.pdf").write_bytes(clean)
    assert export_rgb_uses(clean) == [] and rgb_uses(tmp_path / "g.pdf") == []
