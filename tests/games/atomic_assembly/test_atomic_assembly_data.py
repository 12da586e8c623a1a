"""The bundled Atomic Assembly data holds the facts its rules state."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest

from conftest import CARD_DATA
from pnp.model.games import GameSource
from pnp.validate.check import check_game
from pnp.model.load import load_game

GAME_DIR = CARD_DATA / "atomic-assembly"

CHEMISTRY = {  # symbol: (name, atomic number)
    "H": ("Hydrogen", 1), "C": ("Carbon", 6), "N": ("Nitrogen", 7), "O": ("Oxygen", 8),
    "Ne": ("Neon", 10), "Na": ("Sodium", 11), "Si": ("Silicon", 14), "S": ("Sulfur", 16),
    "Cl": ("Chlorine", 17), "Cr": ("Chromium", 24), "Mn": ("Manganese", 25), "Fe": ("Iron", 26),
    "Cu": ("Copper", 29), "Zn": ("Zinc", 30), "Sn": ("Tin", 50),
}
COLOURS = ("red", "green", "yellow")

STANDARD = {  # id: (number, points, cost)
    "coastal-monument": (1, 1, "Cu + Sn"),
    "highland-relay": (2, 2, "Cu + Zn"),
    "observatory-lens": (3, 3, "Si + O"),
    "preservation-vault": (4, 4, "Na + Cl"),
    "research-station": (5, 5, "1 yellow + 2 any"),
    "sealed-construct": (6, 6, "1 green + 2 any"),
    "magnet-array": (7, 7, "2 yellow + 2 any"),
    "foundry": (8, 8, "Fe + C + (Cr | Mn)"),
    "acid-processing-plant": (9, 9, "S + O + H"),
}
REQUIRED = {  # id: (cost, proof token label)
    "aqueduct": ("2 H + O", "H2O"),
    "fertilizer-engine": ("N + 3 H", "NH3"),
    "power-cell": ("1 green + 3 any", "POW"),
}

_TERM = re.compile(r"^(?:(\d+) )?(\([A-Z][a-z]?(?: \| [A-Z][a-z]?)+\)|[A-Z][a-z]?|red|green|yellow|any)$")


def parse_cost(cost: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """The README's cost notation as (count, kind, options); kind is symbol, choice, colour or any."""
    terms = []
    for part in cost.split(" + "):
        m = _TERM.match(part)
        assert m, f"cost term {part!r} of {cost!r} does not parse"
        count, thing = int(m.group(1) or 1), m.group(2)
        assert count >= 1
        if thing.startswith("("):
            terms.append((count, "choice", tuple(thing[1:-1].split(" | "))))
        elif thing in COLOURS:
            terms.append((count, "colour", (thing,)))
        elif thing == "any":
            terms.append((count, "any", ()))
        else:
            terms.append((count, "symbol", (thing,)))
    return terms


def can_pay(cost: str, hand: list[tuple[str, str]]) -> bool:
    """Whether element cards (symbol, deck) pay the cost, each card filling one place."""
    places = []
    for count, kind, options in parse_cost(cost):
        for _ in range(count):
            if kind in ("symbol", "choice"):
                places.append(lambda card, o=options: card[0] in o)
            elif kind == "colour":
                places.append(lambda card, o=options: card[1] == o[0])
            else:
                places.append(lambda card: True)
    if len(places) > len(hand):
        return False
    # try every assignment of distinct cards to places (hands here are tiny)
    return any(all(fits(card) for fits, card in zip(places, chosen))
               for chosen in itertools.permutations(hand, len(places)))


