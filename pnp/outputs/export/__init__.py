"""Physical-edition exports: print-shop files and Tabletop Simulator tables.

A target is a named profile kept as data (:mod:`.profiles`). Every card is drawn once by the
:class:`~pnp.render.renderer.Renderer` onto a page of its own whose MediaBox is the trim plus
the profile's bleed (:mod:`.pages`); the profile's writer (:mod:`.writers`) turns the pages into
its files: PDFs, PNGs rendered at exactly the profile's pixel size, or Tabletop Simulator deck
sheets. The pages a PNG or Tabletop Simulator export rasterises are one PDF, saved once
(:class:`.pages.PageBook`). Every export also writes ``manifest.csv`` and ``manifest.json`` (:mod:`.manifest`).
Text inside the profile's safe zone is a finding, measured on the drawn pages
(:mod:`.preflight`).

Outputs go to ``<out_dir>/export/<target>/``; ``out_dir`` is the game's output folder
(``output/<game>``). Everything is rendered in memory first and written atomically.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ...core.findings import merge
from ...core.parallel import default_workers
from ...core.suggest import did_you_mean
from ...design.layouts import LayoutSet, board_layouts, game_layouts
from ...design.drawable import drawable_cards
from ...model.game import Game
from ...model.games import GameSource, source_of
from ...render.art import DEFAULT_MAX_PIXELS
from ...render.color import InkConverter, InkSettings
from ...render.renderer import Renderer
from ..base import BuildResult, OutputJob, Stage, dpi_option, write_result
from .job import ExportJob
from .manifest import stale_files, write_manifest
from .pages import card_page, decks_of
from .preflight import bleed_findings
from .products import box_findings
from .profiles import (URL_PREFIX_HINT, Profile, ProfileError, bundled_profiles, load_profile, manifest_targets,
                       url_prefix_value)
from .writers import WRITERS
from .writers.tts import tts_card_pixels

__all__ = ["ExportOutput", "ProfileError", "bundled_profiles", "card_page", "export_game", "load_profile",
           "manifest_targets", "render_export", "tts_card_pixels"]


def render_export(game: Game, layouts: LayoutSet, target: str, out_dir: Path, *, jobs: int | None = None,
                  url_prefix: str | None = None, max_image_pixels: int | None = DEFAULT_MAX_PIXELS,
                  dry: bool = False, image_dpi: int | None = None, source: GameSource | None = None,
                  boxes: bool = False) -> BuildResult:
    """Export every deck of ``game`` for ``target`` (a profile name or a path to a profile
    TOML file) in memory (``result.outputs``; nothing is written), for
    ``out_dir/export/<target>/``, where ``out_dir`` is the game's output folder.

    The outputs are the target's files, ``manifest.csv`` and ``manifest.json``; ``result.remove``
    lists files a previous export of this target listed and this one does not. ``jobs`` is how
    many processes rasterise PNGs (default: up to 2); ``url_prefix`` overrides a Tabletop
    Simulator profile's image URLs. Art over ``max_image_pixels`` pixels is refused (None lifts
    the limit); art is embedded at ``image_dpi`` px/in at its placed size (None: the profile's
    own ``image_dpi``). A profile with products (The Game Crafter) also exports the game's boards
    and tokens, drawn from the board designs in the templates folder of ``source`` (the game as
    the command was given it; without it, cards only); a Tabletop Simulator profile exports the
    whole table, boards, tokens and dice too (``source`` found from the game's folder when not
    given). A ``dry`` export draws and preflights every card but rasterises nothing and
    makes no files. With ``boxes`` (``--boxes``), each tuck box ``pnp build --boxes`` makes is an
    ``export.no-box`` warning: no target exports boxes (:func:`.products.box_findings`).
    ``result.cards`` counts card instances and ``result.sheets`` files holding
    cards; findings cover drawing, colour conversion and the safe zone. Raises ProfileError,
    BuildError or LayoutError.
    """
    profile = load_profile(target, game)
    if url_prefix is not None:
        try:
            profile = replace(profile, url_prefix=url_prefix_value(url_prefix))
        except ValueError as exc:
            raise ProfileError(f"--url-prefix: {exc}", hint=URL_PREFIX_HINT) from None
    if image_dpi is not None:
        profile = replace(profile, image_dpi=image_dpi)
    folder = Path(out_dir) / "export" / profile.name
    converter = None
    if profile.color == "cmyk":
        converter = InkConverter(_palette_overrides(profile, game), profile.name)
    renderer = Renderer(layouts, game.path, min_text_size=profile.min_text_size,
                        color_convert=converter.convert if converter else None, max_image_pixels=max_image_pixels,
                        game_display=game.display_root)
    job = ExportJob(game, layouts, profile, folder, renderer, converter, dry=dry)
    if source is None and profile.output == "tts":  # a table draws the boards wherever the game is
        source = source_of(game.path, game.display_root)
    pieces_layouts = None
    if _draws_pieces(profile) and source is not None:  # boards.toml, or the card layouts when there is none
        pieces_layouts = board_layouts(game, source) or layouts
    if pieces_layouts is not None:
        job.board_renderer = Renderer(pieces_layouts, game.path, min_text_size=profile.min_text_size,
                                      max_image_pixels=max_image_pixels, game_display=game.display_root)
    cards, findings = drawable_cards(game, layouts)
    findings += bleed_findings(layouts, profile)
    workers = jobs if jobs is not None else default_workers()
    WRITERS[profile.output](job, decks_of(game, cards), workers)
    if boxes:
        job.findings += box_findings(game, layouts, profile.title, bool(profile.products))
    result = BuildResult(cards=len(cards), sheets=len(job.outputs), prune_within=folder)
    board_findings = job.board_renderer.findings if job.board_renderer is not None else []
    result.findings = merge(findings + renderer.findings + board_findings + (converter.findings if converter else [])
                            + job.findings)
    if not dry:
        write_manifest(job, cards, result.findings)
        result.outputs = list(job.outputs)
        result.remove = stale_files(folder, {p for p, _ in job.outputs})
    return result


def export_game(game: Game, layouts: LayoutSet, target: str, out_dir: Path, *, jobs: int | None = None,
                url_prefix: str | None = None, max_image_pixels: int | None = DEFAULT_MAX_PIXELS,
                image_dpi: int | None = None, source: GameSource | None = None) -> BuildResult:
    """Export (:func:`render_export`) and write the files, whatever was found."""
    return write_result(render_export(game, layouts, target, out_dir, jobs=jobs, url_prefix=url_prefix,
                                      max_image_pixels=max_image_pixels, image_dpi=image_dpi, source=source))


def _palette_overrides(profile: Profile, game: Game) -> InkSettings:
    """The profile's ink settings with ``cmyk`` keys (palette names or #RRGGBB) as #RRGGBB."""
    ink = profile.ink
    palette = {k: str(v).upper() for k, v in (game.manifest.get("colors") or {}).items()}
    palette.update({"black": "#000000", "white": "#FFFFFF"})
    resolved = {}
    for key, value in ink.overrides.items():
        if re.fullmatch(r"#[0-9A-Fa-f]{6}", key):
            resolved[key.upper()] = value
        elif key in palette:
            resolved[palette[key]] = value
        else:
            raise ProfileError(f"cmyk names {key!r}, which is not a colour of {game.id}",
                               location=profile.where(f"cmyk.{key}"),
                               hint=did_you_mean(key, palette, "use a name from [colors] in game.toml, or #RRGGBB"))
    return replace(ink, overrides=resolved)


