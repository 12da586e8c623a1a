"""Findings: what a check says about a game, with where and why.

A :class:`Finding` has a severity (``error``, ``warning``, ``info``), a rule id, a location (a
file:line:column or a component and piece), a message in the designer's words and the rulebook
section the rule comes from.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    """One result of a check. ``location`` is text such as ``card_data/x/cards.csv:4:2 (cost)``."""

    severity: str
    rule: str
    location: str
    message: str
    source: str = ""
    hint: str = ""

    def as_dict(self) -> dict:
        """The finding as a JSON-ready dict."""
        return asdict(self)
