"""Options several commands share: their types (choices, lengths, offsets) and their help, so
``--help`` shows the choices and a bad value is refused by the option parser, naming the
option, before any game is read."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..core.errors import PnpError
from ..core.units import PAPER_SIZES, parse_length
from ..model.load import LoadOptions

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


def length(value) -> float:
    """``--margin 5mm``: a length with a unit (``5mm``, ``0.125in``, ``9pt``) in pt, never
    negative. Raises typer.BadParameter, which names the option."""
    if isinstance(value, float):
        return value
    try:
        result = parse_length(str(value))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if result < 0:
        raise typer.BadParameter(f"{value!r} is negative")
    return result


def offset(value) -> tuple[float, float]:
    """``--back-offset X,Y``: millimetres (``0.5,-0.3``) or lengths with units (``0.02in,0in``),
    at most 10 mm each way, in pt. Raises typer.BadParameter, which names the option."""
    if isinstance(value, tuple):
        return value
    parts = [p.strip() for p in str(value).split(",")]
    if len(parts) != 2:
        raise typer.BadParameter(f"{value!r} needs two values, X,Y: for example 0.5,-0.3 (mm) or 0.02in,0in")
    out = []
    for part in parts:
        try:
            out.append(parse_length(part if part[-1:].isalpha() else part + "mm"))
        except (ValueError, IndexError):
            raise typer.BadParameter(f"{part!r} is not a length: give millimetres (0.5) or a length with a unit "
                                     "(0.02in)") from None
    if any(abs(v) > parse_length("10mm") for v in out):
        raise typer.BadParameter(f"{value!r} moves the backs more than 10 mm; printers misregister by a millimetre "
                                 "or two, measure it on the calibration sheet")
    return out[0], out[1]


GameArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Bundled game id or path to a game folder; none means every bundled game.",
                   show_default=False),
]
EncodingOpt = Annotated[str, typer.Option(
    help="Text encoding of the CSV files, e.g. cp1252 for files saved by older Excel.")]
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
ContactSheetsOpt = Annotated[bool, typer.Option(
    "--contact-sheets/--no-contact-sheets", help="Write a contact sheet PNG per deck.")]
OutputOpt = Annotated[Optional[Path], typer.Option(
    "--output", "-o", show_default=False,
    help="Folder the games' outputs go in; each game gets a subfolder (default: output/, or the "
         "game folder's own output/ when run inside one).")]
JobsOpt = Annotated[Optional[int], typer.Option(
    min=1, help="Games (and export rasters) processed side by side (default: up to 2).", show_default=False)]
TargetOpt = Annotated[Optional[list[str]], typer.Option(
    "--target", "-t",
    help="Export target: tgc, mpc, dtc, eu, tts, a [targets.NAME] of the game's manifest, or a path to "
         "a profile .toml. Repeat for several.",
    show_default=False)]


def sheet_options(paper: Paper, flip: Flip, gutter_fold: bool, back_offset: tuple[float, float], margin: float,
                  gap: float, bleed: float, contact_sheets: bool):
    """The :class:`~pnp.outputs.base.SheetOptions` of the sheet options ``build`` and ``check``
    share (a check is a dry run of the same build, so it takes the same options)."""
    from ..outputs.base import SheetOptions

    return SheetOptions(paper=paper.value, flip=flip.value, gutter_fold=gutter_fold, back_offset=back_offset,
                        margin=margin, gap=gap, bleed=bleed, contact_sheets=contact_sheets)


def parse_delimiter(value: str | None) -> str | None:
    """--delimiter as typed: one character, or tab written as 'tab' or a backslash-t."""
    if value is None:
        return None
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}
    value = named.get(value.lower(), value)
    if len(value) != 1:
        raise PnpError(f"--delimiter {value!r} is not one character",
                       hint="use --delimiter ';', --delimiter , or --delimiter tab")
    return value


def load_options(encoding: str, delimiter: str | None) -> LoadOptions:
    """The :class:`~pnp.model.load.LoadOptions` of ``--encoding`` and ``--delimiter``."""
    return LoadOptions(encoding=encoding, delimiter=parse_delimiter(delimiter))
