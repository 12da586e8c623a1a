"""What one game's check or build came to, as the command line prints it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.findings import Finding

if TYPE_CHECKING:
    from ..outputs.base import BuildResult


@dataclass
class GameReport:
    """What one game's run came to: ``findings`` (every check's and every part's, one per
    cause, in report order), the parts rendered (``ran``: files written, if written), kept up
    to date (``kept``) and ``failed``, and whether it was ``written``; ``refused`` says why not
    (``errors``, ``strict``). ``display``, ``title``, ``loaded`` and ``rules_checked`` describe
    the game for the report."""

    display: str
    title: str
    loaded: bool
    findings: list[Finding] = field(default_factory=list)
    rules_checked: int = 0
    ran: dict[str, BuildResult] = field(default_factory=dict)
    kept: dict[str, list[Path]] = field(default_factory=dict)
    written: bool = False
    refused: str = ""
    failed: list[str] = field(default_factory=list)
    """Parts that could not be rendered at all (their error is among the findings): a forced
    build writes the others, but these are missing."""
