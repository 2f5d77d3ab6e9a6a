"""TriumfDrez rules engine (rules D-… in the spec's rules.md).

Pure standard-library Python: nothing here imports Django. The public surface is
`games.triumfdrez.engine` (`new_game`, `legal_actions`, `apply`, `view`,
`IllegalAction`); the error codes are listed in `games.triumfdrez.errors.CODES`.
"""
