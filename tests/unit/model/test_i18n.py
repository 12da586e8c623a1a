"""Translations as data: languages and translatable columns in game.toml, catalogues in
i18n/<lang>.po written by extract, and a game translated with a finding for every string that
cannot be (missing, stale, placeholders changed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pnp.core.errors import ManifestError
from pnp.model.catalogue import catalogue_path, read_catalogue
from pnp.model.i18n import coverage, extract, placeholder_difference, translate
from pnp.model.load import load_game
from pnp.model.scaffold import new_game


def _tiny(tmp_path: Path, languages='["en", "de"]') -> Path:
    game = tmp_path / "tide"
    new_game(game)
    toml = (game / "game.toml").read_text()
    toml = toml.replace("players = [2, 4]\n", f"players = [2, 4]\nlanguages = {languages}\n", 1)
    toml = toml.replace('title = "str"', 'title = { type = "str", translatable = true }')
    toml = toml.replace('text = { type = "text", required = false }',
                        'text = { type = "text", required = false, translatable = true }')
    (game / "game.toml").write_text(toml)
    book = game / "templates" / "rulebook.md.j2"
    book.write_text(book.read_text().replace("## Setup\n", "## {% trans %}Setup{% endtrans %}\n"))
    return game


def _extract(game: Path) -> Path:
    loaded = load_game(game, "tide")
    for _lang, path, data, _stats in extract(loaded, game / "templates", "tide/templates"):
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
    return catalogue_path(loaded, "de")


def _translate_po(path: Path, words: dict[str, str]) -> None:
    """Fill msgstr of the entries whose msgid is a key of ``words`` (a translator's edit)."""
    lines = path.read_text().splitlines()
    out, current = [], None
    for line in lines:
        if line.startswith("msgid "):
            current = line[len('msgid "'):-1]
        if line == 'msgstr ""' and current in words:
            line = f'msgstr "{words[current]}"'
        out.append(line)
    path.write_text("\n".join(out) + "\n")


GERMAN = {"Spark": "Funke", "Draw a card.": "Zieh eine Karte.", "Tide": "Gezeiten",
          "Every player passes one card to the left.": "Alle geben eine Karte nach links weiter.",
          "Reef": "Riff", "Setup": "Aufbau"}


def test_languages_and_translatable_columns_are_read_and_checked(tmp_path):
    game = _tiny(tmp_path)
    loaded = load_game(game, "tide")
    assert loaded.languages == ("en", "de")
    assert loaded.components["cards"].columns["title"].translatable
    assert not loaded.components["cards"].columns["cost"].translatable
    toml = (game / "game.toml").read_text()
    (game / "game.toml").write_text(toml.replace('cost = { type = "int", min = 0, max = 5 }',
                                                 'cost = { type = "int", min = 0, max = 5, translatable = true }'))
    with pytest.raises(ManifestError) as exc:
        load_game(game, "tide")
    assert "cannot be translatable" in exc.value.message and exc.value.location.line is not None
    (game / "game.toml").write_text(toml.replace('languages = ["en", "de"]', 'languages = ["en", "xx-nope"]'))
    with pytest.raises(ManifestError, match="unknown language code 'xx-nope'"):
        load_game(game, "tide")


def test_extract_keys_cells_by_table_row_and_column_and_keeps_translations(tmp_path):
    game = _tiny(tmp_path)
    po = _extract(game)
    catalog = read_po(po.open("rb"))
    contexts = {m.context: m.id for m in catalog if m.id}
    assert contexts["cards/spark/title"] == "Spark"
    assert contexts["cards/tide/text"] == "Every player passes one card to the left."
    assert contexts[None] == "Setup"  # the rulebook's sentence, keyed by its text
    assert not any(c and c.endswith(("/cost", "/copies", "/id")) for c in contexts)  # never translated
    _translate_po(po, GERMAN)
    first = po.read_bytes()
    _extract(game)
    assert po.read_bytes() == first  # an unchanged game leaves the catalogue byte for byte
    # the designer rewrites a card: its translation is kept, marked fuzzy, the old source beside it
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Draw a card.", "Draw two cards."))
    _extract(game)
    text = po.read_text()
    assert '#| msgid "Draw a card."' in text and 'msgstr "Zieh eine Karte."' in text
    message = read_po(po.open("rb")).get("Draw two cards.", context="cards/spark/text")
    assert message.fuzzy and message.string == "Zieh eine Karte."


def test_a_translated_game_has_translated_cells_and_untouched_numbers(tmp_path):
    game = _tiny(tmp_path)
    _translate_po(_extract(game), GERMAN)
    loaded = load_game(game, "tide")
    german, findings = translate(loaded, "de", game / "templates", "tide/templates")
    rows = german.components["cards"].by_id()
    assert rows["spark"]["title"] == "Funke" and rows["spark"]["cost"] == 1 and rows["spark"].copies == 2
    assert loaded.components["cards"].by_id()["spark"]["title"] == "Spark"  # the source game is unchanged
    assert german.file_stem == "tide-de" and german.translations.gettext("Setup") == "Aufbau"
    # Reef's two-line text was left untranslated: missing, reported at its catalogue line and cell
    [missing] = findings
    assert missing.rule == "i18n.missing" and missing.file == "tide/i18n/de.po" and missing.line
    assert "cards/reef/text" in missing.message and "cards.csv:4:4" in missing.message
    assert rows["reef"]["text"].startswith("Keep this card")  # falls back to the source
    assert coverage(loaded, "de", game / "templates", "tide/templates") == {
        "strings": 7, "translated": 6, "stale": 0, "missing": 1}


def test_a_stale_translation_is_reported_and_not_used(tmp_path):
    game = _tiny(tmp_path)
    _translate_po(_extract(game), GERMAN)
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Draw a card.", "Draw two cards."))
    german, findings = translate(load_game(game, "tide"), "de", game / "templates", "tide/templates")
    stale = [f for f in findings if f.rule == "i18n.stale"]
    assert len(stale) == 1 and "cards/spark/text" in stale[0].message and stale[0].file == "tide/i18n/de.po"
    assert german.components["cards"].by_id()["spark"]["text"] == "Draw two cards."
    _extract(game)  # now marked fuzzy in the catalogue: still stale until reviewed
    _german, findings = translate(load_game(game, "tide"), "de", game / "templates", "tide/templates")
    assert [f.rule for f in findings if "cards/spark/text" in f.message] == ["i18n.stale"]


def test_a_dropped_icon_is_an_error_and_the_translation_is_not_used(tmp_path):
    game = _tiny(tmp_path)
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Draw a card.", "Draw a card :star:."))
    _translate_po(_extract(game), {**GERMAN, "Draw a card :star:.": "Zieh eine Karte."})
    german, findings = translate(load_game(game, "tide"), "de", game / "templates", "tide/templates")
    [bad] = [f for f in findings if f.rule == "i18n.placeholders"]
    assert bad.severity == "error" and "drops :star:" in bad.message and bad.line
    assert german.components["cards"].by_id()["spark"]["text"] == "Draw a card :star:."


@pytest.mark.parametrize("source, translation, said", [
    ("Gain :coin:.", "Erhalte :coin:.", ""),
    ("Gain {{ n }} :coin:.", "Erhalte :coin:.", "drops {{ n }}"),
    ("Gain {n}.", "Erhalte {m}.", "drops {n}; adds {m}"),
    ("**Draw** two.", "Zieh zwei.", "drops a ** (bold) marker, a ** (bold) marker"),
    ("Draw *two*.", "Zieh *zwei*.", ""),
    ("Press <1>here</1>.", "Drück hier.", "drops </1>, <1>"),
    ("%(count)s cards", "Karten", "drops %(count)s"),
])
def test_placeholders_compare_icons_variables_markup_and_tags(source, translation, said):
    assert placeholder_difference(source, translation) == said


def test_a_language_the_game_does_not_list_is_refused_with_the_line(tmp_path):
    game = _tiny(tmp_path)
    with pytest.raises(ManifestError) as exc:
        translate(load_game(game, "tide"), "fr", game / "templates", "tide/templates")
    line = (game / "game.toml").read_text().splitlines().index('languages = ["en", "de"]') + 1
    assert exc.value.location.line == line and "'fr' is not one of the languages" in exc.value.message


def test_layout_labels_icon_words_and_plural_sentences_are_extracted(tmp_path):
    game = _tiny(tmp_path)
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace('text = "{{ cost }}"', 'text = "{{ _(\'Cost\') }} {{ cost }}"')
                       + '\n[icons.any]\nshape = "circle"\nlabel = "ANY"\n\n[icons.h2o]\nshape = "circle"\n'
                       'label = "H₂O"\n')
    book = game / "templates" / "rulebook.md.j2"
    book.write_text(book.read_text() + "\n{% trans count=rules.hand_size %}{{ count }} card"
                    "{% pluralize %}{{ count }} cards{% endtrans %}\n")
    catalog = read_po(_extract(game).open("rb"))
    ids = [m.id for m in catalog if m.id]
    assert "Cost" in ids and "ANY" in ids and "H₂O" not in ids  # a formula is not a word
    assert ("%(count)s card", "%(count)s cards") in ids
    cost = catalog.get("Cost")
    assert cost.locations == [("templates/layouts.toml", 38)]


