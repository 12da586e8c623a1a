"""Card layouts: text fitting, markup-free text, inline icons, art, and layout errors."""

from __future__ import annotations

import pytest
from PIL import Image

from pnp.design.layouts import game_layouts
from pnp.model.games import GameSource
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import build_cards
from pnp.core.errors import LayoutError
from pnp.model.load import load_game

from sheetgeom import open_pdf

HEADER = "id,title,cost,colour,text,copies\n"


def build(tiny, tmp_path, rows: str, layouts: str | None = None):
    (tiny / "cards.csv").write_text(HEADER + rows, encoding="utf-8")
    if layouts is not None:
        (tiny / "templates" / "layouts.toml").write_text(layouts, encoding="utf-8")
    game = load_game(tiny, "tiny")
    result = build_cards(game, game_layouts(game, GameSource(tiny, "tiny", tiny / "templates", "tiny/templates")),
                         tmp_path, SheetOptions(contact_sheets=False))
    return result, open_pdf(tmp_path / "tiny-cards.pdf")


def problems(result) -> list[tuple[str, str, str]]:
    """(rule, location, piece) of every finding but the infos."""
    return [(f.rule, f.location, f.piece) for f in result.findings if f.severity != "info"]


def error_text(result) -> str:
    """Every error finding as the report prints it: location, message and hint."""
    return "\n".join(f"{f.location}: {f.message}\n  hint: {f.hint}" for f in result.findings
                     if f.severity == "error")


def text_layout(extra: str = "", size: float = 10, min_size: float = 7, height: str = "40mm") -> str:
    return f"""
[icons.fire]
shape = "circle"
fill = "#C0392B"
label = "F"
[layouts.action]
background = "white"
[layouts.action.boxes.text]
type = "text"
text = "{{{{ text }}}}"
x = "5mm"
y = "5mm"
width = "50mm"
height = "{height}"
size = {size}
min_size = {min_size}
{extra}
[layouts.red]
background = "#C0392B"
[layouts.green]
background = "#27AE60"
"""


def test_markup_characters_print_as_typed(tiny, tmp_path):
    result, pdf = build(tiny, tmp_path, 'a,A,1,red,"Fish & <b>chips</b> > 3",1\n', text_layout())
    assert [f for f in result.findings if f.severity != "info"] == []
    assert "Fish & <b>chips</b> > 3" in pdf.pages[2].extract_text()


def test_line_breaks_in_a_cell_start_new_lines(tiny, tmp_path):
    result, pdf = build(tiny, tmp_path, 'a,A,1,red,"First line\nSecond line",1\n', text_layout())
    words = pdf.pages[2].extract_words()
    first = next(w for w in words if w["text"] == "First")
    second = next(w for w in words if w["text"] == "Second")
    assert second["top"] > first["top"] + 5
    assert abs(second["x0"] - first["x0"]) < 0.01


def test_long_text_shrinks_but_stays_in_its_box(tiny, tmp_path):
    long = " ".join(["word"] * 60)
    result, pdf = build(tiny, tmp_path, f'a,A,1,red,"{long}",1\n', text_layout())
    assert [f for f in result.findings if f.severity != "info"] == []
    chars = pdf.pages[2].chars
    sizes = {round(c["size"], 2) for c in chars}
    assert len(sizes) == 1 and 7 <= sizes.pop() < 10
    mm = 72 / 25.4
    x0 = 12.7 * mm + 5 * mm  # trim left on letter + box x
    top = 6.35 * mm + 5 * mm  # the first card's trim is 6.35 mm below the page top; box y 5 mm
    for c in chars:
        assert x0 - 0.01 <= c["x0"] and c["x1"] <= x0 + 50 * mm + 0.01
        assert c["top"] >= top - 0.01 and c["bottom"] <= top + 40 * mm + 0.01


def test_text_that_cannot_fit_is_reported_with_piece_and_box(tiny, tmp_path):
    long = " ".join(["overflowing"] * 200)
    result, _ = build(tiny, tmp_path, f'a,A,1,red,"{long}",1\n', text_layout(height="10mm"))
    # the text comes from the cell, so that is where the finding points, naming the card
    assert problems(result) == [("preflight.text-overflow", "tiny/cards.csv:2:5 (text)", "cards/a")]
    assert any("does not fit its box even at 7 pt" in f.message for f in result.findings)


def test_missing_glyph_is_reported(tiny, tmp_path):
    result, _ = build(tiny, tmp_path, 'a,A,1,red,"Ok \u6f22 here",1\n', text_layout())
    assert problems(result) == [("preflight.missing-glyph", "tiny/cards.csv:2:5 (text)", "cards/a")]
    assert any("U+6F22" in f.message for f in result.findings)


