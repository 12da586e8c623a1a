"""PDF pages to pixels with pdfium: print-shop PNGs at an exact pixel size, and previews at a
resolution."""

from __future__ import annotations

import ctypes
import io
import struct
import zlib

from ..core.progress import step
from ..core.parallel import map_ordered


def pdf_to_png(pdf: bytes, *, px: tuple[int, int] | None = None, dpi: float | None = None,
               page_index: int = 0, encode: bool = True, transparent: bool = False,
               compress_level: int = 6, unfiltered: bool = False) -> bytes:
    """Render page ``page_index`` of ``pdf`` to an RGB PNG (RGBA, unpainted areas clear, with
    ``transparent`` and ``dpi``).

    With ``px`` = (width, height) the page is scaled to fill exactly that many pixels (pdfium's
    own scale-based sizing can round up a pixel) and the PNG records the page's px/in as its
    resolution; with ``encode`` False the raw RGB bytes (width x height x 3) come back instead.
    With ``dpi`` the page is rendered at that resolution (a preview; no resolution recorded).
    ``compress_level`` is zlib's, 0-9: 1 encodes in about 60 % of the time of the default 6
    for files about 7 % larger, the same pixels either way. ``unfiltered`` (with ``dpi``)
    writes the rows as they are (:func:`unfiltered_png`): for pages of flat colour and text,
    such as contact sheets, a third of the time at about the same size.
    """
    if px is None:
        if dpi is None:
            raise ValueError("give px or dpi")
        return _at_dpi(pdf, dpi, page_index, transparent, compress_level, unfiltered)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return _page_at_px(doc, page_index, px, encode, compress_level)
    finally:
        doc.close()


def _page_at_px(doc, page_index: int, px: tuple[int, int], encode: bool, compress_level: int) -> bytes:
    """Page ``page_index`` of the open pdfium document ``doc`` scaled to fill ``px`` = (width,
    height) pixels on white: a PNG recording the page's px/in (``encode``), else the raw RGB
    bytes (:func:`pdf_to_png`)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from PIL import Image

    page = doc[page_index]
    try:
        w, h = px
        bitmap = pdfium.PdfBitmap.new_native(w, h, raw.FPDFBitmap_BGR, rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
        raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, raw.FPDF_ANNOT | raw.FPDF_REVERSE_BYTE_ORDER)
        resolution = round(w / (page.get_width() / 72.0), 3)
    finally:
        page.close()
    if not encode:  # frombytes copies the pixels out of the bitmap, which is freed with it
        return Image.frombytes("RGB", (w, h), bitmap.buffer, "raw", "RGB", bitmap.stride).tobytes()
    return _smaller_png(bitmap.buffer, w, h, stride=bitmap.stride, compress_level=compress_level, dpi=resolution)


def render_page_rows(pdf: bytes, size: tuple[int, int], rows: bytearray | None = None) -> bytearray:
    """Page 0 of ``pdf`` scaled to fill ``size`` = (width, height) px, as PNG rows: for each
    row a filter byte 0 (none) and its RGB bytes (so ``height`` x (width x 3 + 1) bytes, what
    :func:`rows_png` deflates as they are). On white, or painted over ``rows`` (such bytes, as
    :func:`unfiltered_rows` gives them, changed in place), which show wherever the page paints
    nothing. pdfium draws straight into the rows: no second copy of the picture is made."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    width, height = size
    stride = width * 3 + 1
    if rows is None:
        rows = bytearray(b"\xff") * (stride * height)
        rows[::stride] = bytes(height)
    if len(rows) != stride * height:
        raise ValueError(f"{len(rows)} bytes are not {height} rows of {width} px")
    doc = pdfium.PdfDocument(pdf)
    try:
        view = (ctypes.c_ubyte * (len(rows) - 1)).from_buffer(rows, 1)  # each row after its filter byte
        bitmap = raw.FPDFBitmap_CreateEx(width, height, raw.FPDFBitmap_BGR, view, stride)
        page = doc[0]
        try:
            raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0,
                                      raw.FPDF_ANNOT | raw.FPDF_REVERSE_BYTE_ORDER)
        finally:
            page.close()
            raw.FPDFBitmap_Destroy(bitmap)
            del view
    finally:
        doc.close()
    return rows


