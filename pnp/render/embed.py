"""Raster art in a PDF: each picture embedded once per file, at the resolution the file needs.

Every placement of a :class:`~pnp.render.art.RasterArt` on an :class:`ArtCanvas` draws one
form XObject of the picture (a unit square, scaled to the placed size), so a picture used on
every card, or placed at several sizes, is stored once. Which pixels the form holds is settled
when the file is saved: the version :func:`~pnp.render.art.embed_pixels` gives for the largest
placement at the canvas's ``image_dpi`` (300 dpi for print files by default), so no placement
gets less than that resolution and none costs more. reportlab draws a form that is defined
later (``doForm`` before ``beginForm``), which is what lets the size wait for the last
placement.
"""

from __future__ import annotations

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .art import PRINT_DPI, RasterArt, embed_pixels


class ArtCanvas(Canvas):
    """A reportlab canvas that embeds raster art through :meth:`draw_art`.

    ``image_dpi`` is the resolution art is embedded at, in px/in at its placed size (None:
    every picture as it is). Art above it by more than
    :data:`~pnp.render.art.DOWNSAMPLE_MARGIN` is downsampled; art below it is never enlarged.
    """

    def __init__(self, *args, image_dpi: int | None = PRINT_DPI, **kwargs):
        super().__init__(*args, **kwargs)
        self.image_dpi = image_dpi
        self._art: dict[int, list] = {}
        """id(art) -> [art, form name, pixel size to embed], in order of first placement."""

    def draw_art(self, art: RasterArt, x: float, y: float, width: float, height: float) -> None:
        """Place ``art`` with its lower-left corner at (x, y), ``width`` x ``height`` pt."""
        self.art_placed(art)
        px = embed_pixels(art.size, (width, height), self.image_dpi)
        art.version(px)  # made now, while this placement's pixels are at hand
        entry = self._art.get(id(art))
        if entry is None:
            entry = self._art[id(art)] = [art, f"pnpa{len(self._art)}", px]
        elif px[0] * px[1] > entry[2][0] * entry[2][1]:
            entry[2] = px
        self.saveState()
        self.translate(x, y)
        self.scale(width, height)
        self.doForm(entry[1])
        self.restoreState()

    def art_placed(self, art: RasterArt) -> None:
        """Called on every placement, before anything is drawn (a CMYK canvas checks the
        art's colour mode here, for the piece being drawn); may raise BuildError."""

    def embed_image(self, image) -> None:
        """Draw the Pillow ``image`` into the unit square (inside the art's form)."""
        Canvas.drawImage(self, ImageReader(image), 0, 0, 1, 1, mask="auto")

    def save(self) -> None:
        """Define every placed picture's form at the size its largest placement needs, then
        write the file."""
        for art, name, px in self._art.values():
            self.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
            self.embed_image(art.version(px))
            self.endForm()
        self._art = {}
        super().save()


def draw_art(c, art: RasterArt, x: float, y: float, width: float, height: float) -> None:
    """Place ``art`` on ``c`` at (x, y), ``width`` x ``height`` pt: through the canvas's shared
    form on an :class:`ArtCanvas`; on any other reportlab canvas, as an image downsampled for
    this placement at :data:`~pnp.render.art.PRINT_DPI`."""
    if isinstance(c, ArtCanvas):
        c.draw_art(art, x, y, width, height)
        return
    image = art.version(embed_pixels(art.size, (width, height), PRINT_DPI))
    c.drawImage(ImageReader(image), x, y, width, height, mask="auto")
