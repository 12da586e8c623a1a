"""``accessibility``: the colour-vision, greyscale and contrast findings of a game's cards and
tokens (:mod:`.checks`), and the ``[accessibility] accept`` entries of game.toml that accept
some of them with a reason.

The output writes no file: its stage adds findings to every ``pnp check`` and ``pnp build`` of
the whole game. They are infos; ``pnp check --accessibility`` makes those not accepted
warnings (so ``--strict`` fails on them). An accepted finding stays an info and says why.
"""

from __future__ import annotations

from dataclasses import replace

from ...core.findings import Finding, merge
from ...design.layouts import LayoutSet, board_layouts, game_layouts
from ...design.drawable import drawable_cards
from ...design.names import drawing_key
from ...model.game import Game
from ...model.pieces import token_pieces
from ...render import vision
from ...render.renderer import Renderer
from ..base import BuildResult, OutputJob, Stage
from .checks import Found, color_findings, contrast_findings, icon_findings
from .walk import Shown, walk

RULES = ("access.color-blind", "access.greyscale", "access.contrast")
"""The rules an ``[accessibility] accept`` entry may name."""
SELECTORS = ("layout", "box", "categories", "vision")


def pieces_shown(game: Game, layouts: LayoutSet, tokens: LayoutSet | None) -> dict[str, list[Shown]]:
    """What each deck side and token set shows, piece by piece (one copy of each row), keyed by
    how messages name it (``deck elements, faces``)."""
    units: dict[str, list[Shown]] = {}
    renderer = Renderer(layouts, game.path, game_display=game.display_root, draft=True)
    walked: dict = {}
    cards, _ = drawable_cards(game, layouts)
    for card in cards:
        if card.face.copy != 1:
            continue
        for side, piece in (("faces", card.face), ("backs", card.back)):
            shown = _walk_once(renderer, piece, card.size.width, card.size.height, walked)
            if shown is not None:
                units.setdefault(f"deck {card.deck}, {side}", []).append(shown)
    if tokens is not None:
        try:
            pieces, _ = token_pieces(game)
        except Exception:  # a bad shape or size: the boards output reports it
            pieces = []
        renderer = Renderer(tokens, game.path, game_display=game.display_root, draft=True)
        walked = {}  # the keys are of one set of layouts
        for tp in pieces:
            for side, piece in (("faces", tp.face), ("backs", tp.back)):
                if piece is None or piece.copy != 1:
                    continue
                shown = _walk_once(renderer, piece, tp.width, tp.height, walked)
                if shown is not None:
                    units.setdefault(f"tokens {tp.component}, {side}", []).append(shown)
    return units


def _walk_once(renderer: Renderer, piece, width: float, height: float, seen: dict) -> Shown | None:
    """:func:`walk`, once per drawing: pieces whose drawing keys are equal
    (:func:`pnp.design.names.drawing_key`: the same layout and the same values of every name
    it reads) show the same, so a deck's one back is walked once, not once a card. ``seen``
    keeps the walks of the renderer's layouts (drawing key and size -> walk)."""
    key = drawing_key(renderer.layouts, piece)
    if key is None:
        return walk(renderer, piece, width, height)
    key = (key, round(width, 4), round(height, 4))
    if key not in seen:
        seen[key] = walk(renderer, piece, width, height)
    first = seen[key]
    if first is None:
        return None
    return Shown(piece, first.layout, first.paints, first.cues, first.texts)


def accept_entries(game: Game) -> tuple[list[dict], list[Finding]]:
    """The ``[accessibility] accept`` entries of game.toml, each with its ``index``, and an
    ``access.accept`` error for each malformed one (at its line)."""
    table = game.manifest.get("accessibility", {})
    entries, problems = [], []
    where = game.key_location("accessibility")
    if not isinstance(table, dict):
        return [], [Finding.at("error", "access.accept", where, "[accessibility] must be a table",
                               hint='accept = [{ rule = "access.contrast", box = "title", reason = "..." }]')]
    for key in table:
        if key != "accept":
            problems.append(Finding.at("error", "access.accept", game.key_location(f"accessibility.{key}"),
                                       f"unknown setting {key!r} in [accessibility]", hint="the table takes accept"))
    accept = table.get("accept", [])
    for i, entry in enumerate(accept if isinstance(accept, list) else [accept]):
        at = game.key_location(f"accessibility.accept[{i}]")
        if not isinstance(entry, dict):
            problems.append(Finding.at("error", "access.accept", at, "an accept entry must be a table"))
            continue
        bad = [k for k in entry if k not in ("rule", "reason") + SELECTORS]
        if entry.get("rule") not in RULES:
            problems.append(Finding.at("error", "access.accept", at, f"accept entry {i + 1}: rule "
                                       f"{entry.get('rule')!r} is not one of {', '.join(RULES)}"))
        elif not str(entry.get("reason", "")).strip():
            problems.append(Finding.at("error", "access.accept", at, f"accept entry {i + 1} ({entry['rule']}) gives "
                                       "no reason", hint='say why, e.g. reason = "the deck name is printed too"'))
        elif bad:
            problems.append(Finding.at("error", "access.accept", at, f"accept entry {i + 1}: unknown setting "
                                       f"{bad[0]!r}", hint="settings: rule, reason, " + ", ".join(SELECTORS)))
        else:
            entries.append({**entry, "index": i})
    return entries, problems


