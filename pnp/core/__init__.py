"""The ground floor of `pnp`: errors and findings, units, suggestions, TOML key positions,
atomic files and a process pool. Nothing here knows about games, drawing or the CLI; every
other layer may use it."""
