"""What a phone sees of a table: the context and the live partial.

The page and the WebSocket render the same partial from the same context. The
engine state itself never reaches a template: only `engine.view(state, seat)`
for the phone's active seat (None for a spectator).
"""

import functools
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import autoplay, draws, labels, reads
from games.models import Seat, Table
from games.registry import get_game

MAX_SEATS_PER_PHONE = 4
LOG_LENGTH = 8
# What differs per render or per table inside a form: its hidden fields (seat, version,
# action id, CSRF token) and its address. Templates write {{ fields }}, {{ act_url }} and,
# for a form with no other hidden field, {{ csrf }}; live_html stamps the real ones in last,
# so that the fragments holding forms are drawn once per process and shared by every table
# and phone (play_row, fragment). Escaped text never has "<".
FIELDS = mark_safe("<!--fields-->")
ACT_URL = mark_safe("<!--act-url-->")
CSRF = mark_safe("<!--csrf-->")


@dataclass(frozen=True)
class Snapshot:
    """A table as a render needs it, read in one go: the row, its seats and the rows of
    its log. Rendering from it reads nothing more, so the phones on one process can
    share one snapshot per change (games.consumers) and render outside the database
    thread."""

    table: Table
    seats: list[Seat]
    log_rows: list[dict]


def snapshot(table: Table | int, seats: list[Seat] | None = None) -> Snapshot | None:
    """The table (or the table with this id, None if it is gone) with its seats and log;
    `seats` when the caller has just read them."""
    if not isinstance(table, Table):
        table = reads.table(table)
        if table is None:
            return None
    if seats is None:
        seats = reads.seats(table.pk)
    # a digital Triggs cross and its extra crosses are one line: enough rows for a few chains
    length = LOG_LENGTH * 4 if (table.game, table.mode) == ("triggs", "digital") else LOG_LENGTH
    return Snapshot(table, seats, reads.log(table.pk, length))


# The snapshots of this process's latest changes, by (table id, change id): the process
# that applied a change keeps what it read in the change's transaction, and every phone
# on it renders from that; a change made elsewhere is read once by the first phone to
# hear of it (games.consumers keeps that read here too). Bounded, oldest out first: a
# phone that falls further behind reads the table itself.
RECENT_CHANGES = 1024
_recent: OrderedDict = OrderedDict()
_recent_lock = threading.Lock()  # kept from the database thread, read in the event loop


def keep(table_id: int, change: str, value) -> None:
    with _recent_lock:
        _recent[(table_id, change)] = value
        while len(_recent) > RECENT_CHANGES:
            _recent.popitem(last=False)


def kept(table_id: int, change: str):
    """A change's Snapshot (or the read that will make it), None if not kept here."""
    with _recent_lock:
        return _recent.get((table_id, change))


