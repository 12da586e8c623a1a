"""How a game's tables are read (:class:`LoadOptions`), apart from the loader so that a
command answered from a build record names its options without importing the loader."""

from __future__ import annotations

from dataclasses import dataclass

COPIES_CAP = 200
"""Default largest copy count of one row before it is treated as a typo (see load_game)."""


@dataclass(frozen=True)
class LoadOptions:
    """How a game's tables are read: ``encoding`` of every CSV table and ``delimiter`` (None:
    detected per file), where game.toml does not state a table's own, and ``copies_cap``,
    the largest copy count of one row before it is taken for a typo (None lifts it; a
    component's ``max_copies`` raises it)."""

    encoding: str = "utf-8"
    delimiter: str | None = None
    copies_cap: int | None = COPIES_CAP
