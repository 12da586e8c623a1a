"""What ``build`` and ``check`` make of their options, without Typer or Rich: the defaults
their options share, the conversions of lengths and offsets, the settings of a build and of
its dry run, and where the games and their outputs are. The commands (Typer) and the quick
answer of a run with nothing to do (:mod:`pnp.cli.startup`) both use these, so that the two
make the same settings from the same command line."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import PnpError
from ..core.units import parse_length
from ..model.options import LoadOptions

PAPER = "letter"
"""Default ``--paper`` of the sheets (and of the rulebook's pages)."""
FLIP = "long"
"""Default ``--flip``."""
BACK_OFFSET = "0,0"
"""Default ``--back-offset``, X,Y in mm."""
MARGIN = "5mm"
"""Default ``--margin``."""
GAP = "0mm"
"""Default ``--gap``."""
BLEED = "0.125in"
"""Default ``--bleed``."""
ENCODING = "utf-8"
"""Default ``--encoding`` of the CSV files."""
CORNER_RADIUS = "0.125in"
"""Default ``--corner-radius`` of print-and-cut card paths."""
CARD_THICKNESS = "0.30mm"
"""Default ``--card-thickness`` of tuck boxes (a 300 gsm card)."""
SLEEVE_THICKNESS = "0mm"
"""Default ``--sleeve-thickness``."""
SLEEVE_SIZE = "none"
"""Default ``--sleeve-size`` (no sleeves)."""
BOX_TOLERANCE = "1mm"
"""Default ``--box-tolerance``."""


def physical(cut_lines: bool, cut: str | None, corner_radius: float, boxes: bool, card_thickness: float,
             sleeve_thickness: float, sleeve_size, box_tolerance: float) -> dict:
    """The physical edition's options as :class:`~pnp.outputs.base.BuildSettings` fields (pt),
    which ``build`` and ``check`` take alike (docs/cutting.md)."""
    return dict(cut_lines=cut_lines, cut=cut, corner_radius=corner_radius, boxes=boxes,
                card_thickness=card_thickness, sleeve_thickness=sleeve_thickness, sleeve_size=sleeve_size,
                box_tolerance=box_tolerance)


def bad_parameter(message: str) -> Exception:
    """typer.BadParameter (which names the option) of ``message``; Typer is imported only here,
    when a value is refused."""
    import typer

    return typer.BadParameter(message)


def length(value) -> float:
    """``--margin 5mm``: a length with a unit (``5mm``, ``0.125in``, ``9pt``) in pt, never
    negative. Raises typer.BadParameter, which names the option."""
    if isinstance(value, float):
        return value
    try:
        result = parse_length(str(value))
    except ValueError as exc:
        raise bad_parameter(str(exc)) from None
    if result < 0:
        raise bad_parameter(f"{value!r} is negative")
    return result


CARD_THICKNESS_RANGE = ("0.05mm", "5mm")
"""The least and greatest ``--card-thickness``: thinner than 0.05 mm is thinner than any paper
(80 gsm office paper is about 0.10 mm), thicker than 5 mm is no card."""
SLEEVE_THICKNESS_MOST = "1mm"
"""The greatest ``--sleeve-thickness``: a thick sleeve adds about 0.1 mm to a card."""


def _bounded(value, least: str | None, most: str, noun: str, hint: str) -> float:
    """``value`` as :func:`length` reads it, refused below ``least`` (None: 0 is allowed) or
    above ``most``, said as the other option errors say a bound. Raises typer.BadParameter."""
    result = length(value)
    shown = repr(str(value))
    if least is not None and result < parse_length(least) - 1e-9:
        raise bad_parameter(f"{shown} is below the least {noun}, {least.removesuffix('mm')} mm; {hint}")
    if result > parse_length(most) + 1e-9:
        raise bad_parameter(f"{shown} is above the greatest {noun}, {most.removesuffix('mm')} mm; {hint}")
    return result


def card_thickness(value) -> float:
    """``--card-thickness 0.30mm``: one card's thickness in pt, from 0.05 mm to 5 mm (a box
    sized for cards of no thickness would hold none). Raises typer.BadParameter."""
    if isinstance(value, float):
        return value
    return _bounded(value, CARD_THICKNESS_RANGE[0], CARD_THICKNESS_RANGE[1], "card thickness",
                    "300 gsm card is about 0.30 mm thick: measure ten cards with a ruler and divide by ten")


def sleeve_thickness(value) -> float:
    """``--sleeve-thickness 0.08mm``: what a sleeve adds to each card's thickness in pt, from 0
    (no sleeves) to 1 mm. Raises typer.BadParameter."""
    if isinstance(value, float):
        return value
    return _bounded(value, None, SLEEVE_THICKNESS_MOST, "sleeve thickness",
                    "a sleeve adds about 0.04 to 0.1 mm to a card: measure ten sleeved cards, subtract ten bare "
                    "ones and divide by ten")


def offset(value) -> tuple[float, float]:
    """``--back-offset X,Y``: millimetres (``0.5,-0.3``) or lengths with units (``0.02in,0in``),
    at most 10 mm each way, in pt. Raises typer.BadParameter, which names the option."""
    if isinstance(value, tuple):
        return value
    parts = [p.strip() for p in str(value).split(",")]
    if len(parts) != 2:
        raise bad_parameter(f"{value!r} needs two values, X,Y: for example 0.5,-0.3 (mm) or 0.02in,0in")
    out = []
    for part in parts:
        try:
            out.append(parse_length(part if part[-1:].isalpha() else part + "mm"))
        except (ValueError, IndexError):
            raise bad_parameter(f"{part!r} is not a length: give millimetres (0.5) or a length with a unit "
                                "(0.02in)") from None
    if any(abs(v) > parse_length("10mm") for v in out):
        raise bad_parameter(f"{value!r} moves the backs more than 10 mm; printers misregister by a millimetre "
                            "or two, measure it on the calibration sheet")
    return out[0], out[1]


def sheet_options(paper: str, flip: str, gutter_fold: bool, back_offset: tuple[float, float], margin: float,
                  gap: float, bleed: float, contact_sheets: bool | None):
    """The :class:`~pnp.outputs.base.SheetOptions` of the sheet options ``build`` and ``check``
    share (a check is a dry run of the same build, so it takes the same options); ``paper`` and
    ``flip`` as their names (``letter``, ``long``), lengths in pt; ``contact_sheets`` None:
    as each game's ``[build] contact_sheets`` says."""
    from ..outputs.base import SheetOptions

    return SheetOptions(paper=paper, flip=flip, gutter_fold=gutter_fold, back_offset=back_offset,
                        margin=margin, gap=gap, bleed=bleed, contact_sheets=contact_sheets)


def build_settings(opts, max_image_pixels: int | None, force: bool, strict: bool, jobs: int | None,
                   image_dpi: int | None, only: list[str] | None = None, changed_since: str | None = None,
                   stamp: bool | None = None, **extra):
    """The :class:`~pnp.outputs.base.BuildSettings` of ``pnp build``; with ``only``, a quick
    card sheet of those decks or cards; with ``changed_since``, sheets of the cards, boards,
    tokens and dice changed since that reference (the two exclude each other: PnpError). ``stamp`` None takes the
    game's own ``[build] stamp``; ``extra`` are further settings by their field names (the
    physical edition's ``cut_lines``, ``cut``, ``boxes``, ...); ``simulate`` or ``ink`` among
    them make only that preview or edition."""
    from ..outputs.base import BuildSettings

    if changed_since is not None and only:
        raise PnpError("give --only or --changed-since, not both",
                       hint="--only makes a sheet of named cards, --changed-since of the changed ones",
                       rule="cli.option")
    simulate, ink = extra.pop("simulate", None), extra.pop("ink", None)
    if simulate is not None or ink is not None:  # only the preview or the edition asked for
        return BuildSettings(opts, max_image_pixels, force, strict, jobs, outputs=("accessibility", "editions"),
                             manifest_targets=False, image_dpi=image_dpi, simulate=simulate, ink=ink)
    common = dict(image_dpi=image_dpi, stamp=stamp, **extra)
    if changed_since is not None:
        return BuildSettings(opts, max_image_pixels, force, strict, jobs, outputs=("cards", "boards"),
                             manifest_targets=False, changed_since=changed_since, **common)
    if only:
        return BuildSettings(opts, max_image_pixels, force, strict, jobs, outputs=("cards",),
                             manifest_targets=False, only=tuple(only), **common)
    return BuildSettings(opts, max_image_pixels, force, strict, jobs, **common)


def check_settings(opts, max_image_pixels: int | None, jobs: int | None, target: list[str] | None,
                   image_dpi: int | None, stamp: bool | None = None, changed_since: str | None = None,
                   strict: bool = False, **extra):
    """The :class:`~pnp.outputs.base.BuildSettings` of ``pnp check``: the build it mirrors
    (``extra`` as for :func:`build_settings`); ``strict`` that of ``build --strict``, which
    is not a draft (missing art is an error, not a placeholder)."""
    from ..outputs.base import BuildSettings

    return BuildSettings(opts, max_image_pixels, jobs=jobs, strict=strict, targets=tuple(target or ()),
                         image_dpi=image_dpi, stamp=stamp, changed_since=changed_since, **extra)


def default_sheet_options(contact_sheets: bool | None):
    """:func:`sheet_options` of the defaults above: what ``build`` and ``check`` use when no
    sheet option is given."""
    return sheet_options(PAPER, FLIP, False, offset(BACK_OFFSET), length(MARGIN), length(GAP), length(BLEED),
                         contact_sheets)


def parse_delimiter(value: str | None) -> str | None:
    """--delimiter as typed: one character, or tab written as 'tab' or a backslash-t."""
    if value is None:
        return None
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}
    value = named.get(value.lower(), value)
    if len(value) != 1:
        raise PnpError(f"--delimiter {value!r} is not one character",
                       hint="use --delimiter ';', --delimiter , or --delimiter tab", rule="cli.option")
    return value


