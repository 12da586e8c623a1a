"""Outputs: one module (or package) per kind of file set `pnp build` writes for a game, and
:data:`OUTPUTS`, the registry a build runs them from (:mod:`.base` describes an output).

In build order: ``cards`` (card sheets and contact sheets), ``boards`` (boards, tokens, dice),
``rulebook`` and ``export`` (the print-shop and Tabletop Simulator targets a manifest lists).
"""

from __future__ import annotations

from .base import BuildResult, BuildSettings, Output, OutputJob, SheetOptions, Stage
from .boards import BoardsOutput
from .cards import CardsOutput
from .export import ExportOutput
from .rulebook import RulebookOutput

OUTPUTS: dict[str, Output] = {output.name: output for output in (
    CardsOutput(), BoardsOutput(), RulebookOutput(), ExportOutput(),
)}
"""Every output a build makes, in build order."""

__all__ = ["OUTPUTS", "BuildResult", "BuildSettings", "Output", "OutputJob", "SheetOptions", "Stage"]
