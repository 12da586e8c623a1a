"""``editions``: a game's sheets as a player with a colour-vision deficiency sees them
(``pnp build --simulate VISION``), for looking at on screen, not for print; and the low-ink and
greyscale editions of its card sheets, boards and token sheets (``pnp build --ink low|greyscale``,
:mod:`pnp.render.ink`), with the ink each sheet takes beside the default edition's.

The card sheets, boards and token sheets are drawn as a build draws them, rendered to pixels at
:data:`PREVIEW_DPI` with pdfium, each pixel transformed as :func:`pnp.render.vision.simulate_image`
says, and the pages put back into one PDF, ``<game>-simulated-<vision>.pdf``, each page the
size of its sheet with a line in its top margin saying what it shows. Nothing else is written.
"""

from __future__ import annotations

import io

from ..core.findings import merge
from ..core.units import Size
from ..design.layouts import board_layouts, game_layouts
from ..render import vision
from ..render.canvas import new_canvas
from ..render.fonts import register
from ..render.ink import GreyConverter, LowInk, coverage
from ..render.raster import pdf_to_png
from .base import BuildResult, OutputJob, Stage, dpi_option, draft_option
from .access import grey_patterns
from .boards import render_boards
from .cards import render_cards

PREVIEW_DPI = 100
"""Resolution of a simulated preview: enough to judge colours on a screen, small files."""


def simulated_pdf(pdfs: list[bytes], simulation: str, title: str, dpi: int = PREVIEW_DPI) -> tuple[bytes, int]:
    """One PDF of every page of ``pdfs`` as seen with ``simulation`` (a
    :data:`pnp.render.vision.SIMULATIONS` name), each page rasterised at ``dpi`` and kept at its
    size in pt. Returns the PDF and its page count."""
    import pypdfium2 as pdfium
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    out = io.BytesIO()
    c = None
    pages = 0
    for pdf in pdfs:
        doc = pdfium.PdfDocument(pdf)
        sizes = [(doc[i].get_width(), doc[i].get_height()) for i in range(len(doc))]
        doc.close()
        for index, (w, h) in enumerate(sizes):
            image = Image.open(io.BytesIO(pdf_to_png(pdf, dpi=dpi, page_index=index))).convert("RGB")
            seen = vision.simulate_image(image, simulation)
            if c is None:
                c = new_canvas(out, Size(w, h), f"{title} - simulated {simulation}",
                               f"{title} as a player with {simulation} sees it: a preview, not for print",
                               image_dpi=None)
            c.setPageSize((w, h))
            c.drawImage(ImageReader(seen), 0, 0, w, h)
            c.setFont(register("sans"), 7)
            c.setFillGray(0.0)
            c.drawString(14, h - 10, f"Simulated {simulation} ({dpi} dpi preview, not for print)")
            c.showPage()
            pages += 1
    if c is None:
        return b"", 0
    c.save()
    return out.getvalue(), pages


INK_NAMES = {"low": "low-ink", "greyscale": "greyscale"}
"""``--ink`` value -> the suffix of the edition's file names."""


def _painters(ink: str, layouts, patterns: dict[str, int]):
    """The Renderer colour hook and canvas converter of edition ``ink`` for ``layouts``
    (``patterns``: the greyscale edition's hatching, :func:`pnp.outputs.access.grey_patterns`)."""
    if ink == "low":
        return LowInk(layouts.low_ink_tint, layouts.low_ink), None
    grey = GreyConverter(patterns)
    return grey.convert, grey


def _draw(job: OutputJob, ink: str | None):
    """The card sheets, boards and token sheets of ``job`` in edition ``ink`` (None: the
    default), drawn in memory as a build draws them: (path, pdf) pairs and the findings."""
    game, settings = job.game, job.settings
    layouts = game_layouts(game, job.source)
    tokens = board_layouts(game, job.source) if job.source.templates_dir else None
    patterns = grey_patterns(game, layouts, tokens) if ink == "greyscale" else {}
    cc, conv = _painters(ink, layouts, patterns) if ink else (None, None)
    cards = render_cards(game, layouts, job.out_dir, settings.sheet, max_image_pixels=settings.max_image_pixels,
                         image_dpi=settings.print_dpi(), draft=settings.draft, color_convert=cc,
                         converter=conv)
    boards = BuildResult()
    if job.source.templates_dir:
        cc, conv = _painters(ink, tokens or layouts, patterns) if ink else (None, None)
        boards = render_boards(game, job.source, job.out_dir, settings.sheet,
                               max_image_pixels=settings.max_image_pixels, image_dpi=settings.print_dpi(),
                               draft=settings.draft, color_convert=cc, converter=conv)
    pdfs = [(path, data) for path, data in cards.outputs + boards.outputs if path.suffix == ".pdf"]
    return pdfs, cards.findings + boards.findings


