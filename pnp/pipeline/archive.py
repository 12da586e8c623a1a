"""The archive of a release: ``releases/<version>.zip`` beside ``releases/<version>.json``,
every file the release's build read from the game folder (game.toml, the tables, layouts, art,
icons, fonts: :func:`pnp.pipeline.versions.data_files`) and from its templates folder, so that
``pnp diff --visual --since <version>`` draws the cards of that version again, without git
(docs/versions.md).

Inside the zip the game folder's files are under ``game/`` and a templates folder outside the
game folder (a bundled game's ``templates/<id>/``) under ``templates/``. The zip is
deterministic: entries in name order, each dated 1980-01-01 00:00 with mode 0644, deflated at
level 9, no comment; the same files make the same bytes. The release's JSON keeps the zip's
name, SHA-256 and where its templates folder is (``archive``: ``file``, ``sha256``,
``templates``).
"""

from __future__ import annotations

import hashlib
import io
import tempfile
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import PnpError, explain
from ..core.files import RELEASES, game_files
from ..model.game import Game
from ..model.games import GameSource

GAME = "game"
TEMPLATES = "templates"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""The date of every entry: the earliest a zip can hold, so the bytes do not depend on when."""
RULE = "versions.visual"


def archive_files(game: Game, source: GameSource, read: list[Path]) -> tuple[dict[str, Path], str | None]:
    """The files of a release's archive, name in the zip -> file, in name order: ``read`` (the
    game folder's files the build reads) under ``game/``, and every file of the templates
    folder (under ``game/`` when it is inside the game folder, else ``templates/``); and the
    templates folder's path in the zip (None when the game has none)."""
    root = game.path.resolve()
    files = {f"{GAME}/{p.resolve().relative_to(root).as_posix()}": p for p in read}
    where = None
    templates = source.templates_dir
    if templates is not None and templates.is_dir():
        t = templates.resolve()
        where = f"{GAME}/{t.relative_to(root).as_posix()}" if t.is_relative_to(root) else TEMPLATES
        files.update({f"{where}/{p.resolve().relative_to(t).as_posix()}": p for p in game_files(templates)})
    return dict(sorted(files.items())), where


def archive_bytes(files: dict[str, Path]) -> bytes:
    """The deterministic zip (see the module docstring) of ``files`` (name -> file)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            info.create_system = 3  # unix, whatever system wrote it: the mode above is a unix one
            zf.writestr(info, files[name].read_bytes(), compresslevel=9)
    return buf.getvalue()


def archive_path(game_dir: Path, version: str) -> Path:
    """``releases/<version>.zip`` of the game folder."""
    return game_dir / RELEASES / f"{version}.zip"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def unpack(source: GameSource, version: str, release: dict, option: str = "--since"):
    """The game as release ``version`` (its JSON ``release``) was built: the release's archive
    checked against the SHA-256 the JSON holds and unpacked into a scratch folder, yielded as a
    :class:`GameSource` that lasts until the block ends. Raises PnpError (``versions.visual``)
    when the release keeps no archive (made by an earlier pnp), when the zip is missing, when
    it is not the zip the release wrote, or when it cannot be unpacked (truncated or corrupt)."""
    kept = release.get("archive")
    path = archive_path(source.path, version)
    label = f"--visual {option} {version}"
    if not isinstance(kept, dict) or not isinstance(kept.get("sha256"), str):
        raise PnpError(f"{label}: release {version} keeps no archive of its files to draw the old cards from",
                       rule=RULE, hint="a release made before pnp kept archives holds the cards' cells and hashes only; give "
                       "--since a git revision of that version (such as its tag), or compare with a later release")
    try:
        data = path.read_bytes()
    except OSError:
        raise PnpError(f"{label}: {path} is missing (release {version} keeps its files there)", rule=RULE,
                       hint=f"put {path.name} back beside {version}.json (from a backup or wherever the game "
                       "is kept), or give --since a git revision of that version") from None
    if sha256(data) != kept["sha256"]:
        raise PnpError(f"{label}: {path} is not the archive release {version} wrote (its SHA-256 differs "
                       f"from {version}.json's)", rule=RULE,
                       hint=f"put the {path.name} pnp release wrote back (from a backup), or give --since a git "
                       "revision of that version")
    templates = kept.get("templates")
    with tempfile.TemporaryDirectory(prefix="pnp-release-") as tmp:
        root = Path(tmp)
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                for name in zf.namelist():
                    if name.startswith("/") or ".." in name.split("/"):
                        raise PnpError(f"{label}: {path} holds {name!r}, a name outside its folders", rule=RULE,
                                       hint="put the archive pnp release wrote back, or release again")
                zf.extractall(root)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise PnpError(f"{label}: {path} cannot be unpacked: it is truncated or corrupt ({explain(exc)[0]})",
                           rule=RULE, hint=f"put the {path.name} pnp release wrote back (from a backup); or, with "
                           f"the game as it was at {version}, build and release it again (pnp release --force); "
                           "or give --since a git revision of that version") from None
        game_dir = root / GAME
        old_templates = root / templates if isinstance(templates, str) else None
        yield GameSource(game_dir, f"{source.label} at release {version}", old_templates,
                         f"{source.templates_display} at release {version}")
