"""``python -m pnp``: the same as the ``pnp`` command."""

from .cli import main

main()
