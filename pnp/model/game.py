"""The game as `pnp` holds it: components in manifest order, each with its typed rows.

A game folder's manifest (``game.toml``) declares components; a component with a table has a
CSV file whose rows become :class:`Row` objects with typed values. :mod:`pnp.model.load` reads
a folder into a :class:`Game`; docs/game-format.md describes the format for designers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..core import units
from ..core.errors import Location

COMPONENT_KINDS = ("deck", "board", "tokens", "die", "table", "rulebook")
"""deck: cards; board: a board or player board; tokens: tokens, standees, cubes, workers;
die: a printable die; table: reference data with no physical piece; rulebook: the rulebook."""


COLUMN_TYPES = ("id", "str", "text", "int", "float", "bool", "enum", "list", "ref", "color",
                "length", "path")


@dataclass(frozen=True)
class ColumnSpec:
    """How one CSV column is read: its type and the constraints on its values.

    ``ref`` names another component (its id column is the target) for type ``ref``, or for the
    items of a ``list`` whose items must be ids of that component.
    """

    name: str
    type: str
    required: bool = True
    values: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    ref: str | None = None
    separator: str = ";"
    description: str = ""


@dataclass
class Row:
    """One typed row of a table. ``values`` maps column name to a typed value (None when blank)."""

    component: str
    id: str | None
    values: dict[str, Any]
    file: str
    line: int
    columns: dict[str, tuple[int, int]]
    """column name -> (line, 1-based column number) of its cell."""
    copies: int = 1

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The typed value of a column, or ``default`` when it is blank or absent."""
        value = self.values.get(key)
        return default if value is None else value

    def location(self, column: str | None = None) -> Location:
        """The file, line and column of this row, or of one of its cells."""
        if column and column in self.columns:
            line, col = self.columns[column]
            return Location(self.file, line, col, column)
        return Location(self.file, self.line)


@dataclass
class Component:
    """One kind of thing in the box (a deck, a board, a token sheet, a reference table).

    ``rows`` are the table's typed rows (empty without a table). For a component with a
    ``copies_column`` each row is a piece with its copy count; otherwise ``copies`` identical
    pieces exist and the rows describe them (a board's spaces, a player board's tracks).
    """

    id: str
    kind: str
    name: str
    table: Path | None
    table_display: str | None
    columns: dict[str, ColumnSpec]
    id_column: str | None
    copies_column: str | None
    copies: int
    card_size: units.Size | None = None
    card_size_name: str | None = None
    back: str | None = None
    back_column: str | None = None
    layout: str | None = None
    layout_column: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    """Every other manifest key of the component, for the stages that use it (board size ...)."""
    rows: list[Row] = field(default_factory=list)
    blank_rows: list[int] = field(default_factory=list)
    """Lines of rows skipped because every cell was blank."""
    trimmed_headers: list[str] = field(default_factory=list)
    """Header names that had spaces around them in the file."""

    @property
    def pieces(self) -> int:
        """Physical pieces of this component: the sum of copies, or ``copies``; 0 for a table."""
        if self.kind in ("table",):
            return 0
        if self.copies_column:
            return sum(row.copies for row in self.rows)
        return self.copies

    def by_id(self) -> dict[str, Row]:
        """Rows keyed by id (only for a component with an id column)."""
        return {row.id: row for row in self.rows if row.id is not None}

    def back_of(self, row: Row) -> str | None:
        """The back name a row's card uses: its back column's value, or the deck's back."""
        if self.back_column:
            return row.get(self.back_column)
        return self.back

    def layout_of(self, row: Row) -> str | None:
        """The face layout name a row's card uses."""
        if self.layout_column:
            return row.get(self.layout_column)
        return self.layout


@dataclass(frozen=True)
class StatedTotal:
    """A count the rulebook states ("43 Hero cards"), with the rulebook section it comes from.

    ``where`` restricts the count to rows whose columns equal the given values.
    """

    component: str
    count: int
    label: str
    source: str
    where: tuple[tuple[str, Any], ...] = ()


@dataclass
class Game:
    """A whole game folder: manifest fields, components in manifest order, stated totals."""

    id: str
    title: str
    path: Path
    players_min: int
    players_max: int
    components: dict[str, Component]
    totals: list[StatedTotal]
    manifest: dict[str, Any]
    display_root: str

    def __iter__(self) -> Iterator[Component]:
        return iter(self.components.values())

    @property
    def pieces(self) -> int:
        """All physical pieces in the box."""
        return sum(c.pieces for c in self)

    def count(self, total: StatedTotal) -> int:
        """How many pieces the data holds for a stated total."""
        comp = self.components[total.component]
        if not total.where:
            return comp.pieces
        n = 0
        for row in comp.rows:
            if all(_same(row.get(col), want) for col, want in total.where):
                n += row.copies if comp.copies_column else 1
        return n


def _same(value: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(value, bool):
        return value is want or value == want
    return value == want
