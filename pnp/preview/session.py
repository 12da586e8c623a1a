"""One game's preview: what the page shows, kept up to date as the game folder changes.

:meth:`PreviewSession.refresh` reads the game again (its tables and layouts, without the rules
or the drawing a check does, so that it takes a fraction of a build) and lists every piece with
its key (:mod:`pnp.preview.pieces`); a piece whose key did not change keeps its image, so only
the pieces whose inputs changed are drawn again, and only when the page asks for them
(:meth:`PreviewSession.png`). When the game no longer loads (a broken edit), the error is shown,
located as ``pnp check`` locates it, and the last good pieces stay.

The findings are those of the dry run ``pnp check`` makes (:func:`pnp.pipeline.build.run_game`
with ``write=False``, :func:`check_in_background`), run in a worker process after each change,
so the page says exactly what ``pnp check`` says; each is placed beside the pieces it names (its
piece labels, or the table row its location points at). The rulebook's pages come from the same
worker, drawn again only when the rulebook's inputs changed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import pypdfium2 as pdfium

from ..core.errors import PnpError
from ..core.findings import SEVERITIES, Finding
from ..core.units import Size
from ..design.layouts import LayoutSet, board_layouts, game_layouts
from ..model.game import Game
from ..model.context import piece_context
from ..model.games import LAYOUTS_FILE, GameSource
from ..model.load import LoadOptions, load_game
from ..model.pieces import Piece, board_pieces, token_pieces
from ..outputs.base import BuildSettings, OutputJob, SheetOptions
from ..outputs.rulebook import RulebookOutput
from ..pipeline.build import BuildJob, run_game
from ..pipeline.cache import inputs_key
from ..pipeline.language import localize
from ..pipeline.stages import stage_failure
from ..render.raster import pdf_to_png
from ..render.renderer import Renderer
from ..validate.check import check_game_full
from .pieces import PREVIEW_DPI, ArtDigests, KeyMaker, Recipe, sha, piece_png

RULEBOOK_DPI = 60
"""Resolution of the rulebook page images in px per inch (a Letter page is 510 x 660 px)."""


@dataclass
class CheckResult:
    """What the worker's dry run found (findings as :meth:`Finding.as_dict` dicts) and, when the
    rulebook's inputs changed since ``rulebook_key`` was drawn, its pages as PNGs."""

    findings: list[dict]
    loaded: bool
    rulebook_key: str = ""
    rulebook_pages: list[bytes] | None = None


def check_in_background(job: BuildJob, rulebook_key: str, dpi: float = RULEBOOK_DPI) -> CheckResult:
    """The dry run of ``pnp check`` for ``job`` (in a worker process), and the rulebook's pages
    at ``dpi`` when its inputs key differs from ``rulebook_key`` (the one the page shows)."""
    report = run_game(job)
    result = CheckResult([f.as_dict() for f in report.findings], report.loaded, rulebook_key)
    if not report.loaded:
        return result
    try:
        game = _in_language(load_game(job.source.path, job.source.display, job.load), job)
        if game is None:
            return result
        out_dir = job.output / game.id / game.language if game.language else job.output / game.id
        stage = RulebookOutput().stages(OutputJob(game, job.source, out_dir, job.settings))[0]
        key = inputs_key(stage.inputs, (stage.name, stage.options), job.source.roots)
        if key == rulebook_key:
            return result
        rendered = stage.render(False)  # the pages to show, not a dry run's empty file
    except PnpError:  # the dry run reports it
        return result
    pdf = next((data for path, data in rendered.outputs if path.name.endswith("-rulebook.pdf")), None)
    pages = []
    if pdf is not None:
        pages = [pdf_to_png(pdf, dpi=dpi, page_index=i) for i in range(len(pdfium.PdfDocument(pdf)))]
    return CheckResult(result.findings, True, key, pages)


def _in_language(game: Game, job: BuildJob) -> Game | None:
    """``game`` in the language of ``job.settings`` (as it is without one); None when the
    language cannot be made (the findings say why)."""
    lang = job.settings.language
    return localize(game, job.source, lang)[0] if lang else game


