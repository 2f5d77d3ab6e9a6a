"""Who entered each entry of a tracker's recorded hands, and when: the log rows of its bids
and passes, of a contract entered directly and of its tricks, found by taking the log
through the companion engine from the match's start (a bid taken back, a contract that
drops the auction, a hand taken back and entered again all leave the rows that stand).

Pure: the rows are the snapshot's (games.reads.log); nothing here reads the database."""

from games.triumfdrez import companion


def _start(row: dict) -> bool:
    action = row["action"]
    return row["seat"] is None and isinstance(action, dict) and action.get("type") == "start"


# The latest log taken through the engine, and what that found: a change's board is built
# once per language of its phones, from the same rows (the change's snapshot's), and the
# log need not be taken through the engine again for each.
_latest: tuple = (None, None)


def hands(rows: list[dict], config, state: dict) -> list[dict] | None:
    """For each recorded hand of `state` (its history, in order): {"bids": the row of each
    auction entry, "contract": the row of a contract entered directly (else None),
    "result": the row of its tricks}. `rows`: the table's log, newest first, back to the
    match's start at least. None when they do not lead to `state` (a log cut short, a
    state set otherwise). Callers must not change what it returns."""
    global _latest
    seen, found = _latest
    if seen is not rows:
        found = _hands(rows, config, state)
        _latest = (rows, found)
    return found


def _hands(rows: list[dict], config, state: dict) -> list[dict] | None:
    rows = rows[::-1]
    starts = [i for i, row in enumerate(rows) if _start(row)]
    if not starts:
        return None
    first = starts[-1]
    try:
        now = companion.new_game(config, rows[first]["action"]["seed"])
        done: list[dict] = []
        bids: list[dict] = []
        contract = None
        for row in rows[first + 1 :]:
            before, now = now, companion.apply(now, row["seat"], row["action"])
            if len(now["history"]) > len(before["history"]):  # its tricks: a hand recorded
                done.append({"bids": bids, "contract": contract, "result": row})
                bids, contract = [], None
            elif len(now["history"]) < len(before["history"]):  # a hand taken back
                last = done.pop()
                bids, contract = last["bids"], last["contract"]
            else:
                entries = len(now["auction"])
                bids = [*bids, row] if entries > len(bids) else bids[:entries]
                if row["action"].get("type") == "contract":
                    contract = row
                elif now["contract"] is None:
                    contract = None
    except Exception:  # an untrusted log must not become a server error
        return None
    return done if now == state else None
