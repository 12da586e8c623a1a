"""Building home print-and-play card sheets for one game: pieces -> imposition -> PDF.

:func:`build_cards` renders every card of every deck of a game onto sheets (front sheet, then
its back sheet), with a calibration page pair first, and writes the PDF atomically (a temporary
file renamed over the old one only when the whole file is written). It also writes a contact
sheet PNG per deck. Geometry comes from :mod:`pnp.impose`, drawing from :mod:`pnp.layout`.
"""

from __future__ import annotations

import io
import os
import tempfile
from dataclasses import dataclass, field
from types import SimpleNamespace
from pathlib import Path
from typing import Any

from . import __version__, fonts
from .errors import BuildError
from .findings import Finding
from .impose import (DEFAULT_BLEED, DEFAULT_MARGIN, MARK_WIDTH, FoldGrid, Grid, fit_fold, fit_grid)
from .layout import LayoutSet, Piece, Renderer, load_layouts
from .model import Component, Game, Row
from .units import MM, PAPER_SIZES, Size

DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


@dataclass(frozen=True)
class SheetOptions:
    """How home sheets are laid out. Lengths in pt.

    ``flip``: ``long`` (backs mirror the columns) or ``short`` (backs mirror the rows and turn
    180°). ``gutter_fold``: faces and backs on one sheet, folded. ``back_offset``: (x, y) added
    to every back to correct a printer's misregistration, measured with the calibration page.
    """

    paper: str = "letter"
    flip: str = "long"
    gutter_fold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    margin: float = DEFAULT_MARGIN
    gap: float = 0.0
    bleed: float = DEFAULT_BLEED
    contact_sheets: bool = True

    def paper_size(self) -> Size:
        """The sheet size in pt (portrait)."""
        if self.paper not in PAPER_SIZES:
            raise BuildError(f"unknown paper {self.paper!r}", hint="papers: " + ", ".join(PAPER_SIZES))
        return PAPER_SIZES[self.paper]


class Ref(str):
    """A reference cell's id that also gives the referenced row's columns as attributes."""

    def __new__(cls, value: str, row: Row | None):
        obj = super().__new__(cls, value)
        obj._row = row
        return obj

    def __getattr__(self, name: str) -> Any:
        row = self.__dict__.get("_row")
        if row is not None and name in row.values:
            return row.values[name]
        raise AttributeError(name)


def piece_context(game: Game, comp: Component, row: Row | None, copy: int = 1) -> dict[str, Any]:
    """The names a layout template sees for one piece: its row's columns (references resolve to
    the referenced row), ``piece`` (id, copy, copies, deck (the component id), deck_name),
    ``game`` (id, title) and ``colors`` (the game's palette)."""
    ctx: dict[str, Any] = {
        "game": SimpleNamespace(id=game.id, title=game.title),
        "colors": game.manifest.get("colors", {}),
        "piece": SimpleNamespace(component=comp.id, deck=comp.id, deck_name=comp.name, name=comp.name,
                                 copy=copy, copies=row.copies if row else comp.copies,
                                 id=row.id if row else None),
    }
    if row is not None:
        ctx.update(resolved_values(game, comp, row))
    return ctx


def resolved_values(game: Game, comp: Component, row: Row) -> dict[str, Any]:
    """A row's typed values with every reference resolved: a ``ref`` cell becomes a
    :class:`Ref` (its id, giving the referenced row's columns as attributes), a list of ids a
    tuple of them. Card layouts and rulebook templates both see rows this way."""
    values: dict[str, Any] = {}
    for name, value in row.values.items():
        spec = comp.columns.get(name)
        if spec is not None and spec.ref and value is not None:
            rows = game.components[spec.ref].by_id()
            if spec.type == "ref":
                value = Ref(value, rows.get(value))
            elif isinstance(value, tuple):  # a list of ids
                value = tuple(Ref(item, rows.get(item)) for item in value)
        values[name] = value
    return values


@dataclass
class CardInstance:
    """One physical card: its face, its back, and the card size it is printed at."""

    face: Piece
    back: Piece
    size: Size
    deck: str


