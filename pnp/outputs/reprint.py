"""A reprint since an earlier version (``pnp build --changed-since REF``): which pieces to print
again, and the page that lists what to take out of the old print (docs/versions.md).

The :class:`ReprintPlan` is made by the pipeline from a diff (:mod:`pnp.pipeline.changes`);
the card sheets hold only the cards it names, packed densely on the usual grid, the boards
file only its boards (tiled as a full build tiles them), the tokens file only its tokens and
dice (packed as the token sheets are); :func:`changes_page_pdf` draws the list: what to
remove, what is new or changed, and what changed only in its data (kept as printed).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace

from ..core.units import MM, Size
from ..design.snapshot_pieces import board_key, die_key, token_key
from ..model.pieces import BoardPiece, CardInstance, DieNet, TokenPiece
from ..render.canvas import new_canvas, text


@dataclass(frozen=True)
class ReprintPlan:
    """What a reprint prints and removes. ``since`` names the earlier version (``release
    1.2``); ``version`` is the game's version now (or None). ``print`` is (key, copies, label)
    of every piece to print (keys as :mod:`pnp.design.snapshot_pieces` names them: ``deck/id``,
    ``boards/track``, ``tokens/coins``); ``remove`` the same for the old print's pieces to take
    out; ``data_only`` the pieces whose data changed but whose print did not. Labels are a
    card's title or name cell, a board's or tokens' name. ``not_compared`` is the sentence on
    the pieces the earlier version did not record (None: every piece was compared)."""

    since: str
    version: str | None
    print: tuple[tuple[str, int, str], ...]
    remove: tuple[tuple[str, int, str], ...]
    data_only: tuple[tuple[str, str], ...] = ()
    not_compared: str | None = None

    def copies(self) -> dict[str, int]:
        """Key -> copies to print."""
        return {key: n for key, n, _ in self.print}


def reprint_cards(cards: list[CardInstance], plan: ReprintPlan) -> list[CardInstance]:
    """The cards of ``cards`` the plan prints, in their order: of each card named, its first
    copies up to the plan's count (every copy for a changed card, the extra ones for a card
    with more copies than before)."""
    return _first(cards, lambda card: card.face.name, plan)


def _first(pieces: list, key, plan: ReprintPlan) -> list:
    """The pieces of ``pieces`` the plan prints (``key`` names each), in their order: of each,
    its first copies up to the plan's count."""
    wanted = plan.copies()
    taken: dict[str, int] = {}
    out = []
    for piece in pieces:
        name = key(piece)
        if taken.get(name, 0) < wanted.get(name, 0):
            taken[name] = taken.get(name, 0) + 1
            out.append(piece)
    return out


def reprint_boards(boards: list[BoardPiece], plan: ReprintPlan) -> list[BoardPiece]:
    """The boards and reference sheets of ``boards`` the plan prints, as :func:`reprint_cards`."""
    return _first(boards, board_key, plan)


def reprint_tokens(tokens: list[TokenPiece], plan: ReprintPlan) -> list[TokenPiece]:
    """The tokens of ``tokens`` the plan prints, as :func:`reprint_cards`."""
    return _first(tokens, token_key, plan)


def reprint_dice(nets: list[DieNet], plan: ReprintPlan) -> list[DieNet]:
    """The dice the plan prints, each with the copies it prints."""
    wanted = plan.copies()
    return [replace(net, copies=min(net.copies, wanted[die_key(net)])) for net in nets if wanted.get(die_key(net))]


TITLE_SIZE = 16.0
SIZE = 10.0
MIN_SIZE = 6.0
"""pt: the list shrinks to keep to one page, down to the 6 pt floor of print (then it runs on)."""


def _lines(plan: ReprintPlan) -> list[tuple[str, str]]:
    """(style, text) lines of the list: headings bold, items plain."""
    def item(key: str, n: int, label: str) -> str:
        return f"[  ]  {n} x  {key}" + (f"  ({label})" if label else "")

    out: list[tuple[str, str]] = []
    sections = [("Take out of the old print", [item(*r) for r in plan.remove]),
                ("Put in from these sheets", [item(*p) for p in plan.print]),
                ("Keep as printed (only data that prints nowhere changed)",
                 [f"       {key}" + (f"  ({label})" if label else "") for key, label in plan.data_only])]
    for heading, items in sections:
        out.append(("sans-bold", f"{heading}: {len(items)}"))
        out += [("sans", line) for line in items] or [("sans-italic", "none")]
        out.append(("sans", ""))
    if plan.not_compared:
        first, _, rest = plan.not_compared.partition("; ")  # two lines: it fits the narrowest paper
        out += [("sans-italic", first[0].upper() + first[1:] + ";"), ("sans-italic", rest + ".")]
    return out


def changes_page_pdf(title: str, plan: ReprintPlan, paper: Size) -> tuple[bytes, int]:
    """The list of a reprint as a PDF on ``paper`` (pt): a title naming the versions, then the
    pieces to take out, to put in and to keep, with a box to tick for each. Returns the bytes
    and the pages (one, unless even 6 pt type does not fit the list)."""
    lines = _lines(plan)
    margin = 15 * MM
    top = paper.height - margin - TITLE_SIZE * 2.8
    size = SIZE
    while size > MIN_SIZE and len(lines) * size * 1.3 > top - margin:
        size -= 0.5
    buf = io.BytesIO()
    version = f" v{plan.version}" if plan.version else ""
    c = new_canvas(buf, paper, f"{title}{version} - reprint since {plan.since}",
                   f"Pieces to reprint and to remove, {title}")
    pages = 1
    c.setFillColorRGB(0, 0, 0)
    text(c, "sans-bold", TITLE_SIZE, margin, paper.height - margin - TITLE_SIZE, f"{title}{version}: reprint")
    text(c, "sans", SIZE, margin, paper.height - margin - TITLE_SIZE * 2.0,
         f"since {plan.since}; cut the new pieces from the reprint sheets, then swap them in")
    y = top
    for style, line in lines:
        y -= size * 1.3
        if y < margin:
            c.showPage()
            pages += 1
            y = paper.height - margin - size * 1.3
        if line:
            text(c, style, size, margin, y, line)
    c.showPage()
    c.save()
    return buf.getvalue(), pages