def pool_pays(cost: str, pool: Counter) -> bool:
    """Greedy check that a pool of (symbol, deck) card copies covers the cost, specific places first."""
    pool = Counter(pool)
    order = {"symbol": 0, "choice": 1, "colour": 2, "any": 3}
    for count, kind, options in sorted(parse_cost(cost), key=lambda t: order[t[1]]):
        for _ in range(count):
            if kind in ("symbol", "choice"):
                choices = [c for c in pool if c[0] in options and pool[c] > 0]
            elif kind == "colour":
                choices = [c for c in pool if c[1] == options[0] and pool[c] > 0]
            else:
                choices = [c for c in pool if pool[c] > 0]
            if not choices:
                return False
            best = max(choices, key=lambda c: pool[c])
            pool[best] -= 1
    return True


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def element_pool(game):
    """Every element card in the box (Wild cards left out) as (symbol, deck) with its copies."""
    pool = Counter()
    for row in game.components["elements"].rows:
        if row["card_type"] == "element":
            pool[(row["symbol"], row["deck"])] += row.copies
    return pool


def test_check_finds_no_errors():
    loaded, findings = check_game(GameSource(GAME_DIR, "card_data/atomic-assembly"))
    assert loaded is not None
    assert [f for f in findings if f.severity == "error"] == []


def test_every_stated_total_is_met(game):
    stated = {(t.component, t.where): t.count for t in game.totals}
    assert stated[("blueprints", ())] == 12
    assert stated[("blueprints", (("group", "standard"),))] == 9
    assert stated[("blueprints", (("group", "required"),))] == 3
    assert stated[("track", (("track", "main"),))] == 34
    assert stated[("track", (("kind", "hazard"),))] == 2
    assert stated[("track", (("kind", "wild"),))] == 2
    assert stated[("pawns", ())] == 4
    for total in game.totals:
        assert game.count(total) == total.count, total.label


def test_players_and_setup_rules(game):
    assert (game.players_min, game.players_max) == (2, 4)
    rules = game.manifest["rules"]
    assert rules["hand_limit"] == 12
    assert rules["starting_hand"] == {"red": 1, "green": 1}
    assert rules["actions_per_turn"] == 1
    assert rules["actions"] == ["roll-and-move", "build", "discard", "declare-victory"]
    assert rules["dice"] == "2d6"
    assert rules["direction"] == "clockwise"
    assert rules["hazard_penalty"] == 20
    assert rules["proof_token_points"] == 10
    assert rules["repeat_required_points"] == 10
    assert rules["hazard_spaces"] == [1, 18] and rules["wild_spaces"] == [8, 25]


def test_element_cards_are_correct_chemistry(game):
    deck = game.components["elements"]
    seen = set()
    for row in deck.rows:
        assert deck.back_of(row) == f"{row['deck']}-back"
        if row["card_type"] == "wild":
            assert row["deck"] == "red" and deck.layout_of(row) == "wild"
            assert row.get("symbol") is None and row.get("atomic_number") is None
            continue
        name, number = CHEMISTRY[row["symbol"]]
        assert (row["name"], row["atomic_number"]) == (name, number)
        assert row.id == row["symbol"].lower()
        assert row.copies > 0
        seen.add(row["symbol"])
    assert seen == set(CHEMISTRY)  # every element a blueprint needs, plus neon


def test_three_decks_each_with_own_back(game):
    deck = game.components["elements"]
    backs = {row["deck"]: deck.back_of(row) for row in deck.rows}
    assert backs == {"red": "red-back", "green": "green-back", "yellow": "yellow-back"}
    sizes = Counter()
    for row in deck.rows:
        sizes[row["deck"]] += row.copies
    assert sizes == {"red": 32, "green": 24, "yellow": 24}
    wild = deck.by_id()["wild"]
    assert wild.copies == 4 and wild["deck"] == "red"
    hydrogen = deck.by_id()["h"]
    assert all(hydrogen.copies >= r.copies for r in deck.rows)  # H is the most common card


def test_blueprint_costs_and_points(game):
    rows = game.components["blueprints"].by_id()
    assert set(rows) == set(STANDARD) | set(REQUIRED)
    for bid, (number, points, cost) in STANDARD.items():
        row = rows[bid]
        assert (row["group"], row["number"], row["points"], row["cost"]) == ("standard", number, points, cost)
        assert row["wild_cards_allowed"] is True and row["wild_tokens_allowed"] is False
        assert row.get("proof_token") is None
    tokens = game.components["tokens"].by_id()
    for bid, (cost, label) in REQUIRED.items():
        row = rows[bid]
        assert (row["group"], row["cost"], row.get("points")) == ("required", cost, None)
        assert tokens[row["proof_token"]]["label"] == label
        assert row["repeat_points"] == 10
        assert row["wild_cards_allowed"] is False and row["wild_tokens_allowed"] is True
    for row in rows.values():
        assert row.copies == 1
        assert sum(count for count, _, _ in parse_cost(row["cost"])) == row["card_count"]
        assert game.components["blueprints"].back_of(row) == "blueprint-back"


