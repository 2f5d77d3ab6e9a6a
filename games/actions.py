"""A phone's request, from a form POST or a WebSocket message alike: its fields become a
move through games.services.apply_action, or the first step of a two-step move.

The game's adapter reads the fields (games.adapter.GameWeb.parse); anything malformed
raises BadInput. Whether the move is legal is the engine's business.
"""

from games import fields as f
from games import services
from games.fields import BadInput
from games.models import Table
from games.registry import get_game

__all__ = ["BadInput", "perform"]


def perform(
    table: Table, seat: int, fields, version: int, action_id: str, holder=None, presence=None
):
    """`holder`: the phone's token hashes, when the seat is still to be checked as its own.
    A "for" field names another seat the phone enters the move for (companion mode:
    services.may_act_for); `presence()` then says whether the phone is the host's and
    which seats are absent: (host, absent seats, seats gone long)."""
    if not isinstance(fields.get("kind"), str):
        raise BadInput("kind")
    target = f.optional_integer(fields, "for", 0, f.MAX_SEAT)
    web = get_game(table.game).web
    proxy = None
    if target is not None and target != seat:
        host, absent, long_gone = presence() if presence else (False, frozenset(), frozenset())
        proxy = services.Proxy(seat, host, absent, long_gone)
        if get_game(table.game).hidden_hands(table.mode):
            raise services.Refused("act_for_hidden")
    if web.wants_step(table.mode, fields):
        services.take_step(table, seat, fields, version, holder)
        return services.Applied(version)
    action = web.parse(table.mode, fields)
    if proxy is not None:
        return services.apply_action(table, target, action, version, action_id, holder, proxy)
    return services.apply_action(table, seat, action, version, action_id, holder)
