"""Numbers printed in words that the data also holds: a rulebook or a card that says "a hand
limit of 10" while game.toml's ``[rules]`` says ``hand_limit = 12`` contradicts the data.

A *fact* is a whole number of ``[rules]`` with the phrase that names it (``hand_limit`` is
"hand limit"), and the player count of ``[game]``. :func:`contradictions` finds the places in
a text that state a fact and give another number. Only statements are read, not every number
near a phrase: a phrase followed by ``is``, ``of``, ``:``, ``=`` or a table's next cell and a
number ("the hand limit is 10", "**Hand limit:** 10", "| Hand limit | 10 |"), and a player
range ("for 2-4 players", "2 to 4 players", "up to 5 players"). "After 2 rounds" states
nothing about how many rounds there are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .game import Game

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
"""Numbers written as words that statements use."""
_NUMBER = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
_RANGE_RE = re.compile(r"\b" + _NUMBER + r"\s*(?:-|–|—|to)\s*" + _NUMBER + r"\s+players\b", re.I)
_UP_TO_RE = re.compile(r"\bup\s+to\s+" + _NUMBER + r"\s+players\b", re.I)
MIN_PHRASE = 4
"""Shortest phrase (characters) a fact is looked for by: shorter ones name too much."""


@dataclass(frozen=True)
class Fact:
    """A number the data holds: ``key`` (``rules.hand_limit``, ``game.players``), the
    ``phrase`` that names it in text (None for the player range) and its ``value``."""

    key: str
    phrase: str | None
    value: Any


@dataclass(frozen=True)
class Contradiction:
    """Where a text states ``fact`` with another number: ``said`` (as written), the
    ``snippet`` that says it, and its offset in the text."""

    fact: Fact
    said: str
    snippet: str
    at: int


def game_facts(game: Game) -> list[Fact]:
    """The facts of ``game``: every whole number of ``[rules]`` (nested keys too, named by
    their own key when it has several words, ``setup.face_up_locations`` is "face up
    locations", else with their table's, ``starting_resources.elixir`` is "starting resources
    elixir") and the player range."""
    facts = [Fact("game.players", None, (game.players_min, game.players_max))]

    def walk(value: Any, path: list[str]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + [str(key)])
        elif isinstance(value, int) and not isinstance(value, bool):
            # a nested key one word long ("elixir" of starting_resources) names too much alone
            own = path[-1].split("_")
            words = own if len(path) == 1 or len(own) > 1 else path[-2].split("_") + own
            phrase = " ".join(words).strip()
            if len(phrase) >= MIN_PHRASE and not phrase.isdigit():
                facts.append(Fact("rules." + ".".join(path), phrase, value))

    walk(game.manifest.get("rules") or {}, [])
    return facts


def _number(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


_PATTERNS: dict[str, re.Pattern] = {}
"""The statement pattern of each fact phrase, compiled once per process."""


def _statement(phrase: str) -> re.Pattern:
    """The pattern of a statement of the fact named ``phrase``: the phrase, a copula (or a
    table's column rule), the number; Markdown emphasis and table pipes may stand between:
    "**Hand limit:** 6", "| Hand limit | 6 |"."""
    pattern = _PATTERNS.get(phrase)
    if pattern is None:
        words = r"[\s_-]+".join(re.escape(w) for w in phrase.split())
        pattern = re.compile(r"\b" + words + r"\b[\s*_]*(?:\bis\b|\bare\b|\bof\b|:|=|\|)[\s*_|]*"
                             r"(?:only\s+|exactly\s+)?" + _NUMBER + r"\b", re.I)
        _PATTERNS[phrase] = pattern
    return pattern


def contradictions(text: str, facts: list[Fact]) -> list[Contradiction]:
    """Every statement in ``text`` of one of ``facts`` that gives another number, in order.

    A fact whose phrase's first word (or, for the player range, the word "players") is not in
    the text, compared case-folded, cannot be stated there and is not searched for."""
    out: list[Contradiction] = []
    folded = text.casefold()
    for fact in facts:
        if fact.phrase is None:
            if "players" not in folded:
                continue
            low, high = fact.value
            for m in _RANGE_RE.finditer(text):
                if (_number(m.group(1)), _number(m.group(2))) != (low, high):
                    out.append(Contradiction(fact, f"{m.group(1)} to {m.group(2)}", m.group(0), m.start()))
            for m in _UP_TO_RE.finditer(text):
                if _number(m.group(1)) != high:
                    out.append(Contradiction(fact, m.group(1), m.group(0), m.start()))
            continue
        if fact.phrase.split()[0].casefold() not in folded:
            continue
        for m in _statement(fact.phrase).finditer(text):
            if _number(m.group(1)) != fact.value:
                out.append(Contradiction(fact, m.group(1), m.group(0), m.start()))
    return sorted(out, key=lambda c: c.at)
