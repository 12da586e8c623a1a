"""The game model: a game folder read into typed rows (``load_game``), the pieces a game
prints, the names templates see for each piece, cost notation and the bundled games.

Modules: :mod:`.game` (Game, Component, Row), :mod:`.manifest` (game.toml), :mod:`.cells`
(typed cells), :mod:`.readers` (table files), :mod:`.load` (load_game), :mod:`.pieces`,
:mod:`.context`, :mod:`.cost`, :mod:`.games`.
"""