def seats_held(snap: Snapshot, token_hashes) -> list[int]:
    """The seats a phone holds now: those whose token is in its cookie (hashed)."""
    return [
        seat.index for seat in snap.seats if seat.token_hash and seat.token_hash in token_hashes
    ]


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
    snap: Snapshot, phone_seats: list[int], active: int | None, host: bool, error=None
) -> dict:
    table, seats = snap.table, snap.seats
    game = get_game(table.game)
    names = {seat.index: seat_name(seat) for seat in seats}
    view = panel = None
    if table.state is not None:
        view = game.engine(table.mode).view(table.state, active)
        panel = PANELS[(table.game, table.mode)](view, names, active)
        if (table.game, table.mode) == ("triggs", Table.Mode.DIGITAL) and active is not None:
            # The second tap of a draw: the only card shown that the view does not hold,
            # the one the phone's own first draw uncovered (games.draws).
            own = next(seat for seat in seats if seat.index == active)
            pile = draws.committed_pile(own, table.version)
            panel["draw_step"] = draws.preview(table.state, active, pile) if pile else None
            if pile:  # committed to drawing: no discard or cross until the second card
                panel.update(playing=False, crosses=[])
    return {
        "table": table_summary(table),
        "panel_template": f"games/{table.game}/_{table.mode}.html",
        "seats": [
            {
                "index": seat.index,
                "name": names[seat.index],
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
        "log": log_lines(table, snap.log_rows, names),
        "digital": table.mode == Table.Mode.DIGITAL,
        "bot_levels": [(level, labels.BOT_LEVELS[level]) for level in autoplay.levels(table.game)],
        "error": labels.refusal(error, table.game) if error else None,
        "fields": FIELDS,
        "act_url": ACT_URL,
        "csrf": CSRF,
    }


def table_summary(table: Table) -> dict:
    """What the page and the live partial say about the table itself."""
    return {
        "code": table.code,
        "game": table.game,
        "game_name": get_game(table.game).name,
        "mode": table.mode,
        "status": table.status,
        "version": table.version,
        "players": table.players,
        "target": table.config.get("target"),
        "lobby": table.status == Table.Status.LOBBY,
        "closed": table.status == Table.Status.CLOSED,
    }


def seat_name(seat) -> str:
    """A person's own name; a computer player's, worded in the active language."""
    if seat.kind == seat.Kind.BOT:
        return labels.bot_name(seat.index, seat.bot_level)
    return seat.name


def log_lines(table: Table, rows: list[dict], names: dict) -> list[str]:
    """The latest moves in words, newest first (`rows`: the newest Action rows first)."""
    if (table.game, table.mode) == ("triumfdrez", Table.Mode.DIGITAL):
        return [
            labels.describe_triumfdrez_digital(row["action"], names.get(row["seat"]))
            for row in rows[:LOG_LENGTH]
        ]
    if table.mode == Table.Mode.DIGITAL:
        return labels.describe_turns(rows[::-1], names)[-LOG_LENGTH:][::-1]
    return [
        labels.describe(table.game, row["action"], names.get(row["seat"]))
        for row in rows[:LOG_LENGTH]
    ]


def live_html(
    snap: Snapshot, phone_seats, active, host, lang: str, error=None, csrf_token=None, oob=True
) -> str:
    """The live partial (as an out-of-band swap unless `oob` is false). Over a WebSocket
    there is no request: the phone's own CSRF cookie value keeps its plain form POSTs
    valid. Reads no database: a consumer calls it in the event loop."""
    with translation.override(lang):
        context = table_context(snap, phone_seats, active, host, error)
        context["oob"] = oob
        context["csrf_token"] = csrf_token
        # one action id per render: a form sent twice is applied once
        context["action_id"] = action_id = uuid.uuid4().hex
        html = render_to_string("games/_live.html", context)
        act_url = reverse("table_act", kwargs={"code": snap.table.code})  # in `lang`
    csrf = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf_token)
        if csrf_token
        else ""
    )
    fields = format_html(
        '{}<input type="hidden" name="seat" value="{}"><input type="hidden" name="version"'
        ' value="{}"><input type="hidden" name="action_id" value="{}">',
        csrf,
        "" if active is None else active,
        snap.table.version,
        action_id,
    )
    return html.replace(FIELDS, fields).replace(ACT_URL, act_url).replace(CSRF, csrf)


