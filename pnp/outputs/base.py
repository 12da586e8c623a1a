"""What every output shares: the sheet options of home print-and-play files, what one part of
a build reports, and the registry of outputs a build makes.

An *output* is one kind of file set `pnp build` writes for a game (card sheets, boards and
tokens, the rulebook, an export target). It is an object in :data:`OUTPUTS` (filled by
:mod:`pnp.outputs`) with a ``name`` and ``stages(job)``: the :class:`Stage` s it contributes for
one game, each with the input files it reads (the incremental build skips a stage whose inputs
did not change) and how to run it. A new output is one module and one registry line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from ..core.errors import BuildError
from ..core.files import game_files, write_atomic
from ..core.findings import Finding
from ..core.units import Size, paper, parse_length
from ..design.fonts import FONT_FILES, font_dir
from ..geometry.impose import DEFAULT_BLEED, DEFAULT_MARGIN
from ..model.catalogue import CATALOGUE_DIR
from ..model.game import Game
from ..model.games import GameSource
from ..render.art import DEFAULT_MAX_PIXELS, PRINT_DPI, SCREEN_DPI

if TYPE_CHECKING:  # the reprint draws; the settings that name it are read before anything draws
    from .reprint import ReprintPlan

DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
"""The PDF Duplex viewer preference of each flip."""


@dataclass(frozen=True)
class SheetOptions:
    """How home sheets are laid out. Lengths in pt.

    ``flip``: ``long`` (backs mirror the columns) or ``short`` (backs mirror the rows and turn
    180°). ``gutter_fold``: faces and backs on one sheet, folded. ``back_offset``: (x, y) added
    to every back to correct a printer's misregistration, measured with the calibration page.
    ``contact_sheets``: write a contact sheet PNG per deck; None: as the game's ``[build]
    contact_sheets`` says (off when it says nothing).
    """

    paper: str = "letter"
    flip: str = "long"
    gutter_fold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    margin: float = DEFAULT_MARGIN
    gap: float = 0.0
    bleed: float = DEFAULT_BLEED
    contact_sheets: bool | None = None

    def paper_size(self) -> Size:
        """The sheet size in pt (portrait). Raises BuildError for an unknown paper."""
        return paper(self.paper)


@dataclass(frozen=True)
class BuildSettings:
    """Everything a build (or its dry run, ``pnp check``) is asked for besides the games.

    ``sheet``: the sheet options; ``max_image_pixels``: the largest art accepted (None lifts the
    guard); ``image_dpi``: the resolution raster art is embedded at, px/in at its placed size,
    in every file (None: each file's own, :meth:`print_dpi`, :meth:`screen_dpi` and each
    export profile's ``image_dpi``); ``force``: rebuild every part and write even when errors
    are found; ``strict``: warnings fail the build too; ``jobs``: processes side by side (None:
    up to 2).
    Which parts: ``outputs`` names outputs of the registry (None: all); ``targets`` are export
    targets made besides the manifest's ``[targets]`` (``manifest_targets`` False: only
    ``targets``); ``rulebook_paper`` and ``booklet`` how the rulebook is laid out (None: A4
    for A-series sheet paper, else Letter); ``url_prefix`` replaces a Tabletop Simulator
    profile's image URLs. ``only`` (``DECK`` or ``DECK/ROW_ID`` each) makes a quick card sheet
    of just those cards, ``<game>-cards-only.pdf``, beside the full build's files.
    ``draft``: a missing picture prints as a marked placeholder and is a warning (home sheets,
    rulebook, their check); False makes it an error. Export targets always refuse it, and so
    does a ``strict`` run: it is drawn as the draft is (so it reuses the draft's records), and
    its report makes the draft's missing-art warnings errors (:func:`pnp.pipeline.build.run_game`).
    ``cut_lines``: each card's trim outline drawn on its face as a thin grey cut line
    (:data:`pnp.render.canvas.CUT_WIDTH`, :data:`~pnp.render.canvas.CUT_GRAY`), for a
    guillotine or scissors; off by default, so the sheets are as before. ``cut``: a cutter
    profile (``silhouette``, ``cricut``, ``generic`` or a path to a .toml) to make print-and-cut
    sheets and cut files for (:mod:`pnp.outputs.cut`; None: none), cards cut with corners of
    ``corner_radius`` pt. ``boxes``: a tuck box per deck (:mod:`pnp.outputs.boxes`), sized for
    cards ``card_thickness`` thick (pt; 0.30 mm, a 300 gsm card), ``sleeve_thickness`` more per
    sleeved card, sleeves ``sleeve_size`` (w, h pt; None: unsleeved) in place of the card
    size, and ``box_tolerance`` to spare each way.
    ``language``: build the game in this one of its languages (``[game] languages``) into
    ``output/<game>/<language>/``, file names carrying the code (None: the tables as written,
    into ``output/<game>/``; docs/translating.md).
    ``accessibility``: the colour-vision, greyscale and contrast findings not accepted in
    game.toml are warnings (else infos; docs/accessibility.md). ``simulate``: make only the
    preview of the sheets as seen with this vision (:data:`pnp.render.vision.SIMULATIONS`).
    ``ink``: make only the ``low`` ink or ``greyscale`` edition of the sheets (pnp.render.ink).
    """

    sheet: SheetOptions = SheetOptions()
    max_image_pixels: int | None = DEFAULT_MAX_PIXELS
    force: bool = False
    strict: bool = False
    jobs: int | None = None
    outputs: tuple[str, ...] | None = None
    targets: tuple[str, ...] = ()
    manifest_targets: bool = True
    rulebook_paper: str | None = None
    booklet: bool = False
    url_prefix: str | None = None
    only: tuple[str, ...] = ()
    image_dpi: int | None = None
    draft: bool = True
    changed_since: str | None = None
    """``--changed-since REF``: card sheets of only the cards changed or added since the
    version REF names, and the list of what to take out of the old print (docs/versions.md);
    the pipeline turns it into :attr:`reprint` for each game."""
    reprint: ReprintPlan | None = None
    """The reprint of one game (:class:`pnp.outputs.reprint.ReprintPlan`), made from
    :attr:`changed_since` by the pipeline."""
    stamp: bool | None = None
    """Home sheets print the version stamp on every piece (docs/versions.md); None: as the
    game's ``[build] stamp`` says (off when it says nothing). Exports never print it."""
    cut_lines: bool = False
    """``--cut-lines``: each card face's trim drawn as a thin cut line (docs/cutting.md)."""
    cut: str | None = None
    """``--cut PROFILE``: print-and-cut sheets and cut files for that cutter profile."""
    corner_radius: float = parse_length("0.125in")
    """Corner radius of the cards' cut paths in print-and-cut files, pt (1/8 in)."""
    boxes: bool = False
    """``--boxes``: a tuck box per deck."""
    card_thickness: float = parse_length("0.30mm")  # parsed as the command line parses its default
    """One card's thickness for tuck boxes, pt (0.30 mm: 300 gsm card)."""
    sleeve_thickness: float = 0.0
    """What a sleeve adds to each card's thickness, pt."""
    sleeve_size: tuple[float, float] | None = None
    """Outer (width, height) of the sleeves, pt, sizing the boxes instead of the cards; None: no sleeves."""
    box_tolerance: float = parse_length("1mm")
    """Room to spare inside a tuck box on width, height and depth, pt (1 mm)."""
    language: str | None = None
    """Build the game in this one of its languages (see the class docstring); None: as written."""
    accessibility: bool = False
    simulate: str | None = None
    ink: str | None = None

    def stamps(self, game: Game) -> bool:
        """Whether this build prints the version stamp on ``game``'s home sheets."""
        return game.stamp if self.stamp is None else self.stamp

    def contact_sheets(self, game: Game) -> bool:
        """Whether this build writes ``game``'s contact sheets: as the sheet options say, else
        as the game's ``[build] contact_sheets`` says."""
        wanted = self.sheet.contact_sheets
        return game.contact_sheets if wanted is None else wanted

    def sheet_key(self) -> SheetOptions:
        """The sheet options as a printed part's record key takes them: all but
        ``contact_sheets``, which only the contact stage's key holds (turning the contact sheets
        off or on redraws no sheet)."""
        return replace(self.sheet, contact_sheets=True)

    def print_dpi(self) -> int:
        """The resolution art is embedded at in print files (card sheets, boards, tokens, the
        rulebook): ``image_dpi``, else PRINT_DPI (300)."""
        return self.image_dpi or PRINT_DPI

    def screen_dpi(self) -> int:
        """The resolution art is embedded at in files read on a screen (contact sheets):
        ``image_dpi``, else SCREEN_DPI (150)."""
        return self.image_dpi or SCREEN_DPI


def draft_option(draft: bool) -> tuple:
    """What the draft setting adds to a stage's options: nothing for a draft (the default), so
    the records of earlier builds stay fresh."""
    return () if draft else (("draft", False),)


def stamp_option(stamp: bool) -> tuple:
    """What the version stamp adds to a stage's options: nothing when off (the default), so the
    records of earlier builds stay fresh."""
    return (("stamp", True),) if stamp else ()


def cut_lines_option(cut_lines: bool) -> tuple:
    """What ``--cut-lines`` adds to a stage's options: nothing when off (the default), so the
    records of earlier builds stay fresh."""
    return (("cut_lines", True),) if cut_lines else ()


def dpi_option(dpi: int | None, default: int) -> tuple:
    """What an embedding resolution adds to a stage's options: nothing at ``default``, so the
    records of earlier builds made at the default stay fresh."""
    return () if dpi == default else (("image_dpi", dpi),)


@dataclass
class BuildResult:
    """What one part of a build made and found: ``outputs`` (path, bytes) rendered in memory and
    not yet written, ``remove`` the files an earlier run made that this one does not (removed
    when the outputs are written, along with folders under ``prune_within`` left empty),
    ``files`` the paths written, ``removed`` those removed, ``findings``, and the ``sheets`` and
    pieces (``cards``) drawn."""

    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sheets: int = 0
    cards: int = 0
    outputs: list[tuple[Path, bytes]] = field(default_factory=list, repr=False)
    remove: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    prune_within: Path | None = None
    notes: list[str] = field(default_factory=list)
    """Lines the build report prints under the part (an edition's ink per page)."""
    caches: list[tuple[Path, bytes | None]] = field(default_factory=list, repr=False)
    """(path, bytes) of what the part keeps for the next build besides its outputs (the contact
    sheets' tile index; None removes the file): written with the outputs, but neither listed
    nor recorded, and a cache that cannot be written is left out (the next build then does
    more work)."""


def write_result(result: BuildResult) -> BuildResult:
    """Write ``result.outputs`` (each file atomically, so a reader never sees half a file),
    then remove ``result.remove`` and the folders under ``result.prune_within`` that leaves
    empty. Fills ``result.files`` and ``result.removed``, drops the bytes and returns ``result``.
    ``result.caches`` are written after the outputs, as far as they can be."""
    for path, data in result.outputs:
        write_atomic(path, data)
        result.files.append(path)
    result.outputs = []
    for path, data in result.caches:
        try:
            if data is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, data)
        except (OSError, BuildError):
            pass  # only a cache: the next build does without it
    result.caches = []
    root = result.prune_within.resolve() if result.prune_within is not None else None
    for path in result.remove:
        if path.is_file():
            path.unlink()
            result.removed.append(path)
        parent = path.parent.resolve()  # the removed paths and the folder may be given either way
        while root is not None and parent != root and parent.is_relative_to(root) and parent.is_dir() \
                and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return result


