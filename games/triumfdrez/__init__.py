"""TriumfDrez rules engine (rules D-… in the spec's rules.md).

Pure standard-library Python (and games.engine_errors, the engines' shared error shape):
nothing here but web.py, the game's web adapter, imports Django. The public surface is
`games.triumfdrez.engine` (`new_game`, `legal_actions`, `apply`, `view`, `is_over`,
`to_act`, `IllegalAction` and the rules' constants); the error codes are listed in
`games.triumfdrez.errors.CODES`.
"""
