"""Options several commands share: their types (choices, lengths, offsets) and their help, so
``--help`` shows the choices and a bad value is refused by the option parser, naming the
option, before any game is read."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..core.units import PAPER_SIZES
from .settings import (card_thickness, length, load_options, offset, parse_delimiter,  # noqa: F401  (the commands' helpers)
                       sheet_options, sleeve_thickness)

Paper = Enum("Paper", {name.replace("-", "_").upper(): name for name in PAPER_SIZES}, type=str)
"""The papers a sheet or a rulebook page may be (``letter``, ``a4``, ...), any case."""


QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Print only each game's outcome and its findings: no progress bars, no list of "
                          "files written (progress is never shown when the output is not a terminal).")]


class Flip(str, Enum):
    """How a duplex printer turns the sheet: backs mirror the columns (long) or the rows (short)."""

    LONG = "long"
    SHORT = "short"


class Simulation(str, Enum):
    """What ``pnp build --simulate`` shows (:data:`pnp.render.vision.SIMULATIONS`)."""

    DEUTERANOPIA = "deuteranopia"
    PROTANOPIA = "protanopia"
    TRITANOPIA = "tritanopia"
    GREYSCALE = "greyscale"


class InkEdition(str, Enum):
    """What ``pnp build --ink`` makes (pnp.render.ink)."""

    LOW = "low"
    GREYSCALE = "greyscale"


class Format(str, Enum):
    """How ``pnp check`` reports: for people, or JSON for scripts and CI."""

    TEXT = "text"
    JSON = "json"


GameArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Bundled game id or path to a game folder; none means every bundled game.",
                   show_default=False),
]
EncodingOpt = Annotated[str, typer.Option(
    help="Text encoding of the CSV files, e.g. cp1252 for files saved by older Excel; a table's own encoding in game.toml wins.")]
DelimiterOpt = Annotated[Optional[str], typer.Option(
    help="CSV delimiter; detected from the header line when not given (comma or semicolon).", show_default=False)]
MaxImagePixelsOpt = Annotated[int, typer.Option(
    min=1, help="Refuse art with more pixels than this (a guard against decompression bombs).")]
ImageDpiOpt = Annotated[Optional[int], typer.Option(
    min=36, max=2400, metavar="DPI",
    help="Resolution raster art is embedded at, px/in at its placed size; sharper art is downsampled "
         "(default: 300 in print files, 150 in contact sheets and Tabletop Simulator decks, an export "
         "profile's image_dpi).", show_default=False)]
PaperOpt = Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size of the sheets.")]
FlipOpt = Annotated[Flip, typer.Option(
    case_sensitive=False, help="Duplex flip: long (backs mirror the columns) or short (backs mirror the rows, turned).")]
GutterFoldOpt = Annotated[bool, typer.Option(
    "--gutter-fold", help="Faces and backs on one sheet, to fold and glue; no duplex printing.")]
BackOffsetOpt = Annotated[Any, typer.Option(
    parser=offset, metavar="X,Y",
    help="Move every back by X,Y mm to correct a printer's misregistration (measure it with the calibration page); "
         "an offset that moves backs into the margin is refused, naming the room on each side.")]
MarginOpt = Annotated[float, typer.Option(parser=length, metavar="LENGTH", help="Ink-free margin at the paper edge.")]
GapOpt = Annotated[float, typer.Option(parser=length, metavar="LENGTH",
                                       help="Space between cards; bleed fills up to half of it, on every edge of "
                                            "every card (a sheet holds fewer cards where the outer edges lack room).")]
BleedOpt = Annotated[float, typer.Option(parser=length, metavar="LENGTH",
                                         help="Largest bleed past each trim, where the space allows.")]
ContactSheetsOpt = Annotated[Optional[bool], typer.Option(
    "--contact-sheets/--no-contact-sheets", show_default=False,
    help="Write a contact sheet PNG per deck, its faces and backs in a grid to look over on a screen (default: as "
         "game.toml's [build] contact_sheets says, else off; off removes those an earlier build made).")]
StampOpt = Annotated[Optional[bool], typer.Option(
    "--stamp/--no-stamp", show_default=False,
    help="Print the version stamp (the game's version and a short hash of each piece's face) on every piece "
         "of the home sheets (default: as game.toml's [build] stamp says, else off).")]
CutLinesOpt = Annotated[bool, typer.Option(
    "--cut-lines", help="Draw each card's trim outline as a thin grey cut line, for a guillotine or scissors "
                        "(the bleed runs past it, so a cut beside the line shows art, not white).")]
CutOpt = Annotated[Optional[str], typer.Option(
    "--cut", metavar="PROFILE", show_default=False,
    help="Also make print-and-cut sheets and their SVG and DXF cut files for a cutting machine: silhouette, "
         "cricut, generic, or a path to a cutter profile .toml (docs/cutting.md).")]
CornerRadiusOpt = Annotated[float, typer.Option(parser=length, metavar="LENGTH",
                                                help="Corner radius of the cards' cut lines in --cut files (0: square).")]
BoxesOpt = Annotated[bool, typer.Option(
    "--boxes", help="Also make a printable tuck box for each deck (or each group of decks game.toml's [boxes] "
                    "names), sized from its cards, and card dividers for a game of several decks (docs/cutting.md).")]
CardThicknessOpt = Annotated[float, typer.Option(parser=card_thickness, metavar="LENGTH",
                                                 help="Thickness of one card, for --boxes (0.30 mm: 300 gsm card; "
                                                      "0.05 mm to 5 mm).")]
SleeveThicknessOpt = Annotated[float, typer.Option(parser=sleeve_thickness, metavar="LENGTH",
                                                   help="What a sleeve adds to each card's thickness, for --boxes "
                                                        "(0 to 1 mm).")]


def size_option(value):
    """``--sleeve-size 66mm x 91mm``: a size W x H with units, as (w, h) pt; ``none`` for no
    sleeves. Raises typer.BadParameter, which names the option."""
    if value is None or isinstance(value, tuple):
        return value
    if str(value).strip().lower() == "none":
        return None
    from ..core.units import parse_size

    try:
        size = parse_size(str(value))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return size.width, size.height


SleeveSizeOpt = Annotated[Any, typer.Option(
    parser=size_option, metavar="W x H",
    help="Outer size of the sleeves the cards are in, for --boxes: the box is sized for it instead of the card "
         "(none: no sleeves).")]
BoxToleranceOpt = Annotated[float, typer.Option(parser=length, metavar="LENGTH",
                                                help="Room to spare inside a --boxes box, on width, height and depth.")]
OutputOpt = Annotated[Optional[Path], typer.Option(
    "--output", "-o", show_default=False,
    help="Folder the games' outputs go in; each game gets a subfolder (default: output/, or the "
         "game folder's own output/ when run inside one).")]
LangOpt = Annotated[Optional[str], typer.Option(
    "--lang", metavar="LANG|all", show_default=False,
    help="Make the game in one of the languages its game.toml lists (or all of them), each into "
         "OUTPUT/<game>/<lang>/ with the language code in the file names; texts come from i18n/<lang>.po "
         "(docs/translating.md). Without it: the tables as written, as always.")]
JobsOpt = Annotated[Optional[int], typer.Option(
    min=1, help="Games (and export rasters) processed side by side (default: up to 2); a single game makes its parts side by side instead.", show_default=False)]
TargetOpt = Annotated[Optional[list[str]], typer.Option(
    "--target", "-t",
    help="Export target: tgc, mpc, dtc, eu, tts, a [targets.NAME] of the game's manifest, or a path to "
         "a profile .toml. Repeat for several.",
    show_default=False)]
