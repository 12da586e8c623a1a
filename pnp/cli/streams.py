"""Output streams that can print any message: characters the console's encoding lacks are
written as ASCII stand-ins (no Rich here, so that the quick answers of :mod:`pnp.cli.startup`
use it too)."""

from __future__ import annotations

import codecs

ASCII = {"→": "->", "←": "<-", "✓": "ok", "✔": "ok", "✗": "x", "✘": "x", "×": "x", "…": "...", "·": "-",
         "–": "-", "—": "--", "−": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "≤": "<=", "≥": ">=",
         "°": " deg", "•": "*", "★": "*"}
"""What a message's characters become on a console that cannot show them (Windows' cp1252, a
C-locale pipe); anything else prints as ``\\u2603``-style escapes, never as an error."""


def _ascii(exc: UnicodeError):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(ASCII.get(ch) or ch.encode("ascii", "backslashreplace").decode() for ch in text), exc.end


codecs.register_error("pnp-ascii", _ascii)


def fall_back_to_ascii(stream) -> None:
    """Let ``stream`` (stdout, stderr) print any message: where its encoding lacks a character,
    that character is written as its ASCII stand-in (:data:`ASCII`) instead of raising
    UnicodeEncodeError."""
    if getattr(stream, "errors", "strict") == "strict" and hasattr(stream, "reconfigure"):
        try:
            "→✓…".encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            stream.reconfigure(errors="pnp-ascii")
