"""Every rule of `pnp check` fires on a mutated copy of the bundled data, at the right place.

Each case copies a bundled game folder to a temporary folder, changes one thing a designer might
get wrong (a cell, a [rules] number, a row), runs the checks and asserts that the rule's finding
is reported at the expected file, line, column and column name. The unmutated data reports only
the findings its README explains.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT, CARD_DATA
from pnp.model.games import GameSource
from pnp.validate.check import BUILTIN_RULES, check_game, check_game_full
from pnp.core.tomlpos import toml_key_lines
from pnp.validate.payment import pay
from pnp.model.cost import parse_cost

GAMES = ("atomic-assembly", "assemble", "periodic-shed", "ars-alchimia")

# --------------------------------------------------------------------------------------------
# Mutations of a copied game folder


def cell(file: str, row_id: str, column: str, value: str):
    """Set one CSV cell (row found by the value of its first column)."""
    def apply(folder: Path) -> None:
        path = folder / file
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
        col = rows[0].index(column)
        hits = [r for r in rows[1:] if r and r[0] == row_id]
        assert len(hits) == 1, (file, row_id)
        hits[0][col] = value
        _write_csv(path, rows)
    return apply


def swap(file: str, a: str, b: str):
    """Swap two CSV rows (by first column)."""
    def apply(folder: Path) -> None:
        path = folder / file
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
        ia = next(i for i, r in enumerate(rows) if r and r[0] == a)
        ib = next(i for i, r in enumerate(rows) if r and r[0] == b)
        rows[ia], rows[ib] = rows[ib], rows[ia]
        _write_csv(path, rows)
    return apply


def append(file: str, line: str):
    """Add a CSV line at the end."""
    def apply(folder: Path) -> None:
        path = folder / file
        text = path.read_text(encoding="utf-8-sig")
        path.write_text(text.rstrip("\n") + "\n" + line + "\n", encoding="utf-8")
    return apply


def text(file: str, pattern: str, new: str):
    """Replace the first match of a regular expression (multi-line mode) in a text file."""
    def apply(folder: Path) -> None:
        path = folder / file
        old = path.read_text(encoding="utf-8")
        changed, n = re.subn(pattern, new, old, count=1, flags=re.M)
        assert n == 1, (file, pattern)
        path.write_text(changed, encoding="utf-8")
    return apply


def _write_csv(path: Path, rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def toml_line(game: str, pattern: str) -> int:
    """The line of the first match of ``pattern`` in the bundled game.toml (found by text search)."""
    lines = (CARD_DATA / game / "game.toml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if re.search(pattern, line))


def run_copy(tmp_path: Path, game: str, *mutations) -> list:
    folder = tmp_path / game
    shutil.copytree(CARD_DATA / game, folder)
    for m in mutations:
        m(folder)
    loaded, findings = check_game(GameSource(folder, f"card_data/{game}", ROOT / "templates" / game, f"templates/{game}"))
    return findings


def loc(game: str, where: str) -> str:
    return f"card_data/{game}/{where}"


def manifest(game: str, key: str, pattern: str) -> str:
    return f"card_data/{game}/game.toml:{toml_line(game, pattern)} ({key})"


AA, AS, PS, AR = GAMES

CASES = [
    # ---------------------------------------------------------------- Atomic Assembly
    (AA, "setup.players", [text("game.toml", r"^players = \[2, 4\]", "players = [2, 5]")],
     lambda: manifest(AA, "game.players", r"^players =")),
    (AA, "setup.hand-limit", [text("game.toml", r"^hand_limit = 12", "hand_limit = 10")],
     lambda: manifest(AA, "rules.hand_limit", r"^hand_limit =")),
    (AA, "setup.starting-hand", [text("game.toml", r"red = 1, green = 1", "red = 2, green = 1")],
     lambda: manifest(AA, "rules.starting_hand", r"^starting_hand =")),
    (AA, "setup.turn", [text("game.toml", r"^actions_per_turn = 1", "actions_per_turn = 2")],
     lambda: manifest(AA, "rules.actions_per_turn", r"^actions_per_turn =")),
    (AA, "setup.scoring", [text("game.toml", r"^hazard_penalty = 20", "hazard_penalty = 15")],
     lambda: manifest(AA, "rules.hazard_penalty", r"^hazard_penalty =")),
    (AA, "setup.special-spaces-listed", [text("game.toml", r"^hazard_spaces = \[1, 18\]", "hazard_spaces = [1, 17]")],
     lambda: manifest(AA, "rules.hazard_spaces", r"^hazard_spaces =")),
    (AA, "players.pawns", [cell("pawns.csv", "pawn-white", "copies", "0")],
     lambda: manifest(AA, "game.players", r"^players =")),
    (AA, "players.score-markers", [cell("score-markers.csv", "score-white", "copies", "0")],
     lambda: manifest(AA, "game.players", r"^players =")),
    (AA, "players.starting-hands", [cell("elements.csv", s, "copies", "0") for s in ("cu", "fe", "zn", "sn", "cr")],
     lambda: manifest(AA, "game.players", r"^players =")),
    (AA, "players.proof-tokens", [cell("tokens.csv", "h2o", "copies", "3")],
     lambda: loc(AA, "tokens.csv:2:10 (copies)")),
    (AA, "track.spaces", [cell("track-spaces.csv", "space-05", "space", "4")], lambda: loc(AA, "track-spaces.csv")),
    (AA, "track.unique-spaces", [cell("track-spaces.csv", "space-05", "space", "4")],
     lambda: loc(AA, "track-spaces.csv:6:2 (space)")),
    (AA, "track.hazard-spaces", [cell("track-spaces.csv", "space-05", "kind", "hazard"),
                                 cell("track-spaces.csv", "space-05", "deck", "")],
     lambda: loc(AA, "track-spaces.csv:6:2 (space)")),
    (AA, "track.hazard-spaces", [cell("track-spaces.csv", "space-18", "kind", "element"),
                                 cell("track-spaces.csv", "space-18", "deck", "red")],
     lambda: loc(AA, "track-spaces.csv:19:4 (kind)")),
    (AA, "track.wild-spaces", [cell("track-spaces.csv", "space-08", "kind", "element"),
                               cell("track-spaces.csv", "space-08", "deck", "red")],
     lambda: loc(AA, "track-spaces.csv:9:4 (kind)")),
    (AA, "track.element-deck", [cell("track-spaces.csv", "space-02", "deck", "")],
     lambda: loc(AA, "track-spaces.csv:3:5 (deck)")),
    (AA, "track.every-deck", [cell("track-spaces.csv", f"space-{n:02d}", "deck", "red")
                              for n in (4, 7, 11, 14, 17, 21, 24, 28, 31, 34)],
     lambda: loc(AA, "track-spaces.csv")),
    (AA, "elements.decks", [m for s in ("si", "s", "na", "cl", "ne") for m in
                            (cell("elements.csv", s, "deck", "green"), cell("elements.csv", s, "back", "green-back"))],
     lambda: loc(AA, "elements.csv")),
    (AA, "elements.wild-in-red", [cell("elements.csv", "wild", "deck", "green"), cell("elements.csv", "wild", "back", "green-back")],
     lambda: loc(AA, "elements.csv:6:8 (deck)")),
    (AA, "elements.symbols", [cell("elements.csv", "ne", "symbol", "")], lambda: loc(AA, "elements.csv:18:3 (symbol)")),
    (AA, "elements.unique-symbols", [cell("elements.csv", "ne", "symbol", "Cl")], lambda: loc(AA, "elements.csv:18:3 (symbol)")),
    (AA, "blueprints.stated-costs", [cell("blueprints.csv", "aqueduct", "cost", "3 H + O"),
                                     cell("blueprints.csv", "aqueduct", "card_count", "4")],
     lambda: loc(AA, "blueprints.csv:2:8 (cost)")),
    (AA, "blueprints.stated-points", [cell("blueprints.csv", "foundry", "points", "7")],
     lambda: loc(AA, "blueprints.csv:22:5 (points)")),
    (AA, "blueprints.card-count", [cell("blueprints.csv", "foundry", "card_count", "4")],
     lambda: loc(AA, "blueprints.csv:22:9 (card_count)")),
    (AA, "blueprints.within-hand-limit", [text("game.toml", r"^hand_limit = 12", "hand_limit = 3")],
     lambda: loc(AA, "blueprints.csv:4:8 (cost)")),
    (AA, "blueprints.wild-cards", [cell("blueprints.csv", "foundry", "wild_cards_allowed", "no")],
     lambda: loc(AA, "blueprints.csv:22:10 (wild_cards_allowed)")),
    (AA, "blueprints.wild-tokens", [cell("blueprints.csv", "foundry", "wild_tokens_allowed", "yes")],
     lambda: loc(AA, "blueprints.csv:22:11 (wild_tokens_allowed)")),
    (AA, "blueprints.proof-tokens", [cell("blueprints.csv", "aqueduct", "proof_token", "nh3")],
     lambda: loc(AA, "blueprints.csv:2:6 (proof_token)")),
    (AA, "blueprints.standard-scoring", [cell("blueprints.csv", "foundry", "proof_token", "h2o")],
     lambda: loc(AA, "blueprints.csv:22:5 (points)")),
    (AA, "blueprints.repeat-points", [cell("blueprints.csv", "aqueduct", "repeat_points", "5")],
     lambda: loc(AA, "blueprints.csv:2:7 (repeat_points)")),
    (AA, "blueprints.payable", [cell("elements.csv", "h", "copies", "2")],
     lambda: loc(AA, "blueprints.csv:4:8 (cost)")),
    (AA, "blueprints.three-cards", [cell("blueprints.csv", "coastal-monument", "cost", "Cu + Sn + Zn"),
                                    cell("blueprints.csv", "coastal-monument", "card_count", "3")],
     lambda: loc(AA, "blueprints.csv:10:8 (cost)")),
    (AA, "blueprints.opening-hand", [cell("blueprints.csv", "coastal-monument", "wild_cards_allowed", "no")],
     lambda: loc(AA, "blueprints.csv:10:8 (cost)")),
    (AA, "tokens.proof-per-required", [cell("tokens.csv", "pow", "token_type", "wild")],
     lambda: loc(AA, "tokens.csv:4:1 (id)")),
    (AA, "tokens.wild-tokens", [cell("tokens.csv", "wild-token", "copies", "0")], lambda: loc(AA, "tokens.csv")),
    (AA, "reference.numbers", [text("reference.csv", r"8, 25", "8, 26")], lambda: loc(AA, "reference.csv:2:3 (text)")),
    (AA, "reference.hand-limit-all-cards", [text("reference.csv", r"^Hand limit 12, Wild cards included:", "Hand limit 12:")],
     lambda: loc(AA, "reference.csv:2:3 (text)")),
    (AA, "reference.hand-limit-all-cards", [text("reference.csv", r"^Discard: put one card, element or Wild,",
                                                 "Discard: put one element card")],
     lambda: loc(AA, "reference.csv:2:3 (text)")),
    (AA, "cost.parse", [cell("blueprints.csv", "foundry", "cost", "Fe + C + (Cr Mn)")],
     lambda: loc(AA, "blueprints.csv:22:8 (cost)")),
    (AA, "cost.names", [cell("blueprints.csv", "acid-processing-plant", "cost", "S + O + Hg")],
     lambda: loc(AA, "blueprints.csv:24:8 (cost)")),
    # ---------------------------------------------------------------- Assemble!
    (AS, "setup.rounds", [text("game.toml", r"^rounds = 6", "rounds = 5")],
     lambda: manifest(AS, "rules.rounds", r"^rounds =")),
    (AS, "setup.deal", [text("game.toml", r"^starting_hand = 1\b", "starting_hand = 2")],
     lambda: manifest(AS, "rules.starting_hand", r"^starting_hand =")),
    (AS, "setup.round-steps", [text("game.toml", r"^draw_per_round = 1", "draw_per_round = 2")],
     lambda: manifest(AS, "rules.draw_per_round", r"^draw_per_round =")),
    (AS, "setup.deck-cards", [text("game.toml", r"^deck_cards_per_player = 7", "deck_cards_per_player = 8")],
     lambda: manifest(AS, "rules.deck_cards_per_player", r"^deck_cards_per_player =")),
    (AS, "icons.listed", [text("game.toml", r'^icons = \["might", "tech"', 'icons = ["might", "tek"')],
     lambda: loc(AS, "icons.csv:3:1 (id)")),
    (AS, "rules.unused-key", [text("game.toml", r"^rounds = 6", "rounds = 6\nround_count = 6")],
     lambda: f"card_data/assemble/game.toml:{toml_line(AS, r'^rounds = 6') + 1} (rules.round_count)"),
    (AS, "rules.informational", [text("rules.toml", r'^informational = \["rules.points"',
                                      'informational = ["rules.pionts"')],
     lambda: loc(AS, "rules.toml:7 (informational[0])")),
    (AS, "setup.final-hand", [text("game.toml", r"^final_hand = 7", "final_hand = 8")],
     lambda: manifest(AS, "rules.final_hand", r"^final_hand =")),
    (AS, "setup.first-player", [text("game.toml", r'^first_player = "youngest"', 'first_player = "oldest"')],
     lambda: manifest(AS, "rules.first_player", r"^first_player =")),
    (AS, "setup.deck-size", [text("game.toml", r"^hero_deck_size = 43", "hero_deck_size = 44")],
     lambda: manifest(AS, "rules.hero_deck_size", r"^hero_deck_size =")),
    (AS, "players.deck", [text("game.toml", r"^players = \[2, 5\]", "players = [2, 6]")],
     lambda: manifest(AS, "game.players", r"^players =")),
    (AS, "players.recruiting-row", [text("game.toml", r"^row_cards_added_per_round = 1", "row_cards_added_per_round = 0")],
     lambda: manifest(AS, "rules.row_cards_added_per_round", r"^row_cards_added_per_round =")),
    (AS, "heroes.el-numero-uno", [cell("heroes.csv", "el-numero-uno", "name", "El Numero Uno")],
     lambda: loc(AS, "heroes.csv:2:2 (name)")),
    (AS, "heroes.uno-in-front", [cell("heroes.csv", "el-numero-uno", "public_identity", "no")],
     lambda: loc(AS, "heroes.csv:2:6 (public_identity)")),
    (AS, "heroes.uno-keeps-seven", [cell("heroes.csv", "el-numero-uno", "maverick_rule", "swap_with_row")],
     lambda: loc(AS, "heroes.csv:2:14 (maverick_rule)")),
    (AS, "heroes.hero-score-notation", [cell("heroes.csv", "captain-keystone", "hero_score_rule", "per_icon:mght:1")],
     lambda: loc(AS, "heroes.csv:3:9 (hero_score_rule)")),
    (AS, "heroes.hero-score-notation", [cell("heroes.csv", "gatewarden", "hero_score_rule", "one star")],
     lambda: loc(AS, "heroes.csv:8:9 (hero_score_rule)")),
    (AS, "heroes.team-score-notation", [cell("heroes.csv", "rivet-rosa", "team_score_rule", "per_icon_in_group:cog:1")],
     lambda: loc(AS, "heroes.csv:19:11 (team_score_rule)")),
    (AS, "heroes.team-score", [cell("heroes.csv", "captain-keystone", "team_score_rule", "per_pair:5")],
     lambda: loc(AS, "heroes.csv:3:11 (team_score_rule)")),
    (AS, "heroes.maverick", [cell("heroes.csv", "kid-buckler", "maverick_rule", "swap_row")],
     lambda: loc(AS, "heroes.csv:10:14 (maverick_rule)")),
    (AS, "heroes.maverick-complete", [cell("heroes.csv", "kid-buckler", "maverick_timing", "")],
     lambda: loc(AS, "heroes.csv:10:14 (maverick_rule)")),
    (AS, "heroes.unique-names", [cell("heroes.csv", "lady-rampart", "name", "Captain Keystone")],
     lambda: loc(AS, "heroes.csv:4:2 (name)")),
    (AS, "heroes.team-insignias", [text("game.toml", r', "arcanum"\]', "]")],
     lambda: loc(AS, "heroes.csv:39:4 (insignia)")),
    (AS, "heroes.insignia-spread", [cell("heroes.csv", h, "insignia", "aegis") for h in ("halo-drifter", "quasar-queen")],
     lambda: loc(AS, "insignias.csv:3:1 (id)")),
    (AS, "heroes.icons-used", [append("icons.csv", "laser,Laser,⌁,a beam of light")], lambda: loc(AS, "icons.csv:7:1 (id)")),
    # ---------------------------------------------------------------- Periodic Shed
    (PS, "setup.players", [text("game.toml", r"^players = \[2, 5\]", "players = [2, 6]")],
     lambda: manifest(PS, "game.players", r"^players =")),
    (PS, "players.deal", [text("game.toml", r"^starting_hand = 7", "starting_hand = 30")],
     lambda: manifest(PS, "game.players", r"^players =")),
    (PS, "setup.decay", [text("game.toml", r"^decay_full_rounds = 3", "decay_full_rounds = 2")],
     lambda: manifest(PS, "rules.decay_full_rounds", r"^decay_full_rounds =")),
    (PS, "setup.fission-fusion", [text("game.toml", r'^remap_to = "alkali"', 'remap_to = "halogen"')],
     lambda: manifest(PS, "rules.fission", r"^\[rules\.fission\]")),
    (PS, "deck.one-per-element", [cell("cards.csv", "og", "atomic_number", "117")], lambda: loc(PS, "cards.csv")),
    (PS, "deck.unique-symbols", [cell("cards.csv", "he", "symbol", "H")], lambda: loc(PS, "cards.csv:3:4 (symbol)")),
    (PS, "deck.one-copy", [cell("cards.csv", "fe", "copies", "2")], lambda: loc(PS, "cards.csv:27:17 (copies)")),
    (PS, "deck.family", [cell("cards.csv", "he", "family", "")], lambda: loc(PS, "cards.csv:3:6 (family)")),
    (PS, "deck.badges", [cell("cards.csv", "fe", "icons", "metal;combo")], lambda: loc(PS, "cards.csv:27:13 (icons)")),
    (PS, "families.stated-groups", [cell("families.csv", "halogen", "group", "18")],
     lambda: loc(PS, "families.csv:5:3 (group)")),
    (PS, "families.stated-colours", [cell("families.csv", "alkali", "colour_name", "navy")],
     lambda: loc(PS, "families.csv:2:6 (colour_name)")),
    (PS, "families.stated-shapes", [cell("families.csv", "halogen", "shape", "rhombus")],
     lambda: loc(PS, "families.csv:5:8 (shape)")),
    (PS, "families.distinct-colours", [cell("families.csv", "alkaline-earth", "colour", "#1F6FD1")],
     lambda: loc(PS, "families.csv:3:7 (colour)")),
    (PS, "families.distinct-shapes", [cell("families.csv", "boron-group", "shape", "circle")],
     lambda: loc(PS, "families.csv:6:8 (shape)")),
    (PS, "families.members-by-group", [cell("cards.csv", "h", "family", "halogen")],
     lambda: loc(PS, "cards.csv:2:6 (family)")),
    (PS, "families.card-count", [cell("families.csv", "alkali", "card_count", "8")],
     lambda: loc(PS, "families.csv:2:10 (card_count)")),
    (PS, "families.chalcogen-colour", [swap("families.csv", "chalcogen", "halogen")],
     lambda: loc(PS, "families.csv:5:6 (colour_name)")),
    (PS, "molecules.one-card-per-element", [cell("molecules.csv", "water", "elements", "h;h;o")],
     lambda: loc(PS, "molecules.csv:2:4 (elements)")),
    (PS, "molecules.element-cards", [cell("molecules.csv", "water", "elements", "h;o;fission-1")],
     lambda: loc(PS, "molecules.csv:2:4 (elements)")),
    (PS, "molecules.water", [cell("molecules.csv", "water", "elements", "h;o;n")],
     lambda: loc(PS, "molecules.csv:2:4 (elements)")),
    (PS, "molecules.matchable", [cell("molecules.csv", "methane", "elements", "c;n")],
     lambda: loc(PS, "molecules.csv:6:4 (elements)")),
    (PS, "molecules.on-reference-cards", [text("reference_cards.csv", r"water;sodium-chloride", "sodium-chloride")],
     lambda: loc(PS, "reference_cards.csv")),
    (PS, "ferro.combo", [cell("ferro_combo.csv", "boron", "accepts", "b;al")], lambda: loc(PS, "ferro_combo.csv:4:4 (accepts)")),
    (PS, "ferro.magnets", [cell("cards.csv", "cu", "ferromagnetic", "yes")], lambda: loc(PS, "cards.csv:30:1 (id)")),
    (PS, "ferro.magnets", [cell("cards.csv", "fe", "ferromagnetic", "no")], lambda: loc(PS, "cards.csv:27:12 (ferromagnetic)")),
    (PS, "ferro.rules-list", [text("game.toml", r'"sm", "tc"\]', '"sm"]')],
     lambda: manifest(PS, "rules.ferromagnetic_cards", r"^ferromagnetic_cards =")),
    (PS, "temperature.values", [cell("cards.csv", "temperature-300k", "temperature_k", "400")],
     lambda: loc(PS, "cards.csv:130:14 (temperature_k)")),
    (PS, "temperature.only-temperature-cards", [cell("cards.csv", "h", "temperature_k", "300")],
     lambda: loc(PS, "cards.csv:2:14 (temperature_k)")),
    (PS, "temperature.in-text", [cell("cards.csv", "temperature-600k", "rule_text", "Melt your metals.")],
     lambda: loc(PS, "cards.csv:132:15 (rule_text)")),
    (PS, "radioactive.examples", [cell("cards.csv", "tc", "radioactive", "no")],
     lambda: loc(PS, "cards.csv:44:11 (radioactive)")),
    # ---------------------------------------------------------------- Ars Alchimia
    (AR, "setup.players", [text("game.toml", r"^players = \[3, 4\]", "players = [2, 4]")],
     lambda: manifest(AR, "game.players", r"^players =")),
    (AR, "setup.rounds", [text("game.toml", r"^rounds = 4", "rounds = 5")],
     lambda: manifest(AR, "rules.rounds", r"^rounds =")),
    (AR, "setup.workers", [text("game.toml", r"^starting_workers = 9", "starting_workers = 8")],
     lambda: manifest(AR, "rules.starting_workers", r"^starting_workers =")),
    (AR, "setup.starting-resources", [cell("player_board_resources.csv", "sand", "starting_amount", "1")],
     lambda: loc(AR, "player_board_resources.csv:5:4 (starting_amount)")),
    (AR, "setup.within-capacity", [cell("player_board_resources.csv", "elixir", "starting_amount", "4")],
     lambda: loc(AR, "player_board_resources.csv:6:4 (starting_amount)")),
    (AR, "setup.face-up", [text("game.toml", r"^face_up_locations = 3", "face_up_locations = 4")],
     lambda: manifest(AR, "rules.setup", r"^\[rules\.setup\]")),
    (AR, "setup.board-fits", [cell("board_spots.csv", "assistant-3", "four_player_only", "no")],
     lambda: loc(AR, "board_spots.csv")),
    (AR, "setup.three-players", [text("game.toml", r"^removed_workers_per_other_colour = 2", "removed_workers_per_other_colour = 3")],
     lambda: manifest(AR, "rules.three_players", r"^\[rules\.three_players\]")),
    (AR, "setup.order-slots", [text("game.toml", r"^order_slots = 3\s*\norder_slots_with", "order_slots = 4\norder_slots_with")],
     lambda: manifest(AR, "rules.order_slots", r"^order_slots = ")),
    (AR, "scoring.numbers", [text("game.toml", r"9, 12\]", "9, 13]")],
     lambda: manifest(AR, "rules.type_bonus", r"^type_bonus =")),
    (AR, "players.boards", [text("game.toml", r'^copies = 4\nsize = "240mm', 'copies = 3\nsize = "240mm')],
     lambda: manifest(AR, "game.players", r"^players =")),
    (AR, "players.colours", [cell("point_markers.csv", "marker-pink", "player_colour", "blue")],
     lambda: manifest(AR, "game.players", r"^players =")),
    (AR, "players.factory", [cell("factory_cards.csv", "factory-3", "used_with_3_players", "no")],
     lambda: manifest(AR, "game.players", r"^players =")),
    (AR, "players.cubes", [cell("resource_cubes.csv", "cube-elixir", "copies", "3")],
     lambda: manifest(AR, "game.players", r"^players =")),
    (AR, "workers.per-colour", [cell("workers.csv", "worker-blue", "copies", "19")], lambda: loc(AR, "workers.csv:2:4 (copies)")),
    (AR, "factory.numbers", [cell("factory_cards.csv", "factory-4", "number", "3")], lambda: loc(AR, "factory_cards.csv")),
    (AR, "factory.limit-reachable", [cell("factory_cards.csv", "factory-4", "workers_gained", "1"),
                                     cell("factory_cards.csv", "factory-3", "workers_gained", "1")],
     lambda: loc(AR, "factory_cards.csv")),
    (AR, "orders.payable", [cell("player_board_resources.csv", "sand", "capacity", "1"),
                            cell("player_board_resources.csv", "elixir", "capacity", "1")],
     lambda: loc(AR, "order_cards.csv:41:6 (cost)")),
    (AR, "orders.payable-without-elixir", [cell("player_board_resources.csv", "sand", "capacity", "2")],
     lambda: loc(AR, "order_cards.csv:41:6 (cost)")),
    (AR, "orders.back-by-rank", [cell("order_cards.csv", "order-c-01", "back", "order-b-back")],
     lambda: loc(AR, "order_cards.csv:2:7 (back)")),
    (AR, "orders.piles", [text("game.toml", r"C = 3, B = 2, A = 1 \}\nface_up_locations", "C = 3, B = 2, A = 9 }\nface_up_locations")],
     lambda: loc(AR, "order_cards.csv")),
    (AR, "orders.academic-to-rank-b", [text("game.toml", r"^academic_orders_for_rank_b = 1", "academic_orders_for_rank_b = 7")],
     lambda: loc(AR, "order_cards.csv")),
    (AR, "orders.academic-to-rank-a", [text("game.toml", r"^academic_orders_for_rank_a = 2", "academic_orders_for_rank_a = 12")],
     lambda: loc(AR, "order_cards.csv")),
    (AR, "orders.points-formula", [cell("order_cards.csv", "order-c-01", "points", "3")],
     lambda: loc(AR, "order_cards.csv:2:5 (points)")),
    (AR, "orders.size-by-rank", [cell("order_cards.csv", "order-c-06", "cost", "4 fire")],
     lambda: loc(AR, "order_cards.csv:7:6 (cost)")),
    (AR, "locations.single-bonus", [cell("location_cards.csv", "ember-caldera", "bonus", "2 sand")],
     lambda: loc(AR, "location_cards.csv:2:4 (bonus)")),
    (AR, "locations.every-basic", [cell("location_cards.csv", "whispering-dunes", "gather", "1 fire"),
                                   cell("location_cards.csv", "ashen-barrow", "gather", "1 fire"),
                                   cell("location_cards.csv", "frozen-ossuary", "gather", "1 snow")],
     lambda: loc(AR, "location_cards.csv")),
    (AR, "die.location-thresholds", [text("game.toml", r"^die_faces = 6", "die_faces = 5")],
     lambda: loc(AR, "location_cards.csv:7:5 (bonus_threshold)")),
    (AR, "die.forge-thresholds", [text("game.toml", r"^die_faces = 6", "die_faces = 5")],
     lambda: loc(AR, "forge_cards.csv:8:4 (perfect_threshold)")),
    (AR, "assistants.ledger-clerk", [cell("assistant_cards.csv", "ledger-clerk", "skill", "You may keep an extra accepted order.")],
     lambda: loc(AR, "assistant_cards.csv")),
    (AR, "cost.names", [cell("order_cards.csv", "order-c-02", "cost", "1 flower + 1 elixir")],
     lambda: loc(AR, "order_cards.csv:3:6 (cost)")),
    (AR, "cost.repeat", [cell("order_cards.csv", "order-c-06", "cost", "1 fire + 1 fire")],
     lambda: loc(AR, "order_cards.csv:7:6 (cost)")),
    (AR, "cost.order", [cell("order_cards.csv", "order-c-01", "cost", "1 fire + 1 snow")],
     lambda: loc(AR, "order_cards.csv:2:6 (cost)")),
    # ---------------------------------------------------------------- rules every game gets
    (AA, "schema.type", [cell("elements.csv", "o", "copies", "x")], lambda: loc(AA, "elements.csv:3:12 (copies)")),
    (AA, "schema.range", [cell("elements.csv", "o", "copies", "-1")], lambda: loc(AA, "elements.csv:3:12 (copies)")),
    (AA, "schema.allowed", [cell("elements.csv", "o", "deck", "blue")], lambda: loc(AA, "elements.csv:3:8 (deck)")),
    (AA, "schema.copies", [text("game.toml", r'^copies = \{ type = "int", min = 0 \}', 'copies = "int"'),
                           cell("elements.csv", "o", "copies", "-1")], lambda: loc(AA, "elements.csv:3:12 (copies)")),
    (AA, "schema.required", [cell("elements.csv", "o", "name", "")], lambda: loc(AA, "elements.csv:3:4 (name)")),
    (AA, "schema.unique-id", [cell("elements.csv", "o", "id", "h")], lambda: loc(AA, "elements.csv:3:1 (id)")),
    (AA, "schema.ref", [cell("blueprints.csv", "aqueduct", "proof_token", "h3o")], lambda: loc(AA, "blueprints.csv:2:6 (proof_token)")),
    (AA, "schema.columns", [text("pawns.csv", r"^id,player_color", "id,player_colour")], lambda: loc(AA, "pawns.csv:1:2 (player_colour)")),
    (AA, "schema.file", [lambda folder: (folder / "pawns.csv").unlink()], lambda: loc(AA, "pawns.csv")),
    (AA, "schema.file", [text("pawns.csv", r"^pawn-orange,", "pawn-orange,extra,")], lambda: loc(AA, "pawns.csv:4:9")),
    (AA, "schema.copies", [cell("elements.csv", "o", "copies", "500")], lambda: loc(AA, "elements.csv:3:12 (copies)")),
    (AA, "schema.manifest", [text("game.toml", r'^kind = "deck"', 'kind = "stack"')],
     lambda: manifest(AA, "components.elements.kind", r'^kind = "deck"')),
    (AA, "schema.blank-rows", [text("pawns.csv", r"^pawn-orange", ",,,,,,,\npawn-orange")], lambda: loc(AA, "pawns.csv:4")),
    (AA, "totals.stated", [cell("blueprints.csv", "foundry", "copies", "2")],
     lambda: loc(AA, "game.toml:%d (totals[0])" % (toml_line(AA, r'^label = "blueprints"$') - 3))),
    (AA, "copies.zero", [cell("elements.csv", "ne", "copies", "0")], lambda: loc(AA, "elements.csv:18:12 (copies)")),
]


def _case_id(case) -> str:
    return f"{case[0]}:{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_rule_fires_at_its_location(tmp_path, case):
    game, rule, mutations, where = case
    findings = run_copy(tmp_path, game, *mutations)
    hits = [f for f in findings if f.rule == rule]
    assert hits, f"{rule} did not fire; got {[(f.rule, f.location) for f in findings]}"
    expected = where()
    assert expected in [f.location for f in hits], (expected, [f.location for f in hits])
    hit = next(f for f in hits if f.location == expected)
    assert hit.message and hit.severity in ("error", "warning", "info")
    if not rule.startswith(("schema.", "copies.", "rules.")):  # the files themselves cite no section
        assert hit.source, "every rule cites where it comes from"


def _declared_rules() -> set[tuple[str, str]]:
    out = set()
    for game in GAMES:
        data = tomllib.loads((CARD_DATA / game / "rules.toml").read_text(encoding="utf-8"))
        out |= {(game, r["id"]) for r in data.get("rule", [])}
    return out


def test_every_rule_has_a_mutation_test():
    tested = {(c[0], c[1]) for c in CASES}
    missing = sorted(_declared_rules() - tested)
    assert missing == []
    builtin = {c[1] for c in CASES} & set(BUILTIN_RULES)
    assert sorted(set(BUILTIN_RULES) - builtin) == []
    assert {"cost.parse", "cost.names", "cost.repeat", "cost.order"} <= {c[1] for c in CASES}


# --------------------------------------------------------------------------------------------
# The unmutated data reports only its real findings, each explained in the game's README

REAL = {
    "atomic-assembly": {("warning", "blueprints.three-cards", "card_data/atomic-assembly/blueprints.csv:8:8 (cost)"),
                        ("warning", "blueprints.opening-hand", "card_data/atomic-assembly/blueprints.csv:8:8 (cost)")},
    "assemble": set(),
    "periodic-shed": {("warning", "families.chalcogen-colour", "card_data/periodic-shed/families.csv:4:6 (colour_name)")},
    "ars-alchimia": set(),
}


@pytest.mark.parametrize("game", GAMES)
def test_bundled_data_reports_only_explained_findings(game):
    result = check_game_full(GameSource(CARD_DATA / game, f"card_data/{game}"))
    assert result.game is not None
    assert {(f.severity, f.rule, f.location) for f in result.findings} == REAL[game]
    readme = (CARD_DATA / game / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Validator findings", 1)
    assert len(section) == 2, "README.md explains what pnp check reports"
    for _, rule, _ in REAL[game]:
        assert f"`{rule}`" in section[1]
    assert result.rules_checked >= 30


def test_stated_total_points_at_its_entry(tmp_path):
    findings = run_copy(tmp_path, AA, cell("blueprints.csv", "foundry", "copies", "2"))
    hit = next(f for f in findings if f.rule == "totals.stated")
    assert (hit.file, hit.line, hit.field) == ("card_data/atomic-assembly/game.toml",
                                               toml_line(AA, r'^label = "blueprints"$') - 3, "totals[0]")
    assert hit.message == "the rulebook states 12 blueprints, the data holds 13"
    assert hit.source == "What you do in Atomic Assembly"


def test_contradiction_cites_both_sections():
    findings = check_game(GameSource(CARD_DATA / AA, "card_data/atomic-assembly"))[1]
    three = next(f for f in findings if f.rule == "blueprints.three-cards")
    assert three.source == "Getting started / contradicted by: The nine standard constructs"
    assert "Coastal Monument costs 2 (Cu + Sn)" in three.message
    assert "Highland Relay, Observatory Lens, Preservation Vault" in three.message
    hand = next(f for f in findings if f.rule == "blueprints.opening-hand")
    assert "Wild + Copper" in hand.message and "Highland Relay" in hand.message


def test_payable_names_the_shortfall(tmp_path):
    findings = run_copy(tmp_path, AA, cell("elements.csv", "h", "copies", "2"))
    hit = next(f for f in findings if f.rule == "blueprints.payable")
    assert hit.message == ("Fertilizer Engine cannot be paid from what the game contains: 3 H takes 3 element "
                           "cards, and only 2 can fill those places (Hydrogen x2)")


def test_players_supported_says_how_many(tmp_path):
    findings = run_copy(tmp_path, AS, text("game.toml", r"^players = \[2, 5\]", "players = [2, 6]"))
    hit = next(f for f in findings if f.rule == "players.deck")
    assert hit.message == ("with 6 players a whole game deals 48 Hero cards (7 to each player, 6 to the "
                           "recruiting row), but the deck holds 43")
    assert hit.hint.startswith("the game supports up to 5 players this way; lower players in game.toml to [2, 5]")


# --------------------------------------------------------------------------------------------
# The engine itself


def test_pay_uses_each_card_once_and_explains_the_shortfall():
    from pnp.validate.payment import Unit

    units = [Unit("Copper", 1, frozenset({"Cu", "green", "any"})), Unit("Tin", 1, frozenset({"Sn", "green", "any"}))]
    assert pay(parse_cost("Cu + Sn"), units).ok
    assert not pay(parse_cost("Cu + 2 any"), units).ok
    short = pay(parse_cost("2 Cu + Sn"), units)
    assert not short.ok and (short.need, short.have) == (2, 1)
    assert [t.options for t in short.short_terms] == [("Cu",)]
    wild = Unit("Wild", 1, frozenset(), any_name=True)
    assert pay(parse_cost("2 Cu + Sn"), units + [wild]).ok


def test_toml_key_lines():
    source = 'a = 1\n[rules]\nx = 2\ny = { p = 1 }\n[[rule]]\nid = "a"\n[[rule]]\nid = "b"\n[rule.values]\nk = 3\n'
    lines = toml_key_lines(source)
    assert lines["rules.x"] == 3 and lines["rules.y"] == 4
    assert lines["rule[0].id"] == 6 and lines["rule[1].id"] == 8 and lines["rule[1].values.k"] == 10


def _tiny_with_rules(tiny: Path, rules: str) -> list:
    (tiny / "rules.toml").write_text(rules, encoding="utf-8")
    return check_game(GameSource(tiny, "tiny"))[1]


def test_designer_rules_for_a_new_game(tiny):
    findings = _tiny_with_rules(tiny, '''
[[rule]]
id = "cards.cheap-red"
for_each = "cards"
where = "colour == 'red'"
assert = "cost <= 1"
column = "cost"
message = "{title} costs {cost}; red cards cost at most 1"
source = "Card anatomy"

[[rule]]
id = "cards.total-cost"
kind = "sum-equals"
component = "cards"
sum = "cost * copies"
equals = 99
label = "printed costs"
source = "Components"
''')
    red = next(f for f in findings if f.rule == "cards.cheap-red")
    assert red.location == "tiny/cards.csv:2:3 (cost)"
    assert red.message == "Fire & Ice costs 2; red cards cost at most 1"
    assert red.source == "Card anatomy" and red.severity == "error"
    total = next(f for f in findings if f.rule == "cards.total-cost")
    assert total.message == "the printed costs add up to 8, the rulebook says 99"
    assert total.location == "tiny/cards.csv"


@pytest.mark.parametrize("expression", [
    "__import__('os').system('touch PWNED')",
    "().__class__.__bases__[0].__subclasses__()",
    "open('/etc/passwd').read()",
    "title.__class__",
])
def test_expressions_are_evaluated_safely(tiny, expression, monkeypatch):
    monkeypatch.chdir(tiny)
    findings = _tiny_with_rules(tiny, f'''
[[rule]]
id = "evil"
for_each = "cards"
assert = "{expression}"
source = "nowhere"
''')
    assert [f.rule for f in findings if f.severity == "error"] == ["rules.expression"]
    hit = next(f for f in findings if f.rule == "rules.expression")
    assert hit.location == "tiny/rules.toml:5 (rule[0].assert)"
    assert not (tiny / "PWNED").exists()


@pytest.mark.parametrize("rules, location, words", [
    ('[[rule]]\nid = "x"\nkind = "magic"\nsource = "s"\n', "tiny/rules.toml:3 (rule[0].kind)", "unknown kind 'magic'"),
    ('[[rule]]\nid = "x"\nasert = "1"\nsource = "s"\n', "tiny/rules.toml:3 (rule[0].asert)", "no key 'asert'"),
    ('[[rule]]\nid = "x"\nassert = "1 == 1"\n', "tiny/rules.toml:1 (rule[0])", "needs 'source'"),
    ('[[rule]]\nid = "x"\nfor_each = "cardz"\nassert = "1"\nsource = "s"\n', "tiny/rules.toml:3 (rule[0].for_each)",
     "no component 'cardz'"),
    ('[[costs]]\ncomponent = "cards"\ncolumn = "titel"\nnames = []\nsource = "s"\n', "tiny/rules.toml:3 (costs[0].column)",
     "'titel' is not a column of cards"),
    ('[[rule]]\nid = "x"\nassert = "1 +"\nsource = "s"\n', "tiny/rules.toml:3 (rule[0].assert)", "not a valid expression"),
    ('[[rule]]\nid = "x"\nfor_each = "cards"\nassert = "cots < 3"\nsource = "s"\n', "tiny/rules.toml:4 (rule[0].assert)",
     "no name 'cots'"),
    ('[rule\n', "tiny/rules.toml:1:6", "not valid TOML"),
])
def test_problems_in_rules_toml_are_located(tiny, rules, location, words):
    findings = _tiny_with_rules(tiny, rules)
    problems = [f for f in findings if f.rule in ("rules.file", "rules.expression")]
    assert problems, findings
    assert problems[0].location == location
    assert words in problems[0].message


@pytest.mark.parametrize("expression, words, hint", [
    ("title < 3", "`<` cannot compare text with a whole number", "compare it with quoted text"),
    ("cost + title == 1", "`+` cannot combine a whole number with text", "compare it with quoted text"),
    ("[cost] < 2", "`<` cannot compare a list with a whole number", "convert one side"),
])
def test_values_of_the_wrong_kind_are_named_in_a_designers_words(tiny, expression, words, hint):
    findings = _tiny_with_rules(tiny, f'[[rule]]\nid = "x"\nfor_each = "cards"\nassert = "{expression}"\nsource = "s"\n')
    problem = next(f for f in findings if f.rule == "rules.expression")
    assert problem.location == "tiny/rules.toml:4 (rule[0].assert)"
    assert words in problem.message and "instances of" not in problem.message
    assert hint in problem.hint


def test_a_misspelt_name_is_reported_once(tmp_path):
    findings = run_copy(tmp_path, AR, cell("order_cards.csv", "order-c-02", "cost", "1 flower + 1 elixer"))
    at_cell = [f.rule for f in findings if f.location.endswith("order_cards.csv:3:6 (cost)")]
    assert at_cell == ["cost.names"]  # not also unpayable or out of order


def test_cost_names_hint_lists_the_vocabulary(tmp_path):
    findings = run_copy(tmp_path, AA, cell("blueprints.csv", "acid-processing-plant", "cost", "S + O + Hh"))
    hit = next(f for f in findings if f.rule == "cost.names")
    assert "'Hh'" in hit.message and hit.hint.startswith("did you mean 'H'?")
    assert "deck: red, green, yellow" in hit.hint


# --------------------------------------------------------------------------------------------
# The command line


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True,
                          env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"})


def test_cli_groups_by_file_and_strict_fails_on_warnings():
    result = pnp("check", "atomic-assembly")
    assert result.returncode == 0, result.stdout
    out = result.stdout
    assert "Atomic Assembly" in out and "2 warnings" in out
    assert out.count("card_data/atomic-assembly/blueprints.csv") == 1  # one heading per file
    assert "8:8 (cost)  warning  blueprints.three-cards" in out
    assert "rulebook: Getting started / contradicted by: The nine standard constructs" in out
    strict = pnp("check", "atomic-assembly", "--strict")
    assert strict.returncode == 1
    assert "--strict: warnings count as errors" in strict.stdout


def test_cli_json_has_structured_locations(tmp_path):
    folder = tmp_path / "ars-alchimia"
    shutil.copytree(CARD_DATA / "ars-alchimia", folder)
    cell("order_cards.csv", "order-c-02", "cost", "1 flower + 1 elixir")(folder)
    result = pnp("check", str(folder), "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)[0]
    assert report["counts"]["error"] == 1 and report["loaded"] is True
    hit = next(f for f in report["findings"] if f["rule"] == "cost.names")
    assert (hit["file"].endswith("order_cards.csv"), hit["line"], hit["column"], hit["field"]) == (True, 3, 6, "cost")
    assert (hit["component"], hit["piece"]) == ("orders", "order-c-02")
    assert hit["source"] == "Order Cards (42 pcs)"


PATTERN_RULE = '''
[names]
element = ["H", "O", "S", "C"]

[[rule]]
id = "cards.formula"
kind = "pattern"
component = "cards"
column = "text"
pattern = '(?:(?P<el>[A-Z][a-z]?)\\d*)+'
names = { el = "element" }
source = "Formulas"
'''


def test_a_pattern_checks_every_match_of_each_not_only_the_last(tiny):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\n"
                                    "fire,Fire,2,red,XxSO4,3\nleaf,Leaf,1,green,H2O,2\n", encoding="utf-8")
    # a repeated group keeps only its last match: Xx, the first element, goes unchecked
    assert [f for f in _tiny_with_rules(tiny, PATTERN_RULE) if f.rule == "cards.formula"] == []
    each = PATTERN_RULE.replace("names = {", "each = '(?P<el>[A-Z][a-z]?)'\nnames = {")
    found = [f for f in _tiny_with_rules(tiny, each) if f.rule == "cards.formula"]
    assert [(f.location, f.message) for f in found] == [
        ("tiny/cards.csv:2:5 (text)", "Fire: 'XxSO4' names the element 'Xx', which the game does not have")]


def test_a_name_list_for_a_group_no_expression_has_is_refused(tiny):
    found = _tiny_with_rules(tiny, PATTERN_RULE.replace("names = { el", "names = { elem"))
    (problem,) = [f for f in found if f.rule == "rules.file"]
    assert "names the group 'elem', which pattern and each do not define" in problem.message
    assert "did you mean 'el'?" in problem.hint


def test_an_at_that_points_at_nothing_is_refused(tmp_path):
    findings = run_copy(tmp_path, AS, text("rules.toml", r'^at = "game.toml:rules.rounds"', 'at = "game.toml:rules.rouns"'))
    (bad,) = [f for f in findings if f.rule == "rules.file"]
    assert bad.field == "rule[0].at" and "names 'rouns', which rules does not have" in bad.message
    assert bad.hint.startswith("did you mean 'rounds'?")
