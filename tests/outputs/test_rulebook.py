"""Rulebooks: templates over the game model, Markdown laid out as PDF, booklet imposition.

Every check opens the PDF that was written (pdfplumber for words, rects and curves by position,
pikepdf for fonts and viewer preferences), never the numbers the code computed on the way.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from conftest import CARD_DATA, FIXTURES, ROOT
from pnp.core.errors import PnpError
from pnp.core.units import PAPER_SIZES, Size
from pnp.geometry.booklet import booklet_sides, padded_count, placement, reading_order
from pnp.model.games import GameSource
from pnp.model.load import load_game
from pnp.outputs.rulebook import RulebookError, build_rulebook, escape_markdown, markdown_pdf, render_template
from pnp.outputs.rulebook.booklet import impose_booklet
from pnp.render import fonts

MM = 72 / 25.4
TOL = 0.05 * MM
AA_TEMPLATES = ROOT / "templates" / "atomic-assembly"
AA_SOURCE = GameSource(CARD_DATA / "atomic-assembly", "card_data/atomic-assembly", AA_TEMPLATES, "templates/atomic-assembly")
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


# ------------------------------------------------------------------------------------------
# helpers


def numbered_pdf(n: int, page: Size) -> bytes:
    """A document of n pages, each with a frame at its edges and 'P<k>' in its middle."""
    from reportlab.pdfgen import canvas

    from pnp.render import fonts

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(page.width, page.height), invariant=1,
                      initialFontName=fonts.register("sans"))
    for k in range(1, n + 1):
        c.setLineWidth(0.5)
        c.rect(0, 0, page.width, page.height, stroke=1, fill=0)
        c.setFont(fonts.register("sans-bold"), 40)
        c.drawCentredString(page.width / 2, page.height / 2, f"P{k}")
        c.showPage()
    c.save()
    return buf.getvalue()


def halves(page) -> tuple[int | None, int | None]:
    """The source page numbers printed on the left and right half of an imposed sheet side."""
    found = {"left": None, "right": None}
    for word in page.extract_words():
        m = re.fullmatch(r"P(\d+)", word["text"])
        if m:
            side = "left" if (word["x0"] + word["x1"]) / 2 < page.width / 2 else "right"
            assert found[side] is None, f"two pages on the {side} half"
            found[side] = int(m.group(1))
    return found["left"], found["right"]


def tiny_with(tmp_path: Path, template: str, cards_csv: str | None = None) -> tuple[Path, Path]:
    """A copy of the tiny game whose templates folder holds ``template`` as rulebook.md.j2."""
    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    (game / "templates" / "rulebook.md.j2").write_text(template, encoding="utf-8")
    if cards_csv is not None:
        (game / "cards.csv").write_text(cards_csv, encoding="utf-8")
    return game, game / "templates"


def page_texts(path_or_bytes) -> list[str]:
    """The text of every page, line by line (pdfium's text extraction)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path_or_bytes if isinstance(path_or_bytes, bytes) else str(path_or_bytes))
    try:
        return [pdf[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(pdf))]
    finally:
        pdf.close()


def text_in(path, page_index: int, left: float, right: float) -> str:
    """The text on one page between x = left and x = right (pt)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[page_index]
        return page.get_textpage().get_text_bounded(left, 0, right, page.get_height()).replace("\r\n", "\n")
    finally:
        pdf.close()


def font_names(pdf_path) -> set[str]:
    """BaseFont of every font object in the file; asserts each is an embedded TrueType."""
    names = set()
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                desc = obj.get("/FontDescriptor")
                if desc is None:
                    desc = obj.DescendantFonts[0].FontDescriptor
                assert "/FontFile2" in desc, obj.get("/BaseFont")
                names.add(str(obj.BaseFont))
    return names


@pytest.fixture(scope="module")
def aa_build(tmp_path_factory):
    """The Atomic Assembly rulebook built once on Letter, with its booklet."""
    out = tmp_path_factory.mktemp("aa")
    game = load_game(CARD_DATA / "atomic-assembly", "card_data/atomic-assembly")
    result = build_rulebook(game, AA_SOURCE, out, "letter", True)
    return out, result


# ------------------------------------------------------------------------------------------
# booklet imposition


EXPECTED_SIDES = {
    # (pages, back-cover pages) -> (left, right) per printed side: sheet 0 front, sheet 0 back,
    # sheet 1 front, ... (docs/print-specs.md §4); the padding blanks (None) at the end, or just
    # before the back cover when the book has one.
    (7, 0): [(None, 1), (2, 7), (6, 3), (4, 5)],
    (7, 1): [(7, 1), (2, None), (6, 3), (4, 5)],
    (8, 0): [(8, 1), (2, 7), (6, 3), (4, 5)],
    (12, 0): [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)],
    (13, 0): [(None, 1), (2, None), (None, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)],
    (13, 1): [(13, 1), (2, None), (None, 3), (4, None), (12, 5), (6, 11), (10, 7), (8, 9)],
    (13, 2): [(13, 1), (2, 12), (None, 3), (4, None), (None, 5), (6, 11), (10, 7), (8, 9)],
}


@pytest.mark.parametrize("n, back", sorted(EXPECTED_SIDES))
def test_booklet_page_order_on_the_imposed_sheets(n, back):
    a5, sheet = PAPER_SIZES["a5"], PAPER_SIZES["a4"].landscape
    imposed = impose_booklet(numbered_pdf(n, a5), sheet, back=back)
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        assert len(pdf.pages) == len(EXPECTED_SIDES[n, back]) == padded_count(n) // 2
        sides = []
        for page in pdf.pages:
            assert abs(page.width - 841.890) < TOL and abs(page.height - 595.276) < TOL
            sides.append(halves(page))
            # each page's frame touches the fold line (the sheet's vertical centre)
            frames = [r for r in page.rects if abs(r["width"] - a5.width) < TOL]
            for r in frames:
                assert min(abs(r["x1"] - page.width / 2), abs(r["x0"] - page.width / 2)) < TOL
                assert abs(r["top"] - (page.height - a5.height) / 2) < TOL
    assert sides == EXPECTED_SIDES[n, back]
    n4 = padded_count(n)
    positions = reading_order(n, back)
    for left, right in sides:  # every side-by-side pair of positions sums to n4 + 1
        pos_left = positions.index(left) + 1 if left else None
        pos_right = positions.index(right) + 1 if right else None
        if pos_left and pos_right:
            assert pos_left + pos_right == n4 + 1


def test_booklet_sides_as_pure_function():
    assert [(s.left, s.right) for s in booklet_sides(8)] == EXPECTED_SIDES[8, 0]
    assert reading_order(7) == [1, 2, 3, 4, 5, 6, 7, None]
    assert reading_order(7, back=1) == [1, 2, 3, 4, 5, 6, None, 7]
    assert reading_order(1) == reading_order(1, back=1) == [1, None, None, None]
    assert reading_order(3, back=5) == [1, None, 2, 3]  # the first page stays the front cover
    for n in range(1, 30):
        for back in (0, 1, 2):
            order = reading_order(n, back)
            assert len(order) % 4 == 0 and len(order) - n < 4
            assert order[0] == 1 and sorted(p for p in order if p) == list(range(1, n + 1))
            shown = min(back, n - 1)
            blanks = [i for i, p in enumerate(order) if p is None]
            assert blanks == list(range(n - shown, len(order) - shown))  # all together, before the back cover
    with pytest.raises(ValueError):
        padded_count(0)


def test_half_letter_booklet_on_letter_with_short_edge_duplex():
    page, sheet = PAPER_SIZES["half-letter"], PAPER_SIZES["letter"].landscape
    imposed = impose_booklet(numbered_pdf(4, page), sheet)
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        assert [(round(p.width, 2), round(p.height, 2)) for p in pdf.pages] == [(792.0, 612.0)] * 2
        assert [halves(p) for p in pdf.pages] == [(4, 1), (2, 3)]
        left = [r for r in pdf.pages[0].rects if r["x0"] < 10]
        assert left and abs(left[0]["x0"]) < TOL and abs(left[0]["x1"] - 396) < TOL
    with pikepdf.open(io.BytesIO(imposed)) as pdf:
        prefs = pdf.Root.ViewerPreferences
        assert prefs.Duplex == "/DuplexFlipShortEdge" and prefs.PrintScaling == "/None"


def test_a5_pages_on_a4_sheets_sit_where_the_geometry_places_them_with_fonts_embedded():
    page, sheet = PAPER_SIZES["a5"], PAPER_SIZES["a4"].landscape
    imposed = impose_booklet(numbered_pdf(8, page), sheet)
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        assert [halves(p) for p in pdf.pages] == [(8, 1), (2, 7), (6, 3), (4, 5)]
        for half in ("left", "right"):
            scale, x, y = placement(page, sheet, half)
            frames = [r for r in pdf.pages[0].rects if abs(r["x0"] - x) < 1]
            assert frames, half
            frame = frames[0]  # the source page's edge frame, 0.5 pt line centred on the edge
            assert abs(frame["x1"] - frame["x0"] - page.width * scale) < TOL
            assert abs(frame["bottom"] - frame["top"] - page.height * scale) < TOL
            assert abs(sheet.height - frame["bottom"] - y) < TOL
    with pikepdf.open(io.BytesIO(imposed)) as pdf:
        fonts = {str(f.BaseFont) for form in pdf.pages[0].Resources.XObject.values()
                 for f in form.Resources.Font.values()}
        assert fonts and all("+" in f for f in fonts)  # subset and embedded
        for form in pdf.pages[0].Resources.XObject.values():
            assert all("/FontFile2" in f.FontDescriptor for f in form.Resources.Font.values()
                       if "/FontDescriptor" in f)


# ------------------------------------------------------------------------------------------
# Markdown layout


def test_long_table_splits_across_pages_and_repeats_its_header():
    rows = "\n".join(f"| Row{k:03d} | value {k} |" for k in range(1, 101))
    md = f"# Title\n\nIntro.\n\n| Headname | Headvalue |\n|---|---:|\n{rows}\n\nAfter the table.\n"
    result = markdown_pdf(md, PAPER_SIZES["letter"], title="Split test")
    with pdfplumber.open(io.BytesIO(result.pdf)) as pdf:
        assert len(pdf.pages) >= 3
        seen = []
        for page in pdf.pages:
            words = page.extract_words()
            heads = [w for w in words if w["text"] == "Headname"]
            labels = [w for w in words if re.fullmatch(r"Row\d{3}", w["text"])]
            if labels:
                assert len(heads) == 1, f"page {page.page_number}: header row missing"
                assert heads[0]["top"] < min(w["top"] for w in labels)
                assert [w for w in words if w["text"] == "Headvalue"]
            seen += [w["text"] for w in sorted(labels, key=lambda w: w["top"])]
            if page.page_number > 1:
                assert str(page.page_number) in page.extract_text().splitlines()[-1]  # footer
    assert seen == [f"Row{k:03d}" for k in range(1, 101)]  # every row once, in order
    assert result.pages == len(page_texts(result.pdf))


def test_contents_pages_are_drawn_once_and_list_each_heading_at_its_page(monkeypatch):
    from reportlab.platypus import Paragraph

    drawn: list[str] = []
    real = Paragraph.drawOn

    def counting(self, *args, **kwargs):
        drawn.append(self.getPlainText())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Paragraph, "drawOn", counting)
    body = "\n\n".join(f"Sentence {k} of the section, long enough to wrap over a line or two of the page."
                       for k in range(40))
    md = f"# Title\n\n[TOC]\n\n## First part\n\n{body}\n\n## Second part\n\n{body}\n\nThe last line.\n"
    result = markdown_pdf(md, PAPER_SIZES["letter"], title="Passes")
    assert drawn.count("The last line.") == 1  # the layout pass before the saved one draws nothing
    texts = page_texts(result.pdf)
    second = next(i for i, t in enumerate(texts) if "Second part" in t and i > 0) + 1
    contents = texts[0].splitlines()
    assert any(line.startswith("Second part") and line.rstrip().endswith(str(second)) for line in contents)
    assert "The last line." in texts[-1]


def test_contents_without_headings_still_draw_the_pages():
    # the first pass settles at once (nothing to list): the pass that draws still follows it
    result = markdown_pdf("# Title\n\n[TOC]\n\nOnly a paragraph.\n", PAPER_SIZES["letter"], title="No headings")
    assert "Only a paragraph." in page_texts(result.pdf)[0]


def _book_with_contents() -> str:
    body = "\n\n".join(f"Sentence {k} of the section, long enough to wrap over a line or two of the page."
                       for k in range(40))
    table = "| Name | Value |\n|---|---:|\n" + "\n".join(f"| Row {k} with words | {k} |" for k in range(30))
    return f"# Title\n\n[TOC]\n\n## First part\n\n{body}\n\n{table}\n\n### Inner\n\n{body}\n\n" \
           f"## Second part\n\n{body}\n\nThe last line.\n"


def test_a_paragraph_breaks_its_lines_once_and_the_pages_are_as_without_that(monkeypatch):
    from reportlab.platypus import Paragraph

    from pnp.outputs.rulebook import inline, story
    from pnp.outputs.rulebook.pagination import paragraph_class

    breaks: dict[int, int] = {}
    draws: dict[int, int] = {}
    kept: list = []  # alive to the end, so that no two paragraphs share an id
    real_break, real_draw = Paragraph.breakLines, Paragraph.drawOn

    def count(into, para) -> None:
        if type(para) in (paragraph_class(), Paragraph):  # (the contents' own lines aside)
            kept.append(para)
            into[id(para)] = into.get(id(para), 0) + 1

    monkeypatch.setattr(Paragraph, "breakLines", lambda self, *a, **k: count(breaks, self) or real_break(self, *a, **k))
    monkeypatch.setattr(Paragraph, "drawOn", lambda self, *a, **k: count(draws, self) or real_draw(self, *a, **k))
    md = _book_with_contents()
    once = markdown_pdf(md, PAPER_SIZES["letter"], title="Passes")
    ours = [k for k in breaks if any(id(p) == k and type(p) is paragraph_class() for p in kept)]
    assert len(ours) > 100
    # two passes, keep-with-next, table cells: broken once; a table's header, drawn again on each
    # page the table reaches, once a page
    assert all(breaks[k] <= max(1, draws.get(k, 0)) for k in ours)
    assert any(draws.get(k, 0) > 1 for k in ours)
    counted = sum(breaks[k] for k in ours)
    breaks.clear()
    for module in (story, inline):
        monkeypatch.setattr(module, "paragraph_class", lambda: Paragraph)
    plain = markdown_pdf(md, PAPER_SIZES["letter"], title="Passes")
    assert sum(breaks.values()) > 2 * counted  # platypus's own Paragraph breaks each several times
    assert once.pdf == plain.pdf and once.pages == plain.pages


def test_a_long_word_in_markup_is_drawn_as_one_line_breaking_run_draws_it():
    # platypus's own Paragraph adds a space before such a word each time it is asked again
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    from pnp.outputs.rulebook.pagination import paragraph_class
    from pnp.outputs.rulebook.styles import register_fonts

    register_fonts()  # bold and italic faces for the markup, as a rulebook has them
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2
    mono = fonts.register("mono")
    text = (f"card every more <b>isotopes</b> heavy super\xadcalifragil\xadistic\xadexpiali\xaddocious shared "
            f'{word} draws <i>tokens</i> points <font face="{mono}">code-score</font> atom trade more trade every '
            "while two players more from.")
    style = ParagraphStyle("cell", fontName=fonts.register("sans"), fontSize=9.2, leading=12, alignment=2)

    def content(cls, asked: int) -> bytes:
        para = cls(text, style)
        for _ in range(asked):
            para.wrap(341.47422283921605, 500)  # (where the long word is split)
        buf = io.BytesIO()
        canvas = Canvas(buf, pageCompression=0, invariant=1)
        para.drawOn(canvas, 10, 10)
        canvas.showPage()
        canvas.save()
        return buf.getvalue()

    once = content(Paragraph, 1)
    assert content(Paragraph, 5) != once  # (what this class avoids)
    assert content(paragraph_class(), 1) == content(paragraph_class(), 5) == once
    assert re.search(rb"Td \(Pneu", once)


def test_a_drawn_paragraph_breaks_its_lines_again_when_asked_again(monkeypatch):
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas

    from pnp.outputs.rulebook.pagination import paragraph_class

    para = paragraph_class()("Words enough to make a paragraph of more than one line " * 4, ParagraphStyle("s"))
    calls = []
    real = type(para).__mro__[1].breakLines
    monkeypatch.setattr(type(para).__mro__[1], "breakLines", lambda self, w: calls.append(w) or real(self, w))
    first = para.wrap(200, 500)
    assert para.wrap(200, 400) == first and len(calls) == 1
    assert para.wrap(150, 500)[1] > first[1] and len(calls) == 2  # another width: broken for it
    para.wrap(200, 500)
    para.drawOn(Canvas(io.BytesIO()), 0, 0)
    assert para.wrap(200, 500) == first and len(calls) == 4


def test_misspelt_template_name_names_file_line_and_suggestion(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "# {{ game.title }}\n\nSome text.\n{{ tabels.cards }}\n")
    game = load_game(game_dir, "tiny")
    with pytest.raises(RulebookError) as info:
        render_template(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"))
    assert isinstance(info.value, PnpError)
    assert info.value.render() == ("tiny/templates/rulebook.md.j2:4: unknown name 'tabels'\n"
                                   "  hint: did you mean 'tables'?")


def test_misspelt_column_inside_a_loop(tmp_path):
    template = "# T\n\n| a | b |\n|---|---|\n{% for r in tables.cards %}\n| {{ r.titel }} | {{ r.cost }} |\n{% endfor %}\n"
    game_dir, tdir = tiny_with(tmp_path, template)
    with pytest.raises(RulebookError) as info:
        render_template(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates"))
    assert info.value.render() == ("tiny/templates/rulebook.md.j2:6: a row of tiny/cards.csv has no "
                                   "column 'titel'\n  hint: did you mean 'title'?")


def test_template_names_functions_and_filters(tmp_path):
    template = (
        "{{ game.players }}|{{ game.pieces|words }}|{{ count('cards') }}|{{ count('cards', colour='red') }}\n"
        "{{ components.tokens.pieces }} {{ components.tokens.pieces|plural('coin') }}|"
        "{{ components.cards.card_size }}|{{ totals[1].label }}={{ totals[1].in_data }}\n"
        "{% for k, v in tables.cards[1]|items %}{{ k }}:{{ v }};{% endfor %}.\n"
        "{% for t in '2 H + (Cr | Mn)'|cost_terms %}{{ t.count }}x{{ t.options|join('/') }} {% endfor %}.\n"
        "{{ tables.cards[0].text }}|{{ tables.cards[0].title|code }}|{{ '*keep*'|md }}|{{ '*esc*' }}\n"
        "{% macro row(r) %}| {{ r.title }} |{% endmacro %}{{ row(tables.cards[0]) }}\n"
    )
    game_dir, tdir = tiny_with(tmp_path, template)
    lines = render_template(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates")).markdown.split("\n")
    assert lines[0] == "2\\-4|fifteen|5|3"
    assert lines[1] == "10 coins|63\\.5 x 88\\.9 mm|red action cards=3"
    assert lines[2] == "id:leaf;title:Leaf;cost:1;colour:green;text:;copies:2;."
    assert lines[3] == "2xH 1xCr\\/Mn ."  # a string printed with {{ }} is text, escaped
    assert lines[4] == "Draw 2\\.\u2028Discard \\<1\\>\\.|`Fire & Ice`|*keep*|\\*esc\\*"
    assert lines[5] == "| Fire \\& Ice |"


def test_error_in_an_included_file_names_that_file(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "# T\n\n{% include 'parts/setup.md' %}\n")
    (tdir / "parts").mkdir()
    (tdir / "parts" / "setup.md").write_text("Setup.\n\n{{ rules.hand_limt }}\n")
    with pytest.raises(RulebookError) as info:
        render_template(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates"))
    assert str(info.value.location) == "tiny/templates/parts/setup.md:3"
    assert info.value.message == "game.toml [rules] has no key 'hand_limt'"


def test_bad_card_call_and_unsafe_access_are_located(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "x\n\n{{ card('cards', 'fier') }}\n{{ ''.__class__ }}\n")
    game = load_game(game_dir, "tiny")
    with pytest.raises(RulebookError, match=r"rulebook\.md\.j2:3: card\('cards', 'fier'\).*\n  hint: did you mean 'fire'\?"):
        render_template(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"))
    (tdir / "rulebook.md.j2").write_text("x\n{{ ''.__class__ }}\n")
    with pytest.raises(RulebookError, match=r"rulebook\.md\.j2:2: not allowed"):
        render_template(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"))


def test_cli_reports_the_template_error_without_traceback(tmp_path):
    game_dir, _ = tiny_with(tmp_path, "x\n{{ game.titel }}\n")
    result = subprocess.run([sys.executable, "-m", "pnp", "rulebook", str(game_dir), "-o",
                             str(tmp_path / "out")], capture_output=True, text=True,
                            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    assert "rulebook.md.j2" in result.stdout and "rulebook.template" in result.stdout
    assert "\n    2  error  rulebook.template\n      game has no attribute 'titel'" in result.stdout
    assert "did you mean 'title'?" in result.stdout and "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "out" / "tiny").exists() or not any((tmp_path / "out" / "tiny").glob("*.pdf"))
    check = subprocess.run([sys.executable, "-m", "pnp", "check", str(game_dir)], capture_output=True, text=True)
    assert check.returncode == 1 and "game has no attribute 'titel'" in check.stdout
    forced = subprocess.run([sys.executable, "-m", "pnp", "rulebook", str(game_dir), "-o", str(tmp_path / "out"),
                             "--force"], capture_output=True, text=True)
    assert forced.returncode == 1 and "not made: rulebook letter" in forced.stdout  # forced, but nothing to write


def test_csv_text_is_never_markup_and_cards_are_drawn(tmp_path):
    cards = ("id,title,cost,colour,text,copies\n"
             'fire,Fire & Ice,2,red,"**not bold** | <b>x</b> # _y_",3\n'
             "leaf,Leaf,1,green,,2\n")
    template = ("# {{ game.title }}\n\n| Card | Text |\n|---|---|\n{% for r in tables.cards %}\n"
                "| {{ r.title }} | {{ r.text }} |\n{% endfor %}\n\n{{ card('cards', 'fire', '30mm') }}\n")
    game_dir, tdir = tiny_with(tmp_path, template, cards)
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "a4", False)
    text = "\n".join(page_texts(result.files[0]))
    assert "**not bold** | <b>x</b> # _y_" in text
    assert "Fire & Ice" in text
    with pdfplumber.open(result.files[0]) as pdf:
        page = pdf.pages[0]
        assert abs(page.width - 595.276) < TOL
        outlines = [c for c in page.curves + page.rects
                    if abs(c["width"] - 30 * MM) < TOL and abs(c["height"] - 30 * 88.9 / 63.5 * MM) < TOL]
        assert outlines, "the card is drawn 30 mm wide at the poker card's proportions"
    assert escape_markdown("a|b\nc") == "a\\|b\u2028c"


def test_missing_glyph_is_reported():
    result = markdown_pdf("Text with 漢 in it.\n", PAPER_SIZES["a4"], title="t")
    assert [f.rule for f in result.findings] == ["preflight.missing-glyph"]
    assert "U+6F22" in result.findings[0].message


def test_image_width_and_missing_image(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![pic](pic.png \"50%\")\n")
    Image.new("RGB", (1200, 600), (200, 30, 30)).save(tdir / "pic.png", dpi=(300, 300))
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter", False)
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
        frame = 612 - 2 * 18 * MM
        assert abs((im["x1"] - im["x0"]) - frame / 2) < TOL
        assert abs((im["x0"] + im["x1"]) / 2 - 306) < TOL  # centred
    (game_dir / "art").mkdir()
    Image.new("RGB", (600, 300), (20, 90, 40)).save(game_dir / "art" / "map.png", dpi=(300, 300))
    (tdir / "rulebook.md.j2").write_text("# T\n\n![map](art/map.png)\n")  # the cards' art, in the game folder
    built = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter", False)
    with pdfplumber.open(built.files[0]) as pdf:
        assert len(pdf.pages[0].images) == 1
    (tdir / "rulebook.md.j2").write_text("# T\n\n![pic](nope.png)\n")
    with pytest.raises(RulebookError, match="'nope.png' does not exist \\(looked in tiny/templates/ or tiny/\\)"):
        build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter", False)


def test_a_low_resolution_picture_is_reported_once_however_many_layout_passes(tmp_path):
    from PIL import Image

    # [TOC] makes the document lay out more than once until the contents settle
    sections = "".join(f"## Part {i}\n\nText.\n\n" for i in range(12))
    game_dir, tdir = tiny_with(tmp_path, f"# T\n\n[TOC]\n\n![pic](pic.png \"100%\")\n\n{sections}")
    Image.new("RGB", (300, 150), (200, 30, 30)).save(tdir / "pic.png")
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter", False)
    low = [f for f in result.findings if f.rule == "preflight.low-resolution"]
    assert len(low) == 1 and "pic.png prints at" in low[0].message
    with pdfplumber.open(result.files[0]) as pdf:
        assert "Part 11" in pdf.pages[0].extract_text()  # the contents list every heading


def test_icons_in_rulebook_text_are_drawn_and_an_unknown_one_is_an_error(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "# T\n\nPay :fire: to play; :fier: is a typo; at 10:30:15 a:b:c.\n\n"
                                         "| cost | note |\n|---|---|\n| :fire: | x |\n")
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "letter", False)
    unknown = [f for f in result.findings if f.rule == "layout.icon-unknown"]
    assert [(f.severity, f.location, f.message) for f in unknown] == [
        ("error", "tiny/templates/rulebook.md.j2:3", "no icon 'fier'")]
    assert "did you mean 'fire'?" in unknown[0].hint
    with pdfplumber.open(result.files[0]) as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        assert ":fire:" not in text and ":fier:" in text and "10:30:15" in text
        icons = page.images
        assert len(icons) == 2  # the icon in the sentence and in the table
        base = 10.0  # the body size of single pages, pt (styles.SINGLE_STYLE); table cells are 0.92 of it
        heights = sorted(im["bottom"] - im["top"] for im in icons)
        assert heights == pytest.approx([base * 0.92 * 1.05, base * 1.05], abs=0.05)  # a line of their text high


def test_game_without_template_builds_nothing(tmp_path):
    game = load_game(FIXTURES / "tiny", "tiny")
    result = build_rulebook(game, GameSource(FIXTURES / "tiny", "tiny", FIXTURES / "tiny" / "templates", "tiny/templates"),
                            tmp_path, "a4", True)
    assert result.files == [] and [f.rule for f in result.findings] == ["rulebook.none"]
    assert not any(tmp_path.iterdir())


# ------------------------------------------------------------------------------------------
# Atomic Assembly


def test_atomic_assembly_rulebook_pages_contents_and_booklet(aa_build):
    out, result = aa_build
    single = out / "atomic-assembly-rulebook.pdf"
    booklet = out / "atomic-assembly-rulebook-booklet.pdf"
    assert result.files == [single, booklet]
    texts = page_texts(single)
    with pdfplumber.open(single) as pdf:
        assert all(abs(p.width - 612) < TOL and abs(p.height - 792) < TOL for p in pdf.pages)
    # the table of contents on page 1 names the page each section starts on
    entries = re.findall(r"^([A-Z][A-Za-z ]+?) ?(?:\. ?){3,}(\d+)$", texts[0], re.M)
    assert len(entries) >= 10
    for title, number in entries:
        assert title in texts[int(number) - 1], f"{title!r} is not on page {number}"
    # the quick reference is the last page, the back cover of the booklet
    assert "Quick reference" in texts[-1].splitlines()[:2]  # after the footer line
    with pikepdf.open(booklet) as pdf:
        boxes = {tuple(round(float(v), 2) for v in p.MediaBox) for p in pdf.pages}
        assert boxes == {(0, 0, 792, 612)} and len(pdf.pages) % 2 == 0
    left, right = text_in(booklet, 0, 0, 396), text_in(booklet, 0, 396, 792)
    assert "Quick reference" in left.splitlines()[:2] and right.splitlines()[0] == "Atomic Assembly"


def test_atomic_assembly_fonts_embedded_and_no_standard_fonts(aa_build):
    out, _ = aa_build
    for name in ("atomic-assembly-rulebook.pdf", "atomic-assembly-rulebook-booklet.pdf"):
        names = font_names(out / name)
        assert names and all("+" in n and "DejaVu" in n for n in names)
        assert not any(n.split("+")[-1].startswith(STANDARD_14) for n in names)


def test_atomic_assembly_same_input_same_bytes(aa_build, tmp_path):
    out, _ = aa_build
    game = load_game(CARD_DATA / "atomic-assembly", "card_data/atomic-assembly")
    build_rulebook(game, AA_SOURCE, tmp_path, "letter", True)
    for name in ("atomic-assembly-rulebook.pdf", "atomic-assembly-rulebook-booklet.pdf"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes()


def test_same_bytes_in_another_process(tmp_path):
    template = "# {{ game.title }}\n\n{{ toc() }}\n\n## A\n\n{% for r in tables.cards %}\n- {{ r.title }}\n{% endfor %}\n\n{{ card('cards', 'leaf') }}\n"
    game_dir, tdir = tiny_with(tmp_path, template)
    mine = build_rulebook(load_game(game_dir, str(game_dir)), GameSource(game_dir, str(game_dir), tdir, f"{game_dir}/templates"),
                          tmp_path / "a" / "tiny", "letter", True)
    env = dict(os.environ, PYTHONHASHSEED="321")
    subprocess.run([sys.executable, "-m", "pnp", "rulebook", str(game_dir), "--booklet", "-o",
                    str(tmp_path / "b")], check=True, env=env, capture_output=True)
    for path in mine.files:
        assert (tmp_path / "b" / "tiny" / path.name).read_bytes() == path.read_bytes()


def test_changed_cost_in_the_csv_changes_the_rulebook(aa_build, tmp_path):
    out, _ = aa_build
    before = "\n".join(page_texts(out / "atomic-assembly-rulebook.pdf"))
    assert re.search(r"^Aqueduct 2 H \+ O 3 H₂O$", before, re.M)
    game_dir = tmp_path / "atomic-assembly"
    shutil.copytree(CARD_DATA / "atomic-assembly", game_dir)
    csv_path = game_dir / "blueprints.csv"
    text = csv_path.read_text(encoding="utf-8")
    assert "aqueduct,,Aqueduct,required,,h2o,10,2 H + O,3," in text
    csv_path.write_text(text.replace("aqueduct,,Aqueduct,required,,h2o,10,2 H + O,3,",
                                     "aqueduct,,Aqueduct,required,,h2o,10,3 H + O,4,"), encoding="utf-8")
    game = load_game(game_dir, "atomic-assembly")
    result = build_rulebook(game, AA_SOURCE, tmp_path / "out", "letter", False)
    after = "\n".join(page_texts(result.files[0]))
    assert re.search(r"^Aqueduct 3 H \+ O 4 H₂O$", after, re.M)
    assert not re.search(r"^Aqueduct 2 H \+ O", after, re.M)


# -- pictures are read as card art is read -------------------------------------------------------


def _build(game_dir, tdir, out, **kwargs):
    game = load_game(game_dir, "tiny")
    return build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), out, "letter", False, **kwargs)


def test_a_rotated_photo_is_placed_upright(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![photo](photo.jpg \"60mm\")\n")
    image = Image.new("RGB", (600, 300), (30, 90, 200))
    exif = image.getexif()
    exif[0x0112] = 6  # the camera was turned: show the picture rotated 90° clockwise
    image.save(tdir / "photo.jpg", exif=exif, dpi=(300, 300))
    result = _build(game_dir, tdir, tmp_path / "out")
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
        width, height = im["x1"] - im["x0"], im["bottom"] - im["top"]
        assert abs(width - 60 * MM) < TOL and abs(height - 120 * MM) < TOL  # portrait, as the photo is seen


def test_a_16_bit_png_is_placed(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![grey](grey.png \"30mm\")\n")
    Image.new("I;16", (300, 300), 40000).save(tdir / "grey.png")
    result = _build(game_dir, tdir, tmp_path / "out")
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
        assert abs((im["x1"] - im["x0"]) - 30 * MM) < TOL
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(result.files[0]))[0]
    bitmap = page.render(scale=1).to_pil().convert("L")
    centre = bitmap.getpixel((int((im["x0"] + im["x1"]) / 2), int((im["top"] + im["bottom"]) / 2)))
    assert 145 <= centre <= 165  # 40000 / 65535 of white, not black or noise


def _page_pixels(pdf_path, index: int = 0, dpi: int = 300):
    """Page ``index`` rendered at ``dpi`` by pdfium, as an RGB Pillow image."""
    import pypdfium2 as pdfium

    return pdfium.PdfDocument(str(pdf_path))[index].render(scale=dpi / 72).to_pil().convert("RGB")


def _images(pdf_path) -> list:
    """Every image XObject of the file that is not a soft mask, with pikepdf (in forms too)."""
    with pikepdf.open(pdf_path) as pdf:
        streams = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        masks = {o.SMask.objgen for o in streams if "/SMask" in o}
        return [{"w": int(o.Width), "h": int(o.Height), "bits": int(o.BitsPerComponent),
                 "space": str(o.ColorSpace), "smask": "/SMask" in o} for o in streams if o.objgen not in masks]


def test_a_rotated_photo_is_drawn_upright_and_embedded_upright(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![photo](photo.jpg \"20mm\")\n")
    stored = Image.new("RGB", (1600, 800), (200, 30, 30))  # as the camera stored it: red left, blue right
    stored.paste((30, 60, 200), (800, 0, 1600, 800))
    exif = stored.getexif()
    exif[0x0112] = 6  # the camera was turned: shown rotated 90° clockwise, the red half on top
    stored.save(tdir / "photo.jpg", exif=exif, quality=95)
    result = _build(game_dir, tdir, tmp_path / "out")
    # 800 x 1600 upright, 20 mm wide: 2032 dpi, embedded at 300 dpi (237 x 473 px), portrait
    assert _images(result.files[0]) == [{"w": 237, "h": 473, "bits": 8, "space": "/DeviceRGB", "smask": False}]
    assert not [f for f in result.findings if f.rule == "preflight.low-resolution"]
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
    assert abs((im["x1"] - im["x0"]) - 20 * MM) < TOL and abs((im["bottom"] - im["top"]) - 40 * MM) < TOL
    pixels = _page_pixels(result.files[0])
    s = 300 / 72
    x = int((im["x0"] + im["x1"]) / 2 * s)
    top, bottom = pixels.getpixel((x, int((im["top"] + 10 * MM) * s))), pixels.getpixel((x, int((im["bottom"] - 10 * MM) * s)))
    assert top[0] > 150 and top[2] < 90  # red on top
    assert bottom[2] > 150 and bottom[0] < 90  # blue below


def test_a_16_bit_png_is_embedded_as_8_bit_grey_with_its_levels(tmp_path):
    import numpy as np
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![ramp](ramp.png \"40mm\")\n")
    ramp = np.tile(np.linspace(0, 65535, 400).astype(np.uint16), (100, 1))  # black to white, left to right
    Image.fromarray(ramp).save(tdir / "ramp.png")
    with Image.open(tdir / "ramp.png") as check:
        assert check.mode.startswith("I;16")  # it really is a 16-bit file
    result = _build(game_dir, tdir, tmp_path / "out")
    assert _images(result.files[0]) == [{"w": 400, "h": 100, "bits": 8, "space": "/DeviceGray", "smask": False}]
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
    pixels = _page_pixels(result.files[0]).convert("L")
    s = 300 / 72
    y = int((im["top"] + im["bottom"]) / 2 * s)
    levels = [pixels.getpixel((int((im["x0"] + f * (im["x1"] - im["x0"])) * s), y)) for f in (0.05, 0.5, 0.95)]
    assert levels[0] < 30 and 110 < levels[1] < 145 and levels[2] > 225, levels  # the ramp, not noise or black


def test_a_palette_png_keeps_its_transparency(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![badge](badge.png \"30mm\")\n")
    badge = Image.new("P", (300, 300), 0)
    badge.putpalette([0, 0, 0, 20, 140, 60] + [0] * 762)
    badge.paste(1, (100, 100, 200, 200))  # a green square in the middle; the rest colour 0, transparent
    badge.save(tdir / "badge.png", transparency=0)
    result = _build(game_dir, tdir, tmp_path / "out")
    (image,) = _images(result.files[0])
    assert image["smask"] and (image["w"], image["h"]) == (300, 300)
    with pdfplumber.open(result.files[0]) as pdf:
        (im,) = pdf.pages[0].images
    pixels = _page_pixels(result.files[0])
    s = 300 / 72
    middle = pixels.getpixel((int((im["x0"] + im["x1"]) / 2 * s), int((im["top"] + im["bottom"]) / 2 * s)))
    corner = pixels.getpixel((int((im["x0"] + 3 * MM) * s), int((im["top"] + 3 * MM) * s)))
    assert middle[1] > 110 and middle[0] < 60  # green
    assert corner == (255, 255, 255)  # transparent: the page shows, not black


def test_rulebook_art_over_the_pixel_limit_is_refused_at_the_template(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![map](map.png)\n")
    Image.new("RGB", (500, 400), (0, 0, 0)).save(tdir / "map.png")
    assert _build(game_dir, tdir, tmp_path / "ok").files
    with pytest.raises(RulebookError) as caught:
        _build(game_dir, tdir, tmp_path / "out", max_image_pixels=100_000)
    assert caught.value.location.file == "tiny/templates/rulebook.md.j2"
    assert "'map.png' is 500 x 400 = 200,000 pixels, more than the limit of 100,000" in caught.value.message
    assert not (tmp_path / "out").exists()


def test_rulebook_svg_is_checked_like_card_art(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "# T\n\n![logo](logo.svg \"20mm\")\n")
    (tdir / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"/>'
        '<rect width="100" height="100" fill="#336699" filter="url(#f)"/></svg>', encoding="utf-8")
    result = _build(game_dir, tdir, tmp_path / "out")
    unsupported = [f for f in result.findings if f.rule == "preflight.svg-unsupported"]
    assert unsupported and all(f.location == "tiny/templates/rulebook.md.j2:3" for f in unsupported)  # the line
    assert any("filter" in f.message for f in unsupported)
    (tdir / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
        '<image xlink:href="../../../../etc/hostname" width="10" height="10"/></svg>', encoding="utf-8")
    with pytest.raises(RulebookError, match="outside the game folder"):
        _build(game_dir, tdir, tmp_path / "out2")


@pytest.mark.parametrize("expression, words", [
    ("range(100000) | list | length", "the number 100000 is larger than templates allow"),
    ("'ab' * 20000", "a string or list of 40000 items is longer than templates allow"),
    ("2 ** 100", "the result"),
])
def test_rulebook_templates_have_the_layout_sandbox_limits(tmp_path, expression, words):
    game_dir, tdir = tiny_with(tmp_path, "# T\n\n{{ " + expression + " }}\n")
    with pytest.raises(RulebookError) as caught:
        _build(game_dir, tdir, tmp_path / "out")
    assert words in caught.value.message and caught.value.location.line == 3


def test_the_template_sees_the_page_it_is_laid_out_on(tmp_path):
    game_dir, tdir = tiny_with(tmp_path, "# T\n\nLaid out on {{ page.paper }}, "
                                         "{{ 'booklet' if page.booklet else 'single' }} pages "
                                         "{{ page.width_mm }} mm wide.\n")
    result = build_rulebook(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates"),
                            tmp_path / "out", "a4", True)
    single, booklet = result.files
    assert "Laid out on a4, single pages 210.0 mm wide." in page_texts(single)[0]
    assert "Laid out on a5, booklet pages 148.0 mm wide." in text_in(booklet, 0, 421, 842)  # page 1, right half


# -- booklet padding and keeping headings with their text --------------------------------------


def booklet_reading_pages(path) -> list[list[str]]:
    """The text lines (top to bottom) of every page of an imposed booklet in reading order: the
    halves of its sides put back in page order by docs/print-specs.md §4 (sheet i front = pages
    n4 - 2i, 2i + 1; back = 2i + 2, n4 - 2i - 1), measured from where each character is."""
    with pdfplumber.open(path) as pdf:
        n4 = 2 * len(pdf.pages)
        pages: dict[int, list[str]] = {}
        for s, side in enumerate(pdf.pages):
            i, face = divmod(s, 2)
            numbers = (n4 - 2 * i, 2 * i + 1) if face == 0 else (2 * i + 2, n4 - 2 * i - 1)
            for half, number in enumerate(numbers):
                lines: dict[int, list] = {}
                for c in side.chars:
                    if ((c["x0"] + c["x1"]) / 2 >= side.width / 2) == bool(half):
                        lines.setdefault(round(c["top"]), []).append(c)
                pages[number] = ["".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"])).strip()
                                 for _, chars in sorted(lines.items())]
    return [pages[k] for k in range(1, n4 + 1)]


def body_lines(lines: list[str], title: str) -> list[str]:
    """A page's lines without its footer (the game's title and the page number, at the bottom)."""
    return lines[:-1] if lines and title in lines[-1] and re.search(r"\d", lines[-1]) else lines


def booklet_template(sections: int, back_cover: bool) -> str:
    """A rulebook of ``sections`` sections whose headings introduce lists, tables and paragraphs
    of lengths that vary from section to section, so some heading falls near a page's foot."""
    out = ["# {{ game.title }}\n", "#### Contents\n", "{{ toc() }}\n", "---\n"]
    sentence = "Every player draws a card and the turn passes on to the left. "
    for k in range(1, sections + 1):
        out.append(f"## Section {k}\n")
        out.append("".join(f"- Step {k}.{i}: take a token and keep it.\n" for i in range(1, 2 + k % 4)))
        out.append(sentence * (2 + (k * 5) % 7) + "\n")
        out.append(f"### Part {k}.1\n")
        out.append("| Piece | Count |\n|---|---:|\n" + "".join(f"| Piece {k}.{r} | {r} |\n" for r in range(1, 3 + k % 3)))
        out.append(f"#### Note {k}\n")
        out.append(sentence * (1 + (k * 3) % 4) + "\n")
    if back_cover:
        out.append("{{ back_cover() }}\n")
        out.append("## Quick reference\n")
        out.append(sentence * 4 + "\n")
    return "\n".join(out)


