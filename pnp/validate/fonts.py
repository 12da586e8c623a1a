"""Checks of a game's own fonts (``[fonts]`` in game.toml, docs/fonts-and-text.md): each
family's settings and files (:func:`pnp.design.fonts.read_fonts`), and that every file opens as
a font that can be embedded (:func:`pnp.render.fonts.open_face`, the loader drawing uses), so
that ``pnp check`` finds a missing, damaged or unembeddable font before a build does."""

from __future__ import annotations

from ..core.findings import Finding
from ..design.fonts import FaceFile, read_fonts
from ..model.game import Game
from ..render.fonts import open_face


def check_fonts(game: Game) -> list[Finding]:
    """``font.setting`` and ``font.file`` errors of ``game``'s ``[fonts]``, each at its
    game.toml key (none without the table)."""
    if "fonts" not in game.manifest:
        return []
    fonts, findings = read_fonts(game)
    for family in fonts.own():
        for face in family.faces:
            if not isinstance(face, FaceFile):
                continue
            _, problem = open_face(face)
            if problem:
                findings.append(Finding.at("error", "font.file", game.key_location(face.key), problem,
                                           hint="name a TrueType font (.ttf, or .otf/.ttc with TrueType outlines) "
                                                "whose licence permits embedding"))
    return findings
