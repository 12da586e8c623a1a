"""The setup summary a Tabletop Simulator table carries on a notecard: the player count, every
component with its pieces, and the setup numbers the game's ``[rules]`` hold, grouped by player
count where the data names one.

Which ``[rules]`` keys are setup numbers, as the data holds them:

- every key of a ``[rules.setup]`` table;
- a top-level key whose name starts with ``starting_`` or ``start_``, or holds ``setup``,
  ``hand`` or ``per_player`` (``starting_workers``, ``row_cards_at_setup``, ``hand_limit``,
  ``deck_cards_per_player``);
- a key ending ``_N_players`` (``max_workers_3_players``) and every key of a table named
  ``<number>_players`` (``[rules.three_players]``) go under "With N players".

Nothing is computed that the data does not state: a count is printed as written.
"""

from __future__ import annotations

import re
from typing import Any

from ...model.facts import NUMBER_WORDS
from ...model.game import Game

_SETUP_KEY = re.compile(r"^(starting_|start_)|setup|hand|per_player")
_PLAYERS_SUFFIX = re.compile(r"^(.*)_(\d+)_players$")
_PLAYERS_TABLE = re.compile(r"^(\w+?)_players$")


def _words(key: str) -> str:
    return key.replace("_", " ")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _players(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word.lower())


def setup_lines(game: Game) -> tuple[list[str], list[str], dict[int, list[str]]]:
    """(components, setup numbers, setup numbers by player count) of ``game``, each a list of
    ``name: value`` lines in manifest order; components are ``Name: pieces`` for every
    component with pieces (Component.pieces, the count ``pnp check`` uses)."""
    components = [f"{c.name}: {c.pieces}" for c in game if c.kind not in ("table", "rulebook") and c.pieces > 0]
    rules = game.manifest.get("rules") or {}
    common: list[str] = []
    by_players: dict[int, list[str]] = {}

    def add(key: str, value: Any) -> None:
        m = _PLAYERS_SUFFIX.match(key)
        if m:
            by_players.setdefault(int(m.group(2)), []).append(f"{_words(m.group(1))}: {_value(value)}")
        else:
            common.append(f"{_words(key)}: {_value(value)}")

    for key, value in rules.items():
        table = _PLAYERS_TABLE.match(key)
        if isinstance(value, dict) and table and _players(table.group(1)) is not None:
            n = _players(table.group(1))
            by_players.setdefault(n, []).extend(f"{_words(k)}: {_value(v)}" for k, v in value.items())
        elif key == "setup" and isinstance(value, dict):
            for k, v in value.items():
                add(k, v)
        elif _SETUP_KEY.search(key) or _PLAYERS_SUFFIX.match(key):
            add(key, value)
    return components, common, dict(sorted(by_players.items()))


def setup_text(game: Game) -> str:
    """The notecard's text: players, components, setup numbers (see the module)."""
    components, common, by_players = setup_lines(game)
    low, high = game.players_min, game.players_max
    lines = [f"{game.title}: {low}-{high} players" if low != high else f"{game.title}: {low} players", "",
             "In the box:"]
    lines += [f"- {line}" for line in components]
    if common:
        lines += ["", "Setup (game.toml [rules]):"] + [f"- {line}" for line in common]
    for n, items in by_players.items():
        lines += ["", f"With {n} players:"] + [f"- {line}" for line in items]
    return "\n".join(lines)
