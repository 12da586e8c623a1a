"""Saddle-stitch booklet imposition of a PDF: its pages in reading order onto 2-up landscape
sheets, in the order :mod:`pnp.geometry.booklet` gives."""

from __future__ import annotations

import io
from typing import Any

from ...core.errors import BuildError
from ...core.units import Size
from ...geometry.booklet import booklet_sides, placement


def impose_booklet(pdf: bytes, sheet: Size, *, title: str = "", creator: str = "") -> bytes:
    """Impose a PDF whose pages are in reading order onto 2-up landscape booklet sheets.

    ``pdf``: the source document (every page the same size, normally half of ``sheet``);
    ``sheet``: the landscape sheet size in pt. Returns the imposed PDF: one page per printed
    side (front, back, front, ...), blank halves left empty, ``/ViewerPreferences`` with
    PrintScaling None and Duplex DuplexFlipShortEdge. Pages are placed as vector content (no
    rasterising), so embedded fonts stay embedded. Same input, same bytes.

    Raises BuildError when the source has no pages or pages of different sizes.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject,
                               NameObject, NumberObject)

    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    if not pages:
        raise BuildError("the document to impose has no pages")
    sizes = {(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2)) for p in pages}
    if len(sizes) != 1:
        raise BuildError("booklet pages must all be one size; the document has "
                         + ", ".join(f"{w:g} x {h:g} pt" for w, h in sorted(sizes)))
    pw, ph = sizes.pop()
    page_size = Size(pw, ph)
    writer = PdfWriter()
    forms: dict[int, Any] = {}

    def form(number: int):
        # Each source page becomes one Form XObject (its content stream and resources copied
        # as they are, no re-parsing), placed on the sheet with a transformation matrix.
        if number not in forms:
            src = pages[number - 1]
            box = src.mediabox
            stream = DecodedStreamObject()
            stream.set_data(src.get_contents().get_data() if src.get_contents() is not None else b"")
            stream.update({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/FormType"): NumberObject(1),
                NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in
                                                  (box.left, box.bottom, box.right, box.top)]),
                NameObject("/Resources"): src["/Resources"].clone(writer) if "/Resources" in src
                else DictionaryObject(),
            })
            forms[number] = writer._add_object(stream.flate_encode())
        return forms[number]

    for side in booklet_sides(len(pages)):
        target = writer.add_blank_page(width=sheet.width, height=sheet.height)
        xobjects = DictionaryObject()
        ops = []
        for half, number in (("left", side.left), ("right", side.right)):
            if number is None:
                continue
            src = pages[number - 1]
            scale, x, y = placement(page_size, sheet, half)
            ox, oy = float(src.mediabox.left), float(src.mediabox.bottom)
            name = f"/Page{number}"
            xobjects[NameObject(name)] = form(number)
            ops.append(f"q {scale:.6f} 0 0 {scale:.6f} {x - ox * scale:.4f} {y - oy * scale:.4f} cm "
                       f"{name} Do Q")
        content = DecodedStreamObject()
        content.set_data(("\n".join(ops) + "\n").encode("ascii"))
        target[NameObject("/Contents")] = writer._add_object(content.flate_encode())
        target[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    prefs = writer.create_viewer_preferences()
    prefs.print_scaling = "/None"
    prefs.duplex = "/DuplexFlipShortEdge"
    writer.add_metadata({"/Title": title, "/Creator": creator, "/Producer": creator})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
