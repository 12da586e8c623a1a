"""What every output shares: the sheet options of home print-and-play files, what one part of
a build reports, and the registry of outputs a build makes.

An *output* is one kind of file set `pnp build` writes for a game (card sheets, boards and
tokens, the rulebook, an export target). It is an object in :data:`OUTPUTS` (filled by
:mod:`pnp.outputs`) with a ``name`` and ``stages(job)``: the :class:`Stage` s it contributes for
one game, each with the input files it reads (the incremental build skips a stage whose inputs
did not change) and how to run it. A new output is one module and one registry line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from ..core.files import game_files
from ..core.findings import Finding
from ..core.units import Size, paper
from ..design.fonts import FONT_FILES, font_dir
from ..geometry.impose import DEFAULT_BLEED, DEFAULT_MARGIN
from ..model.game import Game
from ..model.games import GameSource
from ..render.art import DEFAULT_MAX_PIXELS

DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
"""The PDF Duplex viewer preference of each flip."""


@dataclass(frozen=True)
class SheetOptions:
    """How home sheets are laid out. Lengths in pt.

    ``flip``: ``long`` (backs mirror the columns) or ``short`` (backs mirror the rows and turn
    180°). ``gutter_fold``: faces and backs on one sheet, folded. ``back_offset``: (x, y) added
    to every back to correct a printer's misregistration, measured with the calibration page.
    """

    paper: str = "letter"
    flip: str = "long"
    gutter_fold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    margin: float = DEFAULT_MARGIN
    gap: float = 0.0
    bleed: float = DEFAULT_BLEED
    contact_sheets: bool = True

    def paper_size(self) -> Size:
        """The sheet size in pt (portrait). Raises BuildError for an unknown paper."""
        return paper(self.paper)


@dataclass(frozen=True)
class BuildSettings:
    """Everything a build is asked for besides the games: the sheet options, the largest art
    accepted (pixels; None lifts the guard), whether to rebuild everything (``force``) and how
    many processes may work side by side (``jobs``; None: up to 2)."""

    sheet: SheetOptions = SheetOptions()
    max_image_pixels: int | None = DEFAULT_MAX_PIXELS
    force: bool = False
    jobs: int | None = None


@dataclass
class BuildResult:
    """What one part of a build wrote and found: files, findings, sheets and pieces drawn."""

    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sheets: int = 0
    cards: int = 0


@dataclass
class Stage:
    """One part of a game's build: a name (the key of the build record, so it never changes),
    the input files it reads, and how to run it (no arguments, returns a BuildResult)."""

    name: str
    inputs: list[Path]
    run: Callable[[], BuildResult]


@dataclass(frozen=True)
class OutputJob:
    """One game to make outputs for: the loaded game, where its files are, the folder its
    outputs go to (``output/<game>``) and the build settings."""

    game: Game
    source: GameSource
    out_dir: Path
    settings: BuildSettings

    def data_files(self) -> list[Path]:
        """The game folder's files a build reads (its notes, .md and .txt, are not inputs)."""
        return [p for p in game_files(self.game.path) if p.suffix.lower() not in (".md", ".txt")]

    def template_files(self) -> list[Path]:
        """Every file of the game's templates folder."""
        return game_files(self.source.templates_dir) if self.source.templates_dir else []

    def card_template_files(self) -> list[Path]:
        """The templates card drawings read: everything but boards.toml and the rulebook's
        Jinja2 files."""
        return [p for p in self.template_files() if p.name != "boards.toml" and not p.name.endswith(".j2")]

    def font_files(self) -> list[Path]:
        """The font files every drawing may use."""
        return sorted(font_dir() / name for name in FONT_FILES.values())


class Output(Protocol):
    """One kind of output (see the module docstring)."""

    name: str

    def stages(self, job: OutputJob) -> list[Stage]: ...
