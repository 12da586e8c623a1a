"""Designs: the layouts files (``layouts.toml``, ``boards.toml``) read into layouts of boxes,
the element kinds a box may be, the Jinja2 sandbox every template runs in, and which template
names a layout reads. No drawing happens here (see :mod:`pnp.render`)."""
