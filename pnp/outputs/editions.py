"""``editions``: a game's sheets as a player with a colour-vision deficiency sees them
(``pnp build --simulate VISION``), for looking at on screen, not for print.

The card sheets, boards and token sheets are drawn as a build draws them, rendered to pixels at
:data:`PREVIEW_DPI` with pdfium, each pixel transformed as :func:`pnp.render.vision.simulate_image`
says, and the pages put back into one PDF, ``<game>-simulated-<vision>.pdf``, each page the
size of its sheet with a line in its top margin saying what it shows. Nothing else is written.
"""

from __future__ import annotations

import io

from ..core.findings import merge
from ..core.units import Size
from ..design.layouts import game_layouts
from ..render import vision
from ..render.canvas import new_canvas
from ..render.fonts import register
from ..render.raster import pdf_to_png
from .base import BuildResult, OutputJob, Stage, dpi_option
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


class EditionsOutput:
    """``editions``: the simulated preview (see the module docstring); no stage unless the
    build asks for one."""

    name = "editions"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        simulation = settings.simulate
        if not simulation:
            return []

        def render(dry: bool) -> BuildResult:
            game = job.game
            cards = render_cards(game, game_layouts(game, job.source), job.out_dir, settings.sheet,
                                 max_image_pixels=settings.max_image_pixels, dry=True,
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
        return [Stage(f"simulated-{simulation}", inputs, render,
                      (settings.sheet, settings.max_image_pixels, ("simulate", simulation))
                      + dpi_option(settings.image_dpi, None))]
