"""New game folders (``pnp new``): a working game copied from a starter, ready for ``pnp check``
and ``pnp build``.

The starters live in ``scaffolds/``: ``minimal`` is a whole game (one deck, its layouts, one
rule, a rulebook template and a placeholder picture); ``deck`` and ``board-game`` add files to
it, and a file named ``NAME.append`` is added to the end of the minimal game's ``NAME``. In
every text file ``__ID__`` becomes the game's id and ``__TITLE__`` its title.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

from ..core.errors import PnpError
from ..core.suggest import did_you_mean

SCAFFOLDS = Path(__file__).with_name("scaffolds")
STARTERS = ("minimal", "deck", "board-game")
"""What ``--from`` takes: one deck; two decks with their own sizes and backs; a deck, a board
and tokens."""
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
TEXT_SUFFIXES = {".toml", ".csv", ".j2", ".md"}


def game_id(name: str) -> str:
    """The game id for the folder NAME (its last part): lower case, accents dropped (``Über``
    → ``uber``), words joined by ``-``. Raises PnpError when nothing of it can make an id."""
    plain = unicodedata.normalize("NFKD", Path(name).name).encode("ascii", "ignore").decode()
    gid = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    if not gid or not ID_RE.match(gid):
        raise PnpError(f"{name!r} cannot be a game's name",
                       hint="use letters, digits and dashes: pnp new tide-pools", rule="new.game")
    return gid


def title_of(name: str) -> str:
    """The title for the folder NAME (its last part), its words as typed with a capital first
    letter: ``tide-pools`` → ``Tide Pools``, ``Über Spiel`` → ``Über Spiel``. Quotes and
    backslashes are left out (the title goes into TOML strings)."""
    words = re.split(r"[\s_-]+", Path(name).name.replace('"', "").replace("\\", ""))
    return " ".join(word[:1].upper() + word[1:] for word in words if word)


def new_game(dest: Path, starter: str = "minimal") -> list[Path]:
    """Write a new game folder at ``dest`` from ``starter`` (one of :data:`STARTERS`); returns
    the files written, relative to ``dest``. Raises PnpError when ``dest`` exists (nothing is
    ever overwritten) or the starter is unknown."""
    if starter not in STARTERS:
        raise PnpError(f"there is no starter {starter!r}",
                       hint=did_you_mean(starter, STARTERS, "starters: " + ", ".join(STARTERS)), rule="new.game")
    if dest.exists():
        raise PnpError(f"{dest} already exists; pnp new never writes over a folder",
                       hint="give a new name, or remove the folder first", rule="new.game")
    gid = game_id(str(dest))
    layers = [SCAFFOLDS / "minimal"] + ([SCAFFOLDS / starter] if starter != "minimal" else [])
    files: dict[Path, bytes] = {}
    for layer in layers:
        for path in sorted(p for p in layer.rglob("*") if p.is_file()):
            rel = path.relative_to(layer)
            data = path.read_bytes()
            if rel.suffix == ".append":
                rel = rel.with_suffix("")
                files[rel] = files.get(rel, b"") + data
            else:
                files[rel] = data
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    for rel, data in files.items():
        target = tmp / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.suffix in TEXT_SUFFIXES:
            data = data.decode("utf-8").replace("__ID__", gid).replace("__TITLE__", title_of(str(dest))).encode("utf-8")
        target.write_bytes(data)
    tmp.rename(dest)  # the folder appears whole or not at all
    return sorted(files)
