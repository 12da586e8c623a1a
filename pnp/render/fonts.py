"""The fonts `pnp` draws with, registered with reportlab so that every PDF embeds a subset of
each face it uses, and what characters each face has.

The bundled faces and their files are :data:`pnp.design.fonts.FONT_FILES`; a game's own
families (``[fonts]`` in game.toml) are a :class:`pnp.design.fonts.FontSet`. A
:class:`FontBook` turns a font name and a style into its fallback chain of registered faces and
splits text into runs, each in the first face of the chain that has its characters; it caches
each chain, each split and each width, since text fitting measures the same words many times.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from ..core.errors import PnpError
from ..design.fonts import BUNDLED, FONT_FILES, FaceFile, FontSet, font_dir

__all__ = ["FONT_FILES", "FontBook", "font_dir", "glyphs", "missing", "open_face", "register"]

FALLBACK_FACE = "sans"
"""The face text is drawn in when its family has no face that opens (the family's files are
reported as ``font.file`` errors, which refuse the build)."""


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register font ``name`` (a key of FONT_FILES) with reportlab; returns the PDF font name.

    Raises PnpError for an unknown name, listing the known ones.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if name not in FONT_FILES:
        raise PnpError(f"unknown font {name!r}", hint="fonts: " + ", ".join(FONT_FILES), rule="layout.render")
    pdf_name = "pnp-" + name
    pdfmetrics.registerFont(TTFont(pdf_name, str(font_dir() / FONT_FILES[name])))
    return pdf_name


_OPENED: dict[tuple, tuple[str | None, str]] = {}


def open_face(face: FaceFile) -> tuple[str | None, str]:
    """Register a game's font file with reportlab (embedded and subset, as the bundled faces):
    (its PDF font name, "") or, for a file reportlab cannot embed (not a font, truncated,
    PostScript (CFF) outlines, a collection without that font, embedding not permitted), (None,
    what is wrong). The PDF name comes from the file's content, so one font is registered once
    whichever game or path names it. Cached per file, size and modification time."""
    try:
        stat = face.path.stat()
    except OSError as exc:
        return None, f"cannot read {face.written!r}: {exc.strerror or exc}"
    key = (str(face.path), face.index, stat.st_size, stat.st_mtime_ns)
    found = _OPENED.get(key)
    if found is not None:
        return found
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        data = face.path.read_bytes()
    except OSError as exc:
        found = (None, f"cannot read {face.written!r}: {exc.strerror or exc}")
    else:
        pdf_name = f"pnpf-{hashlib.sha256(data).hexdigest()[:12]}-{face.index}"
        try:
            pdfmetrics.getFont(pdf_name)
            found = (pdf_name, "")
        except KeyError:
            try:
                pdfmetrics.registerFont(TTFont(pdf_name, str(face.path), subfontIndex=face.index))
                found = (pdf_name, "")
            except Exception as exc:  # a damaged font raises whatever its parser meets
                found = (None, _font_problem(face, exc))
    _OPENED[key] = found
    return found


def _font_problem(face: FaceFile, exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if "postscript outlines" in text.lower():
        return (f"{face.written!r} has PostScript (CFF) outlines, which cannot be embedded as TrueType; "
                "use the TTF version of the font")
    if "embedding" in text.lower() or "restricted" in text.lower():
        return f"{face.written!r} does not permit embedding: {text}"
    return f"{face.written!r} is not a usable TrueType font ({text.splitlines()[0][:160]})"


@lru_cache(maxsize=None)
def face_glyphs(pdf_name: str) -> frozenset[int]:
    """Code points that the registered font ``pdf_name`` has a glyph for."""
    from reportlab.pdfbase import pdfmetrics

    return frozenset(pdfmetrics.getFont(pdf_name).face.charToGlyph)


@lru_cache(maxsize=None)
def glyphs(name: str) -> frozenset[int]:
    """Code points that font ``name`` (a key of FONT_FILES) has a glyph for."""
    return face_glyphs(register(name))


def missing(name: str, text: str) -> list[str]:
    """Characters of ``text`` (other than spaces and line breaks) that font ``name`` lacks, in order."""
    have = glyphs(name)
    out: list[str] = []
    for ch in text:
        if ch in " \n\t" or ord(ch) in have or ch in out:
            continue
        out.append(ch)
    return out


class FontBook:
    """The fonts of one game's drawings (``fonts``, a FontSet): fallback chains, runs and widths,
    each cached."""

    def __init__(self, fonts: FontSet | None = None):
        self.fonts = fonts or BUNDLED
        self._chains: dict[tuple[str, int], tuple[str, ...]] = {}
        self._runs: dict[tuple, tuple] = {}
        self._widths: dict[tuple[str, str], float] = {}
        self.parsed: dict[tuple[str, str], tuple] = {}
        """Text boxes' text as laid out words, by (font, text) (:class:`pnp.render.elements.text.TextFitter`)."""

    def known(self, font: str) -> bool:
        """Whether ``font`` names a face or family of this game."""
        return self.fonts.resolve(font) is not None

    def chain(self, font: str, style: int = 0) -> tuple[str, ...]:
        """The registered faces ``font`` in ``style`` (added to the font's own: ``sans-bold`` in
        italic is bold italic) draws with, the family's first and then each fallback family's
        (a family without the style gives its nearest). Faces that do not open are left out
        (they are ``font.file`` errors); an empty chain draws in FALLBACK_FACE."""
        key = (font, style)
        found = self._chains.get(key)
        if found is None:
            resolved = self.fonts.resolve(font)
            if resolved is None:
                raise PnpError(f"unknown font {font!r}", hint="fonts: " + ", ".join(self.fonts.names()),
                               rule="layout.render")
            family, own = resolved
            style |= own
            faces = []
            for name in (family.name,) + family.fallback:
                face = self.fonts.families[name].face(style)
                pdf = self._register(face)
                if pdf is not None and pdf not in faces:
                    faces.append(pdf)
            found = tuple(faces) or (register(FALLBACK_FACE),)
            self._chains[key] = found
        return found

    @staticmethod
    def _register(face) -> str | None:
        if face is None:
            return None
        if isinstance(face, str):
            return register(face)
        return open_face(face)[0]

    def runs(self, chain: tuple[str, ...], text: str) -> tuple[tuple[str, str], ...]:
        """``text`` as runs (face, text): each character in the first face of ``chain`` that has
        it, spaces in the first face (so a word space is as wide whatever it follows);
        characters no face has stay with the run they are in (drawn in a face that lacks them,
        and reported by :meth:`missing`)."""
        key = (chain, text)
        found = self._runs.get(key)
        if found is not None:
            return found
        first = face_glyphs(chain[0])
        if len(chain) == 1 or all(ord(ch) in first for ch in text):
            found = ((chain[0], text),)
        else:
            sets = [face_glyphs(f) for f in chain]
            out: list[list] = []
            for ch in text:
                code = ord(ch)
                face = chain[0] if ch == " " and code in first else \
                    next((f for f, have in zip(chain, sets) if code in have), None)
                if face is None:
                    face = out[-1][0] if out else chain[0]
                if out and out[-1][0] == face:
                    out[-1][1] += ch
                else:
                    out.append([face, ch])
            found = tuple((f, t) for f, t in out)
        self._runs[key] = found
        return found

    def missing(self, chain: tuple[str, ...], text: str) -> list[str]:
        """Characters of ``text`` (other than spaces and line breaks) that no face of ``chain``
        has, each once, in order."""
        sets = [face_glyphs(f) for f in chain]
        out: list[str] = []
        for ch in text:
            if ch in " \n\t\u00a0" or ch in out:
                continue
            code = ord(ch)
            if not any(code in have for have in sets):
                out.append(ch)
        return out

    def width(self, face: str, text: str) -> float:
        """Width of ``text`` in the registered face ``face`` at 1 pt (cached)."""
        key = (face, text)
        width = self._widths.get(key)
        if width is None:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            width = stringWidth(text, face, 1.0)
            self._widths[key] = width
        return width

    def text_width(self, font: str, text: str, style: int = 0) -> float:
        """Width of ``text`` in ``font`` (and its fallbacks) at 1 pt."""
        return sum(self.width(face, part) for face, part in self.runs(self.chain(font, style), text))

    def describe(self, font: str) -> str:
        """How a message names ``font`` and its fallbacks: ``the font sans``, ``the fonts body,
        cjk and symbols``."""
        resolved = self.fonts.resolve(font)
        names = [font] + (list(resolved[0].fallback) if resolved else [])
        if len(names) == 1:
            return f"the font {font}"
        return "the fonts " + ", ".join(names[:-1]) + " and " + names[-1]
