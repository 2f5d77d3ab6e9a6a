"""A phone's request, from a form POST or a WebSocket message alike: its fields become a
move through games.services.apply_action, or the first step of a two-step move.

The game's adapter reads the fields (games.adapter.GameWeb.parse); anything malformed
raises BadInput. Whether the move is legal is the engine's business.
"""

from games import services
from games.fields import BadInput
from games.models import Table
from games.registry import get_game

__all__ = ["BadInput", "perform"]


def perform(table: Table, seat: int, fields, version: int, action_id: str, holder=None):
    """`holder`: the phone's token hashes, when the seat is still to be checked as its own."""
    if not isinstance(fields.get("kind"), str):
        raise BadInput("kind")
    web = get_game(table.game).web
    if web.wants_step(table.mode, fields):
        services.take_step(table, seat, fields, version, holder)
        return services.Applied(version)
    action = web.parse(table.mode, fields)
    return services.apply_action(table, seat, action, version, action_id, holder)