HEADING_RE = re.compile(r"^(Contents|Section \d+|Part \d+\.1|Note \d+|Quick reference)$")


@pytest.mark.parametrize("back_cover", [False, True])
def test_booklet_blanks_go_last_and_no_heading_ends_a_page(tmp_path, back_cover):
    game_dir, tdir = tiny_with(tmp_path, booklet_template(13, back_cover))
    game = load_game(game_dir, "tiny")
    result = build_rulebook(game, GameSource(game_dir, "tiny", tdir, "tiny/templates"), tmp_path / "out", "a4", True)
    pages = booklet_reading_pages(result.files[1])
    filled = [k for k, lines in enumerate(pages, 1) if lines]
    n = len(filled)
    assert n % 4 != 0, "the test needs a page count that is padded"
    if back_cover:
        # every page of text first, then the blanks, then the back cover on the outside
        assert filled == list(range(1, n)) + [len(pages)]
        assert body_lines(pages[-1], "Tiny Test Game")[0] == "Quick reference"
    else:
        assert filled == list(range(1, n + 1))  # the blanks are the last pages
        assert "Note 13" in pages[n - 1]  # the last section ends on the last page of text
    for k in filled:
        lines = body_lines(pages[k - 1], "Tiny Test Game")
        assert lines and not HEADING_RE.match(lines[-1]), f"page {k} ends with the heading {lines[-1]!r}"
        # a heading is followed on its page by at least two lines of what it introduces
        for i, line in enumerate(lines):
            if HEADING_RE.match(line):
                assert len(lines) - i - 1 >= 2, f"page {k}: {line!r} has {len(lines) - i - 1} line(s) under it"