def card_instances(game: Game) -> list[CardInstance]:
    """Every card of every deck, in manifest order, rows in file order, copies together."""
    out = []
    for comp in game:
        if comp.kind != "deck":
            continue
        for row in comp.rows:
            layout = comp.layout_of(row)
            back = comp.back_of(row)
            if not layout:
                raise BuildError(f"{row.location(comp.layout_column)}: card {row.id!r} has no face layout",
                                 hint=f"set layout or layout_column for [components.{comp.id}] in game.toml")
            if not back:
                raise BuildError(f"{row.location(comp.back_column)}: card {row.id!r} has no back",
                                 hint=f"set back or back_column for [components.{comp.id}] in game.toml")
            for copy in range(1, row.copies + 1):
                label = f"{comp.id}/{row.id}" + (f" (copy {copy} of {row.copies})" if row.copies > 1 else "")
                ctx = piece_context(game, comp, row, copy)
                out.append(CardInstance(Piece(label, layout, ctx),
                                        Piece(f"{comp.id}/{row.id} back", back, ctx), comp.card_size, comp.id))
    return out


@dataclass
class BuildResult:
    """What a build wrote and found."""

    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sheets: int = 0
    cards: int = 0


def game_layouts(game: Game, templates_dir: Path, display: str) -> LayoutSet:
    """Load the layouts of ``game`` from ``templates_dir``."""
    return load_layouts(templates_dir, display, game.manifest.get("colors", {}))


def new_canvas(target, paper: Size, title: str, subject: str, duplex: str = "Simplex"):
    """A reportlab canvas set up as every pnp PDF is: invariant (same input, same bytes), an
    embedded font from the first page on, title metadata, PrintScaling None and the given Duplex
    viewer preference (print-specs.md §8 checks 8 and 16)."""
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(target, pagesize=(paper.width, paper.height), invariant=1, pageCompression=1,
                      initialFontName=fonts.register("sans"), initialFontSize=9)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator(f"pnp {__version__}")
    c.setAuthor("")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", duplex)
    return c


def _marks(c, segments) -> None:
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_WIDTH)
    for x1, y1, x2, y2 in segments:
        c.line(x1, y1, x2, y2)
    c.restoreState()


def _text(c, font: str, size: float, x: float, y: float, text: str, centre: bool = False) -> None:
    c.setFont(fonts.register(font), size)
    if centre:
        c.drawCentredString(x, y, text)
    else:
        c.drawString(x, y, text)


CAL_TARGETS = ((0.25, 0.3), (0.75, 0.3), (0.5, 0.55))
"""Where the registration crosses sit on the calibration pages, as fractions of the sheet."""


def draw_scale_check(c, x: float, y: float) -> None:
    """The scale check at (x, y): a 50 mm bar and a 1 in square with their labels
    (print-specs.md §8 check 17). Drawn as filled rectangles of exact size."""
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.rect(x, y, 50 * MM, 3 * MM, stroke=0, fill=1)
    _text(c, "sans", 8, x, y + 4.5 * MM, "50 mm")
    c.rect(x + 60 * MM, y, 72, 72, stroke=0, fill=1)
    _text(c, "sans", 8, x + 60 * MM, y + 72 + 1.5 * MM, "1 in (25.4 mm)")
    c.restoreState()


def _cross(c, cx: float, cy: float, scale: bool) -> None:
    c.saveState()
    c.setLineWidth(0.4)
    c.line(cx - 8 * MM, cy, cx + 8 * MM, cy)
    c.line(cx, cy - 8 * MM, cx, cy + 8 * MM)
    if not scale:
        c.circle(cx, cy, 3 * MM, stroke=1, fill=0)
    if scale:  # millimetre ticks along both arms, so a front cross seen through reads off directly
        c.setLineWidth(0.25)
        for k in range(-7, 8):
            if k == 0:
                continue
            tick = (1.6 if k % 5 == 0 else 0.8) * MM
            c.line(cx + k * MM, cy - tick, cx + k * MM, cy + tick)
            c.line(cx - tick, cy + k * MM, cx + tick, cy + k * MM)
        _text(c, "sans", 5, cx + 5 * MM, cy - 3.6 * MM, "+5", centre=True)
        _text(c, "sans", 5, cx - 5 * MM, cy - 3.6 * MM, "-5", centre=True)
        _text(c, "sans", 5, cx + 2.8 * MM, cy + 4.4 * MM, "+5", centre=True)
        _text(c, "sans", 5, cx + 2.8 * MM, cy - 5.6 * MM, "-5", centre=True)
    c.restoreState()


