"""TriumfDrez: everything of the game in one folder, a Django app (label "triumfdrez").

The rules engines (rules D-… in the spec's rules.md) and the computer players (bots.py)
are pure standard-library Python (and games.engine_errors, the engines' shared error
shape). Only apps.py, the web adapter (web/) and the template tags (templatetags/) import
Django; templates/ and static/ hold its pages' parts, style and script. The public
surface is `games.triumfdrez.engine` (`new_game`, `legal_actions`, `apply`, `view`,
`is_over`, `to_act`, `IllegalAction`, the rules' constants and the pure functions the
bots and the adapter use); the error codes are listed in `games.triumfdrez.errors.CODES`.
"""
