"""Outputs: one module (or package) per kind of file set `pnp build` writes for a game, and
:data:`OUTPUTS`, the registry a build runs them from (:mod:`.base` describes an output).

In build order: ``cards`` (card sheets and contact sheets), ``boards`` (boards, tokens, dice),
``accessibility`` (findings only: colour vision, greyscale, contrast), ``rulebook``,
``export`` (the print-shop and Tabletop Simulator targets a manifest lists), ``editions``
(simulated previews and ink-saving editions, when a build asks for them), ``cut``
(print-and-cut sheets and cut files, with ``--cut``) and ``boxes`` (tuck boxes, with
``--boxes``).

The registry is made on first use, so that what only needs the settings (:mod:`.base`), such
as a build whose inputs are unchanged, does not import the renderers.
"""

from __future__ import annotations

from .base import BuildResult, BuildSettings, Output, OutputJob, SheetOptions, Stage

__all__ = ["OUTPUTS", "BuildResult", "BuildSettings", "Output", "OutputJob", "SheetOptions", "Stage"]


def _registry() -> dict[str, Output]:
    from .access import AccessibilityOutput
    from .boards import BoardsOutput
    from .boxes import BoxesOutput
    from .cards import CardsOutput
    from .cut import CutOutput
    from .editions import EditionsOutput
    from .export import ExportOutput
    from .rulebook import RulebookOutput

    return {output.name: output for output in (CardsOutput(), BoardsOutput(), AccessibilityOutput(), RulebookOutput(),
                                                ExportOutput(), EditionsOutput(), CutOutput(), BoxesOutput())}


def __getattr__(name: str):
    """``OUTPUTS``: every output a build makes, in build order (made on first use)."""
    if name == "OUTPUTS":
        globals()["OUTPUTS"] = registry = _registry()
        return registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