def rows_png(rows: bytes | bytearray, width: int, height: int, compress_level: int = 1) -> bytes:
    """The RGB PNG of ``rows`` as :func:`render_page_rows` gives them, deflated at zlib's
    ``compress_level`` in one piece (the same bytes :func:`unfiltered_png` writes for the same
    pixels)."""
    return _png_file(width, height, zlib.compress(rows, compress_level))


def _png_file(width: int, height: int, deflated: bytes, alpha: bool = False, dpi: float | None = None) -> bytes:
    """A PNG of 8-bit RGB (RGBA with ``alpha``) rows, ``deflated`` its zlib stream (PNG
    specification, sections 5 and 11), with ``dpi`` px/in recorded as its resolution (a pHYs
    chunk in pixels per metre, rounded as Pillow rounds it) when given."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    density = b""
    if dpi is not None:
        per_metre = int(dpi / 0.0254 + 0.5)
        density = chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + density + chunk(b"IDAT", deflated)
            + chunk(b"IEND", b""))


def unfiltered_rows(png: bytes, size: tuple[int, int] | None = None) -> tuple[int, int, bytearray] | None:
    """The rows of a PNG :func:`rows_png` or :func:`unfiltered_png` wrote without alpha:
    (width, height, rows), ``rows`` being each row's filter byte (0) and then its RGB bytes,
    inflated into one buffer; None for any other PNG (another colour type or depth,
    interlaced, a row filtered, not ``size`` = (width, height) px when given: nothing is
    inflated then) or damaged bytes."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    at, header, data = 8, None, []
    try:
        while at + 8 <= len(png):
            length, kind = struct.unpack(">I4s", png[at:at + 8])
            if at + 12 + length > len(png):
                return None  # cut short
            body = memoryview(png)[at + 8:at + 8 + length]
            if kind == b"IHDR":
                header = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                data.append(body)
            elif kind == b"IEND":
                break
            at += 12 + length
        if header is None or header[2:] != (8, 2, 0, 0, 0) or (size is not None and header[:2] != tuple(size)):
            return None
        width, height = header[0], header[1]
        stride = width * 3 + 1
        rows, filled = bytearray(stride * height), 0
        inflate = zlib.decompressobj()
        for part in data:  # inflated a piece at a time into the one buffer
            while part:
                out = inflate.decompress(part, 1 << 22)
                if filled + len(out) > len(rows):
                    return None
                rows[filled:filled + len(out)] = out
                filled += len(out)
                part = inflate.unconsumed_tail
        out = inflate.flush()
        if not inflate.eof or filled + len(out) != len(rows):
            return None  # the stream ends early, or its checksum is wrong
        rows[filled:] = out
    except (struct.error, zlib.error):
        return None
    if rows[::stride].count(0) != height:
        return None
    return width, height, rows


EXPORT_COMPRESSION = 1
"""zlib level of the PNGs an export writes (print-shop card images, Tabletop Simulator
sheets): level 1 writes them in about 70 % of the time of Pillow's default 6, the pixels the
same. With the rows stored as :func:`png_bytes` chooses, the 134 images of Periodic Shed for
The Game Crafter take 9.0 MB (with the rows Pillow filters: 9.6 MB at this level, 8.0 MB at
level 6)."""


SAMPLE_ROWS = (8, 128)
"""How :func:`png_bytes` samples a tall image to choose between filtered and unfiltered rows:
a band of 8 rows every 128 rows (a sixteenth of the image)."""


def png_bytes(image, compress_level: int = 6, dpi: float | None = None) -> bytes:
    """``image`` (a Pillow image) as PNG bytes at zlib's ``compress_level``, recording ``dpi``
    px/in as its resolution when given.

    RGB and RGBA rows are stored either unfiltered (:func:`unfiltered_png`) or filtered as
    Pillow filters them, whichever stores the image in fewer bytes (:func:`_smaller_png`):
    unfiltered rows are the smaller and quicker for drawn pages of flat colour and text (the
    69 card images of a quarter of the four games' export for The Game Crafter at level 1:
    5.2 MB in 0.35 s unfiltered, 5.9 MB in 0.90 s filtered), filtered rows for photographs,
    gradients and soft alpha (a gradient: a tenth). Other modes are Pillow's. The pixels are
    the same either way, and the bytes are the same for the same image."""
    if image.mode not in ("RGB", "RGBA"):
        return _pillow_png(image, compress_level, dpi)
    width, height = image.size
    return _smaller_png(image.tobytes(), width, height, alpha=image.mode == "RGBA", compress_level=compress_level,
                        dpi=dpi, image=image)


