"""Everything kept about a player, as they may download it (JSON)."""

from games.labels import seat_name
from games.registry import get_game
from players import history


def everything(player) -> dict:
    seats = player.seats.select_related("table").order_by("table__created", "index")
    tables = []
    for seat in seats:
        table = seat.table
        game = get_game(table.game)
        everyone = list(table.seats.all())
        tables.append(
            {
                "code": table.code,
                "game": table.game,
                "mode": table.mode,
                "created": table.created.isoformat(),
                "status": table.status,
                "seat": seat.index,
                "name": seat.name,
                "players": [seat_name(s, game) for s in everyone],
                "ranking": [
                    {"place": e["place"], "name": e["name"], "score": e["score"]}
                    for e in history.ranking(table, everyone)
                ],
            }
        )
    return {
        "player": {
            "name": player.name,
            "created": player.created.isoformat(),
            "account": player.user.get_username() if player.user else None,
        },
        "tables": tables,
        "groups": [
            {"name": m.group.name, "code": m.group.code, "joined": m.joined.isoformat()}
            for m in player.membership_set.select_related("group").order_by("joined")
        ],
        "notifications": notifications(player),
    }


def notifications(player) -> dict:
    """What the player asked to be told (notify): their settings and browsers."""
    from notify.models import NotificationPrefs

    prefs = NotificationPrefs.objects.filter(player=player).first()
    return {
        "settings": None
        if prefs is None
        else {
            "kinds": [
                kind for kind in ("turn", "ended", "seated", "correction") if prefs.wants(kind)
            ],
            "quiet_hours": [prefs.quiet_start, prefs.quiet_end],
            "time_zone": prefs.time_zone,
            "language": prefs.language,
            "digest": prefs.digest,
            "email": prefs.email,
        },
        "browsers": [
            {"endpoint": s.endpoint, "language": s.language, "created": s.created.isoformat()}
            for s in player.push_subscriptions.order_by("created")
        ],
    }
