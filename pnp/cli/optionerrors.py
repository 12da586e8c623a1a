"""Option values the parser refuses, said as the other option errors say them.

Typer checks a choice (``--paper``, ``--flip``, ``--format`` ...) and a bounded number
(``--image-dpi``, ``--jobs``, ``--port`` ...) through pydantic, whose wording (``Value error,
'A4x' is not one of ...``, ``Input should be greater than or equal to 36``) reads like a
program's, not like pnp's. :class:`PnpGroup` is the command group every command runs under; it
rewrites such a refusal from what pydantic found (the kind of error, the bound, the value) and
the option's own choices and bounds, so every option of every command says it alike:

    Error: Invalid value for '--paper': 'A4x' is not a paper size; did you mean 'a4'? one of
    letter, a4, a5, half-letter, a3, tabloid, legal
    Error: Invalid value for '--image-dpi': '0' is below the least resolution, 36 px/in
"""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

import typer
from typer.core import TyperGroup

from ..core.suggest import did_you_mean

OPTION_WORDS: dict[str, tuple[str, str]] = {
    "paper": ("paper size", ""),
    "flip": ("duplex flip", ""),
    "format": ("report format", ""),
    "simulate": ("colour vision to simulate", ""),
    "ink": ("ink edition", ""),
    "image_dpi": ("resolution", "px/in"),
    "jobs": ("number of processes", ""),
    "max_image_pixels": ("pixel limit", ""),
    "port": ("port", ""),
}
"""What a choice or a number of an option is, by the option's parameter name: (noun, unit).
An option not named here is "value"."""


def _enum_of(annotation: Any) -> type[Enum] | None:
    """The Enum an option's annotation names (``Paper``, ``Optional[Simulation]``), else None."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation
    return next((a for a in typing.get_args(annotation) if isinstance(a, type) and issubclass(a, Enum)), None)


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def plain_message(param: Any, error: dict) -> str | None:
    """The message for one pydantic ``error`` (a dict of ``ValidationError.errors()``: its
    ``type``, ``input`` and ``ctx``) about option ``param``; None for a kind of error this does
    not know (the parser's own message is kept)."""
    name = getattr(param, "name", "") or ""
    noun, unit = OPTION_WORDS.get(name, ("value", ""))
    value = error.get("input")
    shown = repr(str(value))
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    descriptor = getattr(param, "type_descriptor", None)
    choices = _enum_of(getattr(descriptor, "annotation", None))
    if choices is not None and kind in ("value_error", "enum"):
        names = [str(member.value) for member in choices]
        return (f"{shown} is not {_article(noun)}; "
                + did_you_mean(str(value).lower(), names, "one of " + ", ".join(names)))
    with_unit = (lambda n: f"{n} {unit}" if unit else f"{n}")
    if kind == "greater_than_equal":
        return f"{shown} is below the least {noun}, {with_unit(ctx.get('ge'))}"
    if kind == "less_than_equal":
        return f"{shown} is above the greatest {noun}, {with_unit(ctx.get('le'))}"
    if kind in ("greater_than", "less_than"):
        side = "more" if kind == "greater_than" else "less"
        return f"the {noun} must be {side} than {with_unit(ctx.get('gt', ctx.get('lt')))}, not {shown}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"{shown} is not a whole number" + (f" of {unit}" if unit else "")
    if kind in ("float_parsing", "float_type"):
        return f"{shown} is not a number" + (f" of {unit}" if unit else "")
    if kind == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])  # a parser's own ValueError, without pydantic's "Value error, "
    return None


def plain_option_error(exc: Exception) -> str | None:
    """The rewritten message of a BadParameter ``exc`` that pydantic's validation caused, or
    None when it has another cause (pnp's own parsers already word theirs)."""
    cause = exc.__cause__
    errors = getattr(cause, "errors", None)
    if not callable(errors) or type(cause).__name__ != "ValidationError":
        return None
    found = errors(include_url=False)
    if not found:
        return None
    return plain_message(getattr(exc, "param", None), found[0])


class PnpGroup(TyperGroup):
    """The group of pnp's commands: refusals of option values are said in pnp's words
    (:func:`plain_option_error`), for every command and subcommand under it."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:
            plain = plain_option_error(exc)
            if plain is not None:
                exc.message = plain
            raise