def draw_calibration(c, paper: Size, game: Game, opts: SheetOptions, duplex: bool) -> None:
    """Page 1 (and, when duplex, page 2) of every card PDF: the game's title, how to print, the
    scale check, and registration crosses to measure a printer's back offset."""
    w, h = paper.width, paper.height
    m = opts.margin + 5 * MM
    _text(c, "sans-bold", 18, m, h - m - 14, f"{game.title}: cards")
    lines = [
        "Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'.",
        "Check the scale: the bar below must measure 50 mm and the square 1 in (25.4 mm).",
    ]
    if duplex:
        flip = "long edge" if opts.flip == "long" else "short edge"
        lines += [
            f"Print both sides, flipping on the {flip}. Each back sheet follows its front sheet.",
            "Hold this sheet up to a light and look at its back: find where each front cross",
            "falls on the scale around the back cross (mm, right and up are +). If it is not at",
            "0, 0, build again with --back-offset X,Y using those readings.",
        ]
    else:
        lines += ["Fold each sheet on its centre line, faces out, glue, and cut on the crop marks."]
    if any(opts.back_offset):
        lines.append(f"This file moves every back by {opts.back_offset[0] / MM:+.2f} mm, "
                     f"{opts.back_offset[1] / MM:+.2f} mm.")
    for i, line in enumerate(lines):
        _text(c, "sans", 9.5, m, h - m - 40 - i * 13, line)
    draw_scale_check(c, m, h - m - 40 - len(lines) * 13 - 40 * MM)
    if duplex:
        for fx, fy in CAL_TARGETS:
            _cross(c, fx * w, fy * h, scale=False)
        c.showPage()
        _text(c, "sans", 9, m, h - m - 10, "Back of the calibration sheet: read each front cross on the scale.")
        ox, oy = opts.back_offset
        for fx, fy in CAL_TARGETS:
            bx, by = _mirror(paper, fx * w, fy * h, opts.flip)
            _cross(c, bx + ox, by + oy, scale=True)
    c.showPage()


def _mirror(paper: Size, x: float, y: float, flip: str) -> tuple[float, float]:
    """Where a point of a front page lands on its back page."""
    return (paper.width - x, y) if flip == "long" else (x, paper.height - y)


def _size_groups(cards: list[CardInstance]) -> list[list[CardInstance]]:
    groups: list[list[CardInstance]] = []
    for card in cards:
        if groups and groups[-1][-1].size == card.size:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups


def _best_fold(paper: Size, card: Size, opts: SheetOptions) -> tuple[FoldGrid, Size]:
    tries = []
    for sheet in (paper, paper.landscape):
        try:
            tries.append((fit_fold(sheet, card, margin=opts.margin, gap=opts.gap, bleed=opts.bleed), sheet))
        except BuildError as exc:
            last = exc
    if not tries:
        raise last
    return max(tries, key=lambda t: t[0].per_sheet)