# -- table rows taller than a page --------------------------------------------------------------


def test_a_table_cell_or_quote_taller_than_a_page_splits_across_pages(tmp_path):
    words = [f"w{i:04d}" for i in range(1400)]
    cards = ("id,title,cost,colour,text,copies\n"
             "fire,Fire,2,red,short,3\n"
             f"leaf,Leaf,1,green,{' '.join(words)},2\n")
    template = ("# T\n\n## Cards\n\nThe cards:\n\n| Card | Rules | Cost |\n|---|---|---:|\n"
                "{% for r in tables.cards %}\n| {{ r.title }} | {{ r.text }} | {{ r.cost }} |\n{% endfor %}\n\n"
                "After the table.\n\n> Quoted: {{ tables.cards[1].text }}\n\nThe end.\n")
    game_dir, tdir = tiny_with(tmp_path, template, cards)
    result = build_rulebook(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates"),
                            tmp_path / "out", "a5", False)
    assert not [f for f in result.findings if f.severity == "error"]
    texts = page_texts(result.files[0])
    assert len(texts) >= 5
    found = re.findall(r"w\d{4}", "\n".join(texts))
    assert found == words + words  # every word once in the cell and once in the quote, in order
    end = next(i for i, t in enumerate(texts) if "After the table." in t)
    assert end >= 2
    for text in texts[:end + 1]:  # the header row heads each page the row runs onto, once
        assert text.count("Rules") == 1
    whole = "\n".join(texts)
    assert whole.index("Fire") < whole.index("w0000") < whole.index("After the table.") < whole.index("The end.")