def _row_fingerprint(token: str, comp, row) -> tuple | None:
    """Everything a deck row's pieces are made from besides the layouts and the referenced
    tables (in ``token``): its id, copies, and typed values; None when a value cannot be told
    apart by hashing (the row is then listed again each time)."""
    fp = (token, row.id, row.copies, comp.layout_of(row), comp.back_of(row), tuple(row.values.items()))
    try:
        hash(fp)
    except TypeError:
        return None
    return fp


@dataclass
class Listing:
    """The sections of one good read of the game and the recipe of every image they show."""

    sections: list[dict] = field(default_factory=list)
    recipes: dict[str, Recipe] = field(default_factory=dict)
    items_by_piece: dict[str, str] = field(default_factory=dict)
    """A piece's label without copy (``cards/fire``, ``cards/fire back``) -> its item id."""
    items_by_row: dict[tuple[str, int], str] = field(default_factory=dict)
    """(table as messages name it, with its sheet; line) -> the item id of that row's first piece."""
    sections_by_component: dict[str, str] = field(default_factory=dict)


def _row_key(file: str, sheet: str | None, line: int) -> tuple[str, int]:
    """A row's key in :attr:`Listing.items_by_row`: its table (a workbook's with the sheet) and line."""
    return (f"{file} › {sheet}" if sheet else file, line)