def test_inline_icons_are_drawn_and_an_unknown_name_is_an_error_that_prints_as_typed(tiny, tmp_path):
    result, pdf = build(tiny, tmp_path, 'a,A,1,red,"Pay :fire: at 10:30:15 :fier: a:b:c",1\n', text_layout())
    # :fier: is meant as an icon; 10:30:15 and a:b:c are not
    assert [p for p in problems(result) if p[0] != "preflight.small-text"] == [
        ("layout.icon-unknown", "tiny/cards.csv:2:5 (text)", "cards/a")]
    assert "no icon 'fier'" in error_text(result) and "did you mean 'fire'?" in error_text(result)
    page = pdf.pages[2]
    text = page.extract_text()
    assert ":fire:" not in text and ":fier:" in text and "10:30:15" in text
    assert "F" in text  # the icon's label
    red = [c for c in page.curves if tuple(round(v, 3) for v in c["non_stroking_color"]) ==
           (round(0xC0 / 255, 3), round(0x39 / 255, 3), round(0x2B / 255, 3))]
    assert len(red) == 1  # one circle drawn for :fire:


def test_unicode_from_the_data_is_embedded(tiny, tmp_path):
    result, pdf = build(tiny, tmp_path, 'a,A,1,red,"H₂O · NH₃ · El Número Uno · É · 300 °K",1\n', text_layout())
    assert [f for f in result.findings if f.severity != "info"] == []
    assert "H₂O · NH₃ · El Número Uno · É · 300 °K" in pdf.pages[2].extract_text().replace("\n", " ")


def test_misspelt_template_name_names_layout_box_and_suggestion(tiny, tmp_path):
    layouts = text_layout().replace("{{ text }}", "{{ titel }}")
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\na2,B,1,red,,2\n", layouts)
    message = error_text(result)
    assert message.startswith("tiny/templates/layouts.toml:10 (layouts.action.boxes.text.text): 'titel' is undefined")
    assert "did you mean 'title'?" in message
    (finding,) = [f for f in result.findings if f.severity == "error"]  # one cause, two cards
    assert finding.pieces == ("cards/a", "cards/a2") and finding.count == 2


def test_unknown_colour_and_layout_errors(tiny, tmp_path):
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n",
                      text_layout().replace('background = "white"', 'background = "purple"'))
    assert "'purple' is not a colour of this game" in error_text(result)
    with pytest.raises(LayoutError, match="unknown box setting 'colour'.*\n.*did you mean 'color'") as bad:
        build(tiny, tmp_path, "a,A,1,red,,1\n", text_layout('colour = "red"'))  # the file itself is wrong
    layouts = (tiny / "templates" / "layouts.toml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(layouts, 1) if text.startswith("colour = "))
    assert bad.value.location.line == line and bad.value.location.column_name.endswith(".colour")  # at the key
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", "[layouts.red]\n[layouts.green]\n")
    assert problems(result) == [("layout.undefined", "tiny/game.toml:14 (components.cards.layout)", "cards/a")]
    assert "the face layout 'action' is not defined" in error_text(result)


def test_a_setting_of_another_kind_of_box_is_refused_where_it_is_written(tiny, tmp_path):
    # fill belongs to rect, ellipse and shape boxes; on a text box it would be ignored
    with pytest.raises(LayoutError) as info:
        build(tiny, tmp_path, "a,A,1,red,,1\n", text_layout('fill = "red"'))
    message = info.value.render()
    assert "(layouts.action.boxes.text.fill): a text box has no setting 'fill'" in message
    assert "rect and ellipse and shape boxes" in message and "a text box takes text, font, size" in message
    # a child layout that turns an inherited text box into a rect is told which parent key is left over
    child = text_layout() + '[layouts.plain]\nextends = "action"\n[layouts.plain.boxes.text]\ntype = "rect"\n'
    with pytest.raises(LayoutError, match=r"layouts\.action\.boxes\.text\.(min_size|size|text)\): a rect box has no setting"):
        build(tiny, tmp_path, "a,A,1,red,,1\n", child)


def test_sandbox_blocks_attribute_escape(tiny, tmp_path):
    layouts = text_layout().replace("{{ text }}", "{{ title.__class__.__mro__ }}")
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,1\n", layouts)
    assert [rule for rule, _, _ in problems(result)] == ["layout.render"]
    assert "class" not in pdf.pages[2].extract_text()


def art_layout(path: str) -> str:
    return text_layout() + f"""
[layouts.action.boxes.art]
type = "image"
image = "{path}"
area = "bleed"
"""


def test_png_with_transparency_fills_the_bleed(tiny, tmp_path):
    (tiny / "art").mkdir()
    image = Image.new("RGBA", (40, 60), (0, 0, 255, 128))
    image.save(tiny / "art" / "a.png")
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout("art/a.png"))
    page = pdf.pages[2]
    assert len(page.images) == 1
    im = page.images[0]
    assert im["width"] >= 180  # at least the trim width, since it covers the bleed area
    from pypdf import PdfReader

    def images(resources):
        for x in resources.get("/XObject", {}).values():
            x = x.get_object()
            if x["/Subtype"] == "/Image":
                yield x
            elif "/Resources" in x:  # a card drawn once as a form and placed on the sheet
                yield from images(x["/Resources"])

    found = list(images(PdfReader(tmp_path / "tiny-cards.pdf").pages[2]["/Resources"]))
    assert found and all("/SMask" in x for x in found)  # alpha kept as a soft mask


