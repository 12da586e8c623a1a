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
    from reportlab.pdfbase import pdfmetrics

    fonts, findings = read_fonts(game)
    named: dict[str, tuple[str, FaceFile]] = {}
    for family in fonts.own():
        for face in family.faces:
            if not isinstance(face, FaceFile):
                continue
            pdf, problem = open_face(face)
            if problem:
                findings.append(Finding.at("error", "font.file", game.key_location(face.key), problem,
                                           hint="name a TrueType font (.ttf, or .otf/.ttc with TrueType outlines) "
                                                "whose licence permits embedding"))
                continue
            # the PDF names an embedded font by its PostScript name: two different fonts of one
            # name are told apart by no viewer or printer that caches fonts by name
            ps_name = pdfmetrics.getFont(pdf).face.name
            ps_name = ps_name.decode("latin-1") if isinstance(ps_name, bytes) else str(ps_name)
            first = named.setdefault(ps_name, (pdf, face))
            if first[0] != pdf:
                findings.append(Finding.at(
                    "error", "font.file", game.key_location(face.key),
                    f"{face.written!r} and {first[1].written!r} are different fonts with the same PostScript "
                    f"name {ps_name!r}, which the PDF cannot tell apart",
                    hint="use the family's own files, each of which has its own name"))
    return findings
