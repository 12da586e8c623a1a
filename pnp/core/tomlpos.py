"""Where keys are in a TOML file: the line of every table header and dotted key.

``tomllib`` gives values without positions; messages about a manifest, a layouts file, a
profile or ``rules.toml`` name the line of the key they concern, so this module reads the text
again for the positions only (it never interprets values).
"""

from __future__ import annotations

import re
from collections import Counter

from .errors import Location

_HEADER_RE = re.compile(r"^\s*(\[\[|\[)\s*([^\[\]]+?)\s*(\]\]|\])\s*(#.*)?$")


_KEY_RE = re.compile(r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


_STRING_RE = re.compile(r"\"\"\".*?\"\"\"|'''.*?'''|\"\"\".*$|'''.*$|\"(?:\\.|[^\"\\])*\"|'[^']*'")
"""Strings on one line; a multi-line string opened and not closed on the line runs to its end."""


def _key_parts(text: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", text)]


def toml_key_lines(text: str) -> dict[str, int]:
    """The 1-based line of every table header and key of a TOML document.

    Keys are dotted paths; the n-th (0-based) entry of an array of tables ``[[rule]]`` is
    ``rule[n]``, so ``rule[2].assert`` is the ``assert`` key of the third rule. Keys inside
    inline tables share their table's line. Multi-line strings and arrays are skipped over.
    """
    lines: dict[str, int] = {}
    prefix: list[str] = []
    arrays: Counter = Counter()
    depth = 0
    in_multi: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_multi:
            if in_multi in line:
                line = line.split(in_multi, 1)[1]
                in_multi = None
            else:
                continue
        end = 0
        for match in _STRING_RE.finditer(line):
            if "#" in line[end:match.start()]:
                break  # a comment: what follows is not a string
            end = match.end()
            opened = match.group(0)[:3]
            if opened in ('"""', "'''") and (len(match.group(0)) < 6 or not match.group(0).endswith(opened)):
                in_multi = opened  # opened here, closed on a later line
        stripped = _STRING_RE.sub('""', line).split("#", 1)[0]
        if depth == 0:
            header = _HEADER_RE.match(line)
            if header and not _KEY_RE.match(line):
                parts = _key_parts(header.group(2))
                if header.group(1) == "[[":
                    base = ".".join(parts)
                    index = arrays[base]
                    arrays[base] += 1
                    parts = parts[:-1] + [f"{parts[-1]}[{index}]"]
                else:  # a sub-table of the latest entry of an array of tables
                    for i in range(len(parts), 0, -1):
                        base = ".".join(parts[:i])
                        if base in arrays:
                            parts = parts[:i - 1] + [f"{parts[i - 1]}[{arrays[base] - 1}]"] + parts[i:]
                            break
                prefix = parts
                lines.setdefault(".".join(prefix), number)
                continue
            key = _KEY_RE.match(line)
            if key:
                path = ".".join(prefix + _key_parts(key.group(1)))
                lines.setdefault(path, number)
        depth += stripped.count("[") - stripped.count("]")
        depth = max(depth, 0)
    return lines


def line_of(lines: dict[str, int], key: str) -> int | None:
    """The line of ``key``; for a table never named on a line of its own (``icon`` of
    ``[icon.fire]``, ``total`` of ``[[total]]``), the first line of a key inside it; else the
    line of its closest enclosing key or table that has one."""
    found = lines.get(key)
    if found is not None:
        return found
    inside = [n for k, n in lines.items() if k.startswith((key + ".", key + "["))]
    if inside:
        return min(inside)
    parts = key.split(".")[:-1]
    while parts:
        found = lines.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    return None


def array_item_lines(text: str, line: int | None) -> list[int]:
    """The 1-based line on which each item of the array whose key is on ``line`` begins
    (``marks = [`` then one inline table per line), in order; [] when ``line`` is None or holds
    no array. Strings and comments are skipped over, so a bracket inside them does not count."""
    if line is None:
        return []
    rows = text.splitlines()
    starts: list[int] = []
    depth = 0
    seen_equals = False
    expect_item = False
    for number in range(line, len(rows) + 1):
        row = rows[number - 1]
        i = 0
        while i < len(row):
            ch = row[i]
            if ch == "#":
                break
            if ch in "\"'":
                if seen_equals and depth == 0:
                    return []  # a text, not an array
                if depth == 1 and expect_item:
                    starts.append(number)
                    expect_item = False
                end = row.find(ch, i + 1)
                while ch == '"' and end > 0 and row[end - 1] == "\\":
                    end = row.find(ch, end + 1)
                i = len(row) if end < 0 else end + 1
                continue
            if not seen_equals:
                seen_equals = ch == "="
            elif depth == 0 and ch == "[":
                depth, expect_item = 1, True
            elif depth == 0 and not ch.isspace():
                return []  # not an array
            elif depth >= 1:
                if depth == 1 and expect_item and not ch.isspace() and ch not in ",]":
                    starts.append(number)
                    expect_item = False
                if ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth -= 1
                    if depth == 0:
                        return starts
                elif ch == "," and depth == 1:
                    expect_item = True
            i += 1
    return starts


_DECODE_AT_RE = re.compile(r"\(at line (\d+), column (\d+)\)")


def toml_error(display: str, exc: Exception, source: str | None = None) -> tuple[Location, str]:
    """Where a ``tomllib.TOMLDecodeError`` is and what it says: (``display`` at the line and
    column the error names, the message without them), so every TOML file reports a syntax
    error alike: ``game.toml:3:7: not valid TOML: Expected '=' after a key``.

    A list or inline table left open is noticed where something else begins: often the next
    table's name, lines below, or the end of the file; after a trailing comma tomllib calls
    it an invalid value or key there. Given the file's text, ``source``, such an error is
    placed at the bracket that was never closed (:func:`unclosed_at`) and called what it is."""
    text = str(exc)
    found = _DECODE_AT_RE.search(text)
    kind = text.split(" (")[0]
    message = (text[:found.start()] + text[found.end():]).strip() if found else text
    line, column = (int(found.group(1)), int(found.group(2))) if found else (None, None)
    place = _left_open(source, kind, line, column) if source is not None else None
    if place is not None:
        opened, line, column = place
        message = "Unclosed array" if opened == "[" else "Unclosed inline table"
    return Location(display, line, column), f"not valid TOML: {message}"


_UNCLOSED = {"Unclosed array": "[", "Unclosed inline table": "{"}


def _left_open(source: str, kind: str, line: int | None, column: int | None) -> tuple[str, int, int] | None:
    """(opener, line, column) of the list or inline table left open that tomllib's error
    ``kind`` at ``line``, ``column`` (None: the end of the file) is about, or None when it is
    about something else: an "Unclosed ..." error; an invalid value where a table's name begins
    or at the end of the file (a list ended by a comma); an invalid key at the end of a line
    or of the file (an inline table ended by a comma)."""
    lines = source.splitlines()
    end = line is None or line > len(lines)
    if end:
        line, column = len(lines) + 1, None
    opener = _UNCLOSED.get(kind)
    if opener is not None:
        found = unclosed_at(source, line, opener, column)
    elif kind == "Invalid value" and (end or lines[line - 1].lstrip().startswith("[")):
        opener, found = "[", unclosed_at(source, line, "[")
    elif kind == "Invalid initial character for a key part" and (
            end or column > len(lines[line - 1].rstrip())):
        opener, found = "{", unclosed_at(source, line, "{", column)
    else:
        return None
    return (opener, *found) if found else None


_QUOTED_RE = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def unclosed_at(source: str, line: int, opener: str, column: int | None = None) -> tuple[int, int] | None:
    """The (line, column), from 1, of the ``opener`` (``[`` or ``{``) a value left open before
    line ``line`` (and before its ``column``, when given) of ``source``: lines are read back,
    counting the brackets outside quoted text and comments, until one opens more than what
    follows it closes. None when a table's name, the start of the file or a multi-line string
    comes first (the error's own place is then the best there is)."""
    closer = "]" if opener == "[" else "}"
    lines = source.splitlines()
    depth = 0
    for number in range(min(line, len(lines)), 0, -1):
        raw = lines[number - 1]
        if number == line:
            if column is None:
                continue
            raw = raw[:column - 1]
        if '"""' in raw or "'''" in raw:
            return None
        code = _QUOTED_RE.sub(lambda m: " " * len(m.group(0)), raw).split("#")[0]
        stripped = code.strip()
        if stripped.startswith("[") and "=" not in stripped and depth == 0:
            return None  # a table's name: the value was not opened after it
        for column in range(len(code) - 1, -1, -1):
            ch = code[column]
            if ch == closer:
                depth += 1
            elif ch == opener:
                depth -= 1
                if depth < 0:
                    return number, column + 1
    return None


# Hints for the TOML syntax errors a designer meets most, by the start of tomllib's message.
_TOML_HINTS = (
    ("Illegal character '\\n'", "a quoted text is not closed on its line: end it with the quote it "
     "opened with, or use triple quotes (\"\"\") for text over several lines"),
    ("Unterminated string", "a quoted text is not closed: end it with the quote it opened with"),
    ("Expected ']' at the end of a table declaration", "close the table's name with ], e.g. [layouts.card]"),
    ("Expected ']]' at the end of an array declaration", "close the name with ]], e.g. [[rule]]"),
    ("Expected '=' after a key", "each setting is key = value on its own line"),
    ("Invalid value", "quote text values (name = \"Fox\"); numbers, true and false take no quotes"),
    ("Expected newline or end of document", "one key = value per line; quote text that holds spaces"),
    ("Invalid statement", "each line is a key = value, a [table] name or a comment starting with #"),
    ("Invalid initial character for a key part", "keys are letters, digits, - and _; quote any other key"),
    ("Unclosed array", "close the list with ]; items are separated by commas"),
    ("Unclosed inline table", "close the table with } on the same line; keys are separated by commas"),
    ("Cannot overwrite a value", "a key is set twice, or a table is named twice: keep one"),
    ("Cannot declare", "a table is named twice: merge its keys into one [table]"),
    ("Unescaped '\\'", "write a backslash in quoted text as \\\\ or use single quotes for a path"),
)


def toml_hint(message: str) -> str:
    """A hint for the syntax error ``message`` (as ``toml_error`` gives it), or "" for one
    with no common cause."""
    text = message.removeprefix("not valid TOML: ")
    return next((hint for start, hint in _TOML_HINTS if text.startswith(start)), "")
