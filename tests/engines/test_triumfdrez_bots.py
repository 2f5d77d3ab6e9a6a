"""The reference players: legal, bidding from the hand, playing sensibly."""

import random

import pytest

from games.triumfdrez import bots, engine

from .test_triumfdrez_support import PASS, WEAK, auction_state, bid, play, play_position


def _decide(bot, state, seed=0):
    seat = state["turn"]
    return bot(engine.view(state, seat), engine.legal_actions(state), random.Random(seed))


STRONG_KNIGHTS_BLUE = [
    "knight-9",
    "knight-8",
    "knight-7",
    "knight-6",
    "knight-5",
    "joker-5",
    "queen-5",
    "rook-5",
    "bishop-5",
    "pawn-5",
    "pawn-1",
    "pawn-2",
    "neutral-1",
]


def _auction_with_hand(hand, players=4, dealer=3):
    state = auction_state(players=players, dealer=dealer)
    seat = (dealer + 1) % players
    others = [card for card in state["hands"][seat] + state["hidden"] if card not in hand]
    for other in range(players):
        if other != seat:
            others.extend(c for c in state["hands"][other] if c not in hand)
    rest = [card for card in others if card not in hand]
    state["hands"] = [list(h) for h in state["hands"]]
    state["hands"][seat] = list(hand)
    for other in range(players):
        if other != seat:
            state["hands"][other], rest = rest[:13], rest[13:]
    state["hidden"] = rest
    return state, seat


@pytest.mark.parametrize("bot", [bots.heuristic, bots.random_legal])
def test_first_bidder_bids(bot):  # D-AUCTION: must bid
    for seed in range(20):
        action = _decide(bot, auction_state(dealer=seed % 4), seed)
        assert action["type"] == "bid"


def test_heuristic_picks_the_trump_and_super_trump_that_suit_the_hand():
    state, _ = _auction_with_hand(STRONG_KNIGHTS_BLUE)
    action = _decide(bots.heuristic, state)
    assert (action["trump"], action["supertrump"]) == ("knight", 5)
    assert action["tricks"] == 1  # the lowest bid, as the first bidder


def test_heuristic_raises_with_a_strong_hand_and_passes_with_a_weak_one():
    strong, seat = _auction_with_hand(STRONG_KNIGHTS_BLUE, dealer=2)
    strong["turn"] = seat
    strong["auction"] = [{"seat": 2, "tricks": 7, "trump": "rook", "supertrump": 2, "open": False}]
    assert _decide(bots.heuristic, strong) == bid(8, "knight", 5)
    weak, seat = _auction_with_hand(WEAK, dealer=2)
    weak["turn"] = seat
    weak["auction"] = [{"seat": 2, "tricks": 7, "trump": "rook", "supertrump": 2, "open": False}]
    assert _decide(bots.heuristic, weak) == PASS


def test_heuristic_does_not_outbid_its_partner():
    state, seat = _auction_with_hand(STRONG_KNIGHTS_BLUE, dealer=3)  # seat 0
    state["turn"] = seat
    state["auction"] = [{"seat": 2, "tricks": 1, "trump": "rook", "supertrump": 2, "open": False}]
    assert _decide(bots.heuristic, state) == PASS


def test_heuristic_wins_cheaply():
    state = play_position(
        [["pawn-1"], ["knight-6", "knight-9", "rook-1"], ["pawn-2", "pawn-3"]],
        trump="pawn",
        supertrump=1,
        trick=[(0, "knight-5")],
    )
    assert _decide(bots.heuristic, state) == play("knight-6")


def test_heuristic_trumps_when_void_and_discards_low_when_it_cannot_win():
    state = play_position(
        [["pawn-1"], ["pawn-6", "pawn-9", "rook-3", "rook-8"], ["pawn-2", "pawn-3"]],
        trump="pawn",
        supertrump=1,
        trick=[(0, "knight-5")],
    )
    assert _decide(bots.heuristic, state) == play("pawn-6")
    state["trick"] = [{"seat": 0, "card": "joker-1"}]  # the super-trump colour: cannot win
    assert _decide(bots.heuristic, state) == play("rook-3")


def test_heuristic_does_not_overtake_a_winning_partner():
    state = play_position(
        [["pawn-1"], ["pawn-2"], ["knight-9", "knight-1", "queen-3"], ["pawn-3", "pawn-4"]],
        trump="rook",
        supertrump=2,
        trick=[(0, "knight-7"), (1, "knight-3")],
    )
    assert _decide(bots.heuristic, state) == play("knight-1")
    state["trick"][0]["card"], state["trick"][1]["card"] = "knight-3", "knight-7"
    assert _decide(bots.heuristic, state) == play("knight-9")  # the opponent wins: take it


def test_heuristic_leads_a_master_trump_else_a_low_card():
    state = play_position(
        [["pawn-2", "pawn-7", "queen-1"], ["pawn-1", "rook-3"], ["pawn-3", "pawn-4"]],
        trump="pawn",
        supertrump=2,
    )
    assert _decide(bots.heuristic, state) == play("pawn-2")  # the strongest card of the hand
    state["hands"][0] = ["joker-2", "pawn-7", "queen-1"]  # pawn-2 is still out
    assert _decide(bots.heuristic, state) == play("queen-1")
    state["played_tricks"] = [
        {"leader": 1, "winner": 1, "cards": [{"seat": 1, "card": "pawn-2"}]}
    ]  # once pawn-2 has been played, joker-2 is the master card
    assert _decide(bots.heuristic, state) == play("joker-2")


@pytest.mark.parametrize("bot", [bots.heuristic, bots.random_legal])
def test_bots_only_choose_legal_actions(bot):
    for seed in range(30):
        state = engine.new_game({"players": 2 + seed % 3}, seed)
        rng = random.Random(seed)
        for _ in range(80):
            legal = engine.legal_actions(state)
            action = bot(engine.view(state, state["turn"]), legal, rng)
            assert action in legal
            state = engine.apply(state, state["turn"], action)


def test_random_bot_can_outbid():
    bids = 0
    for seed in range(40):
        state = engine.apply(auction_state(dealer=3), 0, bid(1, "pawn", 1))
        bids += _decide(bots.random_legal, state, seed)["type"] == "bid"
    assert 0 < bids < 40


def test_heuristic_team_beats_random_players():
    wins = 0
    for seed in range(12):
        state = engine.new_game({"players": 4, "target": 30}, seed)
        rng = random.Random(seed)
        while state["phase"] != "match_over":
            seat = state["turn"]
            bot = bots.heuristic if seat in (0, 2) else bots.random_legal
            state = engine.apply(
                state, seat, bot(engine.view(state, seat), engine.legal_actions(state), rng)
            )
        wins += state["winner"] == 0
    assert wins >= 10