def _triggs_companion(view: dict, names: dict, active) -> dict:
    """Rows of the phone's own sheet with what each box does when tapped (T-C, T-C-BONUS)."""

    phase, me = view["phase"], active
    can_cross = (
        me is not None and phase == "play" and (not view["turn_marker"] or view["turn"] == me)
    )
    placing_extra = phase == "extra" and view.get("extra_seat") == me and me is not None
    sheet = view["sheets"][me] if me is not None else None
    rows = _sheet_rows(sheet, cross=can_cross, extra=placing_extra) if sheet is not None else ""
    others = [
        {
            "index": seat,
            "name": names.get(seat, ""),
            "total": sum(crossed),
            "sheet": mini_sheet(translation.get_language(), tuple(crossed), names.get(seat, "")),
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


def _sheet_rows(sheet: list[int], cross: bool = False, extra: bool = False) -> str:
    """A sheet's rows for the tappable play-sheet grid (T-C, T-C-BONUS): with `cross`, each
    open box is a button crossing up to it; with `extra`, the first open box of each open
    row is a button for an extra cross."""
    from games.labels import TRIGGS_ROW_SIZES

    kind = "cross" if cross else "extra" if extra else None
    lang = translation.get_language()
    return mark_safe(  # rows drawn from templates, their text escaped there
        "".join(
            play_row(lang, value, done, kind if done < size else None)
            for value, (size, done) in enumerate(zip(TRIGGS_ROW_SIZES, sheet, strict=True), 1)
        )
    )


# Sheets are drawn once per process for each thing they show, and shared by every phone
# and table: a row by (language, row, boxes crossed, what a tap does), another player's
# small sheet by (language, boxes crossed, name). Each is a few hundred bytes.
DRAWN_SHEETS = 4096


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def play_row(lang: str, value: int, done: int, mode: str | None) -> str:
    """One row of the play sheet; with `mode` ("cross" or "extra") it is a form whose
    boxes are its buttons (sets = the open boxes up to the one tapped)."""
    from games.labels import TRIGGS_ROW_SIZES
    from games.templatetags.rules_tags import sheet_row

    boxes = [
        {
            "crossed": i < done,
            "kind": mode if (i >= done if mode == "cross" else i == done) else None,
            "sets": i - done + 1,
        }
        for i in range(TRIGGS_ROW_SIZES[value - 1])
    ]
    row = sheet_row(value, done, boxes) | {"mode": mode}
    context = {"row": row, "fields": FIELDS, "act_url": ACT_URL}
    with translation.override(lang):
        return render_to_string("games/triggs/_play_row.html", context)


class Frozen(dict):
    """A dict that can key a cache (its values frozen too)."""

    def __hash__(self):
        return hash(frozenset(self.items()))


def frozen(value):
    """`value` as a cache key: lists become tuples and dicts Frozen, all the way down."""
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return Frozen((key, frozen(item)) for key, item in value.items())
    return value


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def fragment(name: str, lang: str, context: frozenset) -> str:
    """A template drawn with only `context` ((name, frozen value) pairs): the status line,
    the other players' sheets, the log and the table tools are each the same for many
    phones and moves ({% fragment %} in games/templatetags/live_tags.py). Forms inside
    take their CSRF token as {{ csrf }}, stamped in per phone by live_html."""
    with translation.override(lang):
        return render_to_string(name, dict(context))


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def mini_sheet(lang: str, crossed: tuple[int, ...], name: str) -> str:
    """Another player's sheet, small and read-only."""
    from games.templatetags.rules_tags import score_sheet

    with translation.override(lang):
        return render_to_string("games/triggs/_sheet.html", score_sheet(crossed, label=name))


def _triggs_digital(view: dict, names: dict, active) -> dict:
    """The digital table from one seat's view: its hand and the choices it has now, the
    piles, every sheet (T-A, T-B, T-C, T-C-BONUS, T-OBSOLETE-*, T-WIN).

    Only the view is used. The cross proposals are those engine.legal_actions lists (the
    most sets for each value, singles first: sheet.cross_ways), from the view's own hand
    and sheet; a draw is offered from any pile that has cards or can be refilled, the
    engine judging the rest.
    """
    from games.labels import DRAWN_FROM, set_words
    from games.triggs.engine import HAND_LIMIT
    from games.triggs.sheet import ROW_SIZES, cross_ways

    phase, me = view["phase"], active
    hand = view.get("hand")
    sheet = view["sheets"][me] if me is not None else None
    my_turn = me is not None and view["turn"] == me and phase != "over"
    playing = my_turn and phase == "play"
    piles = view["piles"]
    refill = view["discard"]["count"] > 0  # an empty pile takes the discard pile (T-REFILL)
    draw_count = 0
    if playing and len(hand) < HAND_LIMIT:
        draw_count = 1 if len(hand) == HAND_LIMIT - 1 else 2
    pile_list = [
        {
            "name": name,
            "top": piles[name].get("top"),
            "count": piles[name]["count"],
            "face_up": name != "stock",
            "drawable": bool(draw_count) and (piles[name]["count"] > 0 or refill),
            "from_words": DRAWN_FROM[name],
        }
        for name in ("left", "stock", "right")
    ]
    crosses = []
    if playing:
        counts = [0] * 13
        for card in hand:
            counts[card] += 1
        for value, sets in sorted(cross_ways(counts, sorted(set(hand)), sheet).items()):
            room = ROW_SIZES[value] - sheet[value - 1]
            options = [
                {
                    "count": k,
                    "words": set_words(sets[:k]),
                    "field": "|".join("+".join(map(str, s)) for s in sets[:k]),
                    "fills": k == room,
                }
                for k in range(1, len(sets) + 1)
            ]
            crosses.append({"value": value, "options": options})
    others = [
        {
            "index": seat,
            "name": names.get(seat, ""),
            "total": sum(crossed),
            "sheet": mini_sheet(translation.get_language(), tuple(crossed), names.get(seat, "")),
            "hand_size": view["hand_sizes"][seat],
            "turn": view["turn"] == seat and phase != "over",
        }
        for seat, crossed in enumerate(view["sheets"])
        if seat != me
    ]
    rooms = [ROW_SIZES[v] - sheet[v - 1] for v in range(1, 13)] if sheet else []
    return {
        "hand": hand,
        "my_turn": my_turn,
        "playing": playing,
        "placing_extra": my_turn and phase == "extra",
        "draw_count": draw_count,
        "piles": pile_list,
        "discard": view["discard"],
        "box_count": len(view["box"]),
        "crosses": crosses,
        "open_rows": [v for v, room in enumerate(rooms, start=1) if room],
        # for the script that checks the ticked cards of the hand (static/js/table.js)
        "rooms": ",".join(map(str, rooms)),
        "rows": _sheet_rows(sheet, extra=my_turn and phase == "extra") if sheet else "",
        "my_total": sum(sheet) if sheet else 0,
        "others": others,
        "turn_name": names.get(view["turn"]),
        "winner_name": names.get(view.get("winner")),
    }


def _trick_reason(cards: list[dict], winner: int, contract: dict) -> str:
    """Why `winner` took the trick (D-RANK): the key of labels.TRICK_REASONS."""
    from games.labels import parse_card
    from games.triumfdrez.tricks import led_figure

    card = next(play["card"] for play in cards if play["seat"] == winner)
    figure, number = parse_card(card)
    if figure == "neutral":
        return "leader"
    if number == contract["supertrump"]:
        return "best" if figure == contract["trump"] else "supertrump"
    if figure == contract["trump"]:
        return "trump"
    return "led" if figure == led_figure(cards) else "leader"


def _triumfdrez_digital(view: dict, names: dict, active) -> dict:
    """The digital table from one seat's view (D-AUCTION, D-PLAY, D-OPEN, D-SCORE): its own
    hand with the cards it may play now, the auction, the trick, the last trick and why it
    was won, the sides' tricks and scores. Only the view is used; other hands appear only
    where the view shows them (an open contract's declaring side, once play has begun)."""
    from games import labels
    from games.templatetags.rules_tags import drez_card_context
    from games.triumfdrez.auction import current_bid, entry_level
    from games.triumfdrez.tricks import playable

    phase, me = view["phase"], active
    hand = view.get("hand") or []
    contract = view.get("contract")
    my_turn = me is not None and view["turn"] == me and phase in ("auction", "play")
    legal = set(playable(hand, view["trick"])) if my_turn and phase == "play" else set()

    def card(card_id: str) -> dict:
        return drez_card_context(card_id)

    groups = []
    for figure in (*labels.FIGURES, "neutral"):
        cards = [c for c in hand if c.split("-")[0] == figure]
        if not cards:
            continue
        entries = []
        for card_id in cards:
            reason = None
            if phase == "play" and card_id not in legal:
                if not my_turn:
                    reason = labels.REFUSALS["not_your_turn"]
                elif figure == "neutral":
                    reason = labels.REFUSALS["neutral_not_allowed"]
                else:
                    reason = labels.REFUSALS["must_follow"]
            entries.append({"card": card(card_id), "legal": card_id in legal, "reason": reason})
        groups.append(
            {
                "symbol": labels.FIGURE_SYMBOLS[figure],
                "name": labels.FIGURE_NAMES[figure],
                "cards": entries,
            }
        )

    teams = view["teams"]
    team_of = {seat: i for i, members in enumerate(teams) for seat in members}
    declaring = team_of[contract["seat"]] if contract else None
    sides = [
        {
            "index": i,
            "names": [names.get(s, "") for s in members],
            "tricks": sum(view["tricks_won"][s] for s in members),
            "score": view["scores"][i],
            "declaring": i == declaring,
            "mine": me in members,
        }
        for i, members in enumerate(teams)
    ]
    top = current_bid(view["auction"])
    last = view.get("last_trick")
    last_trick = None
    if last and contract:
        last_trick = {
            "plays": [
                {"name": names.get(p["seat"], ""), "card": card(p["card"])} for p in last["cards"]
            ],
            "winner": names.get(last["winner"], ""),
            "reason": labels.TRICK_REASONS[_trick_reason(last["cards"], last["winner"], contract)],
        }
    result = view.get("last_result")
    explained = None
    if phase in ("hand_over", "match_over") and result:
        c = result["contract"]
        won, bid = result["tricks_taken"], c["tricks"]
        explained = {
            "declarer": names.get(c["seat"], ""),
            "contract": labels.bid_words(c),
            "bid": bid,
            "won": won,
            "made": result["made"],
            "difference": abs(won - bid),
            "points": bid + 2 * abs(won - bid),
            "sides": [
                {"names": [names.get(s, "") for s in teams[i]], "points": p}
                for i, p in enumerate(result["points"])
            ],
        }
    open_hands = [
        {"name": names.get(seat, ""), "cards": [card(c) for c in cards]}
        for seat, cards in enumerate(view.get("open_hands") or [])
        if cards and seat != me
    ]
    return {
        "groups": groups,
        "my_turn": my_turn,
        "bidding": my_turn and phase == "auction",
        "can_pass": top is not None,
        # the Bid button is enabled only for bids that beat the current one (table.js)
        "min_level": entry_level(top) + 1 if top else 0,
        "bid_range": range(top["tricks"] if top else 1, 14),
        "figures": [(f, labels.FIGURE_SYMBOLS[f], labels.FIGURE_NAMES[f]) for f in labels.FIGURES],
        "colours": list(labels.COLOUR_NAMES.items()),
        "auction": [
            {
                "name": names.get(entry["seat"], ""),
                "text": str(labels.PASS) if entry.get("pass") else labels.bid_words(entry),
                "pass": bool(entry.get("pass")),
            }
            for entry in view["auction"]
        ],
        "contract_words": labels.bid_words(contract) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "sides": sides,
        "trick": [
            {"name": names.get(p["seat"], ""), "card": card(p["card"])} for p in view["trick"]
        ],
        "last_trick": last_trick,
        "open_hands": open_hands,
        "others": [
            {
                "name": names.get(seat, ""),
                "cards": size,
                "dealer": seat == view["dealer"],
                "turn": seat == view["turn"] and phase in ("auction", "play"),
            }
            for seat, size in enumerate(view["hand_sizes"])
            if seat != me
        ],
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(view["turn"]) if view["turn"] is not None else None,
        "explained": explained,
        "winner_names": [names.get(s, "") for s in teams[view["winner"]]]
        if view.get("winner") is not None
        else [],
        "too_low": labels.REFUSALS["bid_too_low"],
    }


PANELS = {
    ("triggs", "companion"): _triggs_companion,
    ("triggs", "digital"): _triggs_digital,
    ("triumfdrez", "companion"): _triumfdrez_companion,
    ("triumfdrez", "digital"): _triumfdrez_digital,
}