def test_every_blueprint_buildable_from_element_cards(game, element_pool):
    for row in game.components["blueprints"].rows:
        assert pool_pays(row["cost"], element_pool), row.id
    # the exact needs named by the rules
    assert element_pool[("H", "red")] >= 3 and element_pool[("O", "red")] >= 1
    assert sum(n for (_, d), n in element_pool.items() if d == "green") >= 1
    assert sum(n for (_, d), n in element_pool.items() if d == "yellow") >= 2


def test_starting_hand_builds_nothing(game):
    """One Red element card and one Green card pay for no blueprint (build only after a roll)."""
    deck = game.components["elements"]
    reds = [(r["symbol"], "red") for r in deck.rows if r["deck"] == "red" and r["card_type"] == "element"]
    greens = [(r["symbol"], "green") for r in deck.rows if r["deck"] == "green"]
    for red, green in itertools.product(reds, greens):
        for bp in game.components["blueprints"].rows:
            assert not can_pay(bp["cost"], [red, green]), (red, green, bp.id)
    # the payer itself works: a real Aqueduct hand is accepted
    assert can_pay("2 H + O", [("H", "red"), ("O", "red"), ("H", "red")])
    assert not can_pay("Fe + C + (Cr | Mn)", [("Fe", "green"), ("C", "red"), ("Zn", "green")])


def test_track_spaces(game):
    track = game.components["track"]
    assert track.pieces == 1
    assert track.options["size"] == "500mm x 500mm"
    assert track.options["direction"] == "clockwise"
    assert "start" in track.options
    spaces = sorted(track.rows, key=lambda r: r["space"])
    assert [r["space"] for r in spaces] == list(range(1, 35))
    kinds = {r["space"]: r["kind"] for r in spaces}
    assert [s for s, k in kinds.items() if k == "hazard"] == [1, 18]
    assert [s for s, k in kinds.items() if k == "wild"] == [8, 25]
    elements = [r for r in spaces if r["kind"] == "element"]
    assert len(elements) == 30
    assert [r["deck"] for r in elements] == [COLOURS[i % 3] for i in range(30)]
    assert Counter(r["deck"] for r in elements) == {"red": 10, "green": 10, "yellow": 10}
    assert all(r.get("deck") is None for r in spaces if r["kind"] != "element")
    assert Counter(r["side"] for r in spaces) == {"top": 9, "right": 8, "bottom": 9, "left": 8}


def test_tokens_and_pawns(game):
    tokens = game.components["tokens"].by_id()
    proof = {t["label"]: t.copies for t in tokens.values() if t["token_type"] == "proof"}
    assert proof == {"H2O": 4, "NH3": 4, "POW": 4}  # one of each for four players
    assert tokens["wild-token"].copies == 16
    assert all(t["shape"] == "circle" for t in tokens.values())
    pawns = game.components["pawns"]
    assert pawns.pieces == 4
    assert {p["shape"] for p in pawns.rows} == {"standee"}
    assert len({p["color"] for p in pawns.rows}) == 4


def test_player_reference(game):
    ref = game.components["reference"]
    assert ref.pieces == 4
    text = ref.rows[0]["text"]
    for fact in ("Roll and move", "Build", "Discard", "Declare victory", "12", "20",
                 "1, 18", "8, 25", "clockwise"):
        assert fact in text


def test_palette(game):
    colors = game.manifest["colors"]
    for name in ("red", "green", "yellow", "player_blue", "player_purple", "player_orange",
                 "player_white"):
        assert re.fullmatch(r"#[0-9A-F]{6}", colors[name])