def test_svg_and_jpeg_art(tiny, tmp_path):
    (tiny / "art").mkdir()
    (tiny / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140">'
        '<rect x="10" y="10" width="80" height="120" fill="#123456"/></svg>')
    Image.new("RGB", (30, 30), (200, 10, 10)).save(tiny / "art" / "b.jpg")
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout("art/a.svg"))
    fills = {tuple(round(v, 3) for v in r["non_stroking_color"]) for r in pdf.pages[2].rects}
    assert (round(0x12 / 255, 3), round(0x34 / 255, 3), round(0x56 / 255, 3)) in fills
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout("art/b.jpg"))
    assert len(pdf.pages[2].images) == 1


def test_art_outside_the_game_folder_or_missing_is_refused(tiny, tmp_path):
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout("../../etc/passwd"))
    assert problems(result) == [("layout.art-outside", "tiny/templates/layouts.toml:25 (layouts.action.boxes.art.image)",
                                 "cards/a")]
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout("art/none.png"))
    assert problems(result) == [("layout.art-missing", "tiny/templates/layouts.toml:25 (layouts.action.boxes.art.image)",
                                 "cards/a")]
    assert "no file 'art/none.png' in the game folder" in error_text(result)


def test_missing_art_names_the_file_it_most_likely_meant(tiny, tmp_path):
    (tiny / "art").mkdir()
    Image.new("RGB", (30, 30)).save(tiny / "art" / "Fox.png")
    Image.new("RGB", (30, 30)).save(tiny / "art" / "owl.jpg")
    for written, meant in (("art/fox.png", "art/Fox.png"), ("art/owl.png", "art/owl.jpg"),
                           ("art/owel.jpg", "art/owl.jpg"), ("art/zebra.png", None)):
        result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", art_layout(written))
        (finding,) = [f for f in result.findings if f.rule == "layout.art-missing"]
        assert finding.hint.startswith(f"did you mean {meant!r}?") == (meant is not None), finding.hint


def test_an_image_used_many_times_is_embedded_once(tiny, tmp_path):
    (tiny / "art").mkdir()
    Image.new("RGB", (30, 30), (0, 128, 0)).save(tiny / "art" / "a.png")
    build(tiny, tmp_path, "a,A,1,red,,9\n", art_layout("art/a.png"))
    data = (tmp_path / "tiny-cards.pdf").read_bytes()
    assert data.count(b"/Subtype /Image") == 1


def test_wide_inline_icons_push_the_following_text(tiny, tmp_path):
    layouts = text_layout() + '\n[icons.h2o]\nshape = "circle"\nfill = "#2E86C1"\nlabel = "H2O long"\n'
    result, pdf = build(tiny, tmp_path, 'a,A,1,red,"Take :h2o: now",1\n', layouts)
    page = pdf.pages[2]
    pill = max(page.curves, key=lambda c: c["x1"] - c["x0"])
    now = next(w for w in page.extract_words() if w["text"] == "now")
    take = next(w for w in page.extract_words() if w["text"] == "Take")
    assert take["x1"] <= pill["x0"] and pill["x1"] <= now["x0"]


def test_z_orders_boxes(tiny, tmp_path):
    layouts = text_layout() + """
[layouts.action.boxes.first]
type = "rect"
x = "1mm"
y = "1mm"
width = "10mm"
height = "10mm"
fill = "#FE0000"

[layouts.action.boxes.top]
type = "rect"
x = "1mm"
y = "1mm"
width = "10mm"
height = "10mm"
fill = "#0000FE"
z = -1
"""
    result, pdf = build(tiny, tmp_path, "a,A,1,red,x,1\n", layouts)
    fills = [tuple(round(v, 3) for v in r["non_stroking_color"]) for r in pdf.pages[2].rects]
    assert fills.index((0.0, 0.0, round(254 / 255, 3))) < fills.index((round(254 / 255, 3), 0.0, 0.0))


