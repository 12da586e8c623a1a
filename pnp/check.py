"""Checks of a game's data: its manifest, the rulebook's stated totals and the game's own rules.

:func:`check_game` loads a game folder and returns findings. Loading errors (bad cells, missing
columns, duplicate ids, broken references) become findings with rule ids ``schema.*`` so one
report shows everything. Then come the stated totals (``totals.stated``), rows with no copies,
and the rules in the game's ``rules.toml`` (:mod:`pnp.rules`): cost notation, references to what
the game contains, payability, setup numbers, player counts and the game's own rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import DataError, Location, ManifestError
from .findings import Finding, sort_key
from .model import COPIES_CAP, Game, GameDataErrors, load_game

BUILTIN_RULES = ("schema.manifest", "schema.file", "schema.columns", "schema.type", "schema.required",
                 "schema.range", "schema.allowed", "schema.copies", "schema.unique-id", "schema.ref",
                 "schema.blank-rows", "totals.stated", "copies.zero")
"""Rules every game gets from its manifest (plus cost.* for each cost column in rules.toml)."""

_PATTERNS = (  # (words in the loader's message, rule id), first match wins
    ("is declared in game.toml but missing from the file", "schema.columns"),
    ("is not declared in game.toml", "schema.columns"),
    ("is used twice", "schema.unique-id"),
    ("is not an id in", "schema.ref"),
    ("which is not a component with ids", "schema.ref"),
    ("is below the minimum", "schema.range"),
    ("is above the maximum", "schema.range"),
    ("is not one of the allowed values", "schema.allowed"),
    ("copies cannot be negative", "schema.copies"),
    ("this cell is blank but the column needs", "schema.required"),
)


def classify(err: DataError) -> str:
    """The rule id of a loading error: ``schema.columns``, ``schema.type``, ``schema.ref`` ...

    Uses the error's own ``rule`` attribute when it has one; otherwise reads its message.
    """
    rule = getattr(err, "rule", None)
    if isinstance(rule, str) and rule:
        return rule
    if isinstance(err, ManifestError):
        return "schema.manifest"
    for words, rid in _PATTERNS:
        if words in err.message:
            return rid
    if err.location is not None and err.location.column is not None and err.location.line not in (None, 1):
        return "schema.type"
    return "schema.file"


def _from_error(err: DataError, rule: str | None = None, source: str = "") -> Finding:
    return Finding.at("error", rule or classify(err), err.location, err.message, hint=err.hint or "",
                      source=source)


def check_totals(game: Game) -> list[Finding]:
    """One finding per stated total that the data does not reach exactly (rule ``totals.stated``).

    ``location`` names the component in game.toml; ``line`` and ``field`` point at the
    ``[[totals]]`` entry that states the count.
    """
    findings = []
    lines: dict[str, int] | None = None
    for i, total in enumerate(game.totals):
        have = game.count(total)
        if have == total.count:
            continue
        if lines is None:
            from .rules import toml_key_lines

            try:
                lines = toml_key_lines((game.path / "game.toml").read_text(encoding="utf-8-sig"))
            except OSError:
                lines = {}
        comp = game.components[total.component]
        where = "".join(f" where {k} = {v!r}" for k, v in total.where)
        manifest = f"{game.display_root}/game.toml"
        findings.append(Finding(
            "error", "totals.stated", f"{manifest} (component {total.component})",
            f"the rulebook states {total.count} {total.label}, the data holds {have}",
            source=total.source, hint=f"count the copies in {comp.table_display or total.component}{where}",
            file=manifest, line=lines.get(f"totals[{i}]"), field=f"totals[{i}]", component=total.component))
    return findings


def check_blank_rows(game: Game) -> list[Finding]:
    """Info findings for rows skipped because every cell was blank (nothing is dropped silently)."""
    out = []
    for comp in game:
        if comp.blank_rows:
            lines = ", ".join(str(n) for n in comp.blank_rows[:10])
            out.append(Finding("info", "schema.blank-rows", f"{comp.table_display}:{comp.blank_rows[0]}",
                               f"{len(comp.blank_rows)} blank row(s) skipped (lines {lines})",
                               file=comp.table_display or "", line=comp.blank_rows[0], component=comp.id))
    return out


def check_zero_copies(game: Game) -> list[Finding]:
    """One info finding per component whose rows include some with 0 copies (kept, not printed)."""
    out = []
    for comp in game:
        if not comp.copies_column:
            continue
        zero = [r for r in comp.rows if r.copies == 0 and r.get(comp.copies_column) == 0]
        if zero:
            ids = ", ".join(r.id or f"line {r.line}" for r in zero[:8]) + (" ..." if len(zero) > 8 else "")
            out.append(Finding.at("info", "copies.zero", zero[0].location(comp.copies_column),
                                  f"{len(zero)} row(s) of {comp.name} have 0 copies and will not be printed: {ids}",
                                  component=comp.id, piece=zero[0].id or ""))
    return out


@dataclass
class CheckResult:
    """Everything ``pnp check`` knows about one game: the game (None when it did not load), its
    rule book (None likewise), the findings in report order and how many rules ran."""

    display: str
    game: Game | None
    findings: list[Finding]
    book: object | None = None
    rules_checked: int = 0
    files: list[str] = field(default_factory=list)


def check_layouts(game: Game, templates_dir: Path, display: str) -> list[Finding]:
    """Check that every card can be drawn: art files named in ``path`` cells exist inside the game
    folder, the layouts file loads, every face and back a deck names is defined, and one card of
    each layout draws without a template, colour or art error (rule ids ``layout.*``). The full
    preflight of every card happens in ``pnp build``."""
    import io

    from .build import card_instances, game_layouts
    from .errors import BuildError, LayoutError
    from .layout import Renderer

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
        layouts = game_layouts(game, templates_dir, display)
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
                                               f"the {kind} layout {name!r} is not defined in {display}",
                                               hint="layouts: " + ", ".join(sorted(layouts.layouts))))
    if any(f.severity == "error" for f in findings):
        return findings
    from reportlab.pdfgen import canvas

    renderer = Renderer(layouts, game.path)
    c = canvas.Canvas(io.BytesIO())
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
                findings.append(Finding.at("error", "layout.render", exc.location or Location(display),
                                           f"{piece.label}: {exc.message}", hint=exc.hint or ""))
    return findings


def check_game_full(path: Path, display: str, templates: tuple[Path, str] | None = None, *,
                    encoding: str = "utf-8", delimiter: str | None = None,
                    copies_cap: int | None = COPIES_CAP) -> CheckResult:
    """Load and check one game folder; see :class:`CheckResult`. With ``templates`` (the folder
    and its display name) the card layouts are checked too (:func:`check_layouts`)."""
    try:
        game = load_game(path, display, encoding=encoding, delimiter=delimiter, copies_cap=copies_cap)
    except ManifestError as exc:
        return CheckResult(display, None, [_from_error(exc, "schema.manifest")], files=[f"{display}/game.toml"])
    except GameDataErrors as exc:
        return CheckResult(display, None, [_from_error(e) for e in exc.errors], files=[f"{display}/game.toml"])
    except DataError as exc:
        return CheckResult(display, None, [_from_error(exc, "schema.file")], files=[f"{display}/game.toml"])
    from .rules import load_rulebook, run_rulebook

    findings = check_totals(game) + check_blank_rows(game) + check_zero_copies(game)
    book, problems = load_rulebook(game)
    findings += problems
    findings += run_rulebook(game, book)
    files = [f"{game.display_root}/game.toml", book.display] + [c.table_display for c in game if c.table_display]
    if templates is not None:
        findings += check_layouts(game, *templates)
        files.append(templates[1])
    findings.sort(key=sort_key({f: i for i, f in enumerate(files)}))
    n_rules = len(BUILTIN_RULES) + len(book.rules) + (4 if book.costs else 0)
    return CheckResult(display, game, findings, book, n_rules, files)


def check_game(path: Path, display: str, templates: tuple[Path, str] | None = None,
               **load_options) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder. Returns the game (None if it did not load) and findings."""
    result = check_game_full(path, display, templates, **load_options)
    return result.game, result.findings


