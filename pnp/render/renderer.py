"""Drawing layouts: the :class:`Renderer` puts one piece's layout onto a reportlab canvas.

A piece is drawn at an absolute trim position, clipped to its bleed rectangle; each box is drawn
by its element kind (:data:`pnp.render.elements.ELEMENTS`). Setting values are evaluated per
piece: strings holding ``{{`` or ``{%`` are Jinja2 templates run in the layout sandbox
(:mod:`pnp.design.templating`). Problems found while drawing (text that does not fit, characters
the font lacks, art below 300 dpi) are collected as findings in :attr:`Renderer.findings`.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from ..core.errors import BuildError, LayoutError, Location, PnpError, explain
from ..core.findings import Finding
from ..core.suggest import did_you_mean
from ..design.layouts import Box, BoxKey, Layout, LayoutSet
from ..design.names import drawing_key, printed_name
from ..design.templating import MISSING, SIMPLE_RE, compiled, compiled_expression, lookup, name_hint, PLAIN_TYPES, render_key
from ..model.pieces import Piece
from .art import DEFAULT_MAX_PIXELS, PRINT_DPI
from .elements import ELEMENTS
from .fonts import FontBook
from .ink import LowInk, hatch
from .vision import grey
from .overlap import Footprint, overlaps
from .preflight import drawing_error, text_overlap
from .dry import dry_canvas
from .stamp import check_slug, stamp_piece

BASIC_COLORS = {"white": "#FFFFFF", "black": "#000000"}
"""Colour names every game has, besides its own [colors]."""


class Renderer:
    """Draws pieces of one game. ``findings`` collects preflight results while drawing.

    ``game_dir`` is where art paths are resolved; art outside it is refused.
    """

    def __init__(self, layouts: LayoutSet, game_dir: Path, min_text_size: float = 6.0,
                 color_convert: Callable[[str, str], Any] | None = None,
                 max_image_pixels: int | None = DEFAULT_MAX_PIXELS, min_dpi: int = PRINT_DPI,
                 game_display: str = "", facts: tuple = (), draft: bool = False, stamp: bool = False,
                 version: str | None = None):
        """``color_convert(hex, role)`` turns a ``#RRGGBB`` colour into the reportlab colour to
        paint with; ``role`` is ``text`` for glyphs and ``fill``/``stroke`` for shapes. The
        default paints the RGB colour as given; a CMYK print profile passes its own.
        ``max_image_pixels`` refuses larger art (None lifts it); art placed below ``min_dpi``
        (300, the print norm of docs/print-specs.md §2) is a preflight finding. ``game_display`` is
        how messages name the game folder (``card_data/<id>``; default its folder name).
        ``facts`` (:func:`pnp.model.facts.game_facts`) are the numbers of the data that text
        drawn must not contradict. ``draft``: missing art prints a placeholder and is a warning
        (a home build, its check, the preview), not an error (an export). ``stamp``: every
        piece but a back prints the version stamp (``version`` and its face hash,
        :mod:`pnp.render.stamp`) where its layout's ``stamp`` says."""
        self.color_convert = color_convert
        self.stamp = stamp
        self.version = version
        self.round_piece = False
        """The piece being drawn is round or hexagonal: a stamp set in a corner of the safe zone
        goes to its bottom middle, since the corners lie outside the cut line."""
        self.low_ink = color_convert if isinstance(color_convert, LowInk) else None
        """The low-ink edition's painter, told the share and place of each box drawn."""
        self.converter = None
        """An :class:`pnp.render.color.InkConverter` the files this renderer draws are made with
        (their canvas converts every colour and picture; the greyscale edition), or None."""
        self.last_fill: str | None = None
        """The ``#RRGGBB`` of the last fill painted (what an edition's hatching is keyed by)."""
        self.draft = draft
        self._form_canvas: weakref.ref | None = None  # the forms' file, weakly: a saved one is let go
        self._forms: dict = {}
        self._form_findings: dict = {}
        self._shares: dict | None = None
        self._drawings: dict[int, tuple[Piece, bytes | None]] = {}
        """id of a piece -> (the piece, the digest of its drawing key), while a plan holds (the
        piece is kept so that its id is not another's)."""
        self.max_image_pixels = max_image_pixels
        self.min_dpi = min_dpi
        self.layouts = layouts
        self.game_dir = game_dir
        self.game_display = game_display or game_dir.name
        self.facts = list(facts)
        self.min_text_size = min_text_size
        self.findings: list[Finding] = []
        self.dry = False  # a dry run's file: pieces find what they find and paint nothing (pnp.render.dry)
        self.images: dict[Path, Any] = {}
        """Art read so far, by resolved path: a RasterArt for a raster, an SvgArt for an SVG."""
        self.seen: set[tuple[str, str, str]] = set()
        """(piece, place, kind) of findings already reported: each is said once per card."""
        self.repeat_depth = 0
        """How many repeat boxes enclose the box being drawn."""
        self.repeat_cells = 0
        """Cells the repeat boxes of the current piece have drawn so far."""
        self.footprints: list[Footprint] | None = None
        """Where the boxes of the piece being drawn put ink, in drawing order (:mod:`.overlap`)."""
        self._widths: dict[tuple[str, str], float] = {}
        self.fonts = FontBook(layouts.fonts)
        """The game's fonts: fallback chains, runs and widths (cached)."""
        self._hexes: dict[str, str | None] = {}  # each colour setting's #RRGGBB (None: no colour)
        self._colors: dict[tuple[str, str], Any] = {}  # the reportlab colour of each (#RRGGBB, role)
        self._rendered: dict[tuple, str] = {}
        """Templates rendered so far, by :func:`pnp.design.templating.render_key`: a template
        is run once per distinct value of the names it reads."""
        self._evaluated: dict[tuple, tuple[bool, Any]] = {}
        """Expressions evaluated so far whose result is a plain value or a list of them, by the
        same key (whether it was a list, and the value)."""

    def note(self, key: tuple[str, str, str], finding: Finding) -> None:
        """Add ``finding`` unless one with the same ``key`` (piece, place, kind) was added."""
        if key not in self.seen:
            self.seen.add(key)
            self.findings.append(finding)

    def text_width(self, font: str, text: str) -> float:
        """Width of ``text`` in font ``font`` (a bundled face or a game's font, with its
        fallbacks) at 1 pt (cached)."""
        key = (font, text)
        width = self._widths.get(key)
        if width is None:
            width = self.fonts.text_width(font, text)
            self._widths[key] = width
        return width

    # -- values ------------------------------------------------------------------------------
    def value(self, raw: Any, ctx: dict, where: str) -> Any:
        """Evaluate a setting: strings holding ``{{`` or ``{%`` are templates, others constants.

        A template that only prints one name or dotted path (``{{ symbol }}``,
        ``{{ family.color_hex }}``) is looked up directly when every step exists; anything else,
        and any lookup that fails, goes through the sandboxed Jinja2 environment, so results
        and error messages are the same either way.
        """
        if not isinstance(raw, str) or ("{{" not in raw and "{%" not in raw):
            return raw
        simple = SIMPLE_RE.match(raw)
        if simple:
            found = lookup(ctx, simple.group(1))
            if found is not MISSING:
                return "" if found is None else str(found)
        from jinja2 import TemplateError, UndefinedError

        try:
            template = compiled(raw)
        except TemplateError as exc:
            raise self.layouts.error(where, f"template {raw!r} does not parse: {exc}") from None
        key = render_key(raw, ctx)
        if key is not None:
            done = self._rendered.get(key)
            if done is not None:
                return done
        try:
            done = template.render(ctx)
        except UndefinedError as exc:
            raise self.layouts.error(where, str(exc), hint=name_hint(str(exc), ctx)) from None
        except (TemplateError, ValueError, TypeError, NameError) as exc:  # NameError: Jinja2's inf (explain)
            raise self.layouts.error(where, *explain(exc)) from None
        except (ArithmeticError, RecursionError, MemoryError, LookupError, AttributeError) as exc:
            raise self.layouts.error(where, f"the template failed for this card: {type(exc).__name__}: {exc}",
                                     hint="guard the expression for this card's values, e.g. with an if") from None
        if key is not None:
            self._rendered[key] = done
        return done

    def expression(self, raw: str, ctx: dict, where: str) -> Any:
        """Evaluate a Jinja2 expression (``when``, ``items``) in the sandbox."""
        from jinja2 import TemplateError, UndefinedError

        try:
            expression = compiled_expression(raw)
        except TemplateError as exc:
            hint = None
            if "{{" in raw or "{%" in raw:
                hint = "this setting takes a bare expression such as  maverick  or  cost > 2, without {{ }}"
            raise self.layouts.error(where, f"expression {raw!r} does not parse: {exc}", hint=hint) from None
        key = render_key("{{ (" + raw + ") }}", ctx)
        if key is not None and key in self._evaluated:
            kept = self._evaluated[key]
            return list(kept[1]) if kept[0] else kept[1]
        try:
            result = expression(**ctx)
            if hasattr(result, "_undefined_name"):
                result.__str__()  # StrictUndefined raises here
        except UndefinedError as exc:
            raise self.layouts.error(where, str(exc), hint=name_hint(str(exc), ctx)) from None
        except (TemplateError, ValueError, TypeError, NameError) as exc:
            raise self.layouts.error(where, *explain(exc)) from None
        except (ArithmeticError, RecursionError, MemoryError, LookupError, AttributeError) as exc:
            raise self.layouts.error(where, f"the expression failed for this card: {type(exc).__name__}: {exc}",
                                     hint="guard the expression for this card's values") from None
        if key is not None:
            if type(result) in PLAIN_TYPES:
                self._evaluated[key] = (False, result)
            elif type(result) in (list, tuple) and all(type(item) in PLAIN_TYPES for item in result):
                self._evaluated[key] = (type(result) is list, tuple(result) if type(result) is list else result)
        return result

    def color(self, raw: Any, ctx: dict, where: str, role: str = "fill"):
        """A colour setting as a reportlab colour, or None for ``none``/blank.

        Each name is looked up once and its reportlab colour made once per role, except in the
        low-ink edition, where it depends on the box drawn; a template is evaluated first.
        Raises LayoutError naming the setting for a name that is not in the game's palette."""
        value = self.value(raw, ctx, where) if isinstance(raw, str) and ("{{" in raw or "{%" in raw) else raw
        if value is None:
            return None
        text = value if isinstance(value, str) else str(value)
        hexcolor = self._hexes.get(text, MISSING)
        if hexcolor is MISSING:
            hexcolor = self._hex(text.strip(), where)
            self._hexes[text] = hexcolor
        if hexcolor is None:
            return None
        if self.low_ink is not None:
            return self.paint(hexcolor, role)
        if role == "fill":
            self.last_fill = hexcolor  # what the greyscale edition's hatching is keyed by
        found = self._colors.get((hexcolor, role))
        if found is None:
            found = self._colors[(hexcolor, role)] = self.paint(hexcolor, role)
        return found

    def _hex(self, text: str, where: str) -> str | None:
        """The ``#RRGGBB`` a colour setting names (None for ``none`` or blank). Raises
        LayoutError for a name that is not in the game's palette."""
        if text in ("", "none"):
            return None
        if text.startswith("#") and re.fullmatch(r"#[0-9A-Fa-f]{6}", text):
            return text.upper()
        palette = self.layouts.colors
        if text in palette:
            return palette[text].upper()
        if text in BASIC_COLORS:
            return BASIC_COLORS[text]
        raise self.layouts.error(where, f"{text!r} is not a colour of this game",
                                 hint=did_you_mean(text, list(palette) + list(BASIC_COLORS),
                                                   "use a name from [colors] in game.toml, or #RRGGBB"))

    def paint(self, hexcolor: str, role: str):
        """``#RRGGBB`` as the reportlab colour this renderer paints ``role`` (text, fill,
        stroke) with: as given, or converted by the print profile's ``color_convert``."""
        if role == "fill":
            self.last_fill = hexcolor
        if self.color_convert is not None:
            return self.color_convert(hexcolor, role)
        from reportlab.lib.colors import HexColor

        return HexColor(hexcolor)

    # -- pieces ------------------------------------------------------------------------------
    def place(self, c, piece: Piece, trim: tuple[float, float, float, float],
              bleed: tuple[float, float, float, float], rotate: bool = False,
              form_bleed: float | None = None) -> None:
        """Draw ``piece`` like :meth:`draw`, through a PDF form XObject shared by every placement
        that draws the same thing: the same layout, size and turn, and the same values of the
        names its templates read. Copies of a card and a deck back used by a whole deck are then
        stored once per PDF and only referenced on each sheet.

        The form is drawn with ``form_bleed`` (pt, default the largest of ``bleed``) on every
        side and clipped to ``bleed`` where it is placed, so one form serves every slot.
        """
        x, y, w, h = trim
        self.check_slug(piece, bleed[3] if rotate else bleed[1])
        if self._shares is not None and self._shares.get(self.share_key(piece, w, h, rotate), 0) < 2:
            self.draw(c, piece, trim, bleed, rotate)  # drawn once in this file: no form needed
            return
        if self._form_canvas is None or self._form_canvas() is not c:
            self._form_canvas, self._forms, self._form_findings = weakref.ref(c), {}, {}
        fb = max(bleed) if form_bleed is None else max(form_bleed, max(bleed))
        key = (self.share_key(piece, w, h, rotate), round(fb, 4))
        form = self._forms.get(key)
        if form is None:
            form = f"pnpf{len(self._forms)}"
            before = len(self.findings)
            c.beginForm(form, lowerx=-fb, lowery=-fb, upperx=w + fb, uppery=h + fb)
            self.draw(c, piece, (0.0, 0.0, w, h), (fb, fb, fb, fb), rotate)
            c.endForm()
            self._forms[key] = form
            self._form_findings[key] = self.findings[before:]
        else:
            # another piece that draws the same: what drawing the form found holds for it too
            for found in self._form_findings.get(key, ()):
                if found.piece and found.piece != piece.card_key:
                    self.note((piece.card_key, found.rule, found.location, found.message),
                              replace(found, piece=piece.card_key))
        bl, bb, br, bt = bleed
        c.saveState()
        clip = c.beginPath()
        clip.rect(x - bl, y - bb, w + bl + br, h + bb + bt)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y)
        c.doForm(form)
        c.restoreState()

    def share_key(self, piece: Piece, width: float, height: float, rotate: bool) -> tuple:
        """What makes two placements draw the same thing: layout, size, turn, and the values of
        the names the layout's templates read (a piece whose names cannot be told shares with
        nothing), those as a BLAKE2 digest of their :func:`~pnp.design.names.drawing_key` (equal
        keys, equal digests), made once per piece while a plan (:meth:`plan_shares`) holds."""
        known = self._drawings.get(id(piece))
        if known is None or known[0] is not piece:
            drawing = drawing_key(self.layouts, piece)
            known = (piece, None if drawing is None else
                     hashlib.blake2b(repr(drawing).encode(), digest_size=20).digest())
            if self._shares is not None:  # a plan holds: its pieces are placed again
                self._drawings[id(piece)] = known
        return (piece.layout, round(width, 4), round(height, 4), rotate,
                ("", id(piece)) if known[1] is None else known[1])

    def plan_shares(self, placements) -> None:
        """Tell :meth:`place` which pieces a file will hold more than once: ``placements`` are
        (piece, width, height, rotate). Pieces placed once are then drawn directly, since a form
        only pays when it is reused. None forgets the plan (every placement shares a form)."""
        self._drawings = {}  # (kept per plan: a piece placed twice is keyed once)
        if placements is None:
            self._shares = None
            return
        counts: dict[tuple, int] = {}
        self._shares = counts
        for piece, width, height, rotate in placements:
            key = self.share_key(piece, width, height, rotate)
            counts[key] = counts.get(key, 0) + 1

    def draw(self, c, piece: Piece, trim: tuple[float, float, float, float],
             bleed: tuple[float, float, float, float], rotate: bool = False) -> None:
        """Draw ``piece`` with its trim at (x, y, width, height) pt, bottom-left origin.

        ``bleed`` is how far (left, bottom, right, top) in pt the art may extend past the trim
        here; drawing is clipped there. Bleed art (the background, ``area = "bleed"``) is placed
        against the layouts' full bleed on every side whatever room this slot has, so every
        copy of the piece shows the same part of it. ``rotate`` turns the piece 180° about its
        trim centre.
        """
        x, y, w, h = trim
        if not piece.layout:
            return  # a side whose layout is undefined: reported where it is named, drawn blank
        c = dry_canvas(c) if self.dry and self.converter is None else c  # a converter finds as it paints
        try:
            layout = self.layouts.get(piece.layout)
        except LayoutError as exc:
            self.fail(exc, piece)
            return
        if not self.repeat_depth:
            self.repeat_cells = 0
            self.footprints = []
            if self.low_ink is not None:
                self.low_ink.start_piece()
        bl, bb, br, bt = bleed
        c.saveState()
        path = c.beginPath()
        path.rect(x - bl, y - bb, w + bl + br, h + bb + bt)
        c.clipPath(path, stroke=0, fill=0)
        if rotate:
            c.translate(x + w / 2, y + h / 2)
            c.rotate(180)
            c.translate(-(x + w / 2), -(y + h / 2))
            bl, bb, br, bt = br, bt, bl, bb
        depth = len(c.state_stack)
        full = self.layouts.bleed
        try:
            self.draw_background(c, layout, piece.context, (x - full, y - full, w + 2 * full, h + 2 * full))
        except (LayoutError, BuildError, ValueError) as exc:
            self.fail(drawing_error(exc), piece, f"layouts.{layout.name}.background", c, depth)
        for box in layout.boxes:
            key = BoxKey(layout.name, box)
            try:
                self.draw_box(c, box, piece, (x, y, w, h), (bl, bb, br, bt), key)
            except (LayoutError, BuildError, ValueError) as exc:  # reportlab refuses values a PDF cannot hold
                self.fail(drawing_error(exc), piece, str(key), c, depth)
        if self.stamp and not self.repeat_depth and piece.side != "back" and layout.stamp != "off":
            self.draw_stamp(c, piece, layout, (x, y, w, h), bb)
        c.restoreState()
        if not self.repeat_depth:
            self.report_overlaps(piece)

    def draw_stamp(self, c, piece: Piece, layout: Layout, trim, below: float) -> None:
        """Print the stamp of ``piece`` (trim x, y, w, h pt; ``below`` pt under it; :func:`~.stamp.stamp_piece`)."""
        stamp_piece(self, c, piece, layout, trim, below)

    def check_slug(self, piece: Piece, below: float) -> None:
        """A ``stamp.slug-room`` warning when ``piece`` lacks room below it (:func:`~.stamp.check_slug`)."""
        check_slug(self, piece, below)

    def hatch(self, c, rect, box_type: str) -> None:
        """Hatch the fill just painted where the greyscale edition tells it by pattern (:func:`~.ink.hatch`)."""
        patterns = getattr(self.converter, "patterns", None)
        if not patterns or self.last_fill not in patterns:
            return
        hatch(c, rect, patterns[self.last_fill], grey(self.last_fill)[0], ellipse=box_type == "ellipse")

    def report_overlaps(self, piece: Piece) -> None:
        """``preflight.text-overlap`` for every text of ``piece`` that another box covers or
        crosses (:func:`pnp.render.overlap.overlaps`), at the other box's position setting."""
        for found in overlaps(self.footprints or []):
            where = self.layouts.location(found.other.key)
            self.note((piece.card_key, found.text.box, found.other.box, "overlap"),
                      text_overlap(where, found, piece.card_key))
        self.footprints = None

    def fail(self, exc: PnpError, piece: Piece, key: str | None = None, c=None, depth: int = 0) -> None:
        """Record ``exc``, raised while drawing ``piece``, as an error finding and go on, so that
        one run reports every problem of every piece: the box is left out and the rest drawn.
        The finding is located where the error says, else at ``key`` (the box) in the layouts
        file, and names the piece. Graphics states the failed box saved on ``c`` are restored
        down to ``depth``, so the page stays well formed."""
        if c is not None:
            while len(c.state_stack) > depth:
                c.restoreState()
        where = exc.location or self.layouts.location(key)
        self.note((piece.card_key, str(where), exc.message),
                  Finding.at("error", exc.rule or "layout.render", where, exc.message, hint=exc.hint or "",
                             piece=piece.card_key))

    def source(self, raw: Any, piece: Piece, key: str) -> Location:
        """Where a value drawn for ``piece`` comes from: the cell of its row when the setting
        ``raw`` only prints that column (``{{ art }}``, ``{{ text or '' }}``), else the
        setting ``key`` in the layouts file. Drawing problems caused by data point at the data."""
        row = piece.row
        if row is not None and isinstance(raw, str) and "{{" in raw:
            simple = SIMPLE_RE.match(raw)
            name = simple.group(1) if simple else printed_name(raw)
            if name in row.columns:
                return row.location(name)
        return self.layouts.location(key)

    def draw_background(self, c, layout: Layout, ctx: dict, rect) -> None:
        """Fill ``rect`` with the layout's background colour (nothing for none)."""
        if layout.background is None:
            return
        home = layout.background_origin or layout.name
        key = f"layouts.{home}.background" + ("" if home == layout.name else f", drawing layout {layout.name}")
        if self.low_ink is not None:
            self.low_ink.share, self.low_ink.rect = 1.0, rect
        fill = self.color(layout.background, ctx, key)
        if fill is not None:
            c.setFillColor(fill)
            c.rect(*rect, stroke=0, fill=1)
            self.hatch(c, rect, box_type="rect")

    def rect_of(self, box: Box, trim, bleed) -> tuple[float, float, float, float]:
        """The rectangle (x, y, w, h, pt, bottom-left origin) ``box`` fills for a piece whose
        trim is ``trim``: its area, or its x, y, width and height from the trim's top-left
        corner. The bleed area is the trim and the layouts' bleed on every side (clipped where
        the piece is placed); inside a repeat box's cell, whose drawing is not clipped, it is
        the cell grown by ``bleed``."""
        x, y, w, h = trim
        if box.area == "bleed":
            if self.repeat_depth:
                bl, bb, br, bt = bleed
                return x - bl, y - bb, w + bl + br, h + bb + bt
            full = self.layouts.bleed
            return x - full, y - full, w + 2 * full, h + 2 * full
        if box.area == "trim":
            return x, y, w, h
        if box.area == "safe":
            inset = self.layouts.safe_zone
            return x + inset, y + inset, w - 2 * inset, h - 2 * inset
        return x + box.x, y + h - box.y - box.height, box.width, box.height

    def draw_box(self, c, box: Box, piece: Piece, trim, bleed, key: BoxKey) -> None:
        """Draw one box of ``piece`` (skipped when its ``when`` is false) by its element kind.
        ``key`` names the box's settings in messages."""
        p = box.props
        if "when" in p and not self.expression(str(p["when"]), piece.context, key("when")):
            return
        rect = self.rect_of(box, trim, bleed)
        ink = self.low_ink
        if ink is not None:
            ink.share = rect[2] * rect[3] / max(trim[2] * trim[3], 1e-9)
            ink.rect = rect
            fills = len(ink.under)
        self.last_fill = None
        drawn = ELEMENTS[box.type].draw(self, c, box, piece, rect, trim, key)
        if self.last_fill is not None and self.converter is not None:
            outline = {"rect": "rect", "ellipse": "ellipse"}.get(box.type) if box.type != "shape" else \
                {"circle": "ellipse", "square": "rect", "rounded": "rect"}.get(str(box.props.get("shape")))
            if outline:  # other shapes are not hatched: their outline is not their box
                self.hatch(c, rect, outline)
        if ink is not None and ink.mode == "outline" and len(ink.under) > fills and box.type in ("rect", "ellipse", "shape"):
            from reportlab.lib.colors import HexColor

            c.saveState()
            c.setStrokeColor(HexColor(ink.under[-1][1]))
            c.setLineWidth(1.0)
            x, y, w, h = rect
            if box.type == "ellipse":
                c.ellipse(x, y, x + w, y + h, stroke=1, fill=0)
            else:
                c.rect(x, y, w, h, stroke=1, fill=0)
            c.restoreState()
        if drawn is not None and self.footprints is not None and not self.repeat_depth:
            x0, y0, x1, y1, kind, *shape = drawn
            setting = "y" if "y" in box.origins else "type"
            self.footprints.append(Footprint(x0, y0, x1, y1, kind, box.name, key(setting),
                                             ellipse=bool(shape and shape[0]), allowed=bool(box.props.get("overlap"))))