def render_cards_pdf(target, game: Game, renderer: Renderer, cards: list[CardInstance],
                     opts: SheetOptions, notes: list[Finding] | None = None) -> int:
    """Write the card sheets PDF to ``target`` (a path or binary file). Returns the number of
    sheets of cards (a duplex front and back count as one sheet). Where the paper leaves less
    room than asked for bleed or crop marks, an info finding is added to ``notes``."""
    paper = opts.paper_size()
    duplex = not opts.gutter_fold
    c = new_canvas(target, paper, f"{game.title} - cards", f"Print-and-play card sheets for {game.title}",
                DUPLEX_NAMES[opts.flip] if duplex else "Simplex")
    draw_calibration(c, paper, game, opts, duplex)
    turn_backs = opts.gutter_fold or opts.flip == "short"
    renderer.plan_shares([(card.face, card.size.width, card.size.height, False) for card in cards] +
                         [(card.back, card.size.width, card.size.height, turn_backs) for card in cards])
    sheets = 0
    for group in _size_groups(cards):
        if opts.gutter_fold:
            fold, sheet = _best_fold(paper, group[0].size, opts)
            for start in range(0, len(group), fold.per_sheet):
                c.setPageSize((sheet.width, sheet.height))
                _fold_sheet(c, renderer, fold, group[start:start + fold.per_sheet], opts)
                c.showPage()
                sheets += 1
            c.setPageSize((paper.width, paper.height))
            continue
        grid = fit_grid(paper, group[0].size, margin=opts.margin, gap=opts.gap, bleed=opts.bleed)
        if notes is not None:
            for note in grid.notes(opts.bleed):
                finding = Finding("info", "sheet.tight-margin", f"{game.id}-cards.pdf ({group[0].size} cards on {opts.paper})",
                                  note, hint="cut on the crop marks; " + ("A4 paper has room for bleed at the top and bottom; "
                                  if opts.paper == "letter" else "") + "pnp export makes print-shop files with full bleed")
                if finding not in notes:
                    notes.append(finding)
        for start in range(0, len(group), grid.per_sheet):
            chunk = group[start:start + grid.per_sheet]
            _front_sheet(c, renderer, grid, chunk)
            c.showPage()
            _back_sheet(c, renderer, grid, chunk, opts)
            c.showPage()
            sheets += 1
    c.save()
    renderer.plan_shares(None)
    return sheets


def _slots(grid: Grid, n: int):
    for i in range(n):
        yield i, divmod(i, grid.cols)


def _front_sheet(c, renderer: Renderer, grid: Grid, chunk: list[CardInstance]) -> None:
    for i, (row, col) in _slots(grid, len(chunk)):
        renderer.place(c, chunk[i].face, grid.trim(row, col), grid.bleed(row, col), form_bleed=grid.max_bleed)
    _marks(c, grid.crop_marks(len(chunk)))


def _back_sheet(c, renderer: Renderer, grid: Grid, chunk: list[CardInstance], opts: SheetOptions) -> None:
    for i, (row, col) in _slots(grid, len(chunk)):
        brow, bcol = grid.back_slot(row, col, opts.flip)
        renderer.place(c, chunk[i].back, grid.trim(brow, bcol, opts.back_offset), grid.bleed(brow, bcol),
                       rotate=opts.flip == "short", form_bleed=grid.max_bleed)


def _fold_sheet(c, renderer: Renderer, fold: FoldGrid, chunk: list[CardInstance], opts: SheetOptions) -> None:
    for col, card in enumerate(chunk):
        fb = max(fold.grid.max_bleed, fold.fold_bleed)
        renderer.place(c, card.face, fold.front_trim(col), fold.front_bleed(col), form_bleed=fb)
        renderer.place(c, card.back, fold.back_trim(col, opts.back_offset), fold.back_bleed(col), rotate=True,
                       form_bleed=fb)
    g = fold.grid
    c.saveState()
    c.setLineWidth(0.4)
    c.setDash(3, 3)
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.line(g.margin, fold.fold_y, g.paper.width - g.margin, fold.fold_y)
    c.restoreState()
    _marks(c, fold.crop_marks(len(chunk)))


