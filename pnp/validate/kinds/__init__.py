"""The rule kinds a game's ``rules.toml`` may use, each with its own schema and check
(:class:`~pnp.validate.kinds.base.RuleKind`). A new rule kind is a ``RuleKind`` in a module here
(a new one, or the module of its family) and one line in :data:`RULE_KINDS`."""

from __future__ import annotations

from .base import RuleKind
from .costs import COST_PAYABLE, OPENING_HAND
from .counts import COUNT_RANGE, PLAYERS_SUPPORTED, SUM_EQUALS
from .rows import ASSERT, PATTERN, UNIQUE
from .values import EXACT_SET, STATED_VALUES

RULE_KINDS: dict[str, RuleKind] = {kind.name: kind for kind in (
    ASSERT, UNIQUE, EXACT_SET, STATED_VALUES, COUNT_RANGE, SUM_EQUALS, COST_PAYABLE, OPENING_HAND,
    PLAYERS_SUPPORTED, PATTERN,
)}
"""Every rule kind by name, in the order docs/validation.md lists them."""

__all__ = ["RULE_KINDS", "RuleKind"]