def test_an_unsplittable_table_row_is_a_located_finding_in_check_and_rulebook(tmp_path):
    from PIL import Image

    template = ("# {{ game.title }}\n\n## Setting up\n\nSome text.\n\n| Card | Picture |\n|---|---|\n"
                "{% for r in tables.cards %}\n"
                "| {{ r.title }} | {% if loop.index == 2 %}![tall](tall.png \"30mm\"){% endif %} |\n"
                "{% endfor %}\n")
    game_dir, tdir = tiny_with(tmp_path, template)
    Image.new("RGB", (300, 6000), (30, 90, 200)).save(tdir / "tall.png", dpi=(300, 300))  # 30 x 600 mm
    env = dict(os.environ, COLUMNS="250")
    check = subprocess.run([sys.executable, "-m", "pnp", "check", str(game_dir), "--format", "json"],
                           capture_output=True, text=True, env=env)
    rulebook = subprocess.run([sys.executable, "-m", "pnp", "rulebook", str(game_dir), "-o", str(tmp_path / "out")],
                              capture_output=True, text=True, env=env)
    for run in (check, rulebook):
        assert run.returncode == 1 and "Traceback" not in run.stdout + run.stderr
    import json

    (finding,) = [f for f in json.loads(check.stdout)[0]["findings"] if f["rule"] == "rulebook.layout"]
    message = ("the table under 'Setting up' (table 1 of the rulebook), row 2 ('Leaf'): the row is 603 mm tall, "
               "more than the 241 mm of a page, and cannot be split across pages")
    assert (finding["severity"], finding["file"], finding["line"], finding["message"]) == (
        "error", f"{game_dir}/templates/rulebook.md.j2", 7, message)  # line 7: the table's header row
    # 241 mm: the text column of a Letter page, 279.4 mm less 18 and 20 mm margins
    assert "picture does not" in finding["hint"]
    assert f"{game_dir}/templates/rulebook.md.j2" in rulebook.stdout
    assert "    7  error  rulebook.layout" in rulebook.stdout and message in rulebook.stdout
    assert not re.search(r"Flowable|0x[0-9A-Fa-f]{6}|cell\(\d", rulebook.stdout)  # no layout engine internals
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_anything_else_too_big_for_a_page_names_the_heading_it_follows(tmp_path):
    from PIL import Image

    game_dir, tdir = tiny_with(tmp_path, "# T\n\n## Setting up\n\n- First step.\n- A picture: ![tall](tall.png \"30mm\")\n")
    Image.new("RGB", (300, 6000), (30, 90, 200)).save(tdir / "tall.png", dpi=(300, 300))  # in a list item: not scaled
    with pytest.raises(PnpError) as caught:
        _build(game_dir, tdir, tmp_path / "out")
    assert caught.value.rule == "rulebook.layout"
    assert caught.value.render() == (
        "tiny/templates/rulebook.md.j2:3: something after the heading 'Setting up' is too big for a page "
        "(180 x 241 mm) and cannot be split across pages\n"
        "  hint: make the picture, table or code block smaller, or split it in parts")