def contact_sheet_png(renderer: Renderer, cards: list[CardInstance], title: str, dpi: int = 100) -> bytes:
    """A PNG of every distinct face of one deck in a grid, each captioned with its id and copy
    count, the deck backs last. ``dpi`` is the raster resolution (100: card text stays legible)."""
    from reportlab.pdfgen import canvas

    faces: list[Piece] = []
    copies: dict[str, int] = {}
    for card in cards:
        key = card.face.label.split(" (copy")[0]
        if key not in copies:
            faces.append(card.face)
        copies[key] = copies.get(key, 0) + 1
    backs = {}
    for card in cards:
        backs.setdefault(card.back.layout, card.back)
    items = faces + list(backs.values())
    size = cards[0].size
    cols = min(10, len(items))
    rows = (len(items) + cols - 1) // cols
    pad = 3 * MM
    caption = 4 * MM
    head = 10 * MM
    w = cols * (size.width + pad) + pad
    h = rows * (size.height + pad + caption) + pad + head
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=fonts.register("sans"))
    c.setFillColorRGB(0.93, 0.93, 0.93)
    c.rect(0, 0, w, h, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    _text(c, "sans-bold", 14, pad, h - head + 3 * MM, title)
    for i, piece in enumerate(items):
        r, col = divmod(i, cols)
        x = pad + col * (size.width + pad)
        y = h - head - (r + 1) * (size.height + pad + caption) + caption
        renderer.draw(c, piece, (x, y, size.width, size.height), (0, 0, 0, 0))
        key = piece.label.split(" (copy")[0]
        label = f"{key.split('/', 1)[-1]}  x{copies[key]}" if key in copies else f"back: {piece.layout}"
        c.setFillColorRGB(0.2, 0.2, 0.2)
        _text(c, "sans", 7, x, y - caption + 1.2 * MM, label)
    c.showPage()
    c.save()
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(buf.getvalue())
    image = pdf[0].render(scale=dpi / 72).to_pil()
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=False)
    pdf.close()
    return out.getvalue()


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    a reader never sees a partial file and a failure leaves the old file as it was."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}",
                         hint="give --output a folder you can write to") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build_cards(game: Game, layouts: LayoutSet, out_dir: Path, opts: SheetOptions,
                max_image_pixels: int | None = 89_478_485) -> BuildResult:
    """Render every card of ``game`` to ``out_dir/<game>-cards.pdf`` and contact sheets.

    Everything is rendered in memory first; files are replaced only when all of them rendered,
    so a failed build leaves the previous outputs intact. Art over ``max_image_pixels`` pixels is
    refused (None lifts the limit). Raises BuildError or LayoutError.
    """
    renderer = Renderer(layouts, game.path, max_image_pixels=max_image_pixels)
    cards = card_instances(game)
    result = BuildResult(cards=len(cards))
    if not cards:
        return result
    outputs: list[tuple[Path, bytes]] = []
    buf = io.BytesIO()
    notes: list[Finding] = []
    result.sheets = render_cards_pdf(buf, game, renderer, cards, opts, notes)
    name = f"{game.id}-cards-gutter-fold.pdf" if opts.gutter_fold else f"{game.id}-cards.pdf"
    outputs.append((out_dir / name, buf.getvalue()))
    if opts.contact_sheets:
        for comp in game:
            deck_cards = [card for card in cards if card.deck == comp.id]
            if deck_cards:
                png = contact_sheet_png(renderer, deck_cards, f"{game.title}: {comp.name}")
                outputs.append((out_dir / "contact" / f"{comp.id}.png", png))
    for path, data in outputs:
        write_atomic(path, data)
        result.files.append(path)
    result.findings = notes + renderer.findings
    return result


@dataclass
class Stage:
    """One part of a game's build: a name, the input files it reads, and how to run it."""

    name: str
    inputs: list[Path]
    run: Any
    """Callable taking no arguments and returning a BuildResult."""


def run_stages(out_dir: Path, stages: list[Stage], options: object,
               force: bool = False) -> tuple[dict[str, BuildResult], dict[str, list[Path]]]:
    """Run each stage whose inputs or outputs changed since the last build into ``out_dir``.

    Returns the result of each stage that ran and, for each stage that was up to date, the
    files it had written. ``force`` runs every stage.
    """
    from .cache import BuildRecord, inputs_key

    record = BuildRecord(out_dir)
    ran: dict[str, BuildResult] = {}
    skipped: dict[str, list[Path]] = {}
    for stage in stages:
        key = inputs_key(stage.inputs, (stage.name, options))
        files = None if force else record.fresh(stage.name, key)
        if files is not None:
            skipped[stage.name] = files
            continue
        result = stage.run()
        previous = record.entries.get(stage.name, {}).get("files", {})
        for rel in previous:  # files this part wrote last time and no longer makes
            old = out_dir / rel
            if old not in result.files and old.is_file() and old.resolve().is_relative_to(out_dir.resolve()):
                old.unlink()
        ran[stage.name] = result
        if not any(f.severity == "error" for f in result.findings):
            record.record(stage.name, key, result.files)
    return ran, skipped


