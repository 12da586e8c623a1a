"""Walking a real PDF the way a print shop's preflight does, with pikepdf: every font every page
uses, and whether it is embedded.

Every page is walked with everything it draws through, recursively: its resources, the form
XObjects it places (and theirs), tiling patterns, the transparency groups of soft masks, the
glyph procedures of Type 3 fonts and annotation appearances. Objects reached twice are walked
once.

What counts as embedded:

- a Type 0 font: its descendant font's FontDescriptor holds a non-empty FontFile, FontFile2 or
  FontFile3;
- a Type 1, MMType1 or TrueType font: its own FontDescriptor does (a standard-14 font named
  without a descriptor, such as /Helvetica, is not embedded: the viewer substitutes it);
- a Type 3 font: its glyphs are content streams inside the file, so it needs nothing from the
  viewer. It counts as embedded when its /CharProcs holds at least one glyph procedure and
  every font those procedures use (through the Type 3 font's own /Resources) is embedded
  in turn; a Type 3 font whose glyphs draw text in, say, Helvetica is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pikepdf

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(frozen=True)
class FontUse:
    """One font resource: the page (1-based) it was reached from, the path of resource names
    leading to it (``/Fm0 /F2``), its BaseFont and Subtype, and whether it is embedded."""

    page: int
    path: str
    base_font: str
    subtype: str
    embedded: bool


def _has_file(descriptor) -> bool:
    if descriptor is None:
        return False
    for key in FONT_FILES:
        stream = descriptor.get(key)
        if stream is not None and len(stream.read_raw_bytes()) > 0:
            return True
    return False


def font_embedded(font, seen: set | None = None) -> bool:
    """Whether ``font`` (a font dictionary) is embedded, as the module docstring decides."""
    subtype = str(font.get("/Subtype"))
    if subtype == "/Type0":
        return all(_has_file(d.get("/FontDescriptor")) for d in font.DescendantFonts)
    if subtype == "/Type3":
        procs = font.get("/CharProcs")
        if procs is None or len(procs.keys()) == 0:
            return False
        inner: list[FontUse] = []
        _walk_resources(font.get("/Resources"), 0, "", inner, seen if seen is not None else set())
        return all(u.embedded for u in inner)
    return _has_file(font.get("/FontDescriptor"))


def _walk_resources(res, page: int, path: str, out: list[FontUse], seen: set) -> None:
    if res is None:
        return
    for name, font in (res.get("/Font") or {}).items():
        key = ("font", font.objgen)
        if font.objgen != (0, 0) and key in seen:
            continue
        seen.add(key)
        out.append(FontUse(page, f"{path} {name}".strip(), str(font.get("/BaseFont", "")),
                           str(font.get("/Subtype")), font_embedded(font, seen)))
    for name, xobject in (res.get("/XObject") or {}).items():
        if xobject.get("/Subtype") == "/Form":
            _walk_holder(xobject, page, f"{path} {name}".strip(), out, seen)
    for name, pattern in (res.get("/Pattern") or {}).items():
        if pattern.get("/PatternType") == 1:
            _walk_holder(pattern, page, f"{path} {name}".strip(), out, seen)
    for name, state in (res.get("/ExtGState") or {}).items():
        mask = state.get("/SMask")
        if isinstance(mask, pikepdf.Dictionary) and "/G" in mask:
            _walk_holder(mask.G, page, f"{path} {name}".strip(), out, seen)


def _walk_holder(holder, page: int, path: str, out: list[FontUse], seen: set) -> None:
    key = ("holder", holder.objgen)
    if holder.objgen != (0, 0) and key in seen:
        return
    seen.add(key)
    _walk_resources(holder.get("/Resources"), page, path, out, seen)


def fonts(pdf_path: Path) -> list[FontUse]:
    """Every font resource of every page of the PDF at ``pdf_path``, each once."""
    out: list[FontUse] = []
    seen: set = set()
    with pikepdf.open(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages, start=1):
            _walk_resources(page.resources, i, "", out, seen)  # inherited from the page tree too
            for annot in page.obj.get("/Annots") or []:
                appearance = (annot.get("/AP") or {}).get("/N")
                if isinstance(appearance, pikepdf.Stream):
                    _walk_holder(appearance, i, "/Annots", out, seen)
                elif isinstance(appearance, pikepdf.Dictionary):
                    for state in appearance.values():
                        _walk_holder(state, i, "/Annots", out, seen)
    return out


def unembedded(pdf_path: Path) -> list[str]:
    """``file page path BaseFont (Subtype)`` for every font of the PDF that is not embedded."""
    return [f"{pdf_path.name} p{u.page} {u.path} {u.base_font} ({u.subtype})"
            for u in fonts(pdf_path) if not u.embedded]
