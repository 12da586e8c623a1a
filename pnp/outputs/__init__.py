"""Outputs: one module (or package) per kind of file set `pnp build` writes for a game, and
:data:`OUTPUTS`, the registry a build runs them from (:mod:`.base` describes an output).

In build order: ``cards`` (card sheets), ``contact`` (contact sheets), ``boards`` (boards,
tokens, dice), ``accessibility`` (findings only: colour vision, greyscale, contrast), ``rulebook``,
``export`` (the print-shop and Tabletop Simulator targets a manifest lists), ``editions``
(simulated previews and ink-saving editions, when a build asks for them), ``cut``
(print-and-cut sheets and cut files, with ``--cut``) and ``boxes`` (tuck boxes, with
``--boxes``).

The registry imports each output's module when that output is first asked for, so that what
only needs the settings (:mod:`.base`), such as a build whose inputs are unchanged, does not
import the renderers, and a build of some outputs (``--only``, ``pnp rulebook``) does not
import the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import Iterator, Mapping

from .base import BuildResult, BuildSettings, Output, OutputJob, SheetOptions, Stage

__all__ = ["OUTPUTS", "BuildResult", "BuildSettings", "Output", "OutputJob", "Registry", "SheetOptions", "Stage"]


class Registry(Mapping[str, Output]):
    """Outputs by name, in build order, each given as (module of this package, class); an output
    is made (its module imported) when first asked for. Iterating gives the names without
    importing anything."""

    def __init__(self, classes: dict[str, tuple[str, str]]):
        self._classes = classes
        self._made: dict[str, Output] = {}

    def __getitem__(self, name: str) -> Output:
        output = self._made.get(name)
        if output is None:
            module, cls = self._classes[name]
            output = self._made[name] = getattr(import_module(module, __name__), cls)()
            assert output.name == name, (output.name, name)
        return output

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)


OUTPUTS = Registry({"cards": (".cards", "CardsOutput"), "contact": (".contact", "ContactOutput"),
                    "boards": (".boards", "BoardsOutput"), "accessibility": (".access", "AccessibilityOutput"),
                    "rulebook": (".rulebook", "RulebookOutput"),
                    "export": (".export", "ExportOutput"), "editions": (".editions", "EditionsOutput"),
                    "cut": (".cut", "CutOutput"), "boxes": (".boxes", "BoxesOutput")})
"""Every output a build makes, in build order (see the module docstring)."""
