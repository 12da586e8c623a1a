"""The bundled Periodic Shed data: the seed's counts and rules, and the element facts checked
against the mendeleev periodic table."""

from __future__ import annotations

import math
import re
import warnings

import pytest

from conftest import CARD_DATA
from pnp.model.games import GameSource
from pnp.validate.check import check_game
from pnp.model.load import load_game

GAME_DIR = CARD_DATA / "periodic-shed"

STATED_FAMILIES = {
    # id: (group, colour name, shape, glyph)
    "alkali": (1, "blue", "circle", "●"),
    "alkaline-earth": (2, "green", "triangle", "▲"),
    "chalcogen": (16, "amber", "square", "■"),
    "halogen": (17, "purple", "diamond", "◆"),
}
FERRO = {"fe", "ni", "co", "nd", "gd", "dy", "sm", "tc"}
TEMPERATURES = [300, 600, 1000, 1500, 2500]
SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def elements(game):
    return [r for r in game.components["cards"].rows if r["kind"] == "element"]


@pytest.fixture(scope="module")
def by_id(game):
    return game.components["cards"].by_id()


def test_check_game_has_no_errors():
    loaded, findings = check_game(GameSource(GAME_DIR, "card_data/periodic-shed"))
    assert loaded is not None
    errors = [f for f in findings if f.severity == "error"]
    assert errors == [], [f"{f.location}: {f.message}" for f in errors]


def test_manifest_basics(game):
    assert game.id == "periodic-shed"
    assert game.title == "Periodic Shed"
    assert (game.players_min, game.players_max) == (2, 5)
    cards = game.components["cards"]
    assert cards.kind == "deck" and cards.card_size_name == "poker"
    assert cards.back == "periodic-back"


def test_deck_counts(game, elements):
    cards = game.components["cards"]
    assert cards.pieces == 128
    kinds = {}
    for row in cards.rows:
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + row.copies
    assert kinds == {"element": 118, "fission": 2, "fusion": 2, "event-horizon": 1,
                     "temperature": 5}
    assert all(row.copies == 1 for row in cards.rows)
    assert all(cards.layout_of(r) == ("element" if r["kind"] == "element" else "action")
               for r in cards.rows)


def test_118_unique_elements(elements):
    assert len(elements) == 118
    assert sorted(r["atomic_number"] for r in elements) == list(range(1, 119))
    assert len({r["symbol"] for r in elements}) == 118
    assert len({r["title"] for r in elements}) == 118
    for r in elements:
        assert r.id == r["symbol"].lower()
        assert r["family"] is not None and r["metal"] is not None
        assert r["radioactive"] is not None and r["ferromagnetic"] is not None
        if r["melting_point_k"] is not None:
            assert r["melting_point_k"] == round(r["melting_point_k"], 2)


def test_spot_facts(by_id):
    fe = by_id["fe"]
    assert (fe["symbol"], fe["title"], fe["atomic_number"], fe["family"]) == ("Fe", "Iron", 26, "late-transition")
    assert fe["melting_point_k"] == 1811.15 and fe["metal"] and not fe["radioactive"]
    assert by_id["hg"]["melting_point_k"] == 234.32
    assert by_id["og"]["atomic_number"] == 118 and by_id["og"]["family"] == "noble-gas"
    # hydrogen: group 1 family for matching, but not a metal
    h = by_id["h"]
    assert h["family"] == "alkali" and h["group"] == 1 and h["metal"] is False
    # the radioactive examples the rules name
    for sym in ("tc", "pm", "po", "u", "pu"):
        assert by_id[sym]["radioactive"] is True
    assert by_id["bi"]["radioactive"] is False


def test_family_table(game, elements):
    fams = game.components["families"].by_id()
    assert len(fams) == 12
    for fid, (group, colour_name, shape, glyph) in STATED_FAMILIES.items():
        f = fams[fid]
        assert (f["group"], f["colour_name"], f["shape"], f["glyph"]) == (group, colour_name, shape, glyph)
        assert f["stated_in_seed"] is True
    assert {fid for fid, f in fams.items() if f["stated_in_seed"]} == set(STATED_FAMILIES)
    for col in ("colour", "colour_name", "shape", "glyph", "name"):
        values = [f[col] for f in fams.values()]
        assert len(set(values)) == len(values), col
    palette = game.manifest["colors"]
    for fid, f in fams.items():
        assert palette["family_" + fid.replace("-", "_")].upper() == f["colour"]
        members = [r for r in elements if r["family"] == fid]
        assert len(members) == f["card_count"], fid
        if f["group"] is not None:
            assert {r["group"] for r in members} == {f["group"]}, fid