def build_game(game: Game, templates_dir: Path, templates_display: str, out_dir: Path, opts: SheetOptions,
               *, force: bool = False, max_image_pixels: int | None = 89_478_485
               ) -> tuple[dict[str, BuildResult], dict[str, list[Path]]]:
    """Build every output of one game into ``out_dir``, skipping parts whose inputs are unchanged.

    Returns the result of each part that was built and, for each part that was up to date,
    the files it had written. Parts: ``cards``, ``boards`` (boards, tokens, dice), ``rulebook``
    (single pages on A4 for A-series paper, else Letter), and ``export NAME`` for each target
    the manifest's ``[targets]`` lists.
    """
    from .boards import build_boards
    from .cache import game_files

    data = [p for p in game_files(game.path) if p.suffix.lower() not in (".md", ".txt")]
    font_files = sorted(fonts.font_dir() / name for name in fonts.FONT_FILES.values())
    templates = game_files(templates_dir)
    card_templates = [p for p in templates if p.name != "boards.toml" and not p.name.endswith(".j2")]
    board_templates = [p for p in templates if not p.name.endswith(".j2")]

    def cards() -> BuildResult:
        layouts = game_layouts(game, templates_dir, templates_display)
        return build_cards(game, layouts, out_dir, opts, max_image_pixels=max_image_pixels)

    def boards() -> BuildResult:
        return build_boards(game, templates_dir, templates_display, out_dir, opts)

    def rulebook() -> BuildResult:
        from .rulebook import build_rulebook

        paper = "a4" if opts.paper.startswith("a") else "letter"
        return build_rulebook(game, templates_dir, templates_display, out_dir, paper, booklet=False)

    stages = [Stage("cards", data + card_templates + font_files, cards),
              Stage("boards", data + board_templates + font_files, boards),
              Stage("rulebook", data + templates + font_files, rulebook)]
    from .export import manifest_targets

    for target in manifest_targets(game):
        def export(target: str = target) -> BuildResult:
            from .export import export_game

            return export_game(game, game_layouts(game, templates_dir, templates_display), target, out_dir)

        stages.append(Stage(f"export {target}", data + card_templates + font_files, export))
    return run_stages(out_dir, stages, (opts, max_image_pixels), force=force)


@dataclass
class BuildJob:
    """Everything needed to check and build one game, in a form a worker process can receive."""

    path: Path
    display: str
    templates: tuple[Path, str] | None
    output: Path
    opts: SheetOptions
    force: bool = False
    max_image_pixels: int | None = 89_478_485
    encoding: str = "utf-8"
    delimiter: str | None = None


@dataclass
class BuildOutcome:
    """What building one game came to: refused (the check's errors), built, or an error."""

    title: str
    loaded: bool = False
    refused: list[Finding] | None = None
    ran: dict[str, BuildResult] = field(default_factory=dict)
    skipped: dict[str, list[Path]] = field(default_factory=dict)
    error: Exception | None = None


def build_job(job: BuildJob) -> BuildOutcome:
    """Check one game, then build it unless the check found errors (and ``force`` is off)."""
    from .check import check_game
    from .errors import PnpError
    from .model import COPIES_CAP

    try:
        game, findings = check_game(job.path, job.display, job.templates, encoding=job.encoding,
                                    delimiter=job.delimiter, copies_cap=None if job.force else COPIES_CAP)
        errors = [f for f in findings if f.severity == "error"]
        if game is None or (errors and not job.force):
            return BuildOutcome(game.title if game else job.display, game is not None, errors)
        tdir, tdisplay = job.templates
        ran, skipped = build_game(game, tdir, tdisplay, job.output / game.id, job.opts, force=job.force,
                                  max_image_pixels=job.max_image_pixels)
        return BuildOutcome(game.title, True, None, ran, skipped)
    except PnpError as exc:
        return BuildOutcome(job.display, error=exc)


def run_jobs(jobs: list[BuildJob], workers: int | None = None) -> list[BuildOutcome]:
    """Build games side by side, one process per core (at most 2 by default), outcomes in the
    order of ``jobs``. Each game writes only its own folder, so the files are the same bytes as
    a one-by-one build. Falls back to building in this process when workers cannot start."""
    workers = min(len(jobs), workers or min(2, os.cpu_count() or 1))
    if workers <= 1:
        return [build_job(job) for job in jobs]
    import concurrent.futures
    import multiprocessing

    try:
        with concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(build_job, jobs))
    except (OSError, concurrent.futures.process.BrokenProcessPool):
        return [build_job(job) for job in jobs]
