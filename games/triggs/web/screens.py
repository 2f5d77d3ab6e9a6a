"""What a Triggs table shows, as plain data for its templates (games/triggs/_digital.html,
_companion.html): the `board` every seat sees alike and each seat's `panel`, built from
the engines' views and pure functions only (T-A, T-B, T-C, T-C-BONUS, T-OBSOLETE-*,
T-WIN)."""

import functools
import json

from django.utils import translation

from games.triggs import companion, engine
from games.triggs.templatetags.triggs_tags import sheet_row
from games.triggs.web.parse import sets_field
from games.triggs.web.stats import ranking
from games.triggs.web.words import hand_title, pile_label, set_words

# -- both modes ----------------------------------------------------------------------------


def others(view: dict, names: dict, turn_of) -> list[dict]:
    """Every player's name, boxes crossed, cards in hand (digital) and small sheet: the
    same for every phone at the table (the page's style hides the phone's own, which its
    sheet shows: `data-me`, games.render.live_html)."""
    sizes = view.get("hand_sizes")
    return [
        {
            "seat": seat,
            "name": names.get(seat, ""),
            "total": sum(crossed),
            "hand_size": None if sizes is None else sizes[seat],
            "turn": bool(turn_of(seat)),
            # what the player's HTML is cached by, and its small sheet's (_others.html)
            "key": f"{seat}:{names.get(seat, '')}:{sizes and sizes[seat]}:{bool(turn_of(seat))}:"
            + ",".join(map(str, crossed)),
            "sheet_key": f"{names.get(seat, '')}:" + ",".join(map(str, crossed)),
            # each row: its value, "✕" per crossed box and "·" per open one, crossed/size
            "rows": [
                {
                    "value": value,
                    "marks": "✕" * done + "·" * (engine.ROW_SIZES[value] - done),
                    "crossed": done,
                    "size": engine.ROW_SIZES[value],
                    "full": done == engine.ROW_SIZES[value],
                }
                for value, done in zip(engine.VALUES, crossed, strict=True)
            ],
        }
        for seat, crossed in enumerate(view["sheets"])
    ]


def sheet_kind(cross: bool, extra: bool) -> str | None:
    """What the play sheet's buttons send (its form's `kind`), None if it has none."""
    return "cross" if cross else "extra" if extra else None


def play_rows(sheet: list[int], cross: bool = False, extra: bool = False) -> tuple[dict, ...]:
    """A sheet's rows for the tappable play sheet (T-C, T-C-BONUS): with `cross`, each open
    box is a button crossing up to it (`sets`: the open boxes up to the one tapped); with
    `extra`, the first open box of each open row is a button for an extra cross. Cached:
    every phone's sheet is built after every change, and the rows are read, never changed."""
    return _play_rows(tuple(sheet), sheet_kind(cross, extra))


@functools.lru_cache(maxsize=4096)
def _play_rows(sheet: tuple[int, ...], kind: str | None) -> tuple[dict, ...]:
    rows = []
    for value, done in zip(engine.VALUES, sheet, strict=True):
        mode = kind if done < engine.ROW_SIZES[value] else None
        boxes = [
            {
                "crossed": i < done,
                "kind": mode if (i >= done if mode == "cross" else i == done) else None,
                "sets": i - done + 1,
            }
            for i in range(engine.ROW_SIZES[value])
        ]
        row = sheet_row(value, done, boxes)
        row["key"] = f"{value}:{done}:{mode}"  # what its HTML is cached by (_play_sheet.html)
        rows.append(row)
    return tuple(rows)


# -- companion mode --------------------------------------------------------------------------