def test_families_follow_groups(elements):
    for r in elements:
        z, g, fam = r["atomic_number"], r["group"], r["family"]
        if 57 <= z <= 71:
            assert fam == "lanthanide"
        elif 89 <= z <= 103:
            assert fam == "actinide"
        elif 3 <= g <= 7:
            assert fam == "early-transition"
        elif 8 <= g <= 12:
            assert fam == "late-transition"
        else:
            assert fam == {1: "alkali", 2: "alkaline-earth", 13: "boron-group", 14: "carbon-group",
                           15: "pnictogen", 16: "chalcogen", 17: "halogen", 18: "noble-gas"}[g]
    assert {r.id for r in elements if r["family"] == "chalcogen"} == {"o", "s", "se", "te", "po", "lv"}
    assert {r.id for r in elements if r["family"] == "halogen"} == {"f", "cl", "br", "i", "at", "ts"}
    assert {r.id for r in elements if r["family"] == "alkali"} == {"h", "li", "na", "k", "rb", "cs", "fr"}
    assert {r.id for r in elements if r["family"] == "alkaline-earth"} == {"be", "mg", "ca", "sr", "ba", "ra"}


def test_ferromagnetic_cards(game, elements):
    assert {r.id for r in elements if r["ferromagnetic"]} == FERRO
    assert set(game.manifest["rules"]["ferromagnetic_cards"]) == FERRO
    for r in elements:
        icons = set(r.get("icons", ()))
        assert ("magnet" in icons) == (r.id in FERRO)
        assert ("metal" in icons) == r["metal"]
        assert ("radioactive" in icons) == r["radioactive"]
        assert ("combo" in icons) == (r.id in {"nd", "fe", "b", "co", "ni"})


def test_ferro_combo(game, by_id):
    slots = sorted(game.components["ferro_combo"].rows, key=lambda r: r["position"])
    assert [r["position"] for r in slots] == [1, 2, 3, 4]
    assert [set(r["accepts"]) for r in slots] == [{"nd"}, {"fe"}, {"b"}, {"co", "ni"}]
    assert game.manifest["rules"]["ferro_combo_size"] == 4


def test_temperature_cards(game, elements):
    temps = [r for r in game.components["cards"].rows if r["kind"] == "temperature"]
    assert sorted(r["temperature_k"] for r in temps) == TEMPERATURES
    assert game.manifest["rules"]["temperature_values_k"] == TEMPERATURES
    for r in temps:
        assert f"{r['temperature_k']} K" in r["rule_text"]
    others = [r for r in game.components["cards"].rows if r["kind"] != "temperature"]
    assert all(r["temperature_k"] is None for r in others)

    def melts(kelvin):
        return {r.id for r in elements if r["metal"] and r["melting_point_k"] is not None
                and r["melting_point_k"] <= kelvin}

    assert melts(300) == {"hg", "fr"}
    assert melts(600) == {"hg", "fr", "li", "na", "k", "rb", "cs", "ga", "in", "cd", "tl", "bi", "sn", "po"}
    assert "pb" not in melts(600) and "pb" in melts(1000)   # lead melts at 600.61 K
    assert "w" not in melts(2500)                          # tungsten outlasts every card
    assert "sn" in melts(600)                              # white tin melts at 505.08 K (README)


def test_action_cards(game):
    rows = game.components["cards"].rows
    for kind in ("fission", "fusion", "event-horizon", "temperature"):
        for r in (r for r in rows if r["kind"] == kind):
            assert r["rule_text"] and r["family"] is None and r["atomic_number"] is None
    rules = game.manifest["rules"]
    fams = game.components["families"].by_id()
    assert (rules["fission"]["remap_from"], rules["fission"]["remap_to"]) == ("chalcogen", "alkali")
    assert (rules["fusion"]["remap_from"], rules["fusion"]["remap_to"]) == ("chalcogen", "alkaline-earth")
    for key in ("fission", "fusion"):
        assert rules[key]["remap_from"] in fams and rules[key]["remap_to"] in fams


def test_rules_table(game):
    rules = game.manifest["rules"]
    assert rules["decay_full_rounds"] == 3
    assert rules["draw_when_unable_to_play"] == 1 and rules["may_play_drawn_card"] is True
    assert rules["melt_at_or_below"] is True and rules["melt_only_metals"] is True
    assert rules["empty_pile_free_shed"] is True and rules["event_horizon_wins"] is True
    assert rules["starting_hand"] * game.players_max < 118


