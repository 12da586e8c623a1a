"""Checks of a game's data: its manifest, the rulebook's stated totals and the game's own rules.

:func:`check_game_full` loads a game folder and returns every finding about it. Loading errors
(bad cells, missing columns, duplicate ids, broken references) become findings with rule ids
``schema.*`` so one report shows everything. Then come the stated totals (``totals.stated``),
rows with no copies, the rules in the game's ``rules.toml`` (:mod:`pnp.validate.runner`) and
the art that cells name (:mod:`pnp.validate.layout_check`). The designs themselves are checked
by drawing them: ``pnp check`` is a dry run of the build (:mod:`pnp.pipeline.build`).
"""

from __future__ import annotations

import tomllib

from dataclasses import dataclass, field, replace

from ..core.errors import DataError, ManifestError
from ..core.findings import Finding, sort_key
from ..model.game import Game
from ..model.games import GameSource, folder_label
from ..model.load import GameDataErrors, LoadOptions, load_game
from .fonts import check_fonts
from .layout_check import check_art_paths
from .rules_keys import check_rules_keys
from .rulesfile import load_rulebook
from .runner import run_rulebook

BUILTIN_RULES = ("schema.manifest", "schema.file", "schema.columns", "schema.type", "schema.required",
                 "schema.range", "schema.allowed", "schema.copies", "schema.unique-id", "schema.ref",
                 "schema.blank-rows", "totals.stated", "copies.zero")
"""Rules every game gets from its manifest (plus cost.* for each cost column in rules.toml)."""

SHEET_RULES = ("schema.sheet", "schema.formula", "schema.merged", "schema.hidden")
"""Rules a game with a workbook table gets too (docs/game-format.md, "Spreadsheet tables")."""


def classify(err: DataError) -> str:
    """The rule id of a loading error: the one it was raised with (``schema.ref``,
    ``schema.columns`` ...); an error raised without one is about the file as a whole
    (``schema.manifest`` for game.toml, ``schema.file`` for a table)."""
    if err.rule:
        return err.rule
    return "schema.manifest" if isinstance(err, ManifestError) else "schema.file"


def _from_error(err: DataError, rule: str | None = None, source: str = "") -> Finding:
    return Finding.at("error", rule or classify(err), err.location, err.message, hint=err.hint or "",
                      source=source)


def check_totals(game: Game) -> list[Finding]:
    """One finding per stated total that the data does not reach exactly (rule ``totals.stated``).

    Each points at the ``[[totals]]`` entry of game.toml that states the count (its line) and
    names the component.
    """
    findings = []
    for i, total in enumerate(game.totals):
        have = game.count(total)
        if have == total.count:
            continue
        comp = game.components[total.component]
        where = "".join(f" where {k} = {v!r}" for k, v in total.where)
        findings.append(Finding.at(
            "error", "totals.stated", game.key_location(f"totals[{i}]"),
            f"the rulebook states {total.count} {total.label}, the data holds {have}",
            source=total.source, hint=f"count the copies in {comp.table_name or total.component}{where}; if the "
            f"data is right, change count = {total.count} in this [[totals]] entry of game.toml, and the rulebook's text",
            component=total.component))
    return findings


def check_blank_rows(game: Game) -> list[Finding]:
    """Info findings for rows skipped because every cell was blank (nothing is dropped silently),
    and what reading a sheet noticed that does not stop it loading (``schema.hidden``)."""
    out = []
    for comp in game:
        if comp.blank_rows:
            lines = ", ".join(str(n) for n in comp.blank_rows[:10])
            out.append(Finding.at("info", "schema.blank-rows", comp.table_location(comp.blank_rows[0]),
                                  f"{len(comp.blank_rows)} blank row(s) skipped "
                                  f"({'rows' if comp.sheet else 'lines'} {lines})", component=comp.id))
        out.extend(comp.table_findings)
    return out


