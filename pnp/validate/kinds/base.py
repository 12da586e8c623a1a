"""What a rule kind is: its name, its schema (the keys a ``[[rule]]`` of this kind requires
and may have, and which of them need more than a type check) and its check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class RuleKind:
    """One kind of ``[[rule]]`` in rules.toml.

    ``required`` and ``optional``: the kind's own keys, besides the keys every rule has
    (:data:`pnp.validate.rulesfile.COMMON_KEYS`). ``entry_lists``: keys holding a list of
    supply tables (each with a component, checked when the file is read); ``name_maps``: keys
    mapping pattern groups to name lists of ``[names]``; ``regex_keys``: keys holding a regular
    expression (compiled when the file is read). ``check(runner, rule)`` returns the findings of
    one rule (:class:`pnp.validate.runner.Runner` gives it the game, the locations and the
    expression evaluator); it raises :class:`pnp.core.errors.Problem` for an
    expression that fails.
    """

    name: str
    required: set[str]
    optional: set[str]
    check: Callable[[Any, Any], list]
    summary: str = ""
    entry_lists: tuple[str, ...] = ()
    name_maps: tuple[str, ...] = ()
    regex_keys: tuple[str, ...] = ()
    keys: frozenset[str] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "keys", frozenset(self.required | self.optional))