def _draws_pieces(profile: Profile) -> bool:
    """Whether an export for ``profile`` draws the game's boards and tokens (boards.toml): one
    with products, or a Tabletop Simulator table."""
    return bool(profile.products) or profile.output == "tts"


def _has_products(target: str, game: Game) -> bool:
    """Whether ``target``'s export draws boards and tokens (:func:`_draws_pieces`; False when
    its profile cannot be read: the export reports why)."""
    try:
        return _draws_pieces(load_profile(target, game))
    except ProfileError:
        return False


class ExportOutput:
    """``export NAME``: one stage per target: those the game's manifest lists under
    ``[targets]`` (unless ``settings.manifest_targets`` is off), then ``settings.targets``."""

    name = "export"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings
        inputs = job.data_files() + job.card_template_files() + job.font_files()
        targets = list(manifest_targets(job.game)) if settings.manifest_targets else []
        targets += [t for t in settings.targets if t not in targets]
        stages = []
        for target in targets:
            profile_file = Path(target)
            extra = [profile_file] if profile_file.suffix == ".toml" and profile_file.is_file() else []
            if _has_products(target, job.game):  # it draws the boards and tokens too
                extra += [p for p in job.template_files() if p.name == "boards.toml"]

            def render(dry: bool, target: str = target) -> BuildResult:
                return render_export(job.game, game_layouts(job.game, job.source), target, job.out_dir,
                                     url_prefix=settings.url_prefix, max_image_pixels=settings.max_image_pixels,
                                     dry=dry, jobs=settings.jobs, image_dpi=settings.image_dpi,
                                     source=job.source, boxes=settings.boxes)

            stages.append(Stage(f"export {target}", inputs + extra, render,
                                (settings.url_prefix, settings.max_image_pixels) + dpi_option(settings.image_dpi, None)
                                + (("boxes",) if settings.boxes else ())))
        return stages