def companion_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a companion table: every player's small sheet, whose
    turn it is, the end, and what the correction form offers."""
    view = companion.view(state, None)
    over = companion.is_over(state)
    marker = view["turn_marker"]
    to_act = companion.to_act(state)
    return {
        "others": others(view, names, lambda s: marker and not over and s in to_act),
        "total_boxes": engine.TOTAL_BOXES,
        "over": over,
        "row_values": list(engine.VALUES),
        "cross_counts": list(range(max(engine.ROW_SIZES) + 1)),
    }


def correction(view: dict, names: dict, me, answers: list[dict]) -> dict | None:
    """The correction waiting for its answer, as this phone sees it."""
    pending = view.get("correction")
    if pending is None:
        return None
    owner, value = pending["seat"], pending["value"]
    return {
        "by_name": names.get(pending["by"], ""),
        "owner_name": names.get(owner, ""),
        "value": value,
        "before": view["sheets"][owner][value - 1],
        "after": pending["crosses"],
        "mine": me == owner,
        "can_confirm": {"type": "confirm"} in answers,
        "can_reject": {"type": "reject"} in answers,
    }


def companion_panel(state: dict, me, names: dict) -> dict:
    """The phone's own sheet with what each box does when tapped (T-C, T-C-BONUS), its
    status line, its entries and corrections, besides the board."""
    view = companion.view(state, me)
    acting = me in companion.to_act(state)
    placing_extra = acting and view.get("extra_seat") == me
    can_cross = acting and not placing_extra
    sheet = view["sheets"][me] if me is not None else None
    over = companion.is_over(state)
    # the boxes stay buttons whoever's turn it is (the engine refuses a cross out of turn,
    # with its reason)
    tappable = not over and not placing_extra
    marker = view["turn_marker"]
    answers = companion.correction_answers(state, me) if me is not None else []
    return {
        "view": view,
        "rows": play_rows(sheet, cross=tappable, extra=placing_extra) if sheet else [],
        "sheet_kind": sheet_kind(tappable, placing_extra) if sheet else None,
        "correction": correction(view, names, me, answers),
        # the sheets a seated player may correct: every seat's, its own first
        "correctable": []
        if me is None
        else sorted(
            ({"index": i, "name": names.get(i, "")} for i in range(view["players"])),
            key=lambda seat: seat["index"] != me,
        ),
        "my_total": sum(sheet) if sheet else 0,
        "watching": me is None,
        "can_cross": can_cross,
        "placing_extra": placing_extra,
        "status": {
            "phase": view["phase"],
            "obsolete": view["obsolete"],
            "winner_name": names.get(view.get("winner")),
            "ranking": ranking(view, names) if over else [],
            "placing_extra": placing_extra,
            "extra_name": names.get(view.get("extra_seat")),
            "turn_name": names.get(view["turn"]) if marker else None,
            "can_cross": can_cross,
        },
        "can_pass": can_cross and marker,
        "can_undo": me is not None and view.get("can_undo") == me,
    }


# -- digital mode ----------------------------------------------------------------------------


def digital_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a digital table: the phase, the piles (as no one draws
    from them), the cards out of the game, every player's small sheet, whose turn it is,
    the end."""
    view = engine.view(state, None)
    to_act = engine.to_act(state)
    return {
        "phase": view["phase"],
        "obsolete": view["obsolete"],
        "piles": piles(view),
        "box_count": len(view["box"]),
        "others": others(view, names, lambda s: s in to_act),
        "ring": ring(view, names, to_act),
        "total_boxes": engine.TOTAL_BOXES,
        "turn_name": names.get(view["turn"]),
        "winner_name": names.get(view.get("winner")),
        "ranking": ranking(view, names) if engine.is_over(state) else [],
    }


def ring(view: dict, names: dict, to_act) -> list[dict]:
    """Every seat round the table, the same for every phone (the page's style hides the
    phone's own and lays the others out from it): name, cards in hand, boxes crossed, and
    whether it is to act."""
    return [
        keyed(
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "hand_size": size,
                "total": sum(view["sheets"][seat]),
                "turn": seat in to_act,
            }
        )
        for seat, size in enumerate(view["hand_sizes"])
    ]


@functools.lru_cache(maxsize=1024)
def hand_cards(hand: tuple[int, ...]) -> tuple[dict, ...]:
    """The cards of a hand, each with a key of its own (its value and which of that value
    it is: "h5-2"), so that a card drawn moves in and the others stay still (data-anim).
    Dicts: a template finds a key of a dict at once, an index of a tuple after a dir()."""
    seen: dict[int, int] = {}
    out = []
    for card in hand:
        seen[card] = seen.get(card, 0) + 1
        out.append({"value": card, "key": f"h{card}-{seen[card]}"})
    return tuple(out)


def digital_panel(state: dict, me, names: dict, pending: str | None) -> dict:
    """The table from one seat's view, besides the board: its hand and the choices it has
    now (the cross proposals are the engine's), its sheet, the piles when it may draw
    (`pending`: the pile its first card of a draw came from)."""
    view = engine.view(state, me)
    hand = view.get("hand")
    sheet = view["sheets"][me] if me is not None else None
    my_turn = me is not None and me in engine.to_act(state)
    placing_extra = my_turn and view.get("pending_extra", 0) > 0
    # committed to drawing: no discard or cross until the second card
    draw_step = engine.draw_preview(state, me, pending) if pending and my_turn else None
    draw_count = view.get("draw_count", 0)
    playing = my_turn and not placing_extra and not draw_step
    crossable = engine.cross_options(view) if playing else []
    second = engine.second_draw_piles(state, me, pending) if draw_step else []
    return {
        "view": view,
        "hand": hand,
        "hand_cards": hand_cards(tuple(hand)) if hand is not None else None,
        "hand_title": hand_title(len(hand), translation.get_language()) if hand is not None else "",
        "my_turn": my_turn,
        "playing": playing,
        "placing_extra": placing_extra,
        "draw_step": draw_step,
        "draw_count": draw_count if (playing or draw_step) else 0,
        # the piles as buttons, for a seat that may draw (else the board's)
        "piles": piles(view, draw_step, second) if draw_count or draw_step else None,
        "crosses": [cross_row(option) for option in crossable],
        "open_rows": engine.open_rows(sheet) if sheet else [],
        # what each choice of ticked cards can do, for the hand's buttons (static/js/triggs.js)
        "ways": ways(hand, crossable) if playing else "{}",
        "hint_discard": None,  # the value of a hinted discard (hinted_panel)
        "status": None,  # the companion's status line; the board says whose turn it is
        "rows": play_rows(sheet, extra=placing_extra) if sheet else [],
        "sheet_kind": sheet_kind(False, placing_extra) if sheet else None,
        "my_total": sum(sheet) if sheet else 0,
        "watching": me is None,
    }


