"""Outputs: one module (or package) per kind of file set `pnp build` writes for a game, and
:data:`OUTPUTS`, the registry a build runs them from (:mod:`.base` describes an output).

In build order: ``cards`` (card sheets and contact sheets), ``boards`` (boards, tokens, dice),
``accessibility`` (findings only: colour vision, greyscale, contrast), ``rulebook``,
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

from typing import Callable, Iterator, Mapping

from .base import BuildResult, BuildSettings, Output, OutputJob, SheetOptions, Stage

__all__ = ["OUTPUTS", "BuildResult", "BuildSettings", "Output", "OutputJob", "Registry", "SheetOptions", "Stage"]


def _cards() -> Output:
    from .cards import CardsOutput

    return CardsOutput()


def _boards() -> Output:
    from .boards import BoardsOutput

    return BoardsOutput()


def _accessibility() -> Output:
    from .access import AccessibilityOutput

    return AccessibilityOutput()


def _rulebook() -> Output:
    from .rulebook import RulebookOutput

    return RulebookOutput()


def _export() -> Output:
    from .export import ExportOutput

    return ExportOutput()


def _editions() -> Output:
    from .editions import EditionsOutput

    return EditionsOutput()


def _cut() -> Output:
    from .cut import CutOutput

    return CutOutput()


def _boxes() -> Output:
    from .boxes import BoxesOutput

    return BoxesOutput()


class Registry(Mapping[str, Output]):
    """Outputs by name, in build order; each made (its module imported) when first asked for.
    Iterating gives the names without importing anything."""

    def __init__(self, makers: dict[str, Callable[[], Output]]):
        self._makers = makers
        self._made: dict[str, Output] = {}

    def __getitem__(self, name: str) -> Output:
        output = self._made.get(name)
        if output is None:
            output = self._made[name] = self._makers[name]()
            assert output.name == name, (output.name, name)
        return output

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


OUTPUTS = Registry({"cards": _cards, "boards": _boards, "accessibility": _accessibility, "rulebook": _rulebook,
                    "export": _export, "editions": _editions, "cut": _cut, "boxes": _boxes})
"""Every output a build makes, in build order (see the module docstring)."""