# -- what the PDF asks of the printer, and its date and ID --------------------------------------


def test_rulebook_pdfs_ask_for_100_percent_and_their_duplex_with_a_fixed_date_and_id(tmp_path):
    template = "# {{ game.title }}\n\n{{ toc() }}\n\n## A\n\nText.\n\n---\n\n## B\n\nMore text.\n"
    game_dir, tdir = tiny_with(tmp_path, template)

    def build(out):
        return build_rulebook(load_game(game_dir, "tiny"), GameSource(game_dir, "tiny", tdir, "tiny/templates"),
                              out, "letter", True).files

    first, again = build(tmp_path / "a"), build(tmp_path / "b")
    ids = []
    for path, duplex in zip(first, ("/DuplexFlipLongEdge", "/DuplexFlipShortEdge")):  # reading pages, booklet
        with pikepdf.open(path) as pdf:
            prefs = pdf.Root.ViewerPreferences  # the catalog
            assert (prefs.PrintScaling, prefs.Duplex) == ("/None", duplex)
            pair = [bytes(part) for part in pdf.trailer.ID]
            assert len(pair) == 2 and len(pair[0]) == 16 and pair[0] == pair[1]
            ids.append(pair[0])
            info = pdf.trailer.Info
            assert str(info.CreationDate) == str(info.ModDate) == "D:20000101000000+00'00'"
    assert ids[0] != ids[1]
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in again]  # same input, same bytes


def test_every_pdf_takes_its_date_from_source_date_epoch_alike(tmp_path):
    game_dir, _ = tiny_with(tmp_path, "# {{ game.title }}\n\n## A\n\nText.\n")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")  # 2023-11-14 22:13:20 UTC
    for args in (["build", "--no-contact-sheets", "-o", str(tmp_path / "out")],
                 ["rulebook", "--booklet", "-o", str(tmp_path / "out")]):
        subprocess.run([sys.executable, "-m", "pnp", *args, str(game_dir)], check=True, env=env, capture_output=True)
    made = sorted((tmp_path / "out" / "tiny").glob("*.pdf"))
    assert {"tiny-cards.pdf", "tiny-rulebook.pdf", "tiny-rulebook-booklet.pdf"} <= {p.name for p in made}
    for path in made:
        with pikepdf.open(path) as pdf:
            assert str(pdf.trailer.Info.CreationDate) == "D:20231114221320+00'00'", path.name
