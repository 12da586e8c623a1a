"""``pnp diff --visual FILE``: the changed cards old beside new, drawn from both versions
(:mod:`pnp.outputs.visual`). Only a git revision keeps what an old card looked like (its data,
layouts and art); a release or the last build keeps its cells and hashes, so ``--visual``
needs a git REF."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import PnpError
from ..core.files import write_atomic
from ..design.layouts import game_layouts
from ..design.drawable import drawable_cards
from ..model.facts import game_facts
from ..model.games import GameSource
from ..model.load import LoadOptions, load_game
from ..outputs.visual import Pair, visual_pdf
from ..core.units import paper
from ..render.renderer import Renderer
from .changes import field_changes, what_changed
from .versions import checkout, current_snapshot, diff, is_revision


def _renderer(game, source: GameSource) -> tuple[Renderer, dict]:
    layouts = game_layouts(game, source)
    cards, _ = drawable_cards(game, layouts)
    firsts: dict = {}
    for card in cards:
        firsts.setdefault(card.face.name, card)
    return Renderer(layouts, game.path, game_display=game.display_root, facts=game_facts(game), draft=True), firsts


def write_visual(source: GameSource, ref: str, target: Path, load: LoadOptions = LoadOptions(),
                 paper_name: str = "letter") -> int:
    """Write the visual diff of the cards whose print changed since git revision ``ref``, and
    the cards added and removed, to ``target``; returns how many cards it shows. Raises
    PnpError (``versions.visual``) for a REF that is no git revision."""
    if not is_revision(source, ref):
        raise PnpError(f"--visual --since {ref}: {ref} is no git revision of {source.display}", rule="versions.visual",
                       hint="--visual draws the old cards, which only a git revision keeps (a release or the last "
                       "build keeps their cells and hashes); give --since a git revision, such as HEAD~1 or a tag")
    game = load_game(source.path, source.display, load)
    new_renderer, new_cards = _renderer(game, source)
    with checkout(source, ref) as old_source:
        old_game = load_game(old_source.path, old_source.display, load)
        old_renderer, old_cards = _renderer(old_game, old_source)
        d = diff(f"git revision {ref}", current_snapshot(old_game, old_source), current_snapshot(game, source))
        pairs = [Pair(c.key, new_cards[c.key].size, old_cards[c.key].face, new_cards[c.key].face,
                      [what_changed(c)] + field_changes(c)) for c in d.changed if c.printed]
        pairs += [Pair(k, new_cards[k].size, None, new_cards[k].face, ["added"]) for k in d.added]
        pairs += [Pair(k, old_cards[k].size, old_cards[k].face, None, ["removed"]) for k in d.removed]
        data = visual_pdf(game.title, d.since, pairs, old_renderer, new_renderer, paper(paper_name))
    write_atomic(target, data)
    return len(pairs)
