"""The state of one export while it renders: its files in memory, named by the profile's file
name patterns and kept apart when two names differ only in case."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.findings import Finding
from ...design.layouts import LayoutSet
from ...model.game import Game
from ...render.color import InkConverter
from ...render.renderer import Renderer
from .manifest import Entry
from .profiles import FILE_FIELDS, Profile, ProfileError


@dataclass
class ExportJob:
    """One export of one game for one profile: what it draws with and what it has made so far
    (files in memory, manifest entries, findings). Nothing is written until the whole export
    rendered."""

    game: Game
    layouts: LayoutSet
    profile: Profile
    folder: Path
    renderer: Renderer
    converter: InkConverter | None
    dry: bool = False
    """A dry run: draw and preflight every card, rasterise nothing."""
    board_renderer: Renderer | None = None
    """Draws the game's boards and tokens (its boards.toml designs) for a profile with
    products; None: the export makes cards only."""
    outputs: list[tuple[Path, bytes]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    pages: Any = None
    """The export's drawings, a page each of one PDF (:class:`~.pages.PageBook`, made by
    :func:`~.pages.book_of` when first needed)."""
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Lower-case file name -> (file name, sha256 of its content), to tell a clash from the
    same file."""

    def name(self, pattern: str, **fields: Any) -> str:
        fields = {"game": self.game.file_stem, "target": self.profile.name, **fields}
        try:
            return pattern.format(**{k: fields.get(k, "") for k in FILE_FIELDS})
        except (KeyError, IndexError, ValueError) as exc:
            raise ProfileError(f"file name pattern {pattern!r} cannot be filled: {exc}",
                               location=self.profile.where()) from None

    def claim(self, name: str, data: bytes) -> str:
        """A file name for ``data``: ``name``, or ``name-2`` ... when ``name`` holds other bytes.
        Returns the name to use; the same bytes under the same name are written once."""
        digest = hashlib.sha256(data).hexdigest()
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        candidate, n = name, 1
        # names compare case-blind: Fe.png and fe.png are one file on macOS and Windows
        while candidate.lower() in self.names and self.names[candidate.lower()][1] != digest:
            n += 1
            candidate = f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"
        if candidate.lower() in self.names:
            return self.names[candidate.lower()][0]
        self.names[candidate.lower()] = (candidate, digest)
        self.outputs.append((self.folder / candidate, data))
        return candidate
