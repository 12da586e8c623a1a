"""Walking a real PDF the way a print shop's preflight does, with pikepdf: every font every page
uses and whether it is embedded, and every use of RGB colour.

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


# --------------------------------------------------------------------------------------------
# colour spaces

DEVICE = {"/DeviceRGB": True, "/RGB": True, "/CalRGB": True, "/DeviceCMYK": False, "/CMYK": False,
          "/DeviceGray": False, "/G": False, "/Pattern": False}
"""Colour space names (inline images use the short ones) and whether each is RGB."""


def rgb_space(space, resources=None) -> bool:
    """Whether a colour space (a name, a resource name looked up in ``resources``, or an array)
    is RGB or built on RGB: DeviceRGB, CalRGB, an ICC profile of 3 components, and Indexed,
    Separation, DeviceN or Pattern spaces whose base or alternate is one of those."""
    if space is None:
        return False
    if isinstance(space, pikepdf.Name):
        name = str(space)
        if name in DEVICE:
            return DEVICE[name]
        named = ((resources or {}).get("/ColorSpace") or {}).get(name)
        return named is not None and rgb_space(named, resources)
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family == "/CalRGB":
            return True
        if family == "/ICCBased":
            return int(space[1].get("/N", 0)) == 3
        if family in ("/Indexed", "/I", "/Pattern"):
            return len(space) > 1 and rgb_space(space[1], resources)
        if family in ("/Separation", "/DeviceN"):
            return rgb_space(space[2], resources)
        return len(space) == 1 and rgb_space(space[0], resources)
    return False


class _Colours:
    def __init__(self, name: str):
        self.name = name
        self.found: list[str] = []
        self.seen: set = set()

    def note(self, page: int, path: str, what: str) -> None:
        self.found.append(f"{self.name} p{page} {path}: {what}".replace("  ", " "))

    def holder(self, holder, page: int, path: str, inherited=None) -> None:
        """A page, form XObject, tiling pattern or glyph: its group, resources and content."""
        key = holder.objgen
        if key != (0, 0):
            if key in self.seen:
                return
            self.seen.add(key)
        group = holder.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and rgb_space(group.get("/CS")):
            self.note(page, path, "transparency group in RGB")
        resources = holder.get("/Resources", inherited)
        self.resources(resources, page, path)
        if isinstance(holder, pikepdf.Stream) or "/Contents" in holder:
            self.content(holder, resources, page, path)

    def resources(self, res, page: int, path: str) -> None:
        if res is None:
            return
        for name, space in (res.get("/ColorSpace") or {}).items():
            if rgb_space(space, res):
                self.note(page, f"{path} {name}", "RGB colour space resource")
        for name, shading in (res.get("/Shading") or {}).items():
            if rgb_space(shading.get("/ColorSpace"), res):
                self.note(page, f"{path} {name}", "RGB shading")
        for name, pattern in (res.get("/Pattern") or {}).items():
            if pattern.get("/PatternType") == 2:
                if rgb_space(pattern.Shading.get("/ColorSpace"), res):
                    self.note(page, f"{path} {name}", "RGB shading pattern")
            else:
                self.holder(pattern, page, f"{path} {name}")
        for name, xobject in (res.get("/XObject") or {}).items():
            if xobject.get("/Subtype") == "/Form":
                self.holder(xobject, page, f"{path} {name}")
            elif xobject.get("/Subtype") == "/Image":
                for part, image in (("", xobject), (" soft mask", xobject.get("/SMask"))):
                    if isinstance(image, pikepdf.Stream) and rgb_space(image.get("/ColorSpace"), res):
                        self.note(page, f"{path} {name}{part}", "RGB image")
        for name, state in (res.get("/ExtGState") or {}).items():
            mask = state.get("/SMask")
            if isinstance(mask, pikepdf.Dictionary) and "/G" in mask:
                self.holder(mask.G, page, f"{path} {name}")
        for name, font in (res.get("/Font") or {}).items():
            if font.get("/Subtype") == "/Type3":
                inner = font.get("/Resources", res)
                self.resources(inner, page, f"{path} {name}")
                for glyph, proc in (font.get("/CharProcs") or {}).items():
                    self.content(proc, inner, page, f"{path} {name} {glyph}")

    def content(self, stream, res, page: int, path: str) -> None:
        """Colour operators, with the current fill and stroke colour spaces tracked through q/Q."""
        fill = stroke = pikepdf.Name("/DeviceGray")
        stack = []
        for operands, op in pikepdf.parse_content_stream(stream):
            name = str(op)
            if name == "q":
                stack.append((fill, stroke))
            elif name == "Q" and stack:
                fill, stroke = stack.pop()
            elif name in ("rg", "RG"):
                self.note(page, path, f"{name} operator {[float(v) for v in operands]}")
            elif name in ("g", "k"):
                fill = pikepdf.Name("/DeviceGray" if name == "g" else "/DeviceCMYK")
            elif name in ("G", "K"):
                stroke = pikepdf.Name("/DeviceGray" if name == "G" else "/DeviceCMYK")
            elif name in ("cs", "CS"):
                if rgb_space(operands[0], res):
                    self.note(page, path, f"{name} {operands[0]} (RGB)")
                if name == "cs":
                    fill = operands[0]
                else:
                    stroke = operands[0]
            elif name in ("sc", "scn", "SC", "SCN"):
                if rgb_space(fill if name in ("sc", "scn") else stroke, res):
                    self.note(page, path, f"{name} in an RGB colour space")
            elif name == "INLINE IMAGE":
                info = operands[0].obj
                if rgb_space(info.get("/ColorSpace"), res):
                    self.note(page, path, "RGB inline image")


def rgb_uses(pdf_path: Path) -> list[str]:
    """Every use of RGB anywhere in the PDF at ``pdf_path`` (``file pN path: what``): colour
    operators (rg/RG, and sc/scn/SC/SCN in an RGB space), RGB colour spaces (set with cs/CS or
    kept as resources), images and inline images, shadings and shading patterns, transparency
    groups, on every page and inside every form XObject, tiling pattern, soft mask, Type 3
    glyph and annotation appearance, recursively."""
    walk = _Colours(pdf_path.name)
    with pikepdf.open(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages, start=1):
            walk.holder(page.obj, i, "", page.resources)
            for annot in page.obj.get("/Annots") or []:
                appearance = (annot.get("/AP") or {}).get("/N")
                states = [appearance] if isinstance(appearance, pikepdf.Stream) else \
                    list(appearance.values()) if isinstance(appearance, pikepdf.Dictionary) else []
                for state in states:
                    walk.holder(state, i, "/Annots")
    return walk.found
