"""``pnp preview``: the game as it will print, in a local web page that follows the game folder.

:mod:`.pieces` draws each piece alone and keys it by a hash of its inputs, :mod:`.session`
keeps one game's listing, images and findings (those of the dry run ``pnp check`` makes),
:mod:`.watch` follows the game's files (``pnp build --watch`` uses it too) and :mod:`.server`
serves the page (:mod:`pnp.preview` ``static/``) with Starlette and uvicorn, pushing each change
to it as a server-sent event. docs/preview.md describes it for designers.
"""
