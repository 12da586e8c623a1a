"""The layout part of ``pnp check``: art paths, the layouts file, the layouts decks name, and
a trial drawing of one card of each layout (rule ids ``layout.*``)."""

from __future__ import annotations

import io

from ..core.errors import BuildError, LayoutError, Location
from ..core.findings import Finding
from ..core.units import paper
from ..design.layouts import game_layouts
from ..model.game import Game
from ..model.games import GameSource
from ..model.pieces import card_instances
from ..render.art import DEFAULT_MAX_PIXELS
from ..render.canvas import new_canvas
from ..render.renderer import Renderer


def check_layouts(game: Game, source: GameSource, max_image_pixels: int | None = DEFAULT_MAX_PIXELS) -> list[Finding]:
    """Check that every card can be drawn: art files named in ``path`` cells exist inside the game
    folder, the layouts file loads, every face and back a deck names is defined, and one card of
    each layout draws without a template, colour or art error (rule ids ``layout.*``). The full
    preflight of every card happens in ``pnp build``."""
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
                if not target.is_relative_to(root):
                    findings.append(Finding.at("error", "layout.art-outside", row.location(name),
                                               f"{rel!r} is outside the game folder",
                                               hint="keep art inside the game folder"))
                elif not target.is_file():
                    findings.append(Finding.at("error", "layout.art-missing", row.location(name),
                                               f"no file {rel!r} in the game folder",
                                               hint="paths are relative to the game folder"))
    decks = [c for c in game if c.kind == "deck"]
    if not decks:
        return findings
    try:
        layouts = game_layouts(game, source)
    except LayoutError as exc:
        return findings + [Finding.at("error", "layout.file", exc.location, exc.message, hint=exc.hint or "")]
    for comp in decks:
        for row in comp.rows:
            for kind, name, column in (("face", comp.layout_of(row), comp.layout_column),
                                       ("back", comp.back_of(row), comp.back_column)):
                if name and name not in layouts.layouts:
                    key = "layout" if kind == "face" else "back"
                    loc = row.location(column) if column else Location(
                        f"{game.display_root}/game.toml", column_name=f"components.{comp.id}.{key}")
                    findings.append(Finding.at("error", "layout.undefined", loc,
                                               f"the {kind} layout {name!r} is not defined in {source.layouts_display}",
                                               hint="layouts: " + ", ".join(sorted(layouts.layouts))))
    if any(f.severity == "error" for f in findings):
        return findings
    renderer = Renderer(layouts, game.path, max_image_pixels=max_image_pixels)
    c = new_canvas(io.BytesIO(), paper("a4"), scratch=True)  # a trial drawing, never saved
    seen: set[str] = set()
    try:
        cards = card_instances(game)
    except BuildError as exc:
        return findings + [Finding.at("error", "layout.missing", exc.location, exc.message, hint=exc.hint or "")]
    for card in cards:
        for piece in (card.face, card.back):
            if piece.layout in seen:
                continue
            seen.add(piece.layout)
            try:
                renderer.draw(c, piece, (0, 0, card.size.width, card.size.height), (0, 0, 0, 0))
            except (LayoutError, BuildError) as exc:
                findings.append(Finding.at("error", "layout.render", exc.location or Location(source.layouts_display),
                                           f"{piece.label}: {exc.message}", hint=exc.hint or ""))
    return findings
