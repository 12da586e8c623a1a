"""Preflight of the drawn export pages: text inside a profile's safe zone, measured with
pdfium's glyph boxes, and RGB left in a CMYK file."""

from __future__ import annotations

from ...core.findings import Finding
from ...core.units import to_mm
from .profiles import Profile


def safe_zone_findings(pdf: bytes, labels: list[str], safe: float, profile: Profile) -> list[Finding]:
    """Text glyphs closer than ``safe`` pt to the TrimBox edge (or outside it), measured on
    every page of ``pdf`` with pdfium's glyph boxes. ``labels[i]`` names the card on page i (its
    :attr:`~pnp.model.pieces.Piece.card_key`): one finding per card, its copies are one
    (print-specs.md §8 check 21)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out: list[Finding] = []
    if safe <= 0:
        return out
    doc = pdfium.PdfDocument(pdf)
    seen = set()
    try:
        for i, label in enumerate(labels):
            if label in seen:
                continue
            page = doc[i]
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
                out.append(Finding(
                    "warning", "preflight.safe-zone", label,
                    f"text {line!r} lies {where}, inside the {profile.name} safe zone of "
                    f"{to_mm(safe):.3g} mm",
                    source=f"{profile.title}: safe zone (print-specs.md §2)",
                    hint="move the text inward, or give the layout a larger safe_zone"))
    finally:
        doc.close()
    return out


def _line_at(text: str, index: int, limit: int = 48) -> str:
    """The line of ``text`` holding character ``index`` (pdfium's text, one char per index)."""
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    ends = [e for e in (text.find("\n", index), text.find("\r", index)) if e != -1]
    line = text[start:min(ends) if ends else len(text)].strip()
    return line if len(line) <= limit else line[:limit - 1] + "…"


def rgb_check(pdf: bytes, name: str, profile: Profile) -> list[Finding]:
    """A CMYK file must hold no RGB colour space (print-specs.md §8 check 23)."""
    if b"/DeviceRGB" in pdf:
        return [Finding("error", "preflight.rgb-in-cmyk", name, f"{name} holds an RGB colour space, which "
                        f"the {profile.name} profile does not allow",
                        hint="report this: every colour should have been converted to CMYK")]
    return []


def safe_zone_many(items: list[tuple[bytes, str]], profile: Profile) -> list[Finding]:
    """Safe-zone findings of many one-card PDFs, (pdf, card key) each; one finding per card."""
    out: list[Finding] = []
    seen: set[str] = set()
    for pdf, key in items:
        if key in seen:
            continue
        found = safe_zone_findings(pdf, [key], profile.safe_zone, profile)
        if found:
            seen.add(key)
            out += found
    return out