class PreviewSession:
    """The preview of one game (``source``), read with ``load`` options; findings are those of
    ``pnp check`` with ``settings`` and build folder ``output`` (a check reuses what a build
    there recorded)."""

    def __init__(self, source: GameSource, load: LoadOptions = LoadOptions(), output: Path = Path("output"),
                 settings: BuildSettings | None = None, dpi: float = PREVIEW_DPI):
        self.source = source
        self.load = load
        self.output = output
        self.settings = settings or BuildSettings(SheetOptions(contact_sheets=False))
        self.dpi = dpi
        self.version = 0
        self.title = source.label
        self.listing = Listing()
        self._previous: dict[str, Recipe] = {}
        self.errors: list[dict] = []
        """The findings that stopped the last read (the game did not load); empty when it loaded."""
        self.findings: list[dict] = []
        self.checking = False
        self.check_loaded = True
        self.rulebook_key = ""
        self.rulebook_pages: list[str] = []
        self.pngs: dict[str, bytes] = {}
        self.renders = 0
        """Images drawn so far (a test and the benchmark count them)."""
        self.art = ArtDigests()
        self._base: dict[str, str] = {}
        self._rows: dict[tuple, list[dict]] = {}
        """A deck row's fingerprint -> what it prints, from the last read (unchanged rows are
        not listed again)."""
        self._card_layouts: tuple | None = None
        self._keymaker: KeyMaker | None = None
        self._lock = threading.RLock()
        self._draw_lock = threading.Lock()

    # -- reading the game ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the game again and list its pieces; on an error keep the last good listing and
        hold the located findings in :attr:`errors`. Bumps :attr:`version`."""
        try:
            game = load_game(self.source.path, self.source.display, self.load)
        except PnpError as exc:
            data = check_game_full(self.source, self.load)  # the findings pnp check gives
            self._failed([f for f in data.findings if f.severity == "error"] or [stage_failure(exc)])
            return
        if self.settings.language:
            translated, found = localize(game, self.source, self.settings.language)
            if translated is None:  # the language is not the game's, or its catalogue does not read
                self._failed([f for f in found if f.severity == "error"])
                return
            game = translated
        try:
            listing = self._list(game)
        except PnpError as exc:  # the layouts do not load: the finding a build's stage gives
            self._failed([stage_failure(exc)])
            return
        with self._lock:
            self.title = f"{game.title} [{game.language}]" if game.language else game.title
            self._previous = self.listing.recipes
            self.listing = listing
            self.errors = []
            keep = set(listing.recipes) | set(self._previous) | {k for k in self.pngs if k.startswith("rb-")}
            self.pngs = {k: v for k, v in self.pngs.items() if k in keep}
            self.version += 1

    def _failed(self, errors: list[Finding]) -> None:
        with self._lock:
            self.errors = [f.as_dict() for f in errors]
            self.version += 1

    def _list(self, game: Game) -> Listing:
        listing = Listing()
        layouts = self._layouts(game)
        keys = self._keys_for(layouts)
        renderer = Renderer(layouts, game.path, max_image_pixels=self.settings.max_image_pixels,
                            game_display=game.display_root, draft=self.settings.draft)
        rows: dict[tuple, list[dict]] = {}
        game_token = (game.id, game.title, repr(sorted(game.manifest.get("colors", {}).items())), id(layouts))
        for comp in game:
            if comp.kind != "deck":
                continue
            token = sha(repr(game_token + (comp.id, comp.name, repr(comp.card_size), self._refs_digest(game, comp))))
            deck = {"id": comp.id, "kind": "deck", "name": comp.name, "items": []}
            for row in comp.rows:
                if row.copies <= 0:
                    continue
                fp = _row_fingerprint(token, comp, row)
                entries = self._rows.get(fp) if fp is not None else None
                if entries is None:
                    entries = self._row_entries(game, comp, row, layouts, keys, renderer)
                if fp is not None:
                    rows[fp] = entries
                for entry in entries:
                    deck["items"].append(self._item(entry, listing, str(row.location())))
                    for label in entry["labels"]:
                        listing.items_by_piece.setdefault(label, entry["id"])
                listing.items_by_row.setdefault(_row_key(row.file, row.sheet, row.line), entries[0]["id"] if entries else "")
            if deck["items"]:
                listing.sections.append(deck)
                listing.sections_by_component[comp.id] = comp.id
        self._rows = rows
        self._list_boards(game, listing)
        return listing

    def _row_entries(self, game: Game, comp, row, layouts: LayoutSet, keys: KeyMaker, renderer: Renderer) -> list[dict]:
        """The designs one row prints: its copies grouped by what their face and back draw (one
        entry, unless the layouts read the copy number). A side whose layout is not defined is
        drawn blank, as card sheets draw it; a row without a layout or back is left out (the dry
        run reports it)."""
        face_layout, back_layout = comp.layout_of(row), comp.back_of(row)
        if not face_layout or not back_layout:
            return []
        face_layout = face_layout if face_layout in layouts.layouts else ""
        back_layout = back_layout if back_layout in layouts.layouts else ""
        entries: dict[tuple, dict] = {}
        for copy in range(1, row.copies + 1):
            face = Piece(face_layout, piece_context(game, comp, row, copy), comp.id, row.id, copy, row.copies, row=row)
            back = replace(face, layout=back_layout, side="back")
            sides = [("face", Recipe("card", face, renderer, comp.card_size, layouts.bleed)),
                     ("back", Recipe("card", back, renderer, comp.card_size, layouts.bleed))]
            bases = tuple(keys.base_key(recipe) for _, recipe in sides)
            entry = entries.get(bases)
            if entry is not None:
                entry["copies"] += 1
                continue
            ident = face.card_key + ("" if not entries else f" (copy {copy})")
            entries[bases] = {"id": ident, "label": row.id or comp.id, "copies": 1,
                              "labels": (face.card_key, back.card_key), "shown": {},
                              "sides": [(side, base, recipe) for (side, recipe), base in zip(sides, bases)]}
        return list(entries.values())

    def _item(self, entry: dict, listing: Listing, where: str) -> dict:
        """The page's item of a listed entry, with each side's current key (its base key and
        the digests of the art it drew)."""
        sides = []
        for side, base, recipe in entry["sides"]:
            key = self.art.key(base)
            listing.recipes.setdefault(key, recipe)
            self._base[key] = base
            shown = entry["shown"].get(side)
            if shown is None:
                shown = entry["shown"][side] = self._side(side, key, recipe)
            sides.append(shown if shown["key"] == key else {**shown, "key": key})
        return {"id": entry["id"], "label": entry["label"], "copies": entry["copies"], "where": where,
                "sides": sides}

    def _layouts(self, game: Game) -> LayoutSet:
        """The card layouts, read again only when layouts.toml or the game's colours changed
        (what the layouts' templates read is cached on the set)."""
        path = self.source.templates_dir / LAYOUTS_FILE if self.source.templates_dir else None
        token = (self.art.digest(path) if path is not None else "",
                 repr(sorted(game.manifest.get("colors", {}).items())))
        if self._card_layouts is None or self._card_layouts[0] != token:
            self._card_layouts = (token, game_layouts(game, self.source))
        return self._card_layouts[1]

    def _keys_for(self, layouts: LayoutSet) -> KeyMaker:
        if self._keymaker is None or self._keymaker.layouts is not layouts:
            self._keymaker = KeyMaker(layouts)
        return self._keymaker

    def _refs_digest(self, game: Game, comp) -> str:
        """The digests of the tables ``comp``'s reference columns point into: a card shows the
        referenced rows' values (``{{ element.name }}``), so an edit there changes it."""
        refs = sorted({spec.ref for spec in comp.columns.values() if spec.ref})
        tables = [game.components[r].table for r in refs if r in game.components]
        return ",".join(self.art.digest(Path(t)) for t in tables if t is not None)

    def _list_boards(self, game: Game, listing: Listing) -> None:
        """The boards and tokens sections (a part that cannot be listed is left out: the dry
        run reports why)."""
        try:
            layouts = board_layouts(game, self.source)
            boards, _ = board_pieces(game)
            tokens, _ = token_pieces(game)
        except PnpError:
            return
        if layouts is None or not (boards or tokens):
            return
        keys = KeyMaker(layouts)
        renderer = Renderer(layouts, game.path, max_image_pixels=self.settings.max_image_pixels,
                            game_display=game.display_root, draft=self.settings.draft)
        section = {"id": "boards", "kind": "boards", "name": "Boards and sheets", "items": []}
        for bp in boards:
            recipe = Recipe("board", bp.piece, renderer, bp.size, layouts.bleed)
            key = self._key(keys, recipe, listing)
            item = {"id": bp.piece.card_key, "label": bp.title, "copies": 1, "where": "",
                    "sides": [self._side("face", key, recipe)]}
            if any(i["id"] == item["id"] for i in section["items"]):
                item["id"] = f"{bp.piece.card_key} ({bp.piece.copy})"
            section["items"].append(item)
            listing.items_by_piece.setdefault(bp.piece.card_key, item["id"])
            listing.sections_by_component[bp.component] = "boards"
        if section["items"]:
            listing.sections.append(section)
        tsection = {"id": "tokens", "kind": "tokens", "name": "Tokens and standees", "items": []}
        by_id: dict[tuple, dict] = {}
        for tp in tokens:
            size = _token_size(tp)
            face = Recipe("token", tp.face, renderer, size, layouts.bleed, tp)
            sides = [self._side("face", self._key(keys, face, listing), face)]
            if tp.back is not None and tp.shape != "standee":
                back = Recipe("token", tp.back, renderer, size, layouts.bleed, replace(tp, face=tp.back))
                sides.append(self._side("back", self._key(keys, back, listing), back))
            ident = (tp.component, tp.name, tuple(s["key"] for s in sides))
            if ident in by_id:
                by_id[ident]["copies"] += 1
                continue
            item_id = tp.face.card_key
            if any(i["id"] == item_id for i in tsection["items"]):
                item_id = f"{item_id} (copy {tp.face.copy})"
            row = tp.face.row
            item = {"id": item_id, "label": tp.name, "copies": 1,
                    "where": str(row.location()) if row is not None else "", "sides": sides}
            by_id[ident] = item
            tsection["items"].append(item)
            listing.items_by_piece.setdefault(tp.face.card_key, item_id)
            if tp.back is not None:
                listing.items_by_piece.setdefault(tp.back.card_key, item_id)
            if row is not None:
                listing.items_by_row.setdefault(_row_key(row.file, row.sheet, row.line), item_id)
            listing.sections_by_component[tp.component] = "tokens"
        if tsection["items"]:
            listing.sections.append(tsection)

    def _key(self, keys: KeyMaker, recipe: Recipe, listing: Listing) -> str:
        """The current key of ``recipe`` (boards and tokens), recorded in ``listing``."""
        base = keys.base_key(recipe)
        key = self.art.key(base)
        listing.recipes.setdefault(key, recipe)
        self._base[key] = base
        return key

    def _side(self, side: str, key: str, recipe: Recipe) -> dict:
        page = recipe.page
        shape = recipe.token.shape if recipe.token is not None else "rect"
        return {"side": side, "key": key, "shape": shape, "w": round(page.width / 72 * self.dpi),
                "h": round(page.height / 72 * self.dpi),
                "bleed": [round(recipe.bleed / page.width, 5), round(recipe.bleed / page.height, 5)]}

    # -- images ----------------------------------------------------------------------------------
    def png(self, key: str) -> bytes | None:
        """The image of ``key`` (a piece key of the current or the previous listing, or a
        rulebook page), drawn now if it is not cached; None for a key the page cannot know."""
        with self._lock:
            found = self.pngs.get(key)
            recipe = self.listing.recipes.get(key) or self._previous.get(key)
        if found is not None or recipe is None:
            return found
        with self._draw_lock:
            with self._lock:
                found = self.pngs.get(key)
            if found is not None:
                return found
            png, art = piece_png(recipe, self.dpi)
            self.renders += 1
        with self._lock:
            self.pngs[key] = png
            base = self._base.get(key)
            if base is not None:
                self.art.used[base] = tuple(art)
                self.pngs.setdefault(self.art.key(base), png)
        return png

    # -- findings --------------------------------------------------------------------------------
    def check_job(self) -> BuildJob:
        """The dry run of ``pnp check`` this preview shows the findings of."""
        return BuildJob(self.source, self.output, self.settings, self.load, write=False)

    def start_check(self) -> None:
        """Say that a dry run is under way (the page shows "checking"); bumps :attr:`version`."""
        with self._lock:
            self.checking = True
            self.version += 1

    def apply_check(self, result: CheckResult | None) -> None:
        """Take the worker's findings and rulebook pages (None: the dry run could not run, the
        findings stay as they were); bumps :attr:`version`."""
        with self._lock:
            self.checking = False
            self.version += 1
            if result is None:
                return
            self.findings = result.findings
            self.check_loaded = result.loaded
            if result.rulebook_pages is not None:
                self.rulebook_key = result.rulebook_key
                self.pngs = {k: v for k, v in self.pngs.items() if not k.startswith("rb-")}
                self.rulebook_pages = []
                for i, png in enumerate(result.rulebook_pages):
                    key = f"rb-{result.rulebook_key[:24]}-{i + 1}"
                    self.pngs[key] = png
                    self.rulebook_pages.append(key)

    def state(self) -> dict:
        """Everything the page shows, as JSON-ready data (docs/preview.md)."""
        with self._lock:
            listing = self.listing
            sections = list(listing.sections)
            if self.rulebook_pages:
                sections.append({"id": "rulebook", "kind": "rulebook", "name": "Rulebook", "items": [
                    {"id": f"rulebook/page {i}", "label": f"page {i}", "copies": 1, "where": "",
                     "sides": [{"side": "page", "key": key}]} for i, key in enumerate(self.rulebook_pages, 1)]})
            findings = [self._placed(f, listing) for f in self.findings]
            return {"version": self.version, "title": self.title, "game": self.source.display, "dpi": self.dpi,
                    "loaded": not self.errors, "errors": [self._placed(f, listing) for f in self.errors],
                    "checking": self.checking, "check_loaded": self.check_loaded,
                    "counts": {sev: sum(1 for f in self.findings if f["severity"] == sev) for sev in SEVERITIES},
                    "sections": sections, "findings": findings}

    def _placed(self, finding: dict, listing: Listing) -> dict:
        """``finding`` with the ids of the items it names (``items``) and its section."""
        items: list[str] = []
        for label in finding.get("pieces") or ([finding["piece"]] if finding.get("piece") else []):
            item = listing.items_by_piece.get(label) or listing.items_by_piece.get(label.split(" [")[0])
            if item and item not in items:
                items.append(item)
        if not items and finding.get("file") and finding.get("line"):
            item = listing.items_by_row.get(_row_key(finding["file"], finding.get("sheet"), finding["line"]))
            if item:
                items.append(item)
        section = listing.sections_by_component.get(finding.get("component") or "", "")
        if not section and items:
            section = next((s["id"] for s in listing.sections if any(i["id"] == items[0] for i in s["items"])), "")
        if not section and (finding.get("file") or "").endswith(".md.j2"):
            section = "rulebook"
        return {**finding, "items": items, "section": section}


def _token_size(tp) -> Size:
    return Size(tp.width, tp.height)
