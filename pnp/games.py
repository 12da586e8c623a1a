"""Finding game folders: the bundled games, or a designer's folder given by path."""

from __future__ import annotations

from pathlib import Path

from .errors import PnpError

_HERE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder that holds the bundled game folders (``card_data/``).

    In an installed wheel it is inside the package; in a source checkout it is the repository's
    ``card_data/``.
    """
    bundled = _HERE / "_bundled" / "card_data"
    return bundled if bundled.is_dir() else _HERE.parent / "card_data"


def templates_root() -> Path:
    """The folder that holds the bundled games' templates (``templates/``)."""
    bundled = _HERE / "_bundled" / "templates"
    return bundled if bundled.is_dir() else _HERE.parent / "templates"


def bundled_ids() -> list[str]:
    """Ids of the bundled games, in name order."""
    root = data_root()
    return sorted(p.name for p in root.iterdir() if (p / "game.toml").is_file()) if root.is_dir() else []


def resolve(game: str) -> tuple[Path, str]:
    """Turn a GAME argument (a bundled id or a path to a game folder) into (folder, display name).

    Raises PnpError naming the bundled ids when it is neither.
    """
    candidate = Path(game)
    if (candidate / "game.toml").is_file():
        return candidate, game.rstrip("/")
    if game in bundled_ids():
        return data_root() / game, f"card_data/{game}"
    if candidate.exists():
        raise PnpError(f"{game}: no game.toml in this folder",
                       hint="a game folder holds game.toml; see docs/game-format.md")
    ids = ", ".join(bundled_ids())
    raise PnpError(f"no game {game!r}", hint=f"give a bundled game ({ids}) or a path to a game folder")


def templates_for(path: Path, display: str, game_id: str) -> tuple[Path, str]:
    """The templates folder of a game and how its layouts file is named in messages.

    A game folder keeps its own designs in ``<folder>/templates/``. A bundled game, or a copy of
    one without a templates folder of its own, uses the bundled ``templates/<id>/``.
    """
    own = Path(path) / "templates"
    bundled = templates_root() / game_id
    if Path(path).resolve().parent == data_root().resolve() or (not own.is_dir() and bundled.is_dir()):
        return bundled, f"templates/{game_id}/layouts.toml"
    return own, f"{display}/templates/layouts.toml"