def load_options(encoding: str, delimiter: str | None) -> LoadOptions:
    """The :class:`~pnp.model.options.LoadOptions` of ``--encoding`` and ``--delimiter``."""
    return LoadOptions(encoding=encoding, delimiter=parse_delimiter(delimiter))


def resolve_games(games: list[str] | None):
    """The :class:`~pnp.model.games.GameSource` of each GAME argument. With none, the game
    folder the command runs in (the current directory or a parent holding game.toml), else
    every bundled game."""
    from ..model.games import bundled_ids, find_game, local_game

    if not games:
        here = local_game()
        if here is not None:
            return [here]
    names = games or bundled_ids()
    if not names:
        raise PnpError("no bundled games found", hint="give a path to a game folder", rule="game.not-found")
    return [find_game(g) for g in names]


def output_root(output: Path | None, games: list[str] | None) -> Path:
    """Where outputs go: ``--output`` when given; inside a game folder with no GAME argument,
    that folder's own ``output/``; else ``output/`` here."""
    if output is not None:
        return output
    if not games:
        from ..model.games import local_game

        here = local_game()
        if here is not None:
            return Path(here.display) / "output"
    return Path("output")


def duplicate_id(sources) -> str | None:
    """An id two of ``sources`` share (their files would overwrite each other), else None."""
    from ..model.games import game_id

    ids = [game_id(source.path) for source in sources]
    return next((gid for gid in ids if gid is not None and ids.count(gid) > 1), None)
