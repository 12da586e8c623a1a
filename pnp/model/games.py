"""Finding game folders: the bundled games, or a designer's folder given by path, and where
each game's designs (its templates folder) live."""

from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path

from ..core import tomlcache
from ..core.errors import PnpError
from ..core.suggest import did_you_mean

_HERE = Path(__file__).resolve().parent.parent
LAYOUTS_FILE = "layouts.toml"
"""The file in a game's templates folder that holds its card designs."""
BOARDS_FILE = "boards.toml"
"""The file in a game's templates folder that holds board, token and die designs."""
RULEBOOK_FILE = "rulebook.md.j2"
"""The file name of a game's rulebook template, inside its templates folder."""


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
                       hint="a game folder holds game.toml; see docs/game-format.md", rule="game.not-found")
    known = bundled_ids()
    starts = [g for g in known if game and g.startswith(game.lower())]
    guess = f"did you mean {starts[0]!r}?" if len(starts) == 1 else did_you_mean(game, known)
    raise PnpError(f"no game {game!r}", hint=(guess + " " if guess else "") +
                   f"give a bundled game ({', '.join(known)}) or a path to a game folder",
                   rule="game.not-found")


def templates_for(path: Path, display: str, game_id: str) -> tuple[Path, str]:
    """The templates folder of a game and how messages name that folder.

    A game folder keeps its own designs in ``<folder>/templates/``. A bundled game, or a copy of
    one without a templates folder of its own, uses the bundled ``templates/<id>/``.
    """
    own = Path(path) / "templates"
    bundled = templates_root() / game_id
    if Path(path).resolve().parent == data_root().resolve() or (not own.is_dir() and bundled.is_dir()):
        return bundled, f"templates/{game_id}"
    return own, f"{display}/templates"


def folder_label(display: str) -> str:
    """How prose names a game folder that messages name ``display`` (the path as typed, or
    ``card_data/<id>``): ``display`` itself when it ends in the folder's name
    (``card_data/assemble``, ``../mygame``), else the folder's own name, for a command run
    inside it (``.`` in ``mygame/`` is ``mygame``)."""
    name = Path(display).name
    return display if name not in ("", ".", "..") else Path(os.path.abspath(display)).name


@dataclass(frozen=True)
class GameSource:
    """One game as a command was given it: the folder (``path``) and how messages name it
    (``display``: ``card_data/<id>`` for a bundled game, the path as typed otherwise), and its
    templates folder with that folder's display name (``templates/<id>`` or
    ``<display>/templates``). ``templates_dir`` is None when the manifest cannot be read for
    the game's id (loading the game then says why)."""

    path: Path
    display: str
    templates_dir: Path | None = None
    templates_display: str = ""

    @property
    def label(self) -> str:
        """How prose names the game folder (:func:`folder_label`): ``mygame`` rather than ``.``."""
        return folder_label(self.display)

    @property
    def roots(self) -> dict[str, Path]:
        """The folders the game's files are read from, by name (``game``, ``templates``), as a
        build's record keys place its input files (:func:`pnp.core.files.inputs_key`)."""
        roots = {"game": self.path}
        if self.templates_dir is not None:
            roots["templates"] = self.templates_dir
        return roots

    @property
    def layouts_display(self) -> str:
        """How messages name the card layouts file (``templates/<id>/layouts.toml``)."""
        return f"{self.templates_display}/{LAYOUTS_FILE}"


_IDS: dict[str, str | None] = {}
""":func:`game_id`'s answers by manifest text: one command asks for a game's id several times
(finding its templates, guarding against two games with one id, finding its outputs), and a
large manifest takes longer to parse than to read."""

_IDS_KEPT = 32
"""Manifest texts :data:`_IDS` keeps (a long-running preview sees a new text at every save)."""


def game_id(path: Path) -> str | None:
    """A game folder's id from its manifest, or None when it cannot be read (loading the game
    says why)."""
    try:
        text = (Path(path) / "game.toml").read_text(encoding="utf-8-sig")
    except (OSError, ValueError):
        return None
    if text not in _IDS:
        try:
            gid = str(tomlcache.loads(text)["game"]["id"])
        except (ValueError, KeyError, TypeError):
            gid = None
        if len(_IDS) >= _IDS_KEPT:
            _IDS.clear()
        _IDS[text] = gid
    return _IDS[text]


def game_languages(path: Path) -> tuple[str, ...]:
    """The languages a game folder's manifest declares (``[game] languages``, the source
    first), or () when it declares none or cannot be read (loading the game says why)."""
    try:
        langs = tomlcache.loads((Path(path) / "game.toml").read_text(encoding="utf-8-sig"))["game"].get("languages", [])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ()
    return tuple(str(code) for code in langs) if isinstance(langs, list) else ()


def source_of(path: Path, display: str) -> GameSource:
    """The :class:`GameSource` of a game folder, its templates folder found as every command
    finds it (:func:`templates_for`)."""
    gid = game_id(path)
    if gid is None:
        return GameSource(Path(path), display)
    return GameSource(Path(path), display, *templates_for(path, display, gid))


def local_game(start: Path | None = None) -> GameSource | None:
    """The game folder that ``start`` (default: the current directory) is in: the nearest of it
    and its parents holding ``game.toml``, named relative to ``start`` (``.``, ``..``); None
    outside any game folder."""
    here = Path.cwd() if start is None else Path(start)
    for folder in (here, *here.resolve().parents):
        if (folder / "game.toml").is_file():
            return source_of(folder, os.path.relpath(folder, here))
    return None


def find_game(game: str) -> GameSource:
    """The :class:`GameSource` of a GAME argument: a bundled id or a path to a game folder.
    Raises PnpError naming the bundled ids when it is neither."""
    return source_of(*resolve(game))