def ink_notes(default: list[float], edition: list[float], label: str) -> list[str]:
    """The report lines of one file's ink: per sheet, default and edition, and the whole file."""
    sheets = ", ".join(f"{i + 1}: {a:.0f} % -> {b:.0f} %" for i, (a, b) in enumerate(zip(default, edition)))
    total_a, total_b = sum(default), sum(edition)
    saved = (1 - total_b / total_a) * 100 if total_a else 0.0
    return [f"ink per page, default -> {label}: {sheets}; whole file {total_a / max(len(default), 1):.0f} % -> "
            f"{total_b / max(len(edition), 1):.0f} % a page ({saved:.0f} % less)"]


class EditionsOutput:
    """``editions``: the simulated preview (see the module docstring); no stage unless the
    build asks for one."""

    name = "editions"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        simulation = settings.simulate
        stages = [self.ink_stage(job)] if settings.ink else []
        if not simulation:
            return stages

        def render(dry: bool) -> BuildResult:
            game = job.game
            cards = render_cards(game, game_layouts(game, job.source), job.out_dir, settings.sheet,
                                 max_image_pixels=settings.max_image_pixels,
                                 image_dpi=settings.print_dpi(), draft=settings.draft)
            boards = render_boards(game, job.source, job.out_dir, settings.sheet,
                                   max_image_pixels=settings.max_image_pixels, image_dpi=settings.print_dpi(),
                                   draft=settings.draft) if job.source.templates_dir else BuildResult()
            pdfs = [data for path, data in cards.outputs + boards.outputs if path.suffix == ".pdf"]
            result = BuildResult(findings=merge(cards.findings + boards.findings))
            if dry:
                return result  # a check finds what drawing finds; the pixels find nothing
            data, pages = simulated_pdf(pdfs, simulation, game.title)
            result.sheets = pages
            if data:
                result.outputs.append((job.out_dir / f"{game.id}-simulated-{simulation}.pdf", data))
            return result

        inputs = job.data_files() + [p for p in job.template_files() if not p.name.endswith(".j2")] + job.font_files()
        return stages + [Stage(f"simulated-{simulation}", inputs, render,
                               (settings.sheet_key(), settings.max_image_pixels, ("simulate", simulation))
                               + dpi_option(settings.image_dpi, None))]

    def ink_stage(self, job: OutputJob) -> Stage:
        """The low-ink or greyscale edition: ``<file>-low-ink.pdf`` (``-greyscale.pdf``) beside
        each card sheets, boards and tokens PDF, and the ink of each of its pages beside the
        default edition's (:func:`pnp.render.ink.coverage`, at 50 dpi)."""
        settings = job.settings
        label = INK_NAMES[settings.ink]

        def render(dry: bool) -> BuildResult:
            pdfs, findings = _draw(job, settings.ink)
            result = BuildResult(findings=merge(findings))
            if dry:
                return result
            defaults = dict(_draw(job, None)[0])
            for path, data in pdfs:
                name = path.with_name(f"{path.stem}-{label}.pdf")
                result.outputs.append((name, data))
                result.sheets += 1
                result.notes += [f"{name.name}: " + line for line in
                                 ink_notes(coverage(defaults[path]), coverage(data), label)]
            return result

        inputs = job.data_files() + [p for p in job.template_files() if not p.name.endswith(".j2")] + job.font_files()
        return Stage(f"ink-{label}", inputs, render, (settings.sheet_key(), settings.max_image_pixels, ("ink", settings.ink))
                     + dpi_option(settings.image_dpi, None) + draft_option(settings.draft))