def _matches(entry: dict, found: Found) -> bool:
    if entry["rule"] != found.finding.rule:
        return False
    if "layout" in entry and entry["layout"] not in found.layouts:
        return False
    if "box" in entry and entry["box"] not in found.boxes:
        return False
    if "vision" in entry and entry["vision"] != found.vision:
        return False
    if "categories" in entry and sorted(map(str, entry["categories"])) != sorted(found.categories):
        return False
    return True


def grey_patterns(game: Game, layouts: LayoutSet, tokens: LayoutSet | None) -> dict[str, int]:
    """Which colours the greyscale edition hatches, and how (1, 2, 3 ...: a pattern each): the
    colours of every ``access.greyscale`` finding that game.toml does not accept. Colours that
    such findings join are numbered by luminance, the lightest left plain (0, not listed)."""
    found: list[Found] = []
    for unit, shown in pieces_shown(game, layouts, tokens).items():
        found += color_findings(unit, shown, layouts if unit.startswith("deck") else tokens or layouts)
    entries, _ = accept_entries(game)
    groups: list[set[str]] = []
    for item in found:
        if item.vision != "greyscale" or any(_matches(e, item) for e in entries):
            continue
        joined = [g for g in groups if g & set(item.colors)]
        merged = set(item.colors).union(*joined)
        groups = [g for g in groups if g not in joined] + [merged]
    patterns: dict[str, int] = {}
    for group in groups:
        for index, color in enumerate(sorted(group, key=lambda c: (-vision.luminance(c), c))):
            if index:
                patterns[color] = index
    return patterns


def access_findings(game: Game, layouts: LayoutSet, tokens: LayoutSet | None, strict: bool = False) -> list[Finding]:
    """Every accessibility finding of ``game`` (see the module docstring), accepted ones as
    infos that give the reason; the rest infos, or warnings when ``strict``. An accept entry
    that matches no finding is a warning (it is stale)."""
    found: list[Found] = []
    for unit, shown in pieces_shown(game, layouts, tokens).items():
        found += color_findings(unit, shown, layouts if unit.startswith("deck") else tokens or layouts)
        found += contrast_findings(shown, layouts if unit.startswith("deck") else tokens or layouts)
    found += icon_findings(layouts)
    entries, out = accept_entries(game)
    used: set[int] = set()
    for item in found:
        entry = next((e for e in entries if _matches(e, item)), None)
        f = item.finding
        if entry is not None:
            used.add(entry["index"])
            out.append(replace(f, message=f"{f.message} (accepted: {entry['reason']})", hint=""))
        else:
            out.append(replace(f, severity="warning") if strict else f)
    for entry in entries:
        if entry["index"] not in used:
            out.append(Finding.at("warning", "access.accept", game.key_location(f"accessibility.accept[{entry['index']}]"),
                                  f"accept entry {entry['index'] + 1} ({entry['rule']}) matches no finding",
                                  hint="remove it, or correct its layout, box, categories or vision"))
    vision.save_differences()  # the next run with these colours needs no colour science
    return merge(out)


class AccessibilityOutput:
    """``accessibility``: findings only (see the module docstring)."""

    name = "accessibility"

    def stages(self, job: OutputJob) -> list[Stage]:
        strict = job.settings.accessibility

        def render(dry: bool) -> BuildResult:
            layouts = game_layouts(job.game, job.source)
            tokens = board_layouts(job.game, job.source) if job.source.templates_dir else None
            return BuildResult(findings=access_findings(job.game, layouts, tokens, strict))

        files = [p for p in job.template_files() if not p.name.endswith(".j2")]
        return [Stage("accessibility", job.data_files() + files, render, (("strict", strict),) if strict else ())]
