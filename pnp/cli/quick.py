"""The quickest answer of ``pnp build``, ``pnp check`` and ``pnp list`` when nothing has
changed: read with :mod:`os` and :mod:`marshal` alone, before anything else of pnp is
imported.

A build or check with nothing to do is answered from the games' run snapshots
(:mod:`pnp.pipeline.fresh`), but reading those takes most of pnp's model and settings (and
JSON's regular expressions) into the process: four times the time of ``pnp --help``. So each
time a plain command line (games, ``-o``, ``-q``; see :func:`pnp.cli.startup.parse`) is
answered from a snapshot, or a plain build has just been made, the answer is also written
down, beside the snapshot, as :data:`QUICK_FILE`: the snapshot's run (the files it read,
with their size and modification time, the files it wrote and the build record), how the
command line found the game (its folder, its name in messages, its templates folder), the
text each command prints, and what it was made with (pnp's version and the size and time of
each of its modules, the Python version), under a CRC-32. :func:`answer` prints that text
again when all of it still holds. Anything else, and any file whose time is too close to the
recording to be trusted without hashing, is left to the snapshot reader, which decides as
before.

``pnp list GAME...`` is answered the same way (:func:`list_answer`): the tables it printed to a
plain output are written down in the cache folder (:data:`LIST_FOLDER`) with the games' files
and the modules of pnp and of Rich, which lays the tables out.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

from .. import __version__
from ..core.listing import BUILD_RECORD, PIECES_RECORD, run_listing

QUICK_FILE = ".pnp-quick"
"""The written-down answer, in a game's output folder (a cache, like the run snapshot)."""

FORMAT = 2
"""The layout of :data:`QUICK_FILE`'s record; another layout is not read."""

HEADER = b"pnp quick answer\n"
"""The first bytes of :data:`QUICK_FILE`; the CRC-32 of the record (8 hexadecimal digits and
a line end) and the record (:mod:`marshal`) follow: a damaged file is not read."""

MAX_BYTES = 16 << 20
"""The largest :data:`QUICK_FILE` read (a game's record is some tens of KiB)."""

PACKAGE = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The pnp package folder, links resolved (as :mod:`pnp.model.games` finds the bundled games)."""


def package_stamp(package: str = PACKAGE) -> list:
    """``[path, size, mtime_ns]`` of each module of a package (default pnp's; paths below its
    folder, ``/`` separated, sorted): an answer written by other code, or other defaults, is
    not given."""
    stamp = []
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "_bundled"))
        rel = os.path.relpath(dirpath, package).replace(os.sep, "/")
        for name in sorted(filenames):
            if name.endswith(".py"):
                named = name if rel == "." else f"{rel}/{name}"
                try:
                    st = os.stat(os.path.join(dirpath, name))
                except OSError:  # a broken link (an editor's lock file): stated as such
                    stamp.append([named, None, None])
                else:
                    stamp.append([named, st.st_size, st.st_mtime_ns])
    return stamp


def _bundled(name: str) -> str:
    """The bundled ``card_data`` or ``templates`` folder (:func:`pnp.model.games.data_root`)."""
    inside = os.path.join(PACKAGE, "_bundled", name)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(PACKAGE), name)


def _bundled_ids() -> list[str]:
    root = _bundled("card_data")
    if not os.path.isdir(root):
        return []
    return sorted(n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n, "game.toml")))


def _local_game() -> tuple[str, str] | None:
    """(folder, display) of the game folder the command runs in (:func:`pnp.model.games.local_game`)."""
    here = os.getcwd()
    folder = os.path.realpath(here)
    candidates = [here]
    while os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
        candidates.append(folder)
    for folder in candidates:
        if os.path.isfile(os.path.join(folder, "game.toml")):
            return folder, os.path.relpath(folder, here)
    return None


def resolve(games: list[str], output: str | None) -> tuple[list[tuple[str, str]], str] | None:
    """The (folder, display) of each game a command line names, and the output root, found as
    :func:`pnp.cli.settings.resolve_games` and :func:`~pnp.cli.settings.output_root` find them;
    None where those would raise (a game not found), for them to report."""
    if not games:
        here = _local_game()
        if here is not None:
            return [here], output if output is not None else os.path.join(here[1], "output")
    names = games or _bundled_ids()
    if not names:
        return None
    found = []
    for game in names:
        if os.path.isfile(os.path.join(game, "game.toml")):
            found.append((game, game.rstrip("/")))
        elif game in _bundled_ids():
            found.append((os.path.join(_bundled("card_data"), game), f"card_data/{game}"))
        else:
            return None
    return found, output if output is not None else "output"


def templates_dir(folder: str, gid: str) -> str:
    """A game folder's templates folder (:func:`pnp.model.games.templates_for`)."""
    own = os.path.join(folder, "templates")
    bundled = os.path.join(_bundled("templates"), gid)
    data_root = os.path.realpath(_bundled("card_data"))
    if os.path.dirname(os.path.realpath(folder)) == data_root or (not os.path.isdir(own) and os.path.isdir(bundled)):
        return bundled
    return own


