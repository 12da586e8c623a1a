"""Printed statements of the data's numbers that give another number."""

from __future__ import annotations

from pnp.model.facts import Fact, contradictions

FACTS = [Fact("game.players", None, (2, 4)), Fact("rules.hand_limit", "hand limit", 12),
         Fact("rules.rounds", "rounds", 6)]


def said(text: str) -> list[tuple[str, str]]:
    return [(c.fact.key, c.snippet) for c in contradictions(text, FACTS)]


def test_a_statement_with_another_number_is_found():
    assert said("Keep to the hand limit of 10 cards.") == [("rules.hand_limit", "hand limit of 10")]
    assert said("Hand limit: ten") == [("rules.hand_limit", "Hand limit: ten")]
    assert said("**Hand limit:** 6") == [("rules.hand_limit", "Hand limit:** 6")]
    assert said("| Hand limit | 6 |") == [("rules.hand_limit", "Hand limit | 6")]
    assert said("A game for 2-5 players.") == [("game.players", "2-5 players")]
    assert said("for two to four players, up to 5 players with the expansion") == [
        ("game.players", "up to 5 players")]


def test_agreeing_statements_and_mere_mentions_are_not():
    assert said("The hand limit is 12. Rounds: 6. For 2-4 players, up to 4 players.") == []
    assert said("After 2 rounds, discard down to 3 cards; with 3 players remove a card.") == []
    assert said("Draw 2. Discard <1>.") == []