def test_molecules(game, by_id):
    mols = game.components["molecules"].rows
    assert 12 <= len(mols) <= 20
    assert len({m["formula"] for m in mols}) == len(mols)
    stated = set(STATED_FAMILIES)
    for m in mols:
        els = m["elements"]
        assert len(set(els)) == len(els) >= 2, m.id
        assert all(by_id[e]["kind"] == "element" for e in els)
        symbols = set(re.findall(r"[A-Z][a-z]?", m["formula"].translate(SUBSCRIPTS)))
        assert symbols == {by_id[e]["symbol"] for e in els}, m.id
        assert any(by_id[e]["family"] in stated for e in els), m.id
    water = game.components["molecules"].by_id()["water"]
    assert water["formula"] == "H₂O" and set(water["elements"]) == {"h", "o"}


def test_reference_cards_list_every_molecule_once(game):
    listed = [m for r in game.components["reference"].rows for m in r.get("molecules", ())]
    assert sorted(listed) == sorted(game.components["molecules"].by_id())


def test_palette_is_hex(game):
    assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", v) for v in game.manifest["colors"].values())


# --------------------------------------------------------------------------------------------
# Element facts against mendeleev

METAL_SERIES = {"Alkali metals", "Alkaline earth metals", "Transition metals", "Poor metals",
                "Lanthanides", "Actinides"}


def _family(z: int, group: int | None) -> str:
    if 57 <= z <= 71:
        return "lanthanide"
    if 89 <= z <= 103:
        return "actinide"
    names = {1: "alkali", 2: "alkaline-earth", 13: "boron-group", 14: "carbon-group",
             15: "pnictogen", 16: "chalcogen", 17: "halogen", 18: "noble-gas"}
    if group in names:
        return names[group]
    return "early-transition" if group <= 7 else "late-transition"


def _melting_points(fetch_table) -> dict[int, float | None]:
    """mendeleev's Element.melting_point for every element, read from its tables in one go
    (same rule: one allotrope gives its value, two close values give the first, else none)."""
    pt = fetch_table("phasetransitions").sort_values("id")
    out: dict[int, float | None] = {}
    for z, grp in pt.groupby("atomic_number"):
        mps = [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
               for v in grp["melting_point"]]
        if len(mps) == 1:
            out[int(z)] = mps[0]
        elif len(mps) == 2 and None not in mps and math.isclose(*mps, rel_tol=1e-2):
            out[int(z)] = mps[0]
        else:
            out[int(z)] = None
    return out


# Where the data decides against mendeleev's own answer (README.md, "Element facts decided").
DECIDED_NAMES = {13: "Aluminium", 55: "Caesium"}
DECIDED_METALS = {84: True}                                     # polonium
DECIDED_NO_GROUP = {57, 89}                                     # La and Ac: f-block cards
DECIDED_MELTING = {15: 317.30, 16: 388.36, 34: 493.95, 50: 505.08}   # highest allotrope melting point


def test_elements_match_mendeleev(elements):
    pytest.importorskip("mendeleev")
    from mendeleev.fetch import fetch_table

    table = fetch_table("elements")
    series = dict(zip(fetch_table("series")["id"], fetch_table("series")["name"]))
    mps = _melting_points(fetch_table)
    rows = {r["atomic_number"]: r for r in elements}
    assert len(table) == 118
    for rec in table.itertuples():
        z = int(rec.atomic_number)
        row = rows[z]
        group = None if rec.group_id is None or math.isnan(rec.group_id) else int(rec.group_id)
        assert row["symbol"] == rec.symbol, z
        assert row["title"] == DECIDED_NAMES.get(z, rec.name), z
        assert row["group"] == (None if z in DECIDED_NO_GROUP else group), z
        assert row["period"] == int(rec.period), z
        assert row["family"] == _family(z, group), z
        assert row["radioactive"] == bool(rec.is_radioactive), z
        assert row["metal"] == DECIDED_METALS.get(z, series[rec.series_id] in METAL_SERIES), z
        want = DECIDED_MELTING.get(z, mps.get(z))
        if want is None:
            assert row["melting_point_k"] is None, z
        else:
            assert row["melting_point_k"] is not None and abs(row["melting_point_k"] - want) < 0.01, z


@pytest.mark.parametrize("symbol", ["H", "Fe", "Hg", "Pb", "Tc"])
def test_melting_point_matches_element_accessor(by_id, symbol):
    """The table reading above agrees with mendeleev.element(...).melting_point itself."""
    pytest.importorskip("mendeleev")
    from mendeleev import element

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        el = element(symbol)
        want = el.melting_point
    have = by_id[symbol.lower()]["melting_point_k"]
    if want is None:
        assert have is None
    else:
        assert abs(have - want) < 0.01
    assert by_id[symbol.lower()]["radioactive"] == bool(el.is_radioactive)