def test_piece_fields_print_their_values(tiny, tmp_path):
    layouts = text_layout().replace("{{ text }}", "{{ piece.id }} {{ piece.copy }}/{{ piece.copies }} {{ piece.deck }} {{ text }}")
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,2\n", layouts)
    text = pdf.pages[2].extract_text()
    assert "a 1/2 cards" in text and "a 2/2 cards" in text
    assert "None" not in text and "built-in" not in text  # a blank optional cell prints nothing


def test_cut_text_ends_in_an_ellipsis(tiny, tmp_path):
    long = " ".join(f"w{i}" for i in range(400))
    result, pdf = build(tiny, tmp_path, f'a,A,1,red,"{long}",1\n', text_layout(height="10mm"))
    text = pdf.pages[2].extract_text()
    assert text.rstrip().endswith("…") and "w399" not in text


def test_errors_point_at_where_a_box_is_written(tiny, tmp_path):
    layouts = text_layout() + '\n[layouts.child]\nextends = "action"\n'
    (tiny / "game.toml").write_text((tiny / "game.toml").read_text().replace('layout = "action"', 'layout = "child"'))
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", layouts.replace("{{ text }}", "{{ txet }}"))
    # the box is written in the parent layout: that is the one place, whichever layout draws it
    (error,) = [f for f in result.findings if f.severity == "error"]
    assert (error.location, error.piece) == ("tiny/templates/layouts.toml:10 (layouts.action.boxes.text.text)", "cards/a")


def test_when_takes_a_bare_expression(tiny, tmp_path):
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", text_layout('when = "{{ text }}"'))
    assert "without {{ }}" in error_text(result)
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\n", text_layout('when = "cots > 1"'))
    assert "did you mean 'cost'?" in error_text(result)


def test_low_resolution_is_reported_once_per_card_not_per_copy(tiny, tmp_path):
    (tiny / "art").mkdir()
    Image.new("RGB", (30, 30)).save(tiny / "art" / "a.png")
    result, _ = build(tiny, tmp_path, "a,A,1,red,,5\n", art_layout("art/a.png"))
    # the art file is the cause: one finding, at the file, for the card (its copies are one)
    assert [(f.location, f.piece) for f in result.findings if f.rule == "preflight.low-resolution"] == [
        ("tiny/art/a.png", "cards/a")]


def test_an_undefined_back_hides_no_problem_of_the_faces(tiny, tmp_path):
    layouts = text_layout().replace("{{ text }}", "{{ titel }}").replace("[layouts.green]", "[layouts.grene]")
    result, _ = build(tiny, tmp_path, "a,A,1,red,,1\nb,B,1,green,,1\n", layouts)
    assert sorted(problems(result)) == [
        ("layout.render", "tiny/templates/layouts.toml:10 (layouts.action.boxes.text.text)", "cards/a"),
        ("layout.undefined", "tiny/cards.csv:3:4 (colour)", "cards/b")]
    (render,) = [f for f in result.findings if f.rule == "layout.render"]
    assert render.pieces == ("cards/a", "cards/b")  # the face of the card without a back is drawn too


def test_a_text_box_past_the_trim_is_reported(tiny, tmp_path):
    layouts = text_layout().replace('x = "5mm"\ny = "5mm"', 'x = "40mm"\ny = "5mm"')  # 40 + 50 mm > 63.5 mm
    result, _ = build(tiny, tmp_path, "a,A,1,red,Hi,1\n", layouts)
    (outside,) = [f for f in result.findings if f.rule == "preflight.text-outside"]
    assert outside.location == "tiny/templates/layouts.toml:8 (layouts.action.boxes.text)" and outside.piece == "cards/a"
    assert "reaches 26.50 mm past the right edge of the trim" in outside.message


def test_an_icon_row_item_that_is_no_icon_is_a_warning_with_the_closest_name(tiny, tmp_path):
    layouts = text_layout() + '\n[layouts.action.boxes.row]\ntype = "icons"\nitems = "[\'fire\', \'fyre\']"\n' \
                              'x = "5mm"\ny = "60mm"\nwidth = "30mm"\nheight = "8mm"\n'
    result, pdf = build(tiny, tmp_path, "a,A,1,red,,1\n", layouts)
    (pip,) = [f for f in result.findings if f.rule == "layout.icon-pip"]
    assert pip.severity == "warning" and "no icon 'fyre'" in pip.message and "did you mean 'fire'?" in pip.hint
    assert "fyre" in pdf.pages[2].extract_text()  # still drawn, as a labelled pip