@dataclass
class Stage:
    """One part of a game's build: a name (the key of the build record, so it never changes),
    the input files it reads, and how to render it: ``render(dry)`` returns a BuildResult with
    its outputs in memory (nothing is written; :func:`write_result` writes them). A dry render
    (``pnp check``) finds everything a real one finds but may skip work that cannot find
    anything, such as rasterising pages already drawn."""

    name: str
    inputs: list[Path]
    render: Callable[[bool], BuildResult]
    options: tuple = ()
    """Settings besides the files that change what the stage makes (part of its record key)."""


@dataclass(frozen=True)
class OutputJob:
    """One game to make outputs for: the loaded game, where its files are, the folder its
    outputs go to (``output/<game>``) and the build settings."""

    game: Game
    source: GameSource
    out_dir: Path
    settings: BuildSettings

    def data_files(self) -> list[Path]:
        """The game folder's files a build reads: not its notes (.md and .txt), nor the
        translation catalogues (``i18n/<lang>.po``) of languages other than the run's; a run
        without ``--lang`` reads none (:func:`pnp.model.i18n.localize`)."""
        catalogues = self.game.path / CATALOGUE_DIR
        # the run's own compared case-blind: where file names fold (macOS, Windows) DE.po is read as de.po
        own = f"{self.settings.language}.po".casefold() if self.settings.language else None
        files = [p for p in game_files(self.game.path) if p.suffix.lower() not in (".md", ".txt")
                 and (p.parent != catalogues or p.suffix.lower() != ".po" or p.name.casefold() == own)]
        if self.settings.language:  # the catalogue the run reads, also where a linked i18n/ folder puts it
            read = catalogues / f"{self.settings.language}.po"
            if read not in files:
                files.append(read)
        return files

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
