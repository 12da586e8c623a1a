"""Data tests for the bundled game Assemble! (card_data/assemble)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from conftest import CARD_DATA
from pnp.model.games import GameSource
from pnp.validate.check import check_game
from pnp.model.load import load_game

GAME_DIR = CARD_DATA / "assemble"
TEAM_INSIGNIAS = ("aegis", "comet", "forge", "shade", "wildkin", "arcanum")
ICONS = ("might", "tech", "mystic", "speed", "stealth")
MIN_HEROES_PER_INSIGNIA = 6  # enough for any group a 7-card hand can hold to score
MAX_TEXT = 90

HERO_RULE = re.compile(
    r"^(flat:\d+"
    r"|per_icon:(?P<i1>\w+):\d+"
    r"|per_insignia:(?P<s1>\w+):\d+"
    r"|per_public:\d+|per_hidden:\d+|per_distinct_insignia:\d+|per_missing_insignia:\d+"
    r"|per_icon_kind:\d+|per_maverick:\d+|if_alone:\d+"
    r"|if_icon_min:(?P<i2>\w+):\d+:\d+"
    r"|if_no_icon:(?P<i3>\w+):\d+"
    r"|most_icon:(?P<i4>\w+):\d+)$")
TEAM_RULE = re.compile(
    r"^(by_count:\d+(/\d+)*|per_pair:\d+|per_card:\d+|per_card_min:\d+:\d+"
    r"|per_icon_in_group:(?P<i1>\w+):\d+)$")
MAVERICK_CODES = {"counts_twice_for_team", "counts_as_any_insignia", "extra_icon_any",
                  "copy_hero_score", "wins_icon_ties", "swap_with_row", "peek_hand",
                  "arrange_deck:3", "lead_and_recruit_again"}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def heroes(game):
    return [r for r in game.components["heroes"].rows if not r["special"]]


@pytest.fixture(scope="module")
def cards(game):
    return game.components["heroes"].by_id()


def test_check_reports_no_errors():
    _, findings = check_game(GameSource(GAME_DIR, "card_data/assemble"))
    assert [f for f in findings if f.severity == "error"] == []


def test_component_counts(game, heroes):
    assert sum(r.copies for r in heroes) == 43
    special = [r for r in game.components["heroes"].rows if r["special"]]
    assert [r.id for r in special] == ["el-numero-uno"] and special[0].copies == 1
    ref = game.components["reference_cards"]
    assert Counter(r["kind"] for r in ref.rows for _ in range(r.copies)) == \
        {"clarification": 1, "paragon-rules": 1}
    assert game.components["first_player_token"].pieces == 1
    stated = {(t.component, t.where): t.count for t in game.totals}
    assert stated[("heroes", (("special", False),))] == 43
    assert stated[("heroes", (("special", True),))] == 1
    assert all(t.source == "Components" for t in game.totals) and len(game.totals) == 5


def test_decks_have_backs_sizes_and_layouts(game):
    for cid in ("heroes", "reference_cards"):
        comp = game.components[cid]
        assert comp.card_size_name == "poker"
        assert all(comp.back_of(r) for r in comp.rows)
        assert all(comp.layout_of(r) for r in comp.rows)
    assert game.components["heroes"].back == "hero-back"
    colors = game.manifest["colors"]
    for name in ("hero-back", "reference-back", *TEAM_INSIGNIAS, "uno", *ICONS):
        assert re.fullmatch(r"#[0-9A-F]{6}", colors[name])


def test_el_numero_uno(cards):
    uno = cards["el-numero-uno"]
    assert uno["name"] == "El Número Uno"
    assert uno["special"] and uno["layout"] == "el-numero-uno"
    assert uno["public_identity"]  # he is kept in front of the player who recruits him
    assert uno["insignia"] == "uno" and uno.get("team_score_rule") is None
    assert uno["maverick_rule"] == "lead_and_recruit_again"
    assert HERO_RULE.match(uno["hero_score_rule"])


def test_unique_ids_and_names(game):
    rows = game.components["heroes"].rows
    names = [r["name"] for r in rows]
    assert len(set(names)) == len(names) == 44
    assert len({r.id for r in rows}) == 44
    assert all(r.copies == 1 for r in rows)


def test_every_hero_has_both_scores_and_fits_a_card(heroes):
    for r in heroes:
        assert r["layout"] == "hero"
        assert r.get("team_score") and r.get("team_score_rule"), r.id
        for col in ("hero_score", "team_score", "maverick"):
            assert len(r.get(col, "")) <= MAX_TEXT, (r.id, col)


def test_insignias_are_spread_for_team_scoring(game, heroes):
    per = Counter(r["insignia"] for r in heroes)
    assert set(per) == set(TEAM_INSIGNIAS) == set(game.manifest["rules"]["team_insignias"])
    assert min(per.values()) >= MIN_HEROES_PER_INSIGNIA
    assert per == {"aegis": 8, "comet": 7, "forge": 7, "shade": 7, "wildkin": 7, "arcanum": 7}


def test_team_rule_is_the_insignias(game, heroes):
    table = game.components["insignias"].by_id()
    assert set(table) == set(TEAM_INSIGNIAS) | {"uno"}
    for r in heroes:
        ins = table[r["insignia"]]
        assert r["team_score_rule"] == ins["team_score_rule"], r.id
        assert r["team_score"] == ins["team_score"], r.id
    assert table["aegis"]["team_score_rule"] == "by_count:1/3/6/10/15/21"
    assert table["uno"].get("team_score_rule") is None


def test_rules_parse_and_name_existing_icons_and_insignias(game, heroes, cards):
    on_cards = {i for r in cards.values() for i in r.get("icons", ())}
    assert on_cards == set(ICONS) == set(game.components["icons"].by_id())
    for r in cards.values():
        m = HERO_RULE.match(r["hero_score_rule"])
        assert m, (r.id, r["hero_score_rule"])
        for key in ("i1", "i2", "i3", "i4"):
            if m.group(key):
                assert m.group(key) in on_cards, r.id
        if m.group("s1"):
            assert m.group("s1") in TEAM_INSIGNIAS, r.id
        if r.get("maverick"):
            assert r.get("maverick_timing") and r.get("maverick_rule") in MAVERICK_CODES, r.id
        else:
            assert r.get("maverick_timing") is None and r.get("maverick_rule") is None, r.id
    for r in heroes:
        m = TEAM_RULE.match(r["team_score_rule"])
        assert m, (r.id, r["team_score_rule"])
        if m.group("i1"):
            assert m.group("i1") in on_cards


def test_variety(heroes):
    kinds = Counter(r["hero_score_rule"].split(":")[0] for r in heroes)
    assert len(kinds) >= 10 and max(kinds.values()) <= 12
    publics = sum(r["public_identity"] for r in heroes)
    assert 15 <= publics <= 28
    mavericks = [r for r in heroes if r.get("maverick")]
    assert 6 <= len(mavericks) <= 12
    assert len({r["maverick"] for r in mavericks}) >= len(mavericks) - 2
    powers = [r["power"] for r in heroes]
    assert min(powers) >= 1 and max(powers) <= 9 and len(set(powers)) >= 7


def test_round_arithmetic_and_player_count(game):
    rules = game.manifest["rules"]
    assert rules["rounds"] == 6 and rules["final_hand"] == 7
    per_round = rules["draw_per_round"] - rules["offer_per_round"] + rules["recruit_per_round"]
    assert rules["starting_hand"] + rules["rounds"] * per_round == rules["final_hand"]
    deck = rules["hero_deck_size"]
    assert deck == 43

    def needed(players, row_card_in_round_one=False):
        hands = players * (rules["starting_hand"] + rules["rounds"] * rules["draw_per_round"])
        row = rules["row_cards_at_setup"] + rules["row_cards_added_per_round"] * (
            rules["rounds"] - (0 if row_card_in_round_one else 1))
        return hands + row

    assert needed(1) == rules["deck_cards_per_player"] + rules["deck_cards_fixed"]
    biggest = max(n for n in range(1, 20) if needed(n) <= deck)
    assert biggest == game.players_max == 5
    assert needed(5, row_card_in_round_one=True) == 42 <= deck  # also fits the stricter reading
    assert needed(6) > deck and game.players_min == 2
    # the recruiting row always holds enough heroes: 1 new + 1 per player, with at most
    # players + 1 heroes taken (El Número Uno's recruiter takes a second card)
    for n in range(game.players_min, game.players_max + 1):
        assert rules["row_cards_added_per_round"] + n * rules["offer_per_round"] >= n + 1


# --- a small scorer for the notation in README.md ------------------------------------------

def _icons(hand):
    return Counter(i for c in hand for i in c.get("icons", ()))


def _hero_score(card, hand, rivals=()):
    kind, *a = card["hero_score_rule"].split(":")
    icons = _icons(hand)
    n = [int(x) for x in a if x.isdigit()]
    if kind == "flat":
        return n[0]
    if kind == "per_icon":
        return icons[a[0]] * n[0]
    if kind == "per_insignia":
        return sum(c["insignia"] == a[0] for c in hand) * n[0]
    if kind == "per_public":
        return sum(c["public_identity"] for c in hand) * n[0]
    if kind == "per_hidden":
        return sum(not c["public_identity"] for c in hand) * n[0]
    if kind == "most_icon":
        return n[0] if all(icons[a[0]] > _icons(r)[a[0]] for r in rivals) else 0
    if kind == "if_icon_min":
        return n[1] if icons[a[0]] >= n[0] else 0
    raise NotImplementedError(kind)


def _team_score(insignia, hand):
    group = [c for c in hand if c["insignia"] == insignia]
    size = sum(2 if c.get("maverick_rule") == "counts_twice_for_team" else 1 for c in group)
    kind, *a = group[0]["team_score_rule"].split(":")
    if kind == "by_count":
        table = [int(x) for x in a[0].split("/")]
        return table[min(size, len(table)) - 1]
    if kind == "per_card_min":
        return size * int(a[1]) if size >= int(a[0]) else 0
    if kind == "per_icon_in_group":
        return sum(c.get("icons", ()).count(a[0]) for c in group) * int(a[1])
    if kind == "per_pair":
        return size // 2 * int(a[0])
    if kind == "per_card":
        return size * int(a[0])
    raise NotImplementedError(kind)


def _score(hand, rivals=()):
    heroes = sum(_hero_score(c, hand, rivals) for c in hand)
    teams = sum(_team_score(i, hand) for i in {c["insignia"] for c in hand})
    return heroes, teams


def test_sample_hand_scores(cards):
    hand = [cards[i] for i in ("captain-keystone", "gatewarden", "old-lighthouse", "rivet-rosa",
                               "coil-commander", "velvet-whisper", "seer-ondine")]
    # might 4, tech 4, mystic 3; hidden heroes 3; Aegis group counts 4 (Old Lighthouse twice)
    assert _score(hand) == (4 + 3 + 1 + 4 + 1 + 3 + 3, 10 + 4 + 0 + 2)


def test_sample_rivalry_and_thresholds(cards):
    shade = [cards[i] for i in ("cipher-jones", "ashen-moth", "murmur", "big-hush")]
    rival = [cards[i] for i in ("the-understudy", "burrow-bo", "kid-buckler")]
    # stealth 1+1+2+1 = 5 against 2; Shade group of 4 scores 3 each
    assert _score(shade, [rival]) == (5 + 5 + 2 + 4, 12)
    comet = [cards[i] for i in ("lumen-twins", "meteor-maddox", "vela-starling")]
    # speed 2+1+1 = 4 reaches Meteor Maddox's threshold; Comet counts 4: two pairs
    assert _score(comet) == (2 + 6 + 4, 10)


def test_reference_cards_and_paragon_mode(game):
    ref = game.components["reference_cards"].by_id()
    for row in ref.values():
        assert len(row["text"]) <= 450 and row["text"].count("\n") <= 6
    assert "El Número Uno" in ref["clarification"]["text"]
    assert "power" in ref["paragon-rules"]["text"]
    paragon = game.manifest["rules"]["paragon"]
    assert paragon["invented"] is True
    assert paragon["majority_stars"] == 3 and paragon["tied_majority_stars"] == 1
