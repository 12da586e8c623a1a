"""pnp: print-and-play and physical-edition files for tabletop games, built from CSV tables."""

__version__ = "0.1.0"
