"""Findings: what a check says about a game, with where and why.

A :class:`Finding` has a severity (``error``, ``warning``, ``info``), a rule id, a location (a
file:line:column, or a component and piece), a message in the designer's words and the rulebook
section the rule comes from. ``location`` is the text shown to people; ``file``, ``line``,
``column``, ``field``, ``component`` and ``piece`` are the same place as separate values, for
grouping the report by file and for JSON consumers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Iterable

from .errors import Location, cell_name

SEVERITIES = ("error", "warning", "info")
"""Most to least serious. ``pnp check`` exits 1 on an error (and on a warning with --strict)."""


@dataclass(frozen=True)
class Finding:
    """One result of a check.

    ``location`` is text such as ``card_data/x/cards.csv:4:2 (cost)`` or ``heroes/captain (face)``.
    ``source`` names the rulebook section the rule comes from (two sections joined by
    " / contradicted by: " when the finding reports a contradiction). ``line`` and ``column`` are
    1-based; ``field`` is the CSV column or the dotted TOML key.
    """

    severity: str
    rule: str
    location: str
    message: str
    source: str = ""
    hint: str = ""
    file: str = ""
    line: int | None = None
    column: int | None = None
    field: str = ""
    component: str = ""
    piece: str = ""
    pieces: tuple[str, ...] = ()
    """Every piece the same finding was made for, when more than one (``piece`` is the first)."""
    count: int = 1
    """How many places the finding stands for (the pieces, or identical findings merged)."""
    sheet: str = ""
    """The sheet of a workbook table (``file`` is the workbook, ``line`` the sheet's row);
    left out of :meth:`as_dict` when empty, so findings about other files read as before."""

    @classmethod
    def at(cls, severity: str, rule: str, where: Location | None, message: str, *, source: str = "",
           hint: str = "", component: str = "", piece: str = "") -> "Finding":
        """A finding located at a :class:`pnp.core.errors.Location` (file, line, column, column name)."""
        if where is None:
            return cls(severity, rule, "", message, source, hint or "", component=component, piece=piece)
        return cls(severity, rule, str(where), message, source, hint or "", file=str(where.file),
                   line=where.line, column=where.column, field=where.column_name or "",
                   component=component, piece=piece, sheet=where.sheet or "")

    @property
    def group(self) -> str:
        """What the human report groups this finding under: its file, or its component."""
        if self.file:
            return f"{self.file} › {self.sheet}" if self.sheet else self.file
        if self.component:
            return f"component {self.component}"
        return self.location.split(" (")[0] if self.location else "(game)"

    @property
    def position(self) -> str:
        """The place inside :attr:`group`: ``line:column (field)``, or the piece."""
        if self.file:
            text = ""
            if self.sheet:
                text = cell_name(self.line, self.column)
            elif self.line is not None:
                text = str(self.line) + (f":{self.column}" if self.column is not None else "")
            if self.field:
                text += f" ({self.field})" if text else self.field
            return text
        if self.piece:
            return self.piece
        return self.location

    def as_dict(self) -> dict:
        """The finding as a JSON-ready dict (every field, None where not known; ``sheet`` only
        for a finding about a workbook's sheet)."""
        out = asdict(self)
        if not self.sheet:
            del out["sheet"]
        return out

    @classmethod
    def from_dict(cls, item: dict) -> Finding:
        """The finding :meth:`as_dict` gave (read back from JSON: ``pieces`` a list). Raises
        TypeError or AttributeError for a dict of another shape."""
        return cls(**{**item, "pieces": tuple(item.get("pieces") or ())})


NAMED_CAUSES = frozenset({"layout.undefined", "layout.art-missing", "layout.art-outside", "layout.art-unreadable"})
"""Rules whose message names the cause itself (the layout, the art file): the same message
from several cells of one column (each row naming the same missing layout or unreadable
picture) is one cause, reported at the first of those cells with every piece."""


def _cause(f: Finding) -> tuple:
    """What makes findings one cause for :func:`merge`: the same severity, rule, message, hint
    and source at the same place; for :data:`NAMED_CAUSES`, in the same column of one table
    (any row)."""
    if f.rule in NAMED_CAUSES and f.file and f.field:
        return (f.severity, f.rule, f.file, f.sheet, f.field, f.message, f.hint, f.source)
    return (f.severity, f.rule, f.location, f.message, f.hint, f.source)


def merge(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per cause: findings that say the same thing at the same place (severity,
    rule, location, message, hint and source alike; see :func:`_cause`) become the first of
    them, with every piece they were made for in ``pieces`` and ``count`` the number of pieces
    (or, for findings without a piece, of findings merged). An undefined name that 36 cards use
    is one finding with 36 pieces, not 36 findings; so is a layout 6 rows name that the layouts
    file lacks. Order is that of first occurrence."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        groups.setdefault(_cause(f), []).append(f)
    out = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        pieces = list(dict.fromkeys(p for f in group for p in (f.pieces or ((f.piece,) if f.piece else ()))))
        if len(pieces) > 1:
            out.append(replace(first, piece=pieces[0], pieces=tuple(pieces), count=len(pieces)))
        else:
            out.append(replace(first, piece=pieces[0] if pieces else first.piece, count=max(f.count for f in group)))
    return out


def supersede(findings: Iterable[Finding]) -> list[Finding]:
    """The findings without each warning that an error of the same rule at the same location
    already reports for the same pieces: one cause judged by two outputs (missing art is a
    warning for the draft build, which prints a placeholder, and an error for an export, which
    refuses it) is one finding, the stricter. Order is kept."""
    findings = list(findings)
    errors: dict[tuple[str, str], set[str]] = {}
    for f in findings:
        if f.severity == "error":
            errors.setdefault((f.rule, f.location), set()).update(_pieces(f))
    return [f for f in findings if not (f.severity == "warning" and (f.rule, f.location) in errors
                                        and _pieces(f) <= errors[(f.rule, f.location)])]


def _pieces(f: Finding) -> set[str]:
    return set(f.pieces or ((f.piece,) if f.piece else ()))


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings of each severity: ``{"error": n, "warning": n, "info": n}``."""
    out = {s: 0 for s in SEVERITIES}
    for f in findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def failing(findings: Iterable[Finding], strict: bool = False) -> bool:
    """Whether the findings fail a check: any error, or with ``strict`` any warning too."""
    bad = {"error", "warning"} if strict else {"error"}
    return any(f.severity in bad for f in findings)


def sort_key(order: dict[str, int]):
    """A sort key putting findings in report order: by file (``order`` gives each file's rank,
    unknown files last, by name), then line, column, then severity."""
    rank = {s: i for i, s in enumerate(SEVERITIES)}

    def key(f: Finding):
        return (order.get(f.group, len(order)), f.group, f.line or 0, f.column or 0,
                rank.get(f.severity, 9), f.rule)
    return key
