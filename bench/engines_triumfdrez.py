"""Speed of the TriumfDrez engine, through the public contract only (one core).

- complete 4-player hands per second: the first bidder makes the lowest bid, the others
  pass, then every card is chosen at random (seeded) from `legal_actions`; measured with
  the lowest bid sent as is, and again taking it from `legal_actions` (1820 bids);
- the median time of one `apply` over those hands;
- the median time of `legal_actions` at the auction's first turn (all 1820 bids).

Run from the repository root: `python bench/engines_triumfdrez.py`.
"""

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.triumfdrez import engine  # noqa: E402

HANDS = 1500  # per round; the best of ROUNDS rounds is kept, as timeit does, so that other
ROUNDS = 3  # work on a shared machine does not count as the engine's time
APPLY_SAMPLE_HANDS = 300
BID_LIST_CALLS = 2000
CONFIG = {"players": 4}


# The lowest bid of all (legal for the first bidder); it is sent as is so that the hands/s
# figure measures a hand, not the full bid list (timed on its own below).
LOWEST_BID = {"type": "bid", "tricks": 1, "trump": "joker", "supertrump": 1, "open": False}


def play_hand(seed: int, rng: random.Random, bid_from_legal: bool = False) -> None:
    state = engine.new_game(CONFIG, seed)
    first_bid = engine.legal_actions(state)[0] if bid_from_legal else LOWEST_BID
    state = engine.apply(state, state["turn"], first_bid)
    while state["phase"] == "auction":
        state = engine.apply(state, state["turn"], {"type": "pass"})
    choice = rng.choice
    legal_actions = engine.legal_actions
    apply = engine.apply
    while state["phase"] == "play":
        state = apply(state, state["turn"], choice(legal_actions(state)))


def hands_per_second(bid_from_legal: bool = False) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        rng = random.Random(1)
        start = time.perf_counter()
        for seed in range(HANDS):
            play_hand(seed, rng, bid_from_legal)
        best = min(best, time.perf_counter() - start)
    return HANDS / best


def apply_microseconds() -> float:
    """Median µs per `apply`, timing each call of the same kind of hands."""
    rng = random.Random(2)
    clock = time.perf_counter_ns
    times = []
    for seed in range(APPLY_SAMPLE_HANDS):
        state = engine.new_game(CONFIG, seed)
        action = LOWEST_BID
        while state["phase"] != "hand_over":
            seat = state["turn"]
            before = clock()
            state = engine.apply(state, seat, action)
            times.append(clock() - before)
            if state["phase"] == "auction":
                action = {"type": "pass"}
            elif state["phase"] == "play":
                action = rng.choice(engine.legal_actions(state))
    return statistics.median(times) / 1000


def view_microseconds() -> float:
    """Median µs per `view` of the seat to act (what a phone's update costs the engine),
    at every step of a short auction and of the play."""
    rng = random.Random(3)
    clock = time.perf_counter_ns
    times = []
    for seed in range(APPLY_SAMPLE_HANDS):
        state = engine.new_game(CONFIG, seed)
        action = LOWEST_BID
        while state["phase"] != "hand_over":
            seat = state["turn"]
            before = clock()
            engine.view(state, seat)
            times.append(clock() - before)
            state = engine.apply(state, seat, action)
            if state["phase"] == "auction":
                action = {"type": "pass"}
            elif state["phase"] == "play":
                action = rng.choice(engine.legal_actions(state))
    return statistics.median(times) / 1000


def bid_list_milliseconds() -> tuple[float, int]:
    state = engine.new_game(CONFIG, 0)
    clock = time.perf_counter_ns
    times = []
    for _ in range(BID_LIST_CALLS):
        before = clock()
        bids = engine.legal_actions(state)
        times.append(clock() - before)
    return statistics.median(times) / 1e6, len(bids)


def main() -> None:
    rate = hands_per_second()
    rate_with_bid_list = hands_per_second(bid_from_legal=True)
    apply_us = apply_microseconds()
    view_us = view_microseconds()
    bid_ms, bid_count = bid_list_milliseconds()
    print(
        f"triumfdrez: {rate:,.0f} complete 4-player hands/s "
        f"(best of {ROUNDS} rounds of {HANDS} seeded hands, one core)"
    )
    print(
        f"triumfdrez: {rate_with_bid_list:,.0f} hands/s "
        "when the first bid is also taken from legal_actions"
    )
    print(f"triumfdrez: apply median {apply_us:.2f} µs")
    print(f"triumfdrez: view (the seat to act) median {view_us:.2f} µs")
    print(f"triumfdrez: legal_actions at the first bid ({bid_count} bids) median {bid_ms:.3f} ms")


if __name__ == "__main__":
    main()
