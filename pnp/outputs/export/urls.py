"""The folder URL Tabletop Simulator loads a table's images from: ``--url-prefix`` or a
profile's ``url_prefix`` (docs/export.md, "Loading and sharing")."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

URL_SCHEMES = ("http", "https", "file")
"""The URLs Tabletop Simulator loads images from: a web address, or a file on this computer."""
URL_PREFIX_HINT = "give the folder the sheets are uploaded to, e.g. https://example.com/decks/ (or file:///C:/decks/)"


def url_prefix_value(raw: str) -> str:
    """``raw`` (``--url-prefix`` or a profile's ``url_prefix``) as the prefix of Tabletop
    Simulator image URLs: an http(s) URL with a host, or a file URL, ending in exactly one ``/``
    (added, or extra ones dropped), so that prefix + file name is the file in that folder;
    ``''`` stays ``''`` (no prefix). Raises ValueError, saying why, for anything else (an
    http(s) URL without a host, ``https:///x`` or ``http:``, is told so)."""
    text = raw.strip()
    if not text:
        return ""
    parts = urlsplit(text)
    if any(c.isspace() for c in text):
        raise ValueError(f"{raw!r} is not a URL: it holds a space (write it as %20)")
    if parts.scheme in ("http", "https") and not parts.hostname:
        raise ValueError(f"{raw!r} is an {parts.scheme} URL with no host: write {parts.scheme}://HOST/folder/ "
                         "(the web server's name, e.g. example.com; three slashes are for file:/// URLs)")
    if parts.scheme not in URL_SCHEMES or (parts.scheme == "file" and not parts.path.startswith("/")):
        raise ValueError(f"{raw!r} is not an http(s) or file URL")
    if parts.query or parts.fragment:
        raise ValueError(f"{raw!r} is a folder's URL with a ? or #: a file name cannot follow it")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/", "", ""))