def summary(result: CheckResult) -> str:
    """One line for a game's result: ``ok`` or ``1 error, 2 warnings`` (infos are not counted)."""
    from .findings import counts

    c = counts(result.findings)
    parts = [f"{c[s]} {s}{'s' if c[s] != 1 else ''}" for s in ("error", "warning") if c[s]]
    return ", ".join(parts) if parts else "ok"


def report_renderables(result: CheckResult, strict: bool = False) -> list:
    """The human report of one game as Rich renderables: a title line with the outcome, then
    the findings grouped by file (position, severity, rule; message; rulebook section; hint)."""
    from rich.padding import Padding
    from rich.text import Text

    colours = {"error": "bold red", "warning": "yellow", "info": "cyan"}
    title = result.game.title if result.game else result.display
    outcome = summary(result)
    head = Text()
    head.append(title, style="bold")
    head.append(f"  {result.display}  ", style="dim")
    style = "green" if outcome == "ok" else ("red" if "error" in outcome or strict else "yellow")
    head.append(outcome, style=style)
    if result.rules_checked:
        head.append(f"  ({result.rules_checked} rules)", style="dim")
    out: list = [head]
    group = None
    for f in result.findings:
        if f.group != group:
            group = f.group
            out.append(Padding(Text(group, style="bold"), (0, 0, 0, 2), expand=False))
        line = Text()
        if f.position and f.position != group:
            line.append(f.position + "  ", style="dim" if f.severity == "info" else "")
        line.append(f.severity, style=colours.get(f.severity, ""))
        line.append(f"  {f.rule}", style="dim")
        out.append(Padding(line, (0, 0, 0, 4), expand=False))
        body = Text(f.message, style="dim" if f.severity == "info" else "")
        if f.source:
            body.append(f"\nrulebook: {f.source}", style="dim")
        if f.hint and f.severity != "info":
            body.append(f"\nhint: {f.hint}", style="dim")
        out.append(Padding(body, (0, 0, 0, 6), expand=False))
    return out


def report_dict(result: CheckResult) -> dict:
    """One game's result for ``--format json``: game, title, outcome counts, findings."""
    from .findings import counts

    return {"game": result.display, "title": result.game.title if result.game else None,
            "loaded": result.game is not None, "rules_checked": result.rules_checked,
            "counts": counts(result.findings), "findings": [f.as_dict() for f in result.findings]}
