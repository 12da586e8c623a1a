"""``pnp check``: the checks of a game's data (manifest, stated totals, copies), the rules
engine of a game's ``rules.toml`` (:mod:`.rulesfile`, :mod:`.runner`, :mod:`.kinds`), the
layout checks, the composition analysis and the reports."""
