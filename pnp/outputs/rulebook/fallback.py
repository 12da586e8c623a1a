"""The game's own fonts in its rulebook: the rulebook is set in DejaVu Sans, and a character
DejaVu Sans lacks (CJK, emoji, rare symbols) is drawn in the first of the game's ``[fonts]``
families, in game.toml order, whose face of the same style has it
(docs/fonts-and-text.md). Without ``[fonts]`` the text is as it always was."""

from __future__ import annotations

from ...design.fonts import FontSet
from ...render import fonts
from ...render.fonts import FontBook
from .markup import LINE_BREAK, inline_markup, xml_escape


class RulebookFonts:
    """What the rulebook's text is drawn in: DejaVu Sans, then the game's families."""

    def __init__(self, font_set: FontSet | None):
        from reportlab.pdfbase.pdfmetrics import registerFontFamily

        self.book = FontBook(font_set)
        own = font_set.own() if font_set is not None else []
        self.chain: tuple[str, ...] = (fonts.register("sans"),)
        for family in own:
            faces = self.book.chain(family.name, 0)[:1] if self.book.known(family.name) else ()
            if not faces or faces[0] in self.chain:
                continue
            styled = [self.book.chain(family.name, style)[0] for style in range(4)]
            # platypus sets <b> and <i> around a face through its family's faces
            registerFontFamily(faces[0], normal=styled[0], bold=styled[1], italic=styled[2], boldItalic=styled[3])
            self.chain += (faces[0],)

    def markup(self, text: str) -> str:
        """``text`` as paragraph markup (escaped, LINE_BREAK as a break), each run of
        characters DejaVu Sans lacks in the first of the game's faces that has them."""
        if len(self.chain) == 1:
            return inline_markup(text)
        out = []
        for face, part in self.book.runs(self.chain, text):
            part = xml_escape(part).replace(LINE_BREAK, "<br/>")
            out.append(part if face == self.chain[0] else f'<font face="{face}">{part}</font>')
        return "".join(out)

    def missing(self, text: str) -> list[str]:
        """Characters of ``text`` that neither DejaVu Sans nor the game's faces have."""
        return self.book.missing(self.chain, text)
