"""What a phone sees of a table: the context and the live partial.

The page and the WebSocket render the same partial from the same context. The
engine state itself never reaches a template: only `engine.view(state, seat)`
for the phone's active seat (None for a spectator).
"""

import uuid

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import labels
from games.models import Action, Table
from games.registry import get_game

MAX_SEATS_PER_PHONE = 4
LOG_LENGTH = 8


def seat_cookie_name(code: str) -> str:
    return f"seats_{code}"


def host_cookie_name(code: str) -> str:
    return f"host_{code}"


def cookie_tokens(cookies, code: str) -> list[str]:
    raw = cookies.get(seat_cookie_name(code), "")
    return [t for t in raw.split(".") if t][:MAX_SEATS_PER_PHONE]


def pick_active(indices: list[int], wanted) -> int | None:
    try:
        wanted = int(wanted)
    except (TypeError, ValueError):
        wanted = None
    if wanted in indices:
        return wanted
    return indices[0] if indices else None


def table_context(
    table: Table, phone_seats: list[int], active: int | None, host: bool, error=None
) -> dict:
    game = get_game(table.game)
    seats = list(table.seats.all())
    names = {seat.index: seat.name for seat in seats}
    view = panel = None
    if table.state is not None:
        view = game.engine(table.mode).view(table.state, active)
        panel = PANELS[(table.game, table.mode)](view, names, active)
    recent = list(
        Action.objects.filter(table=table)
        .order_by("-version")[:LOG_LENGTH]
        .values("seat", "action")
    )
    return {
        "table": {
            "code": table.code,
            "game": table.game,
            "game_name": game.name,
            "mode": table.mode,
            "status": table.status,
            "version": table.version,
            "players": table.players,
            "target": table.config.get("target"),
            "lobby": table.status == Table.Status.LOBBY,
            "closed": table.status == Table.Status.CLOSED,
        },
        "panel_template": f"games/{table.game}/_{table.mode}.html",
        "seats": [
            {
                "index": seat.index,
                "name": seat.name,
                "bot": seat.kind == seat.Kind.BOT,
                "taken": seat.taken,
                "mine": seat.index in phone_seats,
                "active": seat.index == active,
            }
            for seat in seats
        ],
        "names": names,
        "active": active,
        "phone_seats": phone_seats,
        "host": host,
        "view": view,
        "panel": panel,
        "log": [
            labels.describe(table.game, row["action"], names.get(row["seat"])) for row in recent
        ],
        "error": labels.refusal(error, table.game) if error else None,
        "action_id": uuid.uuid4().hex,
        "act_url": reverse("table_act", kwargs={"code": table.code}),
    }


def live_html(
    table: Table, phone_seats, active, host, lang: str, error=None, csrf_token=None
) -> str:
    """The live partial as out-of-band swaps. Over a WebSocket there is no request:
    the phone's own CSRF cookie value keeps its plain form POSTs valid."""
    with translation.override(lang):
        context = table_context(table, phone_seats, active, host, error)
        context["oob"] = True
        context["csrf_token"] = csrf_token
        return render_to_string("games/_live.html", context)


def _triggs_companion(view: dict, names: dict, active) -> dict:
    """Rows of the phone's own sheet with what each box does when tapped (T-C, T-C-BONUS)."""
    from games.labels import TRIGGS_ROW_SIZES

    phase, me = view["phase"], active
    can_cross = (
        me is not None and phase == "play" and (not view["turn_marker"] or view["turn"] == me)
    )
    placing_extra = phase == "extra" and view.get("extra_seat") == me and me is not None
    sheet = view["sheets"][me] if me is not None else None
    rows = []
    if sheet is not None:
        for value, (size, done) in enumerate(zip(TRIGGS_ROW_SIZES, sheet, strict=True), start=1):
            boxes = []
            for i in range(size):
                kind = None
                if i >= done and can_cross:
                    kind = "cross"
                elif i == done and placing_extra:
                    kind = "extra"
                boxes.append({"crossed": i < done, "kind": kind, "sets": i - done + 1})
            rows.append(
                {
                    "value": value,
                    "size": size,
                    "crossed": done,
                    "full": done == size,
                    "boxes": boxes,
                    "spacer": max(TRIGGS_ROW_SIZES) - size,
                    "mode": next((b["kind"] for b in boxes if b["kind"]), None),
                }
            )
    others = [
        {
            "index": seat,
            "name": names.get(seat, ""),
            "total": sum(crossed),
            "crossed": ",".join(map(str, crossed)),
            "turn": view["turn_marker"] and view["turn"] == seat and phase == "play",
        }
        for seat, crossed in enumerate(view["sheets"])
        if seat != me
    ]
    return {
        "rows": rows,
        "my_total": sum(sheet) if sheet else 0,
        "others": others,
        "can_cross": can_cross,
        "placing_extra": placing_extra,
        "can_pass": can_cross and view["turn_marker"],
        "can_undo": me is not None and view.get("can_undo") == me,
        "turn_name": names.get(view["turn"]) if view["turn_marker"] else None,
        "extra_name": names.get(view.get("extra_seat")),
        "winner_name": names.get(view.get("winner")),
    }


def _triumfdrez_companion(view: dict, names: dict, active) -> dict:
    """The tracker: auction in words, sides with their players, history (D-AUCTION, D-SCORE)."""
    from games import labels

    teams = view["teams"]
    sides = [
        {
            "index": i,
            "names": [names.get(s, "") for s in members],
            "score": view["scores"][i],
        }
        for i, members in enumerate(teams)
    ]
    contract = view.get("contract")
    declaring = view.get("declaring_team")
    auction = []
    for entry in view["auction"]:
        who = names.get(entry["seat"], "")
        text = str(labels.PASS) if entry.get("pass") else labels.bid_words(entry)
        auction.append({"name": who, "text": text, "pass": bool(entry.get("pass"))})
    history = []
    for hand in view["history"]:
        declarer = hand["contract"]["seat"]
        history.append(
            {
                "hand_no": hand["hand_no"],
                "dealer": names.get(hand["dealer"], ""),
                "declarer": names.get(declarer, ""),
                "contract": labels.bid_words(hand["contract"]),
                "tricks_won": hand["tricks_won"],
                "made": hand["tricks_won"] >= hand["contract"]["tricks"],
                "points": hand["points"],
            }
        )
    return {
        "sides": sides,
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(view["turn"]),
        "auction": auction,
        "contract_words": labels.bid_words(contract) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "declaring_names": [names.get(s, "") for s in teams[declaring]]
        if declaring is not None
        else [],
        "history": history,
        "winner_names": [names.get(s, "") for s in teams[view["winner"]]]
        if view.get("winner") is not None
        else [],
        "figures": [(f, labels.FIGURE_SYMBOLS[f], labels.FIGURE_NAMES[f]) for f in labels.FIGURES],
        "colours": list(labels.COLOUR_NAMES.items()),
        "seat_choices": sorted(names.items()),
        "can_undo_bid": bool(view["auction"]) and view["phase"] in ("auction", "tricks"),
        "can_undo_hand": bool(view["history"]),
        "tricks_range": range(14),
        "bid_range": range(1, 14),
        # A bid of as many tricks can still beat the current one (open, fewer trumps).
        "default_tricks": (view.get("current_bid") or {}).get("tricks", 1),
    }


PANELS = {
    ("triggs", "companion"): _triggs_companion,
    ("triumfdrez", "companion"): _triumfdrez_companion,
}
