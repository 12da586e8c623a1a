"""``pnp i18n``: a game's translation catalogues (``i18n/<lang>.po``): ``extract`` writes or
updates them with every translatable string, ``status`` shows how much of each language is
translated (docs/translating.md)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from .app import i18n_app
from .options import DelimiterOpt, EncodingOpt, GameArg, load_options
from .output import out, resolve_games



@i18n_app.command()
def extract(games: GameArg = None, encoding: EncodingOpt = "utf-8", delimiter: DelimiterOpt = None) -> None:
    """Write or update i18n/<lang>.po of each language the game lists after its source: every
    translatable cell and rulebook sentence, existing translations kept, changed sources marked
    fuzzy with the earlier source beside them, strings no longer used kept as obsolete."""
    from ..core.files import write_atomic
    from ..model.i18n import extract as extract_catalogues
    from ..model.load import load_game

    for source in resolve_games(games):
        game = load_game(source.path, source.display, load_options(encoding, delimiter))
        for lang, path, data, stats in extract_catalogues(game, source.templates_dir, source.templates_display):
            before = path.read_bytes() if path.is_file() else None
            if before != data:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(path, data)
            what = "unchanged" if before == data else ("written" if before is None else "updated")
            out.print(f"{escape(source.display)}/i18n/{lang}.po {what}: {stats.kept} kept, {stats.added} new, "
                      f"{stats.stale} to review (fuzzy), {stats.dropped} obsolete", highlight=False)


@i18n_app.command()
def status(games: GameArg = None, encoding: EncodingOpt = "utf-8", delimiter: DelimiterOpt = None) -> None:
    """Show, per language, how many of the game's translatable strings are translated, stale
    (the source changed since) and missing."""
    from ..model.i18n import coverage
    from ..model.load import load_game

    for source in resolve_games(games):
        game = load_game(source.path, source.display, load_options(encoding, delimiter))
        table = Table(title=escape(f"{game.title}: translations"), title_justify="left")
        for name in ("language", "strings", "translated", "stale", "missing", "coverage"):
            table.add_column(name, justify="left" if name == "language" else "right")
        if not game.languages:
            out.print(f"{escape(game.title)}: no languages declared (docs/translating.md)")
            continue
        for i, lang in enumerate(game.languages):
            c = coverage(game, lang, source.templates_dir, source.templates_display)
            share = f"{100 * c['translated'] / c['strings']:.0f} %" if c["strings"] else "-"
            table.add_row(lang + (" (source)" if i == 0 else ""), str(c["strings"]), str(c["translated"]),
                          str(c["stale"]), str(c["missing"]), share)
        out.print(table)
