"""Physical-edition exports: print-shop files and Tabletop Simulator decks.

A target is a named profile kept as data (:mod:`.profiles`). Every card is drawn once by the
:class:`~pnp.render.renderer.Renderer` onto a one-card PDF page whose MediaBox is the trim plus
the profile's bleed (:mod:`.pages`); the profile's writer (:mod:`.writers`) turns the pages into
its files: PDFs, PNGs rendered at exactly the profile's pixel size, or Tabletop Simulator deck
sheets. Every export also writes ``manifest.csv`` and ``manifest.json`` (:mod:`.manifest`).
Text inside the profile's safe zone is a finding, measured on the drawn pages
(:mod:`.preflight`).

Outputs go to ``<out_dir>/export/<target>/``; ``out_dir`` is the game's output folder
(``output/<game>``). Everything is rendered in memory first and written atomically.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ...core.files import write_atomic
from ...core.findings import Finding
from ...core.parallel import default_workers
from ...core.suggest import did_you_mean
from ...design.layouts import LayoutSet, game_layouts
from ...model.game import Game
from ...model.pieces import card_instances
from ...render.art import DEFAULT_MAX_PIXELS
from ...render.color import InkConverter, InkSettings
from ...render.renderer import Renderer
from ..base import BuildResult, OutputJob, Stage
from .job import ExportJob
from .manifest import stale_files, write_manifest
from .pages import card_page, decks_of
from .profiles import Profile, ProfileError, bundled_profiles, load_profile, manifest_targets
from .writers import WRITERS
from .writers.tts import tts_card_pixels

__all__ = ["ExportOutput", "ProfileError", "bundled_profiles", "card_page", "export_game", "load_profile",
           "manifest_targets", "tts_card_pixels"]


def export_game(game: Game, layouts: LayoutSet, target: str, out_dir: Path, *, jobs: int | None = None,
                url_prefix: str | None = None, max_image_pixels: int | None = DEFAULT_MAX_PIXELS) -> BuildResult:
    """Export every deck of ``game`` for ``target`` (a profile name or a path to a profile
    TOML file) into ``out_dir/export/<target>/``, where ``out_dir`` is the game's output folder.

    Writes the target's files, ``manifest.csv`` and ``manifest.json``; files a previous export
    of this target listed and this one does not are removed. ``jobs`` is how many processes
    rasterise PNGs (default: up to 2); ``url_prefix`` overrides a Tabletop Simulator profile's
    image URLs. Art over ``max_image_pixels`` pixels is refused (None lifts the limit). Returns a
    BuildResult: files written, findings (drawing, colour conversion,
    safe zone), ``cards`` (card instances) and ``sheets`` (files holding cards). Raises
    ProfileError, BuildError or LayoutError; on an error no file is written.
    """
    profile = load_profile(target, game)
    if url_prefix is not None:
        profile = replace(profile, url_prefix=url_prefix)
    folder = Path(out_dir) / "export" / profile.name
    converter = None
    if profile.color == "cmyk":
        converter = InkConverter(_palette_overrides(profile, game), profile.name)
    renderer = Renderer(layouts, game.path, min_text_size=profile.min_text_size,
                        color_convert=converter.convert if converter else None, max_image_pixels=max_image_pixels)
    if converter is not None:
        converter.art_name = renderer.art_name
    job = ExportJob(game, layouts, profile, folder, renderer, converter)
    cards = card_instances(game)
    workers = jobs if jobs is not None else default_workers()
    WRITERS[profile.output](job, decks_of(game, cards), workers)
    sheets = len(job.outputs)
    findings = _once(renderer.findings + (converter.findings if converter else []) + job.findings)
    write_manifest(job, cards, findings)
    stale = stale_files(folder, {p for p, _ in job.outputs})
    result = BuildResult(cards=len(cards), sheets=sheets)
    for path, data in job.outputs:
        write_atomic(path, data)
        result.files.append(path)
    for path in stale:
        path.unlink(missing_ok=True)
        parent = path.parent
        while parent != folder and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    result.findings = findings
    return result


def _once(findings: list[Finding]) -> list[Finding]:
    """Each finding said once (the faces and backs of a deck can find the same thing twice);
    every finding already names its card without a copy number."""
    out, seen = [], set()
    for f in findings:
        key = (f.severity, f.rule, f.location, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


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


class ExportOutput:
    """``export NAME``: one stage per target the game's manifest lists under ``[targets]``."""

    name = "export"

    def stages(self, job: OutputJob) -> list[Stage]:
        inputs = job.data_files() + job.card_template_files() + job.font_files()
        stages = []
        for target in manifest_targets(job.game):
            def run(target: str = target) -> BuildResult:
                return export_game(job.game, game_layouts(job.game, job.source), target, job.out_dir,
                                   max_image_pixels=job.settings.max_image_pixels)

            stages.append(Stage(f"export {target}", inputs, run))
        return stages