def _smaller_png(pixels, width: int, height: int, *, stride: int | None = None, alpha: bool = False,
                 compress_level: int = 6, dpi: float | None = None, image=None) -> bytes:
    """The smaller PNG of ``height`` rows of ``width`` RGB (RGBA with ``alpha``) pixels read
    from ``pixels`` (any buffer, each row ``stride`` bytes after the last; :func:`unfiltered_png`):
    the rows unfiltered, or filtered as Pillow filters them (from ``image``, a Pillow image of
    the same pixels, or one made from them only then). An image taller than two sample strides
    is judged on a sample (:data:`SAMPLE_ROWS`) encoded both ways; a smaller one is encoded
    both ways and the smaller file kept (the unfiltered one when they tie). Nothing else is
    copied on the way to unfiltered rows, so a 6075 x 6075 px board (111 MB of pixels) is held
    once."""
    from PIL import Image

    mode = "RGBA" if alpha else "RGB"
    row = width * len(mode)
    stride = stride or row

    def whole():
        return image if image is not None else Image.frombytes(mode, (width, height), pixels, "raw", mode, stride)

    band, step = SAMPLE_ROWS
    if height <= 2 * step:
        plain = unfiltered_png(pixels, width, height, alpha=alpha, stride=stride, compress_level=compress_level, dpi=dpi)
        filtered = _pillow_png(whole(), compress_level, dpi)
        return filtered if len(filtered) < len(plain) else plain
    view = memoryview(pixels).cast("B")
    rows = [y for start in range(0, height, step) for y in range(start, min(start + band, height))]
    sample = b"".join(view[y * stride:y * stride + row] for y in rows)
    plain = unfiltered_png(sample, width, len(rows), alpha=alpha, compress_level=compress_level)
    if len(_pillow_png(Image.frombytes(mode, (width, len(rows)), sample), compress_level, None)) < len(plain):
        return _pillow_png(whole(), compress_level, dpi)
    return unfiltered_png(pixels, width, height, alpha=alpha, stride=stride, compress_level=compress_level, dpi=dpi)


def _pillow_png(image, compress_level: int, dpi: float | None) -> bytes:
    """``image`` as Pillow writes a PNG: each row filtered as Pillow chooses."""
    out = io.BytesIO()
    if dpi is None:
        image.save(out, format="PNG", compress_level=compress_level)
    else:
        image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=compress_level)
    return out.getvalue()


def _at_dpi(pdf: bytes, dpi: float, page_index: int, transparent: bool = False, compress_level: int = 6,
            unfiltered: bool = False) -> bytes:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    if unfiltered:  # straight from pdfium's pixels: RGB(A) in byte order, no copy through Pillow
        import pypdfium2.raw as raw

        try:
            bitmap = doc[page_index].render(scale=dpi / 72, rev_byteorder=True,
                                            fill_color=(255, 255, 255, 0 if transparent else 255),
                                            force_bitmap_format=raw.FPDFBitmap_BGRA if transparent else raw.FPDFBitmap_BGR)
            return unfiltered_png(bitmap.buffer, bitmap.width, bitmap.height, alpha=transparent,
                                  stride=bitmap.stride, compress_level=compress_level)
        finally:
            doc.close()
    if transparent:
        image = doc[page_index].render(scale=dpi / 72, fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
    else:
        image = doc[page_index].render(scale=dpi / 72).to_pil().convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=compress_level)
    doc.close()
    return out.getvalue()