def test_an_icon_label_or_text_below_6_pt_is_a_warning_at_its_setting(tiny, tmp_path):
    layouts = text_layout('[layouts.action.boxes.row]\ntype = "icons"\nitems = "[\'fire\', \'fire\']"\n'
                          'x = "5mm"\ny = "60mm"\nwidth = "30mm"\nheight = "3mm"\n', size=5, min_size=5)
    result, pdf = build(tiny, tmp_path, "a,A,1,red,Tiny words,1\n", layouts)
    small = {(f.location, f.piece): f.message for f in result.findings if f.rule == "preflight.small-text"}
    assert small == {
        ("tiny/templates/layouts.toml:5 (icons.fire.label)", "cards/a"):
            "the label 'F' of icon 'fire' prints at 4.3 pt, below 6 pt, too small to read or print cleanly",
        ("tiny/templates/layouts.toml:16 (layouts.action.boxes.text.min_size)", "cards/a"):
            "the text prints at 5.0 pt, below 6 pt, too small to read or print cleanly"}
    # measured in the PDF: the label is drawn at the size the warning names
    sizes = {round(ch["size"], 1) for ch in pdf.pages[2].chars if ch["text"] == "F"}
    assert 4.3 in sizes


def test_labels_at_6_pt_raise_nothing(tiny, tmp_path):
    layouts = text_layout('[layouts.action.boxes.row]\ntype = "icons"\nitems = "[\'fire\']"\n'
                          'x = "5mm"\ny = "60mm"\nwidth = "30mm"\nheight = "4.3mm"\n')  # 12.2 pt x 0.5
    result, _ = build(tiny, tmp_path, "a,A,1,red,Words,1\n", layouts)
    assert not [f for f in result.findings if f.rule == "preflight.small-text"]


OVERLAP = text_layout().replace('[layouts.red]', '''[layouts.action.boxes.badge]
type = "shape"
shape = "circle"
x = "40mm"
y = "3mm"
width = "12mm"
height = "12mm"
fill = "#C0392B"
{badge}
[layouts.red]''')


def overlap_findings(tiny, tmp_path, badge: str = "", text: str = "Words enough to fill the first line and more") -> list[tuple[str, str, str]]:
    result, _ = build(tiny, tmp_path, f"a,A,1,red,{text},1\n", OVERLAP.replace("{badge}", badge))
    return [(f.location, f.message, f.piece) for f in result.findings if f.rule == "preflight.text-overlap"]


def test_a_badge_over_a_label_is_a_warning_at_the_badge(tiny, tmp_path):
    # the lines run from 5 mm to about 47 mm across; the badge spans 40 to 52 mm
    assert overlap_findings(tiny, tmp_path) == [(
        "tiny/templates/layouts.toml:22 (layouts.action.boxes.badge.y)",
        "box 'badge' covers the text of box 'text' by 7.0 mm", "cards/a")]


def test_an_intended_overlap_and_a_badge_clear_of_the_text_raise_nothing(tiny, tmp_path):
    assert overlap_findings(tiny, tmp_path, badge="overlap = true") == []
    assert overlap_findings(tiny, tmp_path, text="Hi") == []  # a short line ends left of the badge


def test_text_across_the_edge_of_a_panel_under_it_is_a_warning_but_a_panel_holding_it_is_not(tiny, tmp_path):
    layouts = text_layout().replace('[layouts.action.boxes.text]', '''[layouts.action.boxes.panel]
type = "rect"
x = "0mm"
y = "0mm"
width = "63.5mm"
height = "{panel}"
fill = "#EEEEEE"
[layouts.action.boxes.text]''')
    result, _ = build(tiny, tmp_path, "a,A,1,red,Hello,1\n", layouts.replace("{panel}", "6.5mm"))
    (found,) = [f for f in result.findings if f.rule == "preflight.text-overlap"]
    assert found.message.startswith("the text of box 'text' runs ") and "across the edge of box 'panel'" in found.message
    result, _ = build(tiny, tmp_path, "a,A,1,red,Hello,1\n", layouts.replace("{panel}", "20mm"))
    assert not [f for f in result.findings if f.rule == "preflight.text-overlap"]


def test_overlap_must_be_true_or_false(tiny, tmp_path):
    with pytest.raises(LayoutError, match="overlap must be true or false, not 'yes'"):
        build(tiny, tmp_path, "a,A,1,red,Hi,1\n", OVERLAP.replace("{badge}", 'overlap = "yes"'))
