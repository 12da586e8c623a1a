"""Preflight of the drawn export pages: text inside a profile's safe zone, measured with
pdfium's glyph boxes, and RGB left in a CMYK file, found by walking every object the pages use
with pikepdf."""

from __future__ import annotations

import io

from ...core.errors import BuildError, Location
from ...core.findings import Finding
from ...core.units import to_mm
from ...design.layouts import LayoutSet
from .profiles import Profile


Places = dict[str, tuple[Location, str]]
"""Card key -> (where the piece is written, its component id): a board's table in game.toml,
a token's row, for findings about its drawing."""


def row_places(pieces) -> Places:
    """Where each of ``pieces`` (:class:`~pnp.model.pieces.Piece`) drawn from a table row is
    written: its row (file and line) and component, by card key, for :func:`safe_zone_findings`.
    A piece without a row (a deck back, a component without a table) is left out; its finding
    names the piece alone."""
    return {piece.card_key: (piece.row.location(), piece.component) for piece in pieces if piece.row is not None}


def bleed_findings(layouts: LayoutSet, profile: Profile) -> list[Finding]:
    """A ``preflight.bleed-short`` warning when the card layouts' ``bleed`` (how far their
    background and ``area = "bleed"`` boxes run past the trim) is less than the bleed of
    ``profile``'s files: past it, to the edge of every page, is blank paper, which a cut
    within the print shop's tolerance shows. Nothing for a Tabletop Simulator export (its
    images are the trim alone), nor for layouts that paint nothing past the trim (no
    background but ``none``, no ``area = "bleed"`` box). The finding is at the layouts'
    ``bleed``."""
    need = profile.bleed
    short = need - layouts.bleed
    if profile.output == "tts" or short <= 1e-6:
        return []
    if not any(layout.background not in (None, "none") or any(box.area == "bleed" for box in layout.boxes)
               for layout in layouts.layouts.values()):
        return []
    default = "" if need > LayoutSet.bleed + 1e-6 else " (the default, 1/8 in, is enough for every bundled target)"
    return [Finding.at(
        "warning", "preflight.bleed-short", layouts.location("bleed"),
        f"the layouts' bleed is {_mm(layouts.bleed)} mm and {profile.title}'s files have {_mm(need)} mm: "
        f"the outer {_mm(short)} mm of every page past the art is blank paper",
        hint=f"set bleed to at least {_mm(need)} mm in the layouts file{default} and make the bleed art that large")]


def _mm(length: float) -> str:
    """``length`` (pt) in mm, to the thousandth, without trailing zeros: 1/8 in is 3.175."""
    return f"{round(to_mm(length), 3):g}"


