"""The registries are the units of extension (docs/architecture.md): every member is declared
alike, documented where designers look, and tested. A new element kind, rule kind, profile
setting, reader or output that skips one of these fails here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from pnp.design.elements import COMMON_KEYS, ELEMENT_SPECS, ElementSpec
from pnp.model.games import GameSource
from pnp.model.readers import READERS
from pnp.outputs import OUTPUTS
from pnp.outputs.export.profiles import PROFILE_KEYS
from pnp.outputs.export.profiles import OUTPUTS as OUTPUT_KINDS
from pnp.outputs.export.writers import WRITERS
from pnp.render.elements import ELEMENTS
from pnp.validate.check import check_game
from pnp.validate.kinds import RULE_KINDS
from pnp.validate.rulesfile import COMMON_KEYS as RULE_COMMON_KEYS
from pnp.validate.rulesfile import COST_KEYS, SUPPLY_KEYS, TOP_KEYS

DOCS = ROOT / "docs"


def documented(name: str, text: str) -> bool:
    """Whether docs ``text`` names ``name`` as code (`name`, `[name]`, `[[name]]`) or sets it in a
    TOML example (``name = ...``)."""
    as_code = r"`\[{0,2}" + re.escape(name) + r"\]{0,2}[`\s=(]"
    in_example = r"(^|[\s{,])" + re.escape(name) + r"\s*="
    return re.search(as_code, text) is not None or re.search(in_example, text, re.M) is not None


# -- element kinds -------------------------------------------------------------------------------


def test_every_element_kind_is_declared_and_drawn_alike():
    assert list(ELEMENTS) == list(ELEMENT_SPECS)
    for name, element in ELEMENTS.items():
        spec = ELEMENT_SPECS[name]
        assert element.spec is spec and isinstance(spec, ElementSpec) and spec.name == name
        assert spec.summary and callable(element.draw)
        assert set(spec.lengths) <= set(spec.keys) and set(spec.expressions) <= set(spec.keys)
        assert set(spec.required) <= set(spec.keys) and set(spec.template_lengths) <= set(spec.keys)
        assert not set(spec.keys) & set(COMMON_KEYS), name


def test_every_element_kind_and_setting_is_in_the_layouts_docs():
    text = (DOCS / "layouts.md").read_text(encoding="utf-8")
    assert [k for k in COMMON_KEYS if not documented(k, text)] == []
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `([a-z]+)` \|(.*)$", text, re.M)}
    assert [k for k in ELEMENT_SPECS if k not in rows] == []
    # each kind's row of the box table lists every setting that kind takes
    missing = {k: [key for key in spec.keys if not documented(key, rows[k])] for k, spec in ELEMENT_SPECS.items()}
    assert {k: v for k, v in missing.items() if v} == {}


# -- rule kinds ----------------------------------------------------------------------------------

KIND_CASES = {
    # kind: (the rule's own keys, rows appended to the tiny game's cards.csv) -> one failing row
    "assert": ('for_each = "cards"\nassert = "cost < 2"', ""),
    "unique": ('component = "cards"\ncolumns = ["colour"]', "sun,Sun,1,red,,1\n"),
    "exact-set": ('component = "cards"\ncolumn = "colour"\nvalues = ["red", "blue"]', ""),
    "stated-values": ('component = "cards"\ncolumn = "cost"\nvalues = { fire = 3 }', ""),
    "count-range": ('component = "cards"\nmin = 10', ""),
    "sum-equals": ('component = "cards"\nsum = "cost * copies"\nequals = 99', ""),
    "cost-payable": ('component = "cards"\ncolumn = "colour"\nsupply = [{ component = "cards", names = ["\'blue\'"] }]',
                     ""),
    "opening-hand": ('component = "cards"\ncolumn = "colour"\ndraws = [{ component = "cards", names = ["colour"] }]',
                     ""),
    "players-supported": ('needs = "p * 10"\nhas = 5', ""),
    "pattern": ('component = "cards"\ncolumn = "id"\npattern = "[a-z]{5}"', ""),
}
"""A case each rule kind must find something in."""


def tiny_with(tmp_path: Path, rules: str, rows: str = "") -> Path:
    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    if rows:
        with open(game / "cards.csv", "a", encoding="utf-8", newline="") as fh:
            fh.write(rows)
    (game / "rules.toml").write_text(rules, encoding="utf-8")
    return game


def test_every_rule_kind_has_a_case():
    assert list(KIND_CASES) == list(RULE_KINDS)


@pytest.mark.parametrize("kind", list(RULE_KINDS))
def test_every_rule_kind_finds_what_is_wrong(kind, tmp_path):
    own, rows = KIND_CASES[kind]
    game = tiny_with(tmp_path, f'[[rule]]\nid = "case.{kind}"\nkind = "{kind}"\nsource = "s"\n{own}\n', rows)
    _, findings = check_game(GameSource(game, "tiny"))
    assert [f for f in findings if f.rule in ("rules.file", "rules.expression")] == []
    hits = [f for f in findings if f.rule == f"case.{kind}"]
    assert hits and all(f.severity == "error" and f.source == "s" for f in hits), findings


@pytest.mark.parametrize("kind, key", [(k, key) for k, spec in RULE_KINDS.items() for key in sorted(spec.required)])
def test_every_required_key_of_a_rule_kind_is_required(kind, key, tmp_path):
    own = "\n".join(line for line in KIND_CASES[kind][0].split("\n") if not line.startswith(f"{key} ="))
    game = tiny_with(tmp_path, f'[[rule]]\nid = "case.{kind}"\nkind = "{kind}"\nsource = "s"\n{own}\n')
    _, findings = check_game(GameSource(game, "tiny"))
    problems = [f for f in findings if f.rule == "rules.file"]
    article = "an" if kind[0] in "aeiou" else "a"
    assert len(problems) == 1 and problems[0].message == f"rule case.{kind}: {article} {kind} rule needs {key!r}"
    assert problems[0].location == "tiny/rules.toml:1 (rule[0])"


def test_every_rule_kind_and_key_is_in_the_validation_docs():
    text = (DOCS / "validation.md").read_text(encoding="utf-8")
    assert [k for k in RULE_KINDS if not documented(k, text)] == []
    keys = set(RULE_COMMON_KEYS) | SUPPLY_KEYS | COST_KEYS | TOP_KEYS
    keys = keys.union(*(spec.keys for spec in RULE_KINDS.values()))
    assert sorted(k for k in keys if not documented(k, text)) == []


# -- outputs, export writers and profiles, readers -----------------------------------------------


def test_every_output_is_documented():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert list(OUTPUTS) == ["cards", "contact", "boards", "accessibility", "rulebook", "export", "editions", "cut", "boxes"]
    assert [name for name in OUTPUTS if not documented(name, text)] == []


def test_every_export_output_kind_has_a_writer():
    assert list(WRITERS) == list(OUTPUT_KINDS)
    text = (DOCS / "export.md").read_text(encoding="utf-8")
    assert [k for k in OUTPUT_KINDS if not documented(k, text)] == []


def test_every_profile_setting_is_in_the_export_docs():
    text = (DOCS / "export.md").read_text(encoding="utf-8")
    assert sorted(k for k in PROFILE_KEYS if not documented(k, text)) == []


def test_every_cutter_profile_and_key_is_in_the_cutting_docs():
    from pnp.outputs.cut.profile import MARK_KEYS, PAPER_KEYS, PROFILES, RECT_KEYS, TOP_KEYS, load_profile

    text = (DOCS / "cutting.md").read_text(encoding="utf-8")
    names = sorted(p.stem for p in PROFILES.glob("*.toml"))
    assert names == ["cricut", "generic", "silhouette"]
    for name in names:
        profile = load_profile(name)
        assert sorted(profile.papers) == ["a4", "letter"] and documented(name, text)
    keys = TOP_KEYS | PAPER_KEYS | RECT_KEYS | MARK_KEYS
    assert sorted(k for k in keys if not documented(k, text)) == []


def test_every_reader_is_documented_and_claims_its_suffixes():
    text = (DOCS / "game-format.md").read_text(encoding="utf-8")
    claimed = [s for reader in READERS.values() for s in reader.suffixes]
    assert len(claimed) == len(set(claimed))
    for name, reader in READERS.items():
        assert reader.name == name and reader.suffixes and all(s.startswith(".") for s in reader.suffixes)
        assert name.upper() in text or documented(name, text)


# -- fonts and inline markup ---------------------------------------------------------------------


def test_every_font_setting_and_markup_form_is_in_the_fonts_docs():
    from pnp.design.fonts import FAMILY_KEYS

    text = (DOCS / "fonts-and-text.md").read_text(encoding="utf-8")
    assert sorted(k for k in FAMILY_KEYS if not documented(k, text)) == []
    forms = ["`**Attack**`", "`*once*`", "`***Now***`", "`[Fire](color:red)`", "`\\ `", "`\\*`", "`\\[`",
             "`font.file`", "`font.setting`", "`preflight.markup`", "`preflight.missing-glyph`"]
    assert [f for f in forms if f not in text] == []
    assert "docs/fonts-and-text.md" in (ROOT / "README.md").read_text(encoding="utf-8")