def test_a_rulebook_sentence_that_drops_a_variable_is_reported_at_its_entry(tmp_path):
    game = _tiny(tmp_path)
    book = game / "templates" / "rulebook.md.j2"
    book.write_text(book.read_text().replace(
        "Shuffle the cards. Each player draws {{ rules.hand_size|words }} cards.",
        "{% trans n=rules.hand_size %}Each player draws {{ n }} cards.{% endtrans +%}"))
    _translate_po(_extract(game), {**GERMAN, "Each player draws %(n)s cards.": "Alle ziehen Karten."})
    _german, findings = translate(load_game(game, "tide"), "de", game / "templates", "tide/templates")
    [bad] = [f for f in findings if f.rule == "i18n.placeholders"]
    assert "drops %(n)s" in bad.message and "rulebook.md.j2" in bad.message and bad.line


def test_a_removed_string_is_kept_obsolete_and_a_reworded_sentence_carries_its_translation(tmp_path):
    game = _tiny(tmp_path)
    book = game / "templates" / "rulebook.md.j2"
    book.write_text(book.read_text().replace(
        "On your turn, play one card and do what it says, then draw a card.",
        "{% trans %}On your turn, play one card and do what it says, then draw a card.{% endtrans +%}"))
    po = _extract(game)
    _translate_po(po, {**GERMAN, "On your turn, play one card and do what it says, then draw a card.":
                       "Spiel in deinem Zug eine Karte aus und zieh dann eine nach."})
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("spark,Spark", "ember,Spark"))  # the row's id changes
    book.write_text(book.read_text().replace("then draw a card.{% endtrans", "then draw one card.{% endtrans"))
    _extract(game)
    assert '#| msgid "On your turn, play one card and do what it says, then draw a card."' in po.read_text()
    catalog = read_catalogue(po, "tide/i18n/de.po", "de").catalog  # reads #| back as the previous source
    assert any(m.context == "cards/spark/title" and m.string == "Funke" for m in catalog.obsolete.values())
    assert catalog.get("Spark", context="cards/ember/title").string == ""  # a new row: translated anew
    reworded = catalog.get("On your turn, play one card and do what it says, then draw one card.")
    assert reworded.fuzzy and reworded.string == "Spiel in deinem Zug eine Karte aus und zieh dann eine nach."
    assert reworded.previous_id == ["On your turn, play one card and do what it says, then draw a card."]
    _extract(game)  # once more: the previous source stays one #| line, not a comment
    assert po.read_text().count("#| msgid") == 1 and "# | msgid" not in po.read_text()
