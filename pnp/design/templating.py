"""The one Jinja2 sandbox factory: every template `pnp` runs (card, board and token layouts,
rulebooks) runs in an environment made here.

:func:`sandbox` makes an ``ImmutableSandboxedEnvironment`` (templates cannot change the data
or reach Python internals). With ``limits`` it also refuses numbers, ranges and repeated
strings or lists larger than :data:`TEMPLATE_LIMIT`, so a typo or a hostile template cannot
exhaust the machine. :func:`layout_env` is the shared environment of layouts (StrictUndefined,
no autoescape, the ``pips`` filter, ``_()`` and ``{% trans %}``); :func:`compiled` and :func:`compiled_expression` cache
compiled templates by their source for the whole process, and :func:`analysed` keeps what a
template reads between runs.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Callable, TypeVar

from .. import __version__
from ..core.cachedir import MemoFile, cache_folder, read_marshalled
from ..core.suggest import close_match
from ..model.context import Ref
from ..model.cost import pips

T = TypeVar("T")

TEMPLATE_LIMIT = 10_000
"""Largest number a template may pass to a function or filter, largest range it may loop over,
and largest string or list it may build by multiplication: a card needs far less, and larger
values are typos or attempts to exhaust the machine."""


def _limited(value, what: str):
    from jinja2.exceptions import SecurityError

    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > TEMPLATE_LIMIT:
        raise SecurityError(f"{what} {value} is larger than templates allow ({TEMPLATE_LIMIT})")
    return value


def _guard_filter(fn):
    import functools

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        for value in list(args[1:]) + list(kwargs.values()):
            _limited(value, "the number")
        return fn(*args, **kwargs)

    return guarded


def _limited_sandbox():
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class LimitedSandbox(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**"])

        def call_binop(self, context, operator, left, right):
            if operator == "**":
                _limited(right, "the power")
                result = left ** right
                _limited(result, "the result")
                return result
            for a, b in ((left, right), (right, left)):
                if isinstance(a, (str, list, tuple)) and isinstance(b, int) and len(a) * b > TEMPLATE_LIMIT:
                    raise SecurityError(f"a string or list of {len(a) * b} items is longer than templates allow")
            return left * right

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja2's signature)
            for value in list(args) + list(kwargs.values()):
                _limited(value, "the number")
            return super().call(__context, __obj, *args, **kwargs)

    return LimitedSandbox


GUARDED_FILTERS = ("center", "indent", "wordwrap", "truncate", "format", "batch", "slice", "round")
"""Built-in filters whose numeric arguments are held to TEMPLATE_LIMIT."""


def sandbox(**options: Any):
    """A new sandboxed Jinja2 environment with ``options`` (Jinja2's Environment keywords), in
    which ``*`` and ``**``, every call, ``range`` and the filters of :data:`GUARDED_FILTERS`
    refuse values over :data:`TEMPLATE_LIMIT`, and ``lipsum`` is gone."""
    env = _limited_sandbox()(**options)
    env.globals.pop("lipsum", None)
    env.globals["range"] = lambda *a: range(*[_limited(x, "the range bound") for x in a])
    for name in GUARDED_FILTERS:
        env.filters[name] = _guard_filter(env.filters[name])
    return env


_LAYOUT_ENV = None


def layout_env():
    """The shared environment of layout templates: limited sandbox, StrictUndefined, no
    autoescape, None printed as nothing, and the ``pips`` filter (a cost as one name per place)."""
    global _LAYOUT_ENV
    if _LAYOUT_ENV is None:
        from jinja2 import StrictUndefined

        env = sandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False,
                      finalize=lambda v: "" if v is None else v, extensions=["jinja2.ext.i18n"])
        env.install_null_translations(newstyle=False)  # a translated game's context brings its own _()
        env.filters["pips"] = pips
        _LAYOUT_ENV = env
    return _LAYOUT_ENV


_TREES: dict[str, object] = {}


def parse_template(source: str):
    """The Jinja2 syntax tree of ``source`` in :func:`layout_env` (a ``jinja2.nodes.Template``),
    parsed once per process and shared: callers only read it. Raises
    ``jinja2.TemplateError`` when it does not parse (not cached, so each caller reports it)."""
    tree = _TREES.get(source)
    if tree is None:
        if len(_TREES) >= 8192:
            _TREES.clear()
        tree = _TREES[source] = layout_env().parse(source)
    return tree


_BYTECODE: list = []


def _fingerprint(env) -> str:
    """What the code Jinja2 compiles a template to depends on besides its source: pnp's and
    Jinja2's versions, the environment's class, syntax options, filters and tests."""
    import jinja2

    parts = (__version__, jinja2.__version__, type(env).__mro__[1].__qualname__, type(env).__qualname__,
             sorted(getattr(env, "intercepted_binops", ())), sorted(getattr(env, "intercepted_unops", ())),
             env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
             env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
             env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
             env.keep_trailing_newline, env.optimized, env.finalize is not None, bool(env.autoescape),
             env.is_async, sorted(env.extensions), sorted(env.filters), sorted(env.tests))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def bytecode_cache():
    """The Jinja2 bytecode cache shared by every run on this machine
    (:data:`pnp.core.cachedir.CACHE_ENV`), or
    None when it is switched off or its folder cannot be made. A template is compiled once per
    source, environment and version (:func:`_fingerprint`); what it renders is the same."""
    if not _BYTECODE:
        from jinja2 import FileSystemBytecodeCache

        class Cache(FileSystemBytecodeCache):
            def get_bucket(self, environment, name, filename, source):
                return super().get_bucket(environment, _fingerprint(environment) + ":" + name, filename, source)

        folder = cache_folder("templates")
        cache = Cache(str(folder), "%s.jinja") if folder is not None else None
        _BYTECODE.append(cache)
    return _BYTECODE[0]


def _from_cache(env, source: str):
    """``source`` as a template of ``env``, its code read from :func:`bytecode_cache` when it
    was compiled before. Raises jinja2.TemplateError."""
    cache = bytecode_cache()
    if cache is None:
        return env.from_string(source)
    bucket = cache.get_bucket(env, "<string>:" + hashlib.sha256(source.encode("utf-8")).hexdigest(), None, source)
    if bucket.code is None:
        bucket.code = env.compile(source)
        try:
            cache.set_bucket(bucket)
        except OSError:
            pass  # a full or read-only cache folder: the template is compiled next time again
    return env.template_class.from_code(env, bucket.code, env.make_globals(None), None)


_COMPILED: dict[str, Any] = {}
"""Compiled templates and expressions by their source, shared by every renderer of the process
(compiling is the slow part of a template; the environment is the same for all)."""


def compiled(source: str):
    """``source`` compiled as a layout template (cached). Raises jinja2.TemplateError."""
    template = _COMPILED.get(source)
    if template is None:
        template = _from_cache(layout_env(), source)
        _COMPILED[source] = template
    return template


def compiled_expression(source: str):
    """``source`` compiled as a bare layout expression such as ``cost > 2`` (cached).
    Raises jinja2.TemplateError."""
    key = "expr:" + source
    expression = _COMPILED.get(key)
    if expression is None:
        expression = layout_env().compile_expression(source, undefined_to_none=False)
        _COMPILED[key] = expression
    return expression


def undeclared(source: str) -> frozenset[str]:
    """The names of the context template ``source`` reads (Jinja2's undeclared variables),
    worked out once per source and kept between runs (:func:`pnp.design.analysis.known`).
    Raises ``jinja2.TemplateError`` when it does not parse."""
    return analysed("undeclared", source, _undeclared)


def _undeclared(source: str) -> frozenset[str]:
    from jinja2 import meta

    return frozenset(meta.find_undeclared_variables(parse_template(source)))


_READS: dict[str, tuple[str, ...] | None] = {}
PLAIN_TYPES = (str, int, float, bool, type(None))
"""Values a rendered template may be reused for: equal values of these exact types print the
same (1, 1.0 and True are told apart by their type)."""


def reads(source: str) -> tuple[str, ...] | None:
    """The names of the context template ``source`` reads, sorted (cached); None when its
    result may differ between renders of the same values (the ``random`` filter) or it does
    not parse. Raises nothing."""
    if source not in _READS:
        from jinja2 import TemplateError

        try:
            names = undeclared(source)
        except TemplateError:
            names = None
        _READS[source] = None if names is None or "random" in source else tuple(sorted(names))
    return _READS[source]


def render_key(source: str, ctx: dict) -> tuple | None:
    """What a render of template ``source`` in ``ctx`` depends on: the source and the type and
    value of each name it reads (a reference cell by its id, row and depth, the names it
    resolves), or None when a value read is of another kind (a mapping, a namespace, a list)
    and the render cannot be reused."""
    names = reads(source)
    if names is None:
        return None
    key: list = [source]
    for name in names:
        value = ctx.get(name, MISSING)
        kind = type(value)
        if kind in PLAIN_TYPES or value is MISSING:
            key.append((kind, value))
        elif kind is Ref:
            d = value.__dict__
            key.append((Ref, str(value), id(d["_row"]), id(d["_game"]), id(d["_comp"]), d["_depth"]))
        else:
            return None
    return tuple(key)


SIMPLE_RE = re.compile(r"^\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\s*\}\}$")
"""A template that only prints one name or dotted path: looked up without Jinja2."""
MISSING = object()
"""What :func:`lookup` returns when a step of the path is absent."""


def lookup(ctx: dict, path: str) -> Any:
    """The value of a dotted name in a template context, or MISSING where any step is absent.

    Steps are looked up as Jinja2 does (attribute first, then item); names starting with an
    underscore never match (the sandbox refuses them), so they fall through to Jinja2.
    """
    parts = path.split(".")
    if parts[0] not in ctx:
        return MISSING
    value = ctx[parts[0]]
    for part in parts[1:]:
        if isinstance(value, dict):
            if part in value:
                value = value[part]
                continue
            return MISSING
        try:
            value = getattr(value, part)
        except AttributeError:
            return MISSING
        if callable(value):
            return MISSING
    return value


def name_hint(message: str, ctx: dict) -> str | None:
    """'did you mean ...?' for an undefined name in a template, from the names it could see."""
    name = re.search(r"'([^']+)' is undefined", message)
    if not name:
        return None
    close = close_match(name.group(1), ctx)
    return f"did you mean {close!r}?" if close else "names: " + ", ".join(sorted(ctx))


# -- what templates read, worked out once per source and kept between runs ----------------------
# Telling which names a template reads (pnp.design.names, the rules check, the accessibility
# check) means parsing it and walking its syntax tree: about a tenth of a build of the four
# bundled games. The answer depends only on the template's text, the layout environment and
# the code that walks the tree, so analysed() keeps it in the machine's cache folder
# (``analysis/``) when save_analyses() is called, in a file named after the environment's
# fingerprint, under keys holding the walking code's digest. Deleting the folder costs time,
# never a different answer.


ANALYSES_KEPT = 50_000
"""Answers the cache file keeps; past that it starts again from one run's."""
ANALYSES_MAX_BYTES = 64 * 1024 * 1024
"""A cache file larger than this is not read (it is not one pnp wrote)."""

_DIGESTS: dict[Callable, bytes] = {}


def analysed(kind: str, source: str, work: Callable[[str], T]) -> T:
    """``work(source)``, remembered for ``kind`` and ``source``: from this process or the cache
    file when an earlier run worked it out with the same code, else worked out now (and kept
    by the next :func:`save_analyses`). ``work`` must be a pure function of ``source``
    returning None, a string or a frozenset of strings. Raises what ``work`` raises; nothing
    is remembered then, so each caller sees the error."""
    key = (kind, _code_digest(work), hashlib.blake2b(source.encode("utf-8", "surrogatepass"),
                                                      digest_size=16).digest())
    answers = _ANALYSES.known()
    try:
        return answers[key]
    except KeyError:
        pass
    value = work(source)
    _ANALYSES.add(key, value)
    return value


def save_analyses() -> None:
    """Add the answers worked out since the last save to the cache file, merged with what other
    runs added meanwhile. A cache that cannot be written is left as it is: the answers are
    worked out again next time."""
    _ANALYSES.save()


def forget_analyses() -> None:
    """Drop what this process knows and read the cache file afresh on the next :func:`analysed`
    (for tests, and after the cache folder is changed)."""
    _ANALYSES.forget()


def _analyses_file():
    """The cache file of this layout environment's answers, or None without a cache folder."""
    folder = cache_folder("analysis")
    if folder is None:
        return None
    return folder / f"{_fingerprint(layout_env())}.marshal"


def _read_analyses(path) -> dict:
    """The answers of a cache file that are of the shape :func:`analysed` keeps ({} for a file
    pnp did not write whole: :func:`pnp.core.cachedir.read_marshalled`)."""
    data = read_marshalled(path, ANALYSES_MAX_BYTES)
    return {key: value for key, value in data.items()
            if isinstance(key, tuple) and len(key) == 3 and isinstance(key[0], str)
            and isinstance(key[1], bytes) and isinstance(key[2], bytes) and _sound(value)}


def _sound(value) -> bool:
    """Whether ``value`` is of a kind :func:`analysed` answers: None, a string, or a frozenset
    of strings."""
    return value is None or isinstance(value, str) or \
        (isinstance(value, frozenset) and all(isinstance(v, str) for v in value))


def _code_digest(work: Callable) -> bytes:
    """A digest of the code of ``work`` (its bytecode, names and constants, nested functions
    included): an answer worked out by other code is not taken for this one's."""
    digest = _DIGESTS.get(work)
    if digest is None:
        h = hashlib.blake2b(digest_size=8)
        h.update(getattr(work, "__module__", "").encode() + b"." + getattr(work, "__qualname__", "").encode())
        _feed(h, work.__code__)
        digest = _DIGESTS[work] = h.digest()
    return digest


def _feed(h, code) -> None:
    h.update(code.co_code)
    h.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            _feed(h, const)
        else:
            h.update(repr(const).encode())


_ANALYSES = MemoFile(_analyses_file, _read_analyses, ANALYSES_KEPT)
"""The cache file and the answers known to this process: the file's, then those worked out
here (key: kind, code digest, source digest)."""
