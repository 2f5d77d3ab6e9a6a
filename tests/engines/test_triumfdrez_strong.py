"""The strong TriumfDrez player: legal, blind to what its seat cannot see, sensible in play.

`strong` samples the cards its seat cannot see and simulates; these tests check that it
only ever uses its view (D-DEAL: hidden cards and other hands), that the deals it samples
are consistent with that view (hand sizes, open hands under D-OPEN, voids shown under
D-FOLLOW), and that it plays and bids sensibly (D-AUCTION, D-RANK, D-SCORE).
"""

import random
import time

import pytest

from games.triumfdrez import bots, engine
from games.triumfdrez.cards import DECK

from .test_triumfdrez_support import (
    PASS,
    WEAK,
    auction_state,
    bid,
    play,
    play_position,
    redeal_unseen,
)


def _decide(state, seed=0, bot=bots.strong, **options):
    seat = state["turn"]
    return bot(
        engine.view(state, seat), engine.legal_actions(state), random.Random(seed), **options
    )


def _play_match(players, seat_bots, seed, target):
    """A whole match; every action is checked against `legal_actions` as it is chosen."""
    state = engine.new_game({"players": players, "target": target}, seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if state["phase"] == "match_over":
            return state
        seat = state["turn"]
        legal = engine.legal_actions(state)
        action = seat_bots[seat](engine.view(state, seat), legal, rng)
        assert action in legal
        state = engine.apply(state, seat, action)
    raise AssertionError("the match did not finish")


def test_levels_name_every_bot():
    expected = {"random": bots.random_legal, "heuristic": bots.heuristic, "strong": bots.strong}
    assert expected == bots.LEVELS


@pytest.mark.parametrize(
    ("players", "line_up"),
    [
        (2, ("strong", "heuristic")),
        (3, ("random", "strong", "heuristic")),
        (4, ("strong", "heuristic", "strong", "random")),
    ],
)
def test_strong_finishes_whole_matches_with_legal_actions(players, line_up):  # D-MATCH
    for seed in range(2):
        state = _play_match(players, [bots.LEVELS[name] for name in line_up], seed, target=50)
        assert state["winner"] is not None
        assert max(state["scores"]) >= state["target"]


def test_strong_partners_another_level_at_four_players():
    # Paired with a weaker partner (as it would be with a person) it still plays whole
    # matches against two heuristic players...
    line_up = [bots.strong, bots.heuristic, bots.random_legal, bots.heuristic]
    assert _play_match(4, line_up, seed=11, target=30)["phase"] == "match_over"
    # ...and with a heuristic partner the pair outscores two heuristic players: the same
    # deals played with the strong bot in either team.
    margin = 0
    for seed in range(4):
        for strong_seat in (0, 1):
            state = engine.new_game({"players": 4}, seed)
            rng = random.Random(seed)
            while state["phase"] in ("auction", "play"):
                seat = state["turn"]
                bot = bots.strong if seat == strong_seat else bots.heuristic
                legal = engine.legal_actions(state)
                state = engine.apply(state, seat, bot(engine.view(state, seat), legal, rng))
            points = state["last_result"]["points"]
            margin += points[strong_seat % 2] - points[1 - strong_seat % 2]
    assert margin > 0


def test_first_bidder_must_bid_and_does():  # D-AUCTION
    for dealer in range(4):
        state = auction_state(dealer=dealer, seed=dealer)
        legal = engine.legal_actions(state)
        assert PASS not in legal
        action = _decide(state, dealer)
        assert action in legal and action["type"] == "bid"


def _auction_with_hand(hand, top=None, players=4, dealer=2):
    """The auction with `hand` for the seat after the dealer, after the dealer's `top` bid."""
    state = auction_state(players=players, dealer=dealer)
    seat = (dealer + 1) % players
    rest = [card for card in DECK if card not in hand]
    hands = []
    for other in range(players):
        if other == seat:
            hands.append(list(hand))
        else:
            hands.append(rest[:13])
            rest = rest[13:]
    state.update(hands=hands, hidden=rest, turn=seat)
    if top is not None:
        state["auction"] = [{"seat": dealer, **{k: v for k, v in top.items() if k != "type"}}]
    return state


MONSTER = [
    "knight-9",
    "knight-8",
    "knight-7",
    "knight-6",
    "knight-4",
    "joker-5",
    "queen-5",
    "rook-5",
    "bishop-5",
    "pawn-5",
    "knight-5",
    "joker-9",
    "queen-9",
]


def test_strong_outbids_with_a_strong_hand_and_passes_with_a_weak_one():  # D-AUCTION
    action = _decide(_auction_with_hand(MONSTER, bid(5, "rook", 2)))
    # The cheapest raise: five tricks again, dropping the trump figure, keeping its colour.
    assert action == bid(5, None, 5)
    assert _decide(_auction_with_hand(WEAK, bid(9, "rook", 2))) == PASS


def test_strong_does_not_outbid_its_partner():
    state = _auction_with_hand(MONSTER, bid(3, "rook", 2), dealer=3)  # seat 0; partner 2 bid
    state["auction"] = [
        {"seat": 1, "tricks": 2, "trump": "pawn", "supertrump": 1, "open": False},
        {"seat": 2, "tricks": 3, "trump": "rook", "supertrump": 2, "open": False},
        {"seat": 3, "pass": True},
    ]
    assert _decide(state) == PASS


def _mid_hand(players, seed, plays):
    """A position `plays` cards into the first hand (heuristic auction and play)."""
    state = engine.new_game({"players": players}, seed)
    rng = random.Random(seed)
    while state["phase"] == "auction" or (state["phase"] == "play" and plays > 0):
        if state["phase"] == "play":
            plays -= 1
        seat = state["turn"]
        state = engine.apply(
            state, seat, bots.heuristic(engine.view(state, seat), engine.legal_actions(state), rng)
        )
    return state


@pytest.mark.parametrize(("players", "seed", "plays"), [(2, 1, 5), (3, 2, 10), (4, 3, 17)])
def test_strong_sees_only_its_view_in_play(players, seed, plays):  # D-DEAL
    state = _mid_hand(players, seed, plays)
    seat = state["turn"]
    other = redeal_unseen(state, seat)
    assert engine.view(other, seat) == engine.view(state, seat)
    assert other["hands"] != state["hands"]
    for rng_seed in range(2):
        assert _decide(state, rng_seed) == _decide(other, rng_seed)


def test_strong_sees_only_its_view_in_the_auction():  # D-DEAL
    state = engine.apply(auction_state(dealer=0, seed=5), 1, bid(2, "queen", 4))
    other = redeal_unseen(state, state["turn"])
    assert other["hands"][3] != state["hands"][3]
    for rng_seed in range(2):
        assert _decide(state, rng_seed) == _decide(other, rng_seed)


def test_strong_sees_open_hands_but_nothing_else():  # D-OPEN
    state = play_position(
        [
            ["queen-2", "pawn-4"],
            ["queen-5", "rook-1", "knight-3"],
            ["queen-7", "bishop-8", "pawn-6"],
            ["joker-4", "queen-1", "knight-9"],
        ],
        declarer=0,
        tricks=2,
        trump="queen",
        supertrump=4,
        open_=True,
        trick=[(0, "queen-9")],
        tricks_won=[5, 3, 1, 1],
    )
    seat = 1
    other = redeal_unseen(state, seat, open_seats=(0, 2))
    assert other["hands"][0] == state["hands"][0] and other["hands"][3] != state["hands"][3]
    assert engine.view(other, seat) == engine.view(state, seat)
    for rng_seed in range(2):
        assert _decide(state, rng_seed) == _decide(other, rng_seed)


def test_strong_leaves_its_inputs_alone():
    state = _mid_hand(4, 7, 9)
    seen, legal = engine.view(state, state["turn"]), engine.legal_actions(state)
    before = (repr(seen), repr(legal))
    bots.strong(seen, legal, random.Random(0))
    assert (repr(seen), repr(legal)) == before


def _deals_for(state, seat, count=200):
    knowledge = bots._Deals(engine.view(state, seat))
    rng = random.Random(0)
    return [knowledge.sample(rng) for _ in range(count)]


def test_sampled_deals_respect_voids_sizes_and_open_hands():  # D-FOLLOW, D-OPEN
    state = play_position(
        [
            ["knight-9", "rook-3", "pawn-4", "joker-1"],
            ["bishop-2", "pawn-8", "queen-4", "neutral-1"],
            ["knight-2", "rook-9", "pawn-1", "queen-6"],
            ["rook-5", "pawn-7", "bishop-6", "joker-8"],
        ],
        declarer=0,
        tricks=6,
        trump="pawn",
        supertrump=1,
        open_=True,
        trick=[(0, "knight-1"), (1, "queen-3")],  # seat 1 shows it has no knight
        tricks_won=[4, 2, 2, 1],
    )
    state["hands"][0].remove("joker-1")
    state["hands"][1].remove("queen-4")
    state["played_tricks"] = [
        {  # seat 3 did not follow bishop earlier: it has no bishop (bishop-6 is hand-built
            # into its hand above, so the sampler must not copy real hands either)
            "leader": 2,
            "winner": 2,
            "cards": [
                {"seat": 2, "card": "bishop-9"},
                {"seat": 3, "card": "neutral-2"},
                {"seat": 0, "card": "bishop-1"},
                {"seat": 1, "card": "bishop-4"},
            ],
        }
    ]
    state["hands"][3] = ["rook-5", "pawn-7", "joker-8", "joker-7"]
    state["hidden"] = [
        card
        for card in DECK
        if card not in {"bishop-9", "neutral-2", "bishop-1", "bishop-4", "knight-1", "queen-3"}
        and not any(card in hand for hand in state["hands"])
    ]
    seat = 2  # the declarer's partner: its own hand and seat 0's (open) are known
    view = engine.view(state, seat)
    assert view["open_hands"][0] is not None and view["open_hands"][1] is None
    played = {"bishop-9", "neutral-2", "bishop-1", "bishop-4", "knight-1", "queen-3"}
    for hands in _deals_for(state, seat):
        cards = [DECK[c] for hand in hands for c in hand]
        assert len(cards) == len(set(cards)) and not played & set(cards)
        assert [len(hand) for hand in hands] == view["hand_sizes"]
        assert [DECK[c] for c in hands[0]] == view["open_hands"][0]
        assert [DECK[c] for c in hands[2]] == view["hand"]
        assert not any(DECK[c].startswith("knight-") for c in hands[1])
        assert not any(DECK[c].startswith("bishop-") for c in hands[3])


def test_sampled_deals_are_spread_over_the_unseen_cards():
    state = _mid_hand(4, 9, 0)
    seat = state["turn"]
    deals = _deals_for(state, seat, 300)
    seen_somewhere = {
        c for hands in deals for other in range(4) if other != seat for c in hands[other]
    }
    unseen = set(range(len(DECK))) - {bots._INDEX[card] for card in state["hands"][seat]}
    assert seen_somewhere == unseen  # every unseen card can be anywhere


def _third_to_last_trick(supertrump):
    """Three tricks left; seat 2 plays last; its side (0+2) needs two more for its contract."""
    return play_position(
        [
            ["bishop-2", "pawn-1"],
            ["pawn-2", "pawn-4"],
            ["pawn-9", "rook-4", "queen-3"],
            ["pawn-3", "knight-1"],
        ],
        declarer=0,
        tricks=5,
        trump="rook",
        supertrump=supertrump,
        trick=[(3, "bishop-5"), (0, "bishop-6"), (1, "bishop-8")],
        tricks_won=[2, 4, 1, 3],
    )


def test_strong_takes_the_trick_with_its_only_winning_card():  # D-RANK
    # The opponent's bishop-8 is winning; seat 2 has no bishop, and of its three cards
    # only the trump rook-4 beats it.
    state = _third_to_last_trick(supertrump=7)
    assert state["turn"] == 2 and len(engine.legal_actions(state)) == 3
    assert _decide(state) == play("rook-4")


def test_strong_does_not_trump_its_partners_winning_card():  # D-RANK
    # With 6 as the super-trump colour the partner's bishop-6 beats every card of the
    # trick, rook-4 included: seat 2 keeps its trump and discards.
    state = _third_to_last_trick(supertrump=6)
    assert _decide(state) == play("queen-3")


def test_strong_cashes_its_master_before_losing_the_lead():
    # Two cards left each; bishop-9 cannot lose, pawn-3 may. Leading the low card first
    # (as the heuristic does) lets the opponent take the lead and keep it.
    state = play_position(
        [["pawn-5", "queen-2"], ["bishop-9", "pawn-3"]],
        declarer=0,
        tricks=6,
        tricks_won=[6, 5],
        turn=1,
    )
    state["leader"] = 1
    assert _decide(state) == play("bishop-9")
    assert _decide(state, bot=bots.heuristic) == play("pawn-3")  # the reference player errs


def test_strong_does_not_overtake_its_partners_sure_winner():
    # Partner (seat 0) led rook-2, the trump figure of the super-trump colour: nothing beats
    # it. Seat 2 has no rook and holds joker-2, the next strongest card, which is sure to
    # win a trick later: it must keep it.
    state = play_position(
        [
            ["pawn-1", "pawn-2"],
            ["pawn-3", "pawn-4"],
            ["joker-2", "knight-5", "pawn-9"],
            ["pawn-5", "pawn-6"],
        ],
        declarer=0,
        tricks=7,
        trump="rook",
        supertrump=2,
        trick=[(0, "rook-2"), (1, "rook-7")],
        tricks_won=[5, 2, 0, 3],
    )
    state["hands"][3].append("knight-6")
    state["turn"] = 2
    assert _decide(state) != play("joker-2")


def test_decisions_are_quick():
    rng = random.Random(0)
    state = engine.new_game({"players": 4}, 4)
    times = []
    while state["phase"] in ("auction", "play"):
        seat = state["turn"]
        seen, legal = engine.view(state, seat), engine.legal_actions(state)
        start = time.perf_counter()
        action = bots.strong(seen, legal, rng)
        times.append(time.perf_counter() - start)
        state = engine.apply(state, seat, action)
    times.sort()
    assert times[len(times) // 2] < 0.15
    assert times[-1] < 2.0  # generous: shared test machines are slower than the bench's
