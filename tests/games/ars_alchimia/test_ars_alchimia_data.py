"""Facts of the Ars Alchimia rulebook, checked against the bundled data."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from conftest import CARD_DATA
from pnp.model.games import GameSource
from pnp.validate.check import check_game
from pnp.model.load import load_game

GAME_DIR = CARD_DATA / "ars-alchimia"
BASIC = ("flower", "snow", "fire", "sand")
ALL_RESOURCES = BASIC + ("elixir",)
TERM_RE = re.compile(r"^(\d+) (flower|snow|fire|sand|elixir)$")
RANK_BONUS = {"C": 0, "B": 2, "A": 4}


def parse_cost(text: str) -> dict[str, int]:
    """'1 flower + 2 fire' -> {'flower': 1, 'fire': 2}; strict about the documented notation."""
    out: dict[str, int] = {}
    for term in text.split(" + "):
        m = TERM_RE.match(term)
        assert m, f"bad cost term {term!r} in {text!r}"
        n, res = int(m.group(1)), m.group(2)
        assert n >= 1 and res not in out, text
        out[res] = n
    order = [r for r in ALL_RESOURCES if r in out]
    assert list(out) == order, f"terms of {text!r} are not in flower, snow, fire, sand, elixir order"
    return out


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


def test_check_has_no_errors():
    loaded, findings = check_game(GameSource(GAME_DIR, "card_data/ars-alchimia"))
    assert loaded is not None
    assert [f for f in findings if f.severity == "error"] == []


def test_player_counts(game):
    assert (game.players_min, game.players_max) == (3, 4)


def test_component_counts(game):
    c = game.components
    assert c["factory"].pieces == 4
    assert c["orders"].pieces == 42
    assert c["locations"].pieces == 10
    assert c["assistants"].pieces == 20
    assert c["forges"].pieces == 8
    assert c["player_board"].pieces == 4
    assert c["cubes"].pieces == 20
    assert c["workers"].pieces == 80
    assert c["point_markers"].pieces == 4
    assert c["die"].pieces == 1
    assert c["board"].pieces == 1


def test_every_deck_is_poker_with_its_own_back(game):
    backs = set()
    for cid in ("factory", "orders", "locations", "assistants", "forges"):
        comp = game.components[cid]
        assert comp.card_size_name == "poker"
        deck_backs = {comp.back_of(r) for r in comp.rows}
        assert None not in deck_backs and not deck_backs & backs, cid
        backs |= deck_backs


def test_cubes_and_workers_per_colour(game):
    cubes = Counter()
    for r in game.components["cubes"].rows:
        cubes[r["resource"]] += r.copies
    assert cubes == {res: 4 for res in ALL_RESOURCES}
    assert len({r["colour"] for r in game.components["cubes"].rows}) == 5
    workers = Counter()
    for r in game.components["workers"].rows:
        workers[r["player_colour"]] += r.copies
    assert len(workers) == 4 and set(workers.values()) == {20}
    markers = {r["player_colour"] for r in game.components["point_markers"].rows}
    assert markers == set(workers)


def test_factory_cards(game):
    rows = sorted(game.components["factory"].rows, key=lambda r: r["number"])
    assert [r["number"] for r in rows] == [1, 2, 3, 4]
    assert [r["turn_position"] for r in rows] == [1, 2, 3, 4]
    gains = [r["workers_gained"] for r in rows]
    assert gains == sorted(gains) and gains[0] >= 1  # playing later is paid in workers
    assert [r.id for r in rows if not r["used_with_3_players"]] == ["factory-4"]
    rules = game.manifest["rules"]
    # the worker limits can be reached within four rounds, with 4 and with 3 players
    assert rules["starting_workers"] + rules["rounds"] * max(gains) >= rules["max_workers_4_players"]
    gains3 = [r["workers_gained"] for r in rows if r["used_with_3_players"]]
    assert rules["starting_workers"] + rules["rounds"] * max(gains3) >= rules["max_workers_3_players"]


def test_spots(game):
    rows = game.components["board_spots"].rows
    spots = [r for r in rows if r["worker_spot"]]
    assert len(spots) == 16
    assert Counter(r["area"] for r in spots) == {"order": 6, "location": 4, "forge": 3, "assistant": 3}
    assert Counter(r["order_rank"] for r in spots if r["area"] == "order") == {"C": 3, "B": 2, "A": 1}
    assert all(r["order_rank"] is None for r in rows if r["area"] != "order")
    decks = sorted(r["area"] for r in spots if r["face_down_deck"])
    assert decks == ["forge", "location"]
    four_only = [r for r in spots if r["four_player_only"]]
    assert [r["area"] for r in four_only] == ["assistant"]
    assert len(spots) - len(four_only) == 15
    square = [r for r in rows if r["area"] == "town-square"]
    assert len(square) == 1 and not square[0]["worker_spot"]
    assert square[0]["board_column"] == 0  # on the left side, by the fountain
    board = game.components["board"]
    assert board.options["spots_table"] == "board_spots"
    assert board.options["size"] == "500mm x 500mm"


def test_player_board_resources(game):
    res = game.components["player_board"].by_id()
    assert set(res) == set(ALL_RESOURCES)
    assert {k: r["starting_amount"] for k, r in res.items()} == {
        "flower": 1, "snow": 1, "fire": 1, "sand": 0, "elixir": 0}
    assert all(r["starting_amount"] <= r["capacity"] for r in res.values())
    assert len({r["colour"] for r in res.values()}) == 5
    cubes = {r["resource"]: r for r in game.components["cubes"].rows}
    for k, r in res.items():
        assert cubes[k]["colour"] == r["colour"] and cubes[k]["cube_colour"] == r["cube_colour"]
    assert game.components["player_board"].options["order_slots"] == game.manifest["rules"]["order_slots"]


def test_orders_ranks_and_types(game):
    rows = game.components["orders"].rows
    per_rank = Counter(r["rank"] for r in rows)
    assert per_rank["C"] > per_rank["B"] > per_rank["A"] > 0
    for rank in "CBA":
        types = Counter(r["type"] for r in rows if r["rank"] == rank)
        assert set(types) == {"daily", "industrial", "mythic", "academic"}, rank
    academic = Counter(r["rank"] for r in rows if r["type"] == "academic")
    # two academic orders are needed for rank A; several must reach the C and B slots
    assert academic["C"] >= 4 and academic["B"] >= 3
    for r in rows:
        assert r["back"] == f"order-{r['rank'].lower()}-back"
    assert len({r["item_name"] for r in rows}) == 42


def test_order_points_follow_cost_and_rank(game):
    for r in game.components["orders"].rows:
        cost = parse_cost(r["cost"])
        assert "elixir" not in cost
        total = sum(cost.values())
        assert {"C": (2, 3), "B": (4, 5), "A": (6, 7)}[r["rank"]][0] <= total <= \
            {"C": (2, 3), "B": (4, 5), "A": (6, 7)}[r["rank"]][1], r.id
        assert r["points"] == total + cost.get("sand", 0) + RANK_BONUS[r["rank"]], r.id
    by_id = game.components["orders"].by_id()
    assert parse_cost(by_id["order-a-06"]["cost"]) == {"flower": 2, "snow": 1, "fire": 1, "sand": 3}
    assert by_id["order-a-06"]["points"] == 14
    assert by_id["order-c-06"]["points"] == 2


def test_every_order_is_payable(game):
    cap = {k: r["capacity"] for k, r in game.components["player_board"].by_id().items()}
    for r in game.components["orders"].rows:
        need = parse_cost(r["cost"])
        # holdable without elixir at all
        assert all(n <= cap[k] for k, n in need.items()), r.id
        # and with elixir standing in for what the tracks cannot hold
        short = sum(max(0, n - cap[k]) for k, n in need.items())
        assert short <= cap["elixir"], r.id
        assert sum(need.values()) <= sum(cap.values())


def test_locations(game):
    basics_seen = set()
    for r in game.components["locations"].rows:
        gather = parse_cost(r["gather"])
        bonus = parse_cost(r["bonus"])
        assert "elixir" not in gather and len(bonus) == 1 and sum(bonus.values()) == 1
        assert 2 <= r["bonus_threshold"] <= game.manifest["rules"]["die_faces"]
        basics_seen |= set(gather)
    assert basics_seen == set(BASIC)


def test_forges(game):
    rows = game.components["forges"].rows
    assert all(1 <= r["transmutations"] <= 3 for r in rows)
    assert all(2 <= r["perfect_threshold"] <= 6 for r in rows)
    # better forges are harder to have a perfect day at
    for a in rows:
        for b in rows:
            if a["transmutations"] < b["transmutations"]:
                assert a["perfect_threshold"] <= b["perfect_threshold"]


def test_assistants(game):
    rows = game.components["assistants"].by_id()
    assert all(r["upkeep_workers"] == 1 for r in rows.values())
    assert any(r["once_per_round"] for r in rows.values())
    assert any(not r["once_per_round"] for r in rows.values())
    nymph = rows["nymph"]
    assert "Nymph" in nymph["name"]
    assert "assistant" in nymph["skill"] and "gain 1" in nymph["skill"]
    assert "fourth" in rows["ledger-clerk"]["skill"]
    assert len({r["name"] for r in rows.values()}) == 20


def test_rules_numbers(game):
    rules = game.manifest["rules"]
    assert rules["rounds"] == 4
    assert rules["order_slots"] == 3
    assert rules["unfulfilled_order_penalty_divisor"] == 2
    assert rules["unfulfilled_order_penalty_rounding"] == "down"
    assert rules["type_bonus"] == [0, 1, 3, 6, 9, 12]
    assert rules["perfect_transmutation_bonus"] == {"C": 1, "B": 2, "A": 3}
    assert rules["perfect_elixir_bonus"] == 1
    assert rules["elixir_inputs"] == 2 and rules["elixir_inputs_must_differ"] is True
    assert rules["starting_workers"] == 9
    assert rules["max_workers_4_players"] == 20 and rules["max_workers_3_players"] == 18
    assert rules["academic_orders_for_rank_b"] == 1 and rules["academic_orders_for_rank_a"] == 2
    assert rules["any_rank_from_round"] == 4
    setup = rules["setup"]
    assert setup["face_up_orders"] == {"C": 3, "B": 2, "A": 1}
    assert (setup["face_up_locations"], setup["face_up_forges"]) == (3, 2)
    assert (setup["face_up_assistants"], setup["face_up_assistants_3_players"]) == (3, 2)
    three = rules["three_players"]
    assert three["removed_factory_cards"] == ["factory-4"]
    assert three["removed_worker_colours"] == 1 and three["removed_workers_per_other_colour"] == 2
    assert three["assistant_spots"] == 2


def test_setup_fits_the_board_and_box(game):
    rules = game.manifest["rules"]
    spots = [r for r in game.components["board_spots"].rows if r["worker_spot"]]
    face_up = Counter(r["area"] for r in spots if not r["face_down_deck"])
    setup = rules["setup"]
    assert face_up["order"] == sum(setup["face_up_orders"].values())
    assert face_up["location"] == setup["face_up_locations"]
    assert face_up["forge"] == setup["face_up_forges"]
    assert face_up["assistant"] == setup["face_up_assistants"]
    assert face_up["assistant"] - sum(r["four_player_only"] for r in spots) == setup["face_up_assistants_3_players"]
    # workers: each colour holds exactly the 4-player maximum; with 3 players, removing 2 of each
    # remaining colour leaves exactly the 3-player maximum
    per_colour = {r["copies"] for r in game.components["workers"].rows}
    assert per_colour == {rules["max_workers_4_players"]}
    assert rules["max_workers_4_players"] - rules["three_players"]["removed_workers_per_other_colour"] \
        == rules["max_workers_3_players"]
    # one cube per colour per player
    assert game.components["cubes"].pieces == game.components["player_board"].pieces * 5
