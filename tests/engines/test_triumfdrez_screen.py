"""What the TriumfDrez engines give a screen: is_over and to_act (both engines), the
playable cards and why the others are not (D-FOLLOW, D-NEUTRAL), the lowest bids that
beat the current one (D-AUCTION ruling), why the last trick was won (D-RANK) and what a
hand was worth (D-SCORE)."""

from games.triumfdrez import auction, companion, engine, tricks
from tests.engines.test_triumfdrez_support import auction_state, bid, play_position


def test_to_act_follows_the_auction_and_play_then_every_seat_between_hands():
    state = auction_state(players=3, dealer=0)
    assert engine.to_act(state) == [1] and not engine.is_over(state)
    state.update(phase="hand_over")
    assert engine.to_act(state) == [0, 1, 2]
    state.update(phase="match_over", winner=0, turn=None)
    assert engine.to_act(state) == [] and engine.is_over(state)


def test_the_companion_tracker_waits_for_one_seat_until_the_match_is_over():
    state = companion.new_game({"players": 4, "target": 50}, 3)
    assert companion.to_act(state) == [state["turn"]] and not companion.is_over(state)
    state.update(phase="match_over", turn=None, winner=0)
    assert companion.to_act(state) == [] and companion.is_over(state)


def test_the_view_lists_playable_cards_and_why_the_others_are_not():
    hands = [["rook-5", "neutral-1"], ["queen-9", "pawn-2", "neutral-2"]]
    state = play_position(hands, declarer=0, trick=[(0, "queen-3")], turn=1)
    mine = engine.view(state, 1)
    assert mine["playable"] == ["queen-9"]
    assert mine["unplayable"] == {"pawn-2": "must_follow", "neutral-2": "neutral_not_allowed"}
    other = engine.view(state, 0)
    assert other["playable"] == [] and set(other["unplayable"].values()) == {"not_your_turn"}
    assert "playable" not in engine.view(state, None)


def test_lowest_beating_gives_the_fewest_tricks_per_shape_of_bid():
    top = {"seat": 3, "tricks": 5, "trump": "rook", "supertrump": 3, "open": False}
    lowest = auction.lowest_beating(top)
    assert lowest == [6, 5, 5, 5, 5, 5, 5, 5]  # only dropping nothing, not open, needs 6
    for shape, fewest in enumerate(lowest):
        open_, no_trump, no_super = bool(shape & 4), bool(shape & 2), bool(shape & 1)
        trump, supertrump = (None if no_trump else "pawn"), (None if no_super else 9)
        beats = auction.level(fewest, trump, supertrump, open_) > auction.entry_level(top)
        worse = auction.level(fewest - 1, trump, supertrump, open_) > auction.entry_level(top)
        assert beats and not worse
    # an opening bid names a figure and a colour (D-AUCTION ruling): the other shapes wait
    assert auction.lowest_beating(None) == [1, 14, 14, 14, 1, 14, 14, 14]
    state = auction_state(players=2, dealer=1)
    state = engine.apply(state, 0, bid(13, "queen", 3, open_=True))
    state = engine.apply(state, 1, bid(13, open_=True))
    assert engine.view(state, 0)["lowest_beating"] == [14] * 8  # nothing beats it


def test_why_a_trick_was_won():
    trick = [{"seat": 0, "card": "queen-3"}, {"seat": 1, "card": "pawn-3"}]
    assert tricks.win_reason(trick, 1, "pawn", None) == "trump"
    assert tricks.win_reason(trick, 0, None, None) == "led"
    assert tricks.win_reason(trick, 0, None, 3) == "supertrump"
    assert tricks.win_reason(trick, 1, "pawn", 3) == "best"
    neutral = [{"seat": 0, "card": "neutral-1"}, {"seat": 1, "card": "neutral-2"}]
    assert tricks.win_reason(neutral, 0, None, None) == "leader"


def test_the_last_trick_and_the_hands_result_are_explained_in_the_view():
    hands = [["queen-3"], ["pawn-3"]]
    state = play_position(hands, declarer=0, tricks=1, trump="pawn")
    state = engine.apply(state, 0, {"type": "play", "card": "queen-3"})
    state = engine.apply(state, 1, {"type": "play", "card": "pawn-3"})
    seen = engine.view(state, 0)
    assert seen["last_trick"]["winner"] == 1 and seen["last_trick"]["reason"] == "trump"
    assert seen["last_result"]["made"] is False
    assert seen["last_result"]["value"] == 3  # 1 trick bid, 1 short: 1 + 2 × 1
    assert "reason" not in (state["last_trick"] or {})  # the state itself is unchanged


def test_the_rules_constants_are_exported_by_the_engine_and_used_by_the_bots():
    from games.triumfdrez import bots, cards, scoring

    assert engine.FIGURES == ("joker", "queen", "rook", "bishop", "knight", "pawn")
    assert engine.FIGURE_RANK["joker"] == 5 and engine.FIGURE_RANK["pawn"] == 0
    assert engine.COLOURS[1] == "grey" and sorted(engine.COLOURS) == list(range(1, 10))
    assert engine.NEUTRALS == ("neutral-1", "neutral-2")
    assert engine.MAX_TRICKS == 13
    assert engine.TARGET_MIN <= engine.DEFAULT_TARGET == 50 <= engine.TARGET_MAX
    assert engine.new_game({"players": 2}, 1)["target"] == engine.DEFAULT_TARGET
    assert companion.new_game({"players": 2}, 1)["target"] == engine.DEFAULT_TARGET
    assert engine.new_game({"players": 2, "target": 1}, 1)["target"] == 1  # any target >= 1
    # one definition each, in the engine package
    assert bots.FIGURES is cards.FIGURES and bots.FIGURE_RANK is cards.FIGURE_RANK
    assert bots.strength is tricks.strength and bots.entry_level is auction.entry_level
    assert engine.DEFAULT_TARGET is scoring.DEFAULT_TARGET
    assert not hasattr(bots, "_bid_level") and not hasattr(bots, "_RANK")


def test_a_hand_is_worth_the_contract_plus_two_per_trick_over_or_short():  # D-SCORE
    assert engine.hand_value(8, 10) == 12 and engine.hand_value(8, 7) == 10
    assert engine.hand_value(8, 8) == 8
