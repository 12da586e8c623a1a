"""Which cards a game's layouts can draw: every card of its decks, with a located
``layout.undefined`` error for each side that names a layout the layouts file lacks."""

from __future__ import annotations

from dataclasses import replace

from ..core.findings import Finding
from ..core.suggest import did_you_mean
from ..model.game import Game
from ..model.pieces import CardInstance, card_instances
from .layouts import LayoutSet


def undefined_layout(game: Game, comp, row, kind: str, name: str, layouts: LayoutSet) -> Finding:
    """The ``layout.undefined`` error of a card whose ``kind`` side (``face``, ``back``) names
    layout ``name``, which ``layouts`` does not define: at the cell that names it, or the
    game.toml key with its line; the piece is the card (``deck/id``)."""
    column = comp.layout_column if kind == "face" else comp.back_column
    if column:
        loc = row.location(column)
    else:
        loc = game.key_location(f"components.{comp.id}.{'layout' if kind == 'face' else 'back'}")
    return Finding.at("error", "layout.undefined", loc, f"the {kind} layout {name!r} is not defined in {layouts.display}",
                      hint=did_you_mean(name, layouts.layouts, "layouts: " + ", ".join(sorted(layouts.layouts))),
                      component=comp.id, piece=f"{comp.id}/{row.id}" if row.id is not None else comp.id)


def drawable_cards(game: Game, layouts: LayoutSet) -> tuple[list[CardInstance], list[Finding]]:
    """Every card of ``game``, and a ``layout.undefined`` error for each side of a row that names
    a layout ``layouts`` does not define (:func:`undefined_layout`). That side is left blank
    (its layout becomes ``""``, which draws nothing) and the other side is still drawn, so its
    own problems are found too; a build with such a finding is refused unless forced."""
    findings: list[Finding] = []
    blank: set[tuple[str, int, str]] = set()
    for comp in game:
        if comp.kind != "deck":
            continue
        for row in comp.rows:
            for kind, name in (("face", comp.layout_of(row)), ("back", comp.back_of(row))):
                if name and name not in layouts.layouts:
                    findings.append(undefined_layout(game, comp, row, kind, name, layouts))
                    blank.add((comp.id, row.line, kind))
    cards = card_instances(game)
    for card in cards if blank else []:
        key = (card.face.component, card.face.row.line if card.face.row else 0)
        if key + ("face",) in blank:
            card.face = replace(card.face, layout="")
        if key + ("back",) in blank:
            card.back = replace(card.back, layout="")
    return cards, findings