def _stat(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _read(path: str) -> dict | None:
    """The record in ``path``, or None: absent, unreadable, too large, damaged (its CRC-32 does
    not match) or of another layout."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        start = len(HEADER) + 9
        if len(data) > MAX_BYTES or not data.startswith(HEADER) or data[start - 1:start] != b"\n":
            return None
        body = data[start:]
        if data[len(HEADER):start - 1] != b"%08x" % zlib.crc32(body):
            return None
        record = marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError, MemoryError, RecursionError):
        return None
    return record if isinstance(record, dict) and record.get("format") == FORMAT else None


def _made_here(record: dict, stamp: list) -> bool:
    """Whether ``record`` was written by this pnp (version and modules, ``stamp``: its
    :func:`package_stamp`) on this Python."""
    return record["pnp"] == __version__ and record["python"] == sys.hexversion and record["package"] == stamp


def _inputs_hold(inputs: dict, settled: int) -> bool:
    """Whether every file of ``inputs`` (path -> ``[size, mtime_ns, ...]``, or None: absent) is
    as recorded, none modified at or after ``settled`` (ns: too near the recording to trust)."""
    for name, was in inputs.items():
        now = _stat(name)
        if was is None or now is None:
            if was is not now:
                return False
        elif now != was[:2] or now[1] >= settled:  # (a snapshot's inputs also hold their SHA-256)
            return False
    return True


def _write_record(path: str, data: dict) -> bool:
    """Write ``data`` to ``path`` as :func:`_read` reads it (:data:`HEADER`, CRC-32, marshal),
    atomically, unless the file already holds it; whether the file now holds it."""
    from pathlib import Path

    from ..core.errors import PnpError
    from ..core.files import write_atomic

    try:
        body = marshal.dumps(data)
    except ValueError:
        return False
    blob = HEADER + b"%08x\n" % zlib.crc32(body) + body
    try:
        with open(path, "rb") as f:
            if f.read(len(blob) + 1) == blob:
                return True
    except OSError:
        pass
    try:
        write_atomic(Path(path), blob)
    except (OSError, PnpError):
        return False
    return True


def _holds(record: dict, folder: str, display: str, out_dir: str, stamp: list) -> bool:
    """Whether ``record`` answers a run of the game in ``folder`` (named ``display``) into
    ``out_dir``: same pnp, Python and modules; same game and templates folders; every file
    read as recorded (an input modified too near the recording is not trusted); every file
    written, the build record and the pieces snapshot, as recorded."""
    try:
        if (not _made_here(record, stamp) or record["display"] != display
                or record["folder"] != os.path.realpath(folder)):
            return False
        templates = templates_dir(folder, record["id"])
        if record["templates"] != os.path.realpath(templates):
            return False
        if record["listing"] != run_listing(folder, templates):
            return False
        if not _inputs_hold(record["inputs"], record["settled_ns"]):
            return False
        for rel, was in record["outputs"].items():
            if _stat(os.path.join(out_dir, *rel.split("/"))) != was:
                return False
        return (_stat(os.path.join(out_dir, PIECES_RECORD)) == record["pieces"]
                and _stat(os.path.join(out_dir, BUILD_RECORD)) == record["build_record"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def answer(command: str, games: list[str], output: str | None, quiet: bool) -> tuple[str, int] | None:
    """What ``pnp build`` or ``pnp check`` of ``games`` (``output``: ``-o``; ``quiet``: ``-q``)
    prints to a plain output, and its exit status, when every game's written-down answer
    holds (see the module docstring); None for the full command line to answer."""
    found = resolve(games, output)
    if found is None:
        return None
    sources, root = found
    stamp = package_stamp()
    texts = []
    bad = False
    used = set()
    key = "check" if command == "check" else "build-quiet" if quiet else "build"
    try:
        names = sorted(e.name for e in os.scandir(root) if e.is_dir())
    except OSError:
        return None
    records: dict = {}  # game folder -> the record of the output folder named by its id
    for name in names:
        candidate = _read(os.path.join(root, name, QUICK_FILE))
        if candidate is not None and candidate.get("id") == name and isinstance(candidate.get("folder"), str):
            records.setdefault(candidate["folder"], candidate)
    for folder, display in sources:
        record = records.get(os.path.realpath(folder))
        if record is None or record.get("id") in used:
            return None  # (the same game twice: the full command line says what it does)
        used.add(record["id"])
        texts_of = record.get("text")
        text = texts_of.get(key) if isinstance(texts_of, dict) else None
        if not isinstance(text, str) or not _holds(record, folder, display, os.path.join(root, record["id"]), stamp):
            return None
        texts.append(text)
        bad = bad or (command == "check" and bool(record.get("check_bad")))
    if command == "check" and len(texts) > 1:
        texts = [t + "\n" for t in texts]
    return "".join(texts), 1 if bad else 0


def record(out_dir, source, run: dict, texts: dict[str, str | None], check_bad: bool) -> None:
    """Write the answer of a plain command line for ``source`` into ``out_dir``: ``run`` is the
    snapshot's run that answered it (:func:`pnp.pipeline.fresh.fresh_run`); ``texts`` what
    ``build``, ``build -q`` and ``check`` print (keys ``build``, ``build-quiet``, ``check``; None:
    not answered here); ``check_bad`` whether check fails. Left unwritten where it cannot be."""
    from ..model.games import game_id
    from ..pipeline.fresh import SETTLE_NS

    gid = game_id(source.path)
    folder = str(source.path)
    if (gid is None or source.templates_dir is None or os.path.basename(os.path.normpath(str(out_dir))) != gid
            or run.get("report", {}).get("display") != source.display):
        return
    data = {
        "format": FORMAT, "pnp": __version__, "python": sys.hexversion, "package": package_stamp(),
        "id": gid, "folder": os.path.realpath(folder), "display": source.display,
        "templates": os.path.realpath(str(source.templates_dir)),
        "listing": run["listing"], "inputs": run["inputs"], "outputs": run["outputs"],
        "settled_ns": run["recorded_ns"] - SETTLE_NS,
        "pieces": _stat(os.path.join(str(out_dir), PIECES_RECORD)),
        "build_record": _stat(os.path.join(str(out_dir), BUILD_RECORD)),
        "text": texts, "check_bad": check_bad,
    }
    _write_record(os.path.join(str(out_dir), QUICK_FILE), data)


CACHE_ENV = "PNP_CACHE_DIR"
"""The cache folder's variable (:data:`pnp.core.cachedir.CACHE_ENV`)."""

LIST_FOLDER = "answers"
"""The sub-folder of the cache folder that holds the written-down tables of ``pnp list``."""

LIST_KEPT = 64
"""Written-down tables kept (the most recent): one per command line, folder, width and encoding."""


def cache_root() -> str | None:
    """The cache folder, as :func:`pnp.core.cachedir.cache_root` finds it; None: no cache."""
    root = os.environ.get(CACHE_ENV)
    if root is None:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pnp")
    return root or None


def _terminal_size():
    """The size Rich finds when standard output is not a terminal: the first of the standard
    streams that is one (``Console.size``), else None."""
    for fd in (0, 1, 2):
        try:
            return tuple(os.get_terminal_size(fd))
        except (AttributeError, ValueError, OSError):
            pass
    return None


def _list_key(games: list[str]) -> str:
    """What ``pnp list`` of ``games`` prints besides the games' files: the arguments, the
    folder it runs in (relative names, the local game), what Rich lays tables out by (the
    terminal the other standard streams are, ``COLUMNS``, ``LINES`` and ``TERM``) and the
    output's encoding (ASCII borders where it lacks the box characters)."""
    env = tuple(os.environ.get(name) for name in ("COLUMNS", "LINES", "TERM"))
    return repr(("list", list(games), os.getcwd(), env, _terminal_size(), getattr(sys.stdout, "encoding", None)))


def _rich_folder() -> str | None:
    """The folder the ``rich`` package would be imported from (the first of ``sys.path`` that
    holds it, links resolved), found without importing it; None when none does."""
    for entry in sys.path:
        folder = os.path.join(entry or os.getcwd(), "rich")
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return os.path.realpath(folder)
    return None


def _list_file(key: str) -> str | None:
    root = cache_root()
    return None if root is None else os.path.join(root, LIST_FOLDER, "list-%08x" % zlib.crc32(key.encode()))


def list_inputs(games: list[str]) -> dict | None:
    """The games ``pnp list`` of ``games`` finds, taken before it reads them: each one's folder
    (links resolved) and name, the listing of its folder and each file's ``[size, mtime_ns]``,
    and the time taken (ns); None when they cannot be told here (the full command reports it)."""
    import time

    now = time.time_ns()
    found = resolve(games, None)
    if found is None:
        return None
    sources, _root = found
    listing = [run_listing(folder, None) for folder, _display in sources]
    return {"games": [[os.path.realpath(f), d] for f, d in sources], "listing": listing,
            "inputs": {name: _stat(name) for names in listing for name in names}, "recorded_ns": now}


def list_answer(games: list[str]) -> str | None:
    """What ``pnp list`` of ``games`` prints to a plain output, as written down by
    :func:`remember_list`, when the games are found as then and every file of theirs, and
    pnp, is as it was; None otherwise."""
    key = _list_key(games)
    path = _list_file(key)
    record = _read(path) if path is not None else None
    if record is None:
        return None
    try:
        if (record["key"] != key or not _made_here(record, package_stamp()) or record["rich_folder"] != _rich_folder()
                or record["rich"] != package_stamp(record["rich_folder"])):
            return None  # (Rich lays the tables out: another Rich, maybe other tables)
        found = resolve(games, None)
        if found is None or [[os.path.realpath(f), d] for f, d in found[0]] != record["games"]:
            return None
        if [run_listing(f, None) for f, _d in found[0]] != record["listing"]:
            return None
        if not _inputs_hold(record["inputs"], record["settled_ns"]):
            return None
        if any(os.path.realpath(named) != real for named, real in record["named"].items()):
            return None  # a link on the way to a manifest or a table now leads elsewhere
        text = record["text"]
    except (KeyError, TypeError, ValueError, AttributeError, OSError):
        return None
    return text if isinstance(text, str) else None


def remember_list(games: list[str], before: dict | None, tables: list, text: str) -> None:
    """Write down what ``pnp list`` of ``games`` printed (``text``): ``before`` is
    :func:`list_inputs` taken before the games were read, ``tables`` the table files they read
    (a table the listing does not hold, a hidden file, is stated too). Left unwritten where it
    cannot be."""
    key = _list_key(games)
    path = _list_file(key)
    if before is None or path is None:
        return
    inputs = dict(before["inputs"])
    named = {}  # each manifest and table as game.toml names it -> the file it leads to
    for read in [os.path.join(folder, "game.toml") for folder, _display in before["games"]] + [str(t) for t in tables]:
        named[os.path.abspath(read)] = real = os.path.realpath(read)
        if real not in inputs:  # left out of the listing: hidden, behind a link, or in an output folder
            inputs[real] = _stat(real)
    if any(v is None for v in inputs.values()):
        return
    from ..pipeline.fresh import SETTLE_NS

    import rich

    rich_folder = _rich_folder()
    if rich_folder is None or rich_folder != os.path.dirname(os.path.realpath(rich.__file__)):
        return  # (a Rich found some other way than on sys.path's folders: not followed here)
    data = {"format": FORMAT, "key": key, "pnp": __version__, "python": sys.hexversion, "package": package_stamp(),
            "rich_folder": rich_folder, "rich": package_stamp(rich_folder),
            "games": before["games"], "listing": before["listing"], "inputs": inputs, "named": named,
            "settled_ns": before["recorded_ns"] - SETTLE_NS, "text": text}
    if not _write_record(path, data):
        return
    folder = os.path.dirname(path)
    try:
        kept = [os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("list-")]
        if len(kept) > LIST_KEPT:
            for old in sorted(kept, key=os.path.getmtime)[:len(kept) - LIST_KEPT]:
                os.remove(old)
    except OSError:
        pass