def unfiltered_png(pixels, width: int, height: int, *, alpha: bool = False, stride: int | None = None,
                   compress_level: int = 1, dpi: float | None = None) -> bytes:
    """The PNG of ``height`` rows of ``width`` pixels, RGB (RGBA with ``alpha``) at 8 bits a
    channel, read from ``pixels`` (any buffer; each row starts ``stride`` bytes after the
    last, by default exactly one row), every row stored unfiltered (filter type 0, PNG
    specification section 9) and deflated at zlib's ``compress_level``, with ``dpi`` px/in
    recorded as its resolution when given.

    Pillow always tries the four filters on every row and keeps the best, which costs more
    than the deflating itself; on flat colour and text that search gains nothing (a 2630 x
    4960 px contact sheet: 1.78 MB unfiltered at level 1 in 0.09 s, 1.83 MB in 0.26 s as
    Pillow writes it). Decodes to the same pixels."""
    row = width * (4 if alpha else 3)
    stride = stride or row
    view = memoryview(pixels).cast("B")
    if len(view) < stride * (height - 1) + row:
        raise ValueError(f"{len(view)} bytes of pixels are too few for {height} rows of {width}")
    deflate = zlib.compressobj(compress_level)
    parts = []
    for y in range(height):
        parts.append(deflate.compress(b"\0"))
        parts.append(deflate.compress(view[y * stride:y * stride + row]))
    parts.append(deflate.flush())
    return _png_file(width, height, b"".join(parts), alpha, dpi)


def _pages_job(job: tuple[bytes, list[tuple[int, tuple[int, int]]], bool, int]) -> list[bytes]:
    import pypdfium2 as pdfium

    pdf, pages, encode, level = job
    doc = pdfium.PdfDocument(pdf)
    try:
        return [_page_at_px(doc, index, px, encode, level) for index, px in pages]
    finally:
        doc.close()


def rasterise_pages(pdf: bytes, pages: list[tuple[int, tuple[int, int]]], workers: int, encode: bool = True,
                    label: str = "rasterising", compress_level: int = EXPORT_COMPRESSION) -> list[bytes]:
    """Pages of one PDF, each (page index, (width, height) px), rendered as :func:`pdf_to_png`
    renders one (PNGs at ``compress_level``, or raw RGB without ``encode``), in order. The
    document is opened once per run of pages: the pages are cut into runs, a few per worker,
    rendered in ``workers`` processes when there are at least POOL_MIN_JOBS pages and two per
    worker, else here. The bytes are the same either way. Progress is the step ``label``, one
    unit per page."""
    if not pages:
        return []
    workers = max(1, workers)
    pooled = len(pages) >= max(POOL_MIN_JOBS, 2 * workers) and workers > 1
    runs = workers * 4 if pooled else 1
    size = -(-len(pages) // runs)
    jobs = [(pdf, pages[i:i + size], encode, compress_level) for i in range(0, len(pages), size)]
    with step(label, len(pages)) as done:
        parts = map_ordered(_pages_job, jobs, workers if pooled else 1, step=_RunSteps(done, [len(j[1]) for j in jobs]))
    return [image for part in parts for image in part]


class _RunSteps:
    """A progress step advanced a run of pages at a time, as :func:`map_ordered` advances its
    step once a result (and sets ``done`` to 0 when it starts again in this process)."""

    def __init__(self, progress, sizes: list[int]):
        self._progress, self._sizes, self._next = progress, sizes, 0

    def advance(self) -> None:
        self._progress.advance(self._sizes[self._next])
        self._next += 1

    @property
    def done(self) -> int:
        return self._progress.done

    @done.setter
    def done(self, value: int) -> None:
        self._progress.done, self._next = value, 0


POOL_MIN_JOBS = 12
"""Fewer rasters than this are rendered in this process (starting workers costs more)."""


def _raster_job(job: tuple[bytes, tuple[int, int], bool, int]) -> bytes:
    pdf, px, encode, level = job
    return pdf_to_png(pdf, px=px, encode=encode, compress_level=level)


def rasterise_all(jobs: list[tuple[bytes, tuple[int, int]]], workers: int, encode: bool = True,
                  label: str = "rasterising", compress_level: int = EXPORT_COMPRESSION) -> list[bytes]:
    """Every (pdf, px) job through :func:`pdf_to_png` (PNGs at ``compress_level``), in order:
    in ``workers`` processes when there are at least POOL_MIN_JOBS jobs and two per worker,
    else in this process. The bytes are the same either way (each job is a pure function of
    its PDF and size). Progress is the step ``label``, one unit per image."""
    with step(label, len(jobs)) as done:
        return map_ordered(_raster_job, [(pdf, px, encode, compress_level) for pdf, px in jobs], workers,
                           min_items=max(POOL_MIN_JOBS, 2 * workers),
                           chunksize=max(1, len(jobs) // (max(workers, 1) * 4)), step=done)
