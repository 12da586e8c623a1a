"""Saddle-stitch booklet imposition of a PDF: its pages in reading order onto 2-up landscape
sheets, in the order :mod:`pnp.geometry.booklet` gives."""

from __future__ import annotations

import io

from ...core.errors import BuildError
from ...core.units import Size
from ...geometry.booklet import booklet_sides, placement
from ...render.canvas import pdf_date, viewer_preferences


def impose_booklet(pdf: bytes, sheet: Size, *, back: int = 0, title: str = "", creator: str = "") -> bytes:
    """Impose a PDF whose pages are in reading order onto 2-up landscape booklet sheets.

    ``pdf``: the source document (every page the same size, normally half of ``sheet``);
    ``sheet``: the landscape sheet size in pt; ``back``: how many of its last pages are the back
    cover (0: none; the padding blanks go before them, else at the end). Returns the imposed
    PDF: one page per printed side (front, back, front, ...), blank halves left empty,
    ``/ViewerPreferences`` with PrintScaling None and Duplex DuplexFlipShortEdge (the sheets
    are landscape; docs/print-specs.md §4), and the creation date of every pnp PDF. Each page
    becomes a Form XObject named ``/PageN`` (pikepdf's ``as_form_xobject``: its content and
    resources as they are, no rasterising, so embedded fonts stay embedded), fitted to its half
    of the sheet. Same input, same bytes: the date is :func:`pnp.render.canvas.pdf_date`, never
    the clock, and the document ID is a digest of the file's content (pikepdf's
    ``deterministic_id``).

    Raises BuildError when the source has no pages or pages of different sizes.
    """
    import pikepdf

    source = pikepdf.open(io.BytesIO(pdf))
    pages = list(source.pages)
    if not pages:
        raise BuildError("the document to impose has no pages",
                         rule="rulebook.layout")
    sizes = {(round(float(p.mediabox[2] - p.mediabox[0]), 2), round(float(p.mediabox[3] - p.mediabox[1]), 2))
             for p in pages}
    if len(sizes) != 1:
        raise BuildError("booklet pages must all be one size; the document has "
                         + ", ".join(f"{w:g} x {h:g} pt" for w, h in sorted(sizes)),
                         rule="rulebook.layout")
    pw, ph = sizes.pop()
    page_size = Size(pw, ph)
    out = pikepdf.new()
    for side in booklet_sides(len(pages), back):
        target = out.add_blank_page(page_size=(sheet.width, sheet.height))
        content = []
        for half, number in (("left", side.left), ("right", side.right)):
            if number is None:
                continue
            scale, x, y = placement(page_size, sheet, half)
            src = pages[number - 1]
            ox, oy = float(src.mediabox[0]), float(src.mediabox[1])
            # the page as a Form XObject (content and resources as they are), drawn with the
            # matrix placement() gives: the geometry stays ours, to the last digit
            form = out.copy_foreign(src.as_form_xobject())
            name = target.add_resource(form, pikepdf.Name.XObject, pikepdf.Name(f"/Page{number}"))
            content.append(f"q {scale:.6f} 0 0 {scale:.6f} {x - ox * scale:.4f} {y - oy * scale:.4f} cm "
                           f"{name} Do Q")
        target.Contents = out.make_stream(("\n".join(content) + "\n").encode("ascii"))
    out.Root.ViewerPreferences = pikepdf.Dictionary({f"/{key}": pikepdf.Name(f"/{value}")
                                                     for key, value in viewer_preferences("DuplexFlipShortEdge").items()})
    date = pdf_date()
    out.docinfo = out.make_indirect(pikepdf.Dictionary(Title=title, Creator=creator, Producer=creator,
                                                       CreationDate=date, ModDate=date))
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue()
