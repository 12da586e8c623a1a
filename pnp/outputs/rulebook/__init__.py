"""Rulebooks built from a game's own data: a Jinja2 template -> Markdown -> PDF.

A game's rulebook template is ``rulebook.md.j2`` in its templates folder (``templates/<game>/``
for a bundled game, ``mygame/templates/`` for a designer's own); docs/rulebooks.md describes it.

1. :mod:`.template` runs the template in the sandbox over the game's views (:mod:`.views`) and
   returns Markdown; values printed from data are escaped (:mod:`.markup`).
2. :mod:`.markdown` lays the Markdown out with reportlab platypus (:mod:`.story` makes the
   flowables, :mod:`.images` the pictures and cards, :mod:`.styles` the typography,
   :mod:`.pagination` where pages break): headings kept with what follows them, paragraphs,
   lists, tables that split across pages and repeat their header row, a table of contents,
   bookmarks and page numbers. Same input, same bytes.
3. :func:`build_rulebook` writes ``<game>-rulebook.pdf`` (single pages in reading order) and,
   for a booklet, ``<game>-rulebook-booklet.pdf`` (:mod:`.booklet`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ... import __version__
from ...core import units
from ...core.findings import Finding
from ...core.units import MM
from ...geometry.booklet import BOOKLET_PAGES, booklet_page, booklet_sheet
from ...core.errors import Location
from ...model.facts import contradictions, game_facts
from ...model.game import Game
from ...render.art import DEFAULT_MAX_PIXELS, PRINT_DPI
from ...render.preflight import printed_fact
from ...model.games import RULEBOOK_FILE, GameSource
from ..base import BuildResult, OutputJob, Stage, dpi_option, draft_option, write_result
from .booklet import impose_booklet
from .images import ImageResolver
from .markdown import RulebookPdf, markdown_pdf
from .markup import RulebookError, escape_markdown
from .styles import BOOKLET_STYLE, SINGLE_STYLE
from .template import _Template, render_template
from .views import PageView

__all__ = ["Rulebook", "RulebookError", "RulebookOutput", "build_rulebook", "escape_markdown",
           "markdown_pdf", "render_rulebook", "render_rulebook_files", "render_template"]


@dataclass
class Rulebook:
    """A game's rulebook as PDFs: ``single`` pages in reading order (with their page count) and,
    if asked for, the imposed ``booklet`` bytes; ``booklet_pages`` counts the booklet's pages
    before padding to a multiple of 4; ``findings`` are the preflight findings of both."""

    single: RulebookPdf
    booklet: bytes | None = None
    booklet_pages: int = 0
    findings: list[Finding] = field(default_factory=list)


def render_rulebook(game: Game, source: GameSource, paper: str = "letter", booklet: bool = False,
                    max_image_pixels: int | None = DEFAULT_MAX_PIXELS, impose: bool = True,
                    image_dpi: int | None = PRINT_DPI, draft: bool = False, dry: bool = False) -> Rulebook:
    """Render a game's rulebook to PDF bytes (nothing is written).

    Single pages are laid out on ``paper`` (a4, letter, ...); with ``booklet`` the rulebook is
    laid out again on half sheets (A5 for a4, half-letter for letter; pnp.geometry.booklet) and imposed
    2-up (``impose`` False lays the booklet out but does not impose it: a dry run). Raster
    pictures are embedded at ``image_dpi`` px/in at their placed size (print: 300). In a
    ``draft``, cards drawn in it print missing art as a placeholder, a warning. A ``dry``
    render (``pnp check``) finds the same and makes no PDF (:func:`markdown_pdf`). Raises
    RulebookError (template or Markdown), LayoutError (card layouts) or BuildError (paper,
    page overflow).
    """
    key = paper.lower()
    size = units.paper(key)
    template = _Template(game, source)
    display = f"{template.display}/{RULEBOOK_FILE}"
    jobs = [(key, size, SINGLE_STYLE, False)]
    if booklet:
        jobs.append((BOOKLET_PAGES.get(key, key), booklet_page(key), BOOKLET_STYLE, True))
    resolver = ImageResolver(template, source.templates_dir, display, max_image_pixels, draft=draft, dry=dry,
                             locate=template_locator(source.templates_dir / RULEBOOK_FILE, display))
    results = []
    try:
        for name, page_size, style, is_booklet in jobs:
            frame_mm = (page_size.width - 2 * style.margin) / MM
            view = PageView(paper=name, booklet=is_booklet, width_mm=round(page_size.width / MM, 1),
                            height_mm=round(page_size.height / MM, 1), frame_width_mm=round(frame_mm, 1))
            rendered = template.render(view)
            if not results:
                facts_found = _printed_facts(game, rendered.markdown, resolver.locate)
            results.append(markdown_pdf(rendered.markdown, page_size, title=game.title, style=style,
                                        resolver=resolver, display=display, outer_numbers=is_booklet,
                                        image_dpi=image_dpi, dry=dry))
    finally:
        resolver.close()
    findings = list(results[0].findings) + resolver.findings + resolver.card_errors() + facts_found
    book = Rulebook(results[0], findings=findings)
    if booklet:
        seen = {(f.rule, f.message) for f in findings}
        findings.extend(f for f in results[1].findings if (f.rule, f.message) not in seen)
        if impose:
            book.booklet = impose_booklet(results[1].pdf, booklet_sheet(key), back=results[1].back,
                                          title=f"{game.title} (booklet)", creator=f"pnp {__version__}")
        book.booklet_pages = results[1].pages
    return book


def template_locator(template: Path, display: str):
    """``locate(text, *more)``: the template file (``display``) at the first line that holds
    ``text`` and every one of ``more`` (case-blind), or the file alone when no line does (the
    text comes from the data, or from an included file). What the rulebook finds points at the
    template this way."""
    try:
        lines = [line.lower() for line in template.read_text(encoding="utf-8-sig").splitlines()]
    except (OSError, UnicodeDecodeError):
        lines = []

    def locate(text: str, *more: str) -> Location:
        needles = [t.lower() for t in (text, *more)]
        return Location(display, next((i for i, line in enumerate(lines, 1)
                                       if all(needles) and all(n in line for n in needles)), None))
    return locate


def _printed_facts(game: Game, markdown: str, locate) -> list[Finding]:
    """``facts.printed`` findings for the numbers of the data the rendered rulebook states
    otherwise, each at the line of the template that writes the statement (``locate``)."""
    return [printed_fact(locate(found.snippet), found.said, found.snippet, found.fact.key, found.fact.value)
            for found in contradictions(markdown, game_facts(game))]


def render_rulebook_files(game: Game, source: GameSource, out_dir: Path, paper: str, booklet: bool,
                          max_image_pixels: int | None = DEFAULT_MAX_PIXELS, dry: bool = False,
                          image_dpi: int | None = PRINT_DPI, draft: bool = False) -> BuildResult:
    """A game's rulebook in memory (``result.outputs``; nothing is written):
    ``out_dir/<game>-rulebook.pdf`` (single pages on ``paper``) and, with ``booklet``,
    ``<game>-rulebook-booklet.pdf`` (2-up landscape sheets for duplex short-edge printing; a
    ``dry`` render lays both out, finding what the real one finds, and makes no file).

    The game's templates folder (``source``) holds ``rulebook.md.j2`` (and layouts.toml for card
    images). A game without a rulebook template makes nothing and gets an info finding
    ``rulebook.none``. ``result.sheets`` counts the single pages. Pictures are embedded at
    ``image_dpi`` (:func:`render_rulebook`). Raises RulebookError, LayoutError or BuildError.
    """
    result = BuildResult()
    if not (source.templates_dir / RULEBOOK_FILE).is_file():
        result.findings.append(Finding("info", "rulebook.none", f"{source.templates_display}/{RULEBOOK_FILE}",
                                       "no rulebook template; no rulebook built",
                                       hint="write one to build the rulebook; see docs/rulebooks.md"))
        return result
    book = render_rulebook(game, source, paper, booklet, max_image_pixels, impose=not dry, image_dpi=image_dpi,
                           draft=draft, dry=dry)
    if not dry:
        result.outputs.append((out_dir / f"{game.file_stem}-rulebook.pdf", book.single.pdf))
    if book.booklet is not None:
        result.outputs.append((out_dir / f"{game.file_stem}-rulebook-booklet.pdf", book.booklet))
    result.sheets = book.single.pages
    result.findings = book.findings
    return result


def build_rulebook(game: Game, source: GameSource, out_dir: Path, paper: str, booklet: bool,
                   max_image_pixels: int | None = DEFAULT_MAX_PIXELS, image_dpi: int | None = PRINT_DPI) -> BuildResult:
    """Render the rulebook (:func:`render_rulebook_files`) and write it."""
    return write_result(render_rulebook_files(game, source, out_dir, paper, booklet, max_image_pixels,
                                              image_dpi=image_dpi))


class RulebookOutput:
    """``rulebook``: the rulebook's single pages (on ``settings.rulebook_paper``, else A4 for
    A-series sheet paper and Letter otherwise) and, with ``settings.booklet``, the booklet."""

    name = "rulebook"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        paper = settings.rulebook_paper or ("a4" if settings.sheet.paper.startswith("a") else "letter")
        name = "rulebook" if settings.rulebook_paper is None and not settings.booklet else \
            f"rulebook {paper}" + (" booklet" if settings.booklet else "")

        dpi = settings.print_dpi()

        def render(dry: bool) -> BuildResult:
            return render_rulebook_files(job.game, job.source, job.out_dir, paper, settings.booklet,
                                         max_image_pixels=settings.max_image_pixels, dry=dry, image_dpi=dpi,
                                         draft=settings.draft)

        return [Stage(name, job.data_files() + job.template_files() + job.font_files(), render,
                      (paper, settings.booklet, settings.max_image_pixels) + dpi_option(dpi, PRINT_DPI)
                      + draft_option(settings.draft))]
