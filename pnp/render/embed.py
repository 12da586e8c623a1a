"""Raster art in a PDF: each picture embedded once per file, at the resolution the file needs.

Every placement of a :class:`~pnp.render.art.RasterArt` on an :class:`ArtCanvas` draws one
form XObject of the picture (a unit square, scaled to the placed size), so a picture used on
every card, or placed at several sizes, is stored once. Which pixels the form holds is settled
when the file is saved: the version :func:`~pnp.render.art.embed_pixels` gives for the largest
placement at the canvas's ``image_dpi`` (300 dpi for print files by default), so no placement
gets less than that resolution and none costs more. reportlab draws a form that is defined
later (``doForm`` before ``beginForm``), which is what lets the size wait for the last
placement.

The pixels are stored losslessly as Flate with the PNG predictors (PDF 32000-1 §7.4.4.4,
``/Predictor 15``: each row filtered as a PNG encoder chooses), which takes a photograph to
about half of what plain Flate does, and without the ASCII85 layer reportlab adds to its own
images (a quarter more bytes). Alpha becomes a soft mask (``/SMask``) stored the same way.
"""

from __future__ import annotations

import io
import struct

from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFStream

from .art import PRINT_DPI, RasterArt, embed_pixels
from .pdfcanvas import Canvas

COLOR_SPACES = {"L": ("DeviceGray", 1), "RGB": ("DeviceRGB", 3), "CMYK": ("DeviceCMYK", 4)}
"""PDF colour space and number of colour components of each Pillow mode an image XObject holds."""


class ArtCanvas(Canvas):
    """A reportlab canvas that embeds raster art through :meth:`draw_art`.

    ``image_dpi`` is the resolution art is embedded at, in px/in at its placed size (None:
    every picture as it is). Art above it by more than
    :data:`~pnp.render.art.DOWNSAMPLE_MARGIN` is downsampled; art below it is never enlarged.
    """

    def __init__(self, *args, image_dpi: int | None = PRINT_DPI, **kwargs):
        super().__init__(*args, **kwargs)
        self.image_dpi = image_dpi
        self.art_part: int | None = None
        """Which part of the file the art placed now belongs to (a page of a
        :class:`~pnp.outputs.export.pages.PageBook`): each picture is then sized for its
        largest placement within that part alone, as a file of that part alone would size it.
        None: the whole file is one part."""
        self._art: dict[tuple[int | None, int], list] = {}
        """(scope, id(art)) -> [art, form name, pixel size to embed], in order of first placement."""

    def draw_art(self, art: RasterArt, x: float, y: float, width: float, height: float) -> None:
        """Place ``art`` with its lower-left corner at (x, y), ``width`` x ``height`` pt."""
        self.art_placed(art)
        px = embed_pixels(art.size, (width, height), self.image_dpi)
        art.version(px)  # made now, while this placement's pixels are at hand
        key = (self.art_part, id(art))
        entry = self._art.get(key)
        if entry is None:
            entry = self._art[key] = [art, f"pnpa{len(self._art)}", px]
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

    def image_pixels(self, image):
        """The pixels to store for the Pillow ``image`` (mode L, RGB or RGBA) and its alpha
        channel or None: (L or RGB image, L image or None). A CMYK canvas converts here."""
        if image.mode == "RGBA":
            return image.convert("RGB"), image.getchannel("A")
        return image, None

    def embed_image(self, image, name: str) -> None:
        """Store the Pillow ``image`` as the image XObject ``name`` (and its soft mask) and
        draw it into the unit square: the content of the art's form."""
        pixels, alpha = self.image_pixels(image)
        doc = self._doc
        stream = image_stream(pixels)
        if alpha is not None:
            stream.dictionary["SMask"] = doc.Reference(image_stream(alpha), doc.getXObjectName(f"{name}.mask"))
        doc.Reference(stream, doc.getXObjectName(name))
        self.doForm(name)  # an image XObject is drawn as a form is: "/name Do", listed in the resources

    def save(self) -> None:
        """Define every placed picture's form at the size its largest placement needs, then
        write the file; nothing when the file is a discarding sink (a dry run's,
        :class:`pnp.render.canvas.PdfBytes`): what could be found was found while drawing."""
        if getattr(self._filename, "discards", False):
            self._art = {}
            return
        images: dict[tuple[int, tuple[int, int]], str] = {}  # one image of each picture at each pixel size
        for art, name, px in self._art.values():
            self.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
            image = images.get((id(art), px))
            if image is None:
                image = images[(id(art), px)] = f"{name}.image"
                self.embed_image(art.version(px), image)
            else:
                self.doForm(image)
            self.endForm()
        self._art = {}
        super().save()


def image_stream(image) -> PDFStream:
    """An image XObject of the Pillow ``image`` (mode L, RGB or CMYK, 8 bits per component):
    Flate with the PNG predictors. Pillow's PNG encoder filters the rows (a CMYK image is
    given to it as four-channel bytes, which PNG filters as it would RGBA); the IDAT data of a
    PNG is exactly the ``/Predictor 15`` Flate stream PDF decodes."""
    from PIL import Image

    space, colors = COLOR_SPACES[image.mode]
    source = Image.frombytes("RGBA", image.size, image.tobytes()) if image.mode == "CMYK" else image
    buf = io.BytesIO()
    source.save(buf, format="PNG", compress_level=6)
    width, height = image.size
    return PDFStream(PDFDictionary({
        "Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": width, "Height": height,
        "BitsPerComponent": 8, "ColorSpace": PDFName(space), "Filter": PDFName("FlateDecode"),
        "DecodeParms": PDFDictionary({"Predictor": 15, "Colors": colors, "BitsPerComponent": 8, "Columns": width}),
    }), _idat(buf.getvalue()))


def _idat(png: bytes) -> bytes:
    """The concatenated IDAT chunks of a PNG file: one zlib stream of filtered rows."""
    out, at = [], 8  # after the signature
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            out.append(png[at + 8:at + 8 + length])
        at += 12 + length
    return b"".join(out)


def draw_art(c, art: RasterArt, x: float, y: float, width: float, height: float) -> None:
    """Place ``art`` on ``c`` at (x, y), ``width`` x ``height`` pt: through the canvas's shared
    form on an :class:`ArtCanvas`; on any other reportlab canvas, as an image downsampled for
    this placement at :data:`~pnp.render.art.PRINT_DPI`."""
    if isinstance(c, ArtCanvas):
        c.draw_art(art, x, y, width, height)
        return
    image = art.version(embed_pixels(art.size, (width, height), PRINT_DPI))
    c.drawImage(ImageReader(image), x, y, width, height, mask="auto")