def piles(view: dict, draw_step: dict | None = None, second=()) -> list[dict]:
    """The piles as `view`'s seat sees them, the discard pile last: a draw is offered
    from the engine's `first_draw_piles` while the seat may draw, its second card
    (`draw_step`: the first was taken) from `second`."""
    lang = translation.get_language()
    taken = draw_step["pile"] if draw_step else None
    drawable = second if taken else engine.first_draw_piles(view)
    out = []
    for name in engine.PILE_NAMES:
        count, top = view["piles"][name]["count"], view["piles"][name].get("top")
        face_up = name in engine.FACE_UP
        if name == taken:  # a first card taken is no longer counted in its pile
            count = count - 1 if count else "—"
            top = draw_step["uncovered"] if face_up else top
        out.append(
            keyed(
                {
                    "name": name,
                    "label": pile_label(name, lang),
                    "top": top,
                    "count": count,
                    "face_up": face_up,
                    "drawable": name in drawable,
                    "second": bool(taken),
                    "uncovered": name == taken and face_up,
                    "discard": False,
                    "hinted": False,
                }
            )
        )
    discard = view["discard"]
    out.append(
        keyed(
            {
                "name": "discard",
                "label": pile_label("discard", lang),
                "top": discard["top"],
                "count": discard["count"],
                "face_up": True,
                "drawable": False,
                "second": False,
                "uncovered": False,
                "discard": True,
                "hinted": False,
            }
        )
    )
    return out


def keyed(item: dict) -> dict:
    """`item` with the key its HTML is cached by ({% cached_each %} or {% cache %} in the
    templates): all it holds."""
    item["key"] = repr(tuple(item.values()))
    return item


def cross_row(option: dict) -> dict:
    """A row's proposals to cross in one tap (T-C, T-C-CAP): one per number of the
    engine's most sets (`option`: one of engine.cross_options), the one that fills the
    row marked."""
    sets = option["sets"]
    return keyed(
        {
            "value": option["value"],
            "options": [
                {
                    "count": k,
                    "words": set_words(sets[:k]),
                    "field": sets_field(sets[:k]),
                    "fills": k == option["room"],
                    "hinted": False,
                }
                for k in range(1, len(sets) + 1)
            ],
        }
    )


def ways(hand: list[int], crossable: list[dict]) -> str:
    """Ticked cards (sorted, "4,5") → {"discard": 1} if they are a discard (T-B), and
    "cross": [[value, "4+5"], ...] for each row they can cross and the sets they make
    there (T-C, T-C-CAP), as JSON for the hand's form (static/js/triggs.js)."""
    found: dict[str, dict] = {}
    for option in engine.discard_options(hand):
        found.setdefault(",".join([str(option["value"])] * option["count"]), {})["discard"] = 1
    for option in crossable:
        for sets in engine.cross_choices(option):
            key = ",".join(map(str, sorted(card for cards in sets for card in cards)))
            found.setdefault(key, {}).setdefault("cross", []).append(
                [option["value"], sets_field(sets)]
            )
    # numbers, "+", "|" and these two words only: the template writes it unescaped in a
    # single-quoted attribute
    return json.dumps(found, separators=(",", ":"))


# -- hints (games.hints) ---------------------------------------------------------------------


def _field_sets(field: str) -> list[list[int]]:
    """'11|7+4' (a proposal's field: sets_field) → [[11], [7, 4]]."""
    return [list(map(int, part.split("+"))) for part in field.split("|")]


def _sets_key(sets) -> tuple:
    return tuple(sorted(tuple(sorted(cards)) for cards in sets))


def hinted_panel(panel: dict, action: dict) -> dict:
    """A digital panel with the hint (what the computer would play) marked where it shows:
    the pile to draw from (the second once the first card is taken), the cross proposal,
    the cards of a discard. The panel's own lists are cached and shared: marked copies."""
    panel = dict(panel)
    kind = action.get("type")
    panel["hint_discard"] = action["value"] if kind == "discard" else None
    if kind == "draw" and panel.get("piles"):
        sources = action["from"]
        wanted = sources[1] if panel.get("draw_step") and len(sources) > 1 else sources[0]
        panel["piles"] = [
            keyed({**{k: v for k, v in pile.items() if k != "key"}, "hinted": True})
            if pile["name"] == wanted and pile["drawable"]
            else pile
            for pile in panel["piles"]
        ]
    if kind == "cross" and panel.get("crosses"):
        wanted = _sets_key(action["sets"])
        rows = []
        for row in panel["crosses"]:
            if row["value"] == action["value"]:
                options = [
                    {**option, "hinted": _sets_key(_field_sets(option["field"])) == wanted}
                    for option in row["options"]
                ]
                row = keyed({"value": row["value"], "options": options})
            rows.append(row)
        panel["crosses"] = rows
    return panel
