"""Saddle-stitch booklet imposition: pages in reading order -> 2-up landscape sheets.

A saddle-stitched booklet is a stack of sheets folded once in the middle and stapled on the
fold. Each sheet carries four pages, two on each side, so the page count is padded to a
multiple of 4 (docs/print-specs.md §4 "Page count"). The padding blanks go at the end, after the
last page of text (as the imposition tools cited there add them), so no section is split by them; a book with a back cover (its last pages,
``back``) gets them just before it instead, so the back cover stays on the outside.

For ``n4`` padded pages, sheet ``i`` (0-based) carries, left then right (docs/print-specs.md §4
"Imposition (home 2-up)"):

- front: pages ``n4 - 2i`` and ``2i + 1``
- back:  pages ``2i + 2`` and ``n4 - 2i - 1``

so every side-by-side pair sums to ``n4 + 1``. The back is printed upright with a duplex
**short-edge** flip (the sheet turns over left to right), which is why the PDF asks for
``DuplexFlipShortEdge``. Sheets are landscape: A5 pages go 2-up on A4, half-letter pages on
Letter (docs/print-specs.md §4 "Sheet sizes"). Each page is placed against the fold line (the
sheet's vertical centre line), so the fold is exact even where the page is a little narrower
than half the sheet (A5 is 148 mm wide, half of A4 is 148.5 mm).

:func:`reading_order` and :func:`booklet_sides` are pure functions of the page count;
:func:`pnp.outputs.rulebook.booklet.impose_booklet` applies them to a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import BuildError
from ..core.units import PAPER_SIZES, Size

BOOKLET_PAGES = {"a4": "a5", "letter": "half-letter", "a3": "a4", "tabloid": "letter"}
"""Sheet paper -> the page size of a booklet folded from it (half the sheet, docs/print-specs.md §4)."""


def padded_count(n: int) -> int:
    """``n`` pages padded up to a multiple of 4 (docs/print-specs.md §4). Raises ValueError for n < 1."""
    if n < 1:
        raise ValueError(f"a booklet needs at least one page, not {n}")
    return 4 * ((n + 3) // 4)


def reading_order(n: int, back: int = 0) -> list[int | None]:
    """The booklet's ``padded_count(n)`` page positions in reading order.

    Each entry is a source page number (1-based) or None for a blank. The blanks follow the
    last page, except that the last ``back`` pages (a back cover, and whatever belongs with
    it) come after them, so the document's last page is the outside of the back cover. The
    first page is always the front cover: ``back`` counts at most ``n - 1`` pages.
    Examples: ``reading_order(7) == [1, 2, 3, 4, 5, 6, 7, None]``,
    ``reading_order(7, back=1) == [1, 2, 3, 4, 5, 6, None, 7]``.
    """
    n4 = padded_count(n)
    back = max(0, min(back, n - 1))
    return list(range(1, n - back + 1)) + [None] * (n4 - n) + list(range(n - back + 1, n + 1))


@dataclass(frozen=True)
class Side:
    """One printed side of a booklet sheet: ``sheet`` (0-based), ``face`` ("front" or "back"),
    and the source page numbers (1-based, None for a blank) on its ``left`` and ``right``
    halves."""

    sheet: int
    face: str
    left: int | None
    right: int | None


def booklet_sides(n: int, back: int = 0) -> list[Side]:
    """The printed sides of a booklet of ``n`` pages whose last ``back`` pages are its back
    cover (0: none), in printing order (sheet 0 front, sheet 0 back, sheet 1 front, ...).
    Positions follow docs/print-specs.md §4: front ``(n4 - 2i, 2i + 1)``, back
    ``(2i + 2, n4 - 2i - 1)``, mapped through :func:`reading_order`.

    Example, 8 pages: [8, 1] / [2, 7], [6, 3] / [4, 5].
    """
    order = reading_order(n, back)
    n4 = len(order)
    sides = []
    for i in range(n4 // 4):
        pos = ((n4 - 2 * i, 2 * i + 1), (2 * i + 2, n4 - 2 * i - 1))
        for face, (left, right) in zip(("front", "back"), pos):
            sides.append(Side(i, face, order[left - 1], order[right - 1]))
    return sides


def booklet_sheet(paper: str) -> Size:
    """The landscape sheet a booklet is printed on for sheet paper ``paper`` (a key of
    BOOKLET_PAGES). Raises BuildError naming the papers that fold into a booklet."""
    if paper not in BOOKLET_PAGES:
        raise BuildError(f"a booklet cannot be folded from {paper!r} sheets",
                         hint="booklet sheets: " + ", ".join(
                             f"{k} (pages {v})" for k, v in BOOKLET_PAGES.items()), rule="sheet.paper")
    return PAPER_SIZES[paper].landscape


def booklet_page(paper: str) -> Size:
    """The portrait page size of a booklet printed on ``paper`` sheets (A5 for A4, half-letter
    for Letter). Raises BuildError like :func:`booklet_sheet`."""
    booklet_sheet(paper)
    return PAPER_SIZES[BOOKLET_PAGES[paper]]


def placement(page: Size, sheet: Size, half: str) -> tuple[float, float, float]:
    """Where a page goes on one half of a landscape sheet: ``(scale, x, y)`` in pt, the page's
    bottom-left corner after scaling by ``scale``.

    The page is scaled down (never up) to fit half the sheet, touches the fold line (the
    sheet's vertical centre, x = sheet.width / 2) and is centred vertically. ``half`` is
    "left" or "right".
    """
    half_w = sheet.width / 2
    scale = min(1.0, half_w / page.width, sheet.height / page.height)
    w, h = page.width * scale, page.height * scale
    y = (sheet.height - h) / 2
    x = half_w - w if half == "left" else half_w
    return scale, x, y