def safe_zone_findings(pdf: bytes, labels: list[str], safe: float, profile: Profile,
                       places: Places | None = None, pages: list[int] | None = None) -> list[Finding]:
    """Text glyphs closer than ``safe`` pt to the TrimBox edge (or outside it), measured on
    every page of ``pdf`` with pdfium's glyph boxes. ``labels[i]`` names the card on page i (its
    :attr:`~pnp.model.pieces.Piece.card_key`; with ``pages``, on page ``pages[i]``, and other
    pages are not measured): one finding per card, its copies are one (docs/print-specs.md §8
    check 21). A label in ``places`` is found at its place (file, line), naming the piece and
    its component."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out: list[Finding] = []
    if safe <= 0 or not labels:
        return out
    doc = pdfium.PdfDocument(pdf)
    seen = set()
    try:
        for i, label in enumerate(labels):
            if label in seen:
                continue
            page = doc[i if pages is None else pages[i]]
            tl, tb, tr, tt = page.get_trimbox()
            text = page.get_textpage()
            worst = None
            worst_at = 0
            for j in range(text.count_chars()):
                if raw.FPDFText_IsGenerated(text, j) == 1:
                    continue
                ch = chr(raw.FPDFText_GetUnicode(text, j) or 32)
                if ch.isspace():
                    continue
                left, bottom, right, top = text.get_charbox(j)
                if right - left <= 0 or top - bottom <= 0:
                    continue
                dist = min(left - tl, bottom - tb, tr - right, tt - top)
                if dist < safe - 0.05 and (worst is None or dist < worst):
                    worst, worst_at = dist, j
            if worst is not None:
                line = _line_at(text.get_text_range(), worst_at)
            text.close()
            page.close()
            if worst is not None:
                seen.add(label)
                where = "outside the trim" if worst < 0 else f"{to_mm(worst):.2f} mm from the trim"
                message = f"text {line!r} lies {where}, inside the {profile.name} safe zone of {to_mm(safe):.3g} mm"
                source = f"{profile.title}: safe zone (docs/print-specs.md §2)"
                hint = "move the text inward, or give the layout a larger safe_zone"
                place = (places or {}).get(label)
                if place is not None:
                    out.append(Finding.at("warning", "preflight.safe-zone", place[0], message, source=source,
                                          hint=hint, component=place[1], piece=label))
                else:
                    out.append(Finding("warning", "preflight.safe-zone", label, message, source=source, hint=hint))
    finally:
        doc.close()
    return out


def _line_at(text: str, index: int, limit: int = 48) -> str:
    """The line of ``text`` holding character ``index`` (pdfium's text, one char per index)."""
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    ends = [e for e in (text.find("\n", index), text.find("\r", index)) if e != -1]
    line = text[start:min(ends) if ends else len(text)].strip()
    return line if len(line) <= limit else line[:limit - 1] + "…"


RGB_SPACES = ("/DeviceRGB", "/CalRGB", "/RGB")
"""Colour space names that are RGB (``/RGB`` is an inline image's abbreviation)."""


def rgb_uses(pdf: bytes) -> list[tuple[int, str]]:
    """(page index, what) for every RGB colour a CMYK file would hold (docs/print-specs.md §8 check
    23): ``rg``/``RG`` and three-component ``sc``/``scn`` operators, RGB colour spaces set with
    ``cs``/``CS`` or kept as resources (DeviceRGB, CalRGB, three-channel ICC profiles, and
    Indexed, Separation, DeviceN or Pattern spaces built on them), images and inline images,
    shadings and shading patterns, and transparency groups, on every page and inside every
    form XObject, tiling pattern, soft mask and Type 3 glyph it uses, however deep."""
    import pikepdf

    out: list[tuple[int, str]] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for i, page in enumerate(doc.pages):
            found: list[str] = []
            _walk(page.obj, found, set())
            out += [(i, what) for what in dict.fromkeys(found)]
    return out


def _is_rgb(space) -> bool:
    import pikepdf

    if isinstance(space, pikepdf.Name):
        return str(space) in RGB_SPACES
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family == "/CalRGB":
            return True
        if family == "/ICCBased":
            return int(space[1].get("/N", 0)) == 3
        if family in ("/Indexed", "/Pattern") and len(space) > 1:
            return _is_rgb(space[1])
        if family in ("/Separation", "/DeviceN") and len(space) > 2:
            return _is_rgb(space[2])
    return False


def _walk(holder, found: list[str], seen: set) -> None:
    """RGB in a page or form (its transparency group, resources and content stream)."""
    import pikepdf

    key = holder.objgen
    if key != (0, 0):
        if key in seen:
            return
        seen.add(key)
    group = holder.get("/Group")
    if group is not None and _is_rgb(group.get("/CS")):
        found.append("an RGB transparency group")
    resources = holder.get("/Resources")
    if resources is not None:
        _walk_resources(resources, found, seen)
    if isinstance(holder, pikepdf.Stream) or "/Contents" in holder:
        _walk_content(holder, found)


def _walk_resources(res, found: list[str], seen: set) -> None:
    import pikepdf

    for name, space in (res.get("/ColorSpace") or {}).items():
        if _is_rgb(space):
            found.append(f"the RGB colour space {name}")
    for name, shading in (res.get("/Shading") or {}).items():
        if _is_rgb(shading.get("/ColorSpace")):
            found.append(f"an RGB shading {name}")
    for name, pattern in (res.get("/Pattern") or {}).items():
        if pattern.get("/PatternType") == 2:
            if _is_rgb(pattern.Shading.get("/ColorSpace")):
                found.append(f"an RGB shading pattern {name}")
        else:
            _walk(pattern, found, seen)
    for name, xobject in (res.get("/XObject") or {}).items():
        if xobject.get("/Subtype") == "/Form":
            _walk(xobject, found, seen)
        elif xobject.get("/Subtype") == "/Image":
            for image in (xobject, xobject.get("/SMask")):
                if image is not None and _is_rgb(image.get("/ColorSpace")):
                    found.append(f"an RGB image {name}")
    for state in (res.get("/ExtGState") or {}).values():
        mask = state.get("/SMask")
        if isinstance(mask, pikepdf.Dictionary) and "/G" in mask:
            _walk(mask.G, found, seen)
    for font in (res.get("/Font") or {}).values():
        if font.get("/Subtype") == "/Type3":
            if "/Resources" in font:
                _walk_resources(font.Resources, found, seen)
            for proc in (font.get("/CharProcs") or {}).values():
                _walk_content(proc, found)


def _walk_content(stream, found: list[str]) -> None:
    from decimal import Decimal

    import pikepdf

    for operands, op in pikepdf.parse_content_stream(stream):
        name = str(op)
        if name in ("rg", "RG"):
            found.append(f"the {name} operator")
        elif name in ("sc", "scn", "SC", "SCN") and \
                sum(isinstance(v, (int, float, Decimal)) for v in operands) == 3:
            found.append(f"a three-component {name} colour")
        elif name in ("cs", "CS") and operands and str(operands[0]) in RGB_SPACES:
            found.append(f"{operands[0]} set with {name}")
        elif name == "INLINE IMAGE" and _is_rgb(operands[0].obj.get("/ColorSpace")):
            found.append("an RGB inline image")


def rgb_refusal(files: list[tuple[str, list[tuple[int, str]], list[str]]], profile: Profile) -> BuildError:
    """The error that stops a CMYK export whose files would hold RGB: ``files`` lists
    (file name, :func:`rgb_uses` of it, the card key on each page). Its location is the first
    such file, as the export folder names it (``export/dtc/game-deck.pdf``)."""
    places = [f"{name} page {page + 1} ({labels[page]}): {what}"
              for name, uses, labels in files for page, what in uses]
    shown = "; ".join(places[:6]) + (f"; and {len(places) - 6} more" if len(places) > 6 else "")
    return BuildError(f"the {profile.name} export takes CMYK only, but would hold RGB colour: {shown}; "
                      "it writes no file", location=Location(f"export/{profile.name}/{files[0][0]}"),
                      hint="every colour should have been converted to CMYK: supply the art these cards "
                      "use in CMYK, and report the file", rule="export.color")


def safe_zone_pages(pdf: bytes, items: list[tuple[int, str]], profile: Profile,
                    places: Places | None = None) -> list[Finding]:
    """Safe-zone findings of pages of one PDF, (page index, card key) each; one finding per
    card, at its place in ``places`` when it has one (:func:`safe_zone_findings`)."""
    return safe_zone_findings(pdf, [key for _, key in items], profile.safe_zone, profile, places,
                              pages=[page for page, _ in items])
