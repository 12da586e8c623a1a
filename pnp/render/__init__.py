"""Drawing: the :class:`~pnp.render.renderer.Renderer` and the element kinds it draws, fonts,
art, colour (RGB and CMYK), canvases and rasters, and the preflight findings drawing raises.
Everything here draws onto a canvas it is given; which pages and files exist is decided by
:mod:`pnp.outputs`."""
