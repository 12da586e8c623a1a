"""Options several commands share, and the parsers of options with their own syntax."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..core.errors import PnpError
from ..core.units import parse_length
from ..model.load import LoadOptions

GameArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Bundled game id or path to a game folder; none means every bundled game.",
                   show_default=False),
]


EncodingOpt = Annotated[str, typer.Option(help="Text encoding of the CSV files, e.g. cp1252 for files saved by older Excel.")]


MaxImagePixelsOpt = Annotated[int, typer.Option(help="Refuse art with more pixels than this (a guard against decompression bombs).")]
DelimiterOpt = Annotated[Optional[str], typer.Option(help="CSV delimiter; detected from the header line when not given (comma or semicolon).", show_default=False)]


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


def parse_back_offset(text: str) -> tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise PnpError(f"--back-offset {text!r} needs two values, X,Y",
                       hint="for example --back-offset 0.5,-0.3 (mm) or 0.02in,0in")
    out = []
    for part in parts:
        try:
            out.append(parse_length(part if part[-1:].isalpha() else part + "mm"))
        except (ValueError, IndexError):
            raise PnpError(f"--back-offset: {part!r} is not a length",
                           hint="give millimetres (0.5) or a length with a unit (0.02in)") from None
    limit = parse_length("10mm")
    if any(abs(v) > limit for v in out):
        raise PnpError(f"--back-offset {text!r} moves the backs more than 10 mm",
                       hint="printers misregister by a millimetre or two; measure it on the calibration sheet")
    return out[0], out[1]


def load_options(encoding: str, delimiter: str | None) -> LoadOptions:
    """The :class:`~pnp.model.load.LoadOptions` of ``--encoding`` and ``--delimiter``."""
    return LoadOptions(encoding=encoding, delimiter=parse_delimiter(delimiter))


def parse_lengths(**values: str) -> dict[str, float]:
    """Length options (``--margin 5mm``) in pt by option name; PnpError naming the option for a
    value without a unit or below zero."""
    lengths = {}
    for name, value in values.items():
        try:
            lengths[name] = parse_length(value)
        except ValueError as exc:
            raise PnpError(f"--{name}: {exc}") from None
        if lengths[name] < 0:
            raise PnpError(f"--{name} cannot be negative")
    return lengths