def check_zero_copies(game: Game) -> list[Finding]:
    """One info finding per component whose rows include some with 0 copies (kept, not printed)."""
    out = []
    for comp in game:
        if not comp.copies_column:
            continue
        zero = [r for r in comp.rows if r.copies == 0 and r.get(comp.copies_column) == 0]
        if zero:
            ids = ", ".join(r.id or r.place for r in zero[:8]) + (" ..." if len(zero) > 8 else "")
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

    @property
    def loaded(self) -> bool:
        """Whether the game loaded."""
        return self.game is not None

    manifest_title: str = ""
    """The title game.toml gives, kept when the tables did not load."""

    @property
    def title(self) -> str:
        """The game's title; when it did not load, game.toml's title, or else the folder's name
        (:func:`pnp.model.games.folder_label`: ``mygame`` for a check run inside it, not ``.``)."""
        return self.game.title if self.game is not None else (self.manifest_title or folder_label(self.display))


def manifest_title(folder) -> str:
    """The ``[game] title`` of the game.toml in ``folder`` ("" when it cannot be read)."""
    try:
        with open(folder / "game.toml", "rb") as fh:
            title = tomllib.load(fh).get("game", {}).get("title", "")
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        return ""
    return title if isinstance(title, str) else ""


def check_game_full(source: GameSource, options: LoadOptions = LoadOptions(), draft: bool = False) -> CheckResult:
    """Load and check one game folder's data (``source``); see :class:`CheckResult`. The
    designs are checked by drawing them (:func:`pnp.pipeline.build.run_game`). In a ``draft``
    missing art is a warning (its drawings print a placeholder)."""
    loaded = load_for_check(source, options)
    if loaded.game is None:
        return loaded
    return with_data_checks(loaded, data_checks(loaded.game, source, draft))


def load_for_check(source: GameSource, options: LoadOptions = LoadOptions()) -> CheckResult:
    """The first half of :func:`check_game_full`: the game loaded, with the findings of a game
    that did not load (then ``game`` is None); the data checks are :func:`data_checks`."""
    display = source.display
    try:
        game = load_game(source.path, display, options)
    except ManifestError as exc:
        return CheckResult(display, None, [_from_error(exc, "schema.manifest")], files=[f"{display}/game.toml"],
                           manifest_title=manifest_title(source.path))
    except GameDataErrors as exc:
        return CheckResult(display, None, [_from_error(e) for e in exc.errors], files=[f"{display}/game.toml"],
                           manifest_title=manifest_title(source.path))
    except DataError as exc:
        return CheckResult(display, None, [_from_error(exc, "schema.file")], files=[f"{display}/game.toml"],
                           manifest_title=manifest_title(source.path))
    return CheckResult(display, game, [])


def data_checks(game: Game, source: GameSource, draft: bool = False) -> CheckResult:
    """The second half of :func:`check_game_full`: the checks of a loaded ``game``'s data (the
    totals the rulebook states, blank rows, pieces with no copies, the rules of rules.toml, the
    ``[rules]`` keys, art paths, fonts), as a CheckResult whose findings are in report order.
    Reads the game; changes nothing of it."""
    findings = check_totals(game) + check_blank_rows(game) + check_zero_copies(game)
    book, problems = load_rulebook(game)
    findings += problems
    findings += run_rulebook(game, book)
    findings += check_rules_keys(game, book, source.templates_dir)
    files = [f"{game.display_root}/game.toml", book.display] + [c.table_name for c in game if c.table_name]
    findings += check_art_paths(game, draft)
    findings += check_fonts(game)
    findings.sort(key=sort_key({f: i for i, f in enumerate(files)}))
    n_rules = len(BUILTIN_RULES) + len(book.rules) + (4 if book.costs else 0)
    n_rules += len(SHEET_RULES) if any(c.sheet for c in game) else 0
    return CheckResult(source.display, game, findings, book, n_rules, files)


def with_data_checks(loaded: CheckResult, checked: CheckResult) -> CheckResult:
    """``loaded`` (:func:`load_for_check`) with what :func:`data_checks` found added."""
    return replace(loaded, findings=loaded.findings + checked.findings, book=checked.book,
                   rules_checked=checked.rules_checked, files=checked.files)


def check_game(source: GameSource, options: LoadOptions = LoadOptions()) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder's data. Returns the game (None if it did not load) and
    the findings."""
    result = check_game_full(source, options)
    return result.game, result.findings
