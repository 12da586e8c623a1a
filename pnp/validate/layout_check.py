"""The art part of the data checks: every ``path`` cell names a file inside the game folder
(rule ids ``layout.art-missing``, ``layout.art-outside``).

Everything else about the designs (the layouts files, the layouts decks name, every piece
drawn) is found by rendering every output, which ``pnp check`` does as a dry run of the build
(:mod:`pnp.pipeline.build`). A drawing that misses art a cell names reports it at the same
cell, in the same words, so the two are one finding.
"""

from __future__ import annotations

from ..core.findings import Finding
from ..core.suggest import nearest_file
from ..model.game import Game
from ..render.preflight import art_missing, art_outside


def check_art_paths(game: Game, draft: bool = False) -> list[Finding]:
    """A finding for each ``path`` cell whose file is missing (an error; a warning in a
    ``draft``, whose drawings print a placeholder) or outside the game folder (an error)."""
    findings: list[Finding] = []
    root = game.path.resolve()
    for comp in game:
        for name, spec in comp.columns.items():
            if spec.type != "path":
                continue
            for row in comp.rows:
                rel = row.get(name)
                if rel is None:
                    continue
                target = (game.path / rel).resolve()
                piece = f"{comp.id}/{row.id}" if row.id is not None else comp.id  # as drawings name it
                if not target.is_relative_to(root):
                    findings.append(art_outside(row.location(name), rel, piece))
                elif not target.is_file():
                    findings.append(art_missing(row.location(name), rel, piece, draft=draft,
                                                close=nearest_file(game.path, rel)))
    return findings
