"""D-DECK, D-PLAYERS, D-DEAL."""

import pytest

from games.triumfdrez import engine
from games.triumfdrez.cards import COLOURS, DECK, FIGURE, FIGURES, NUMBER, RANK, sort_cards


def test_deck_has_56_cards_six_figures_by_nine_numbers_and_two_neutrals():  # D-DECK
    assert len(DECK) == len(set(DECK)) == 56
    assert FIGURES == ("joker", "queen", "rook", "bishop", "knight", "pawn")
    for figure in FIGURES:
        assert [card for card in DECK if FIGURE[card] == figure] == [
            f"{figure}-{number}" for number in range(1, 10)
        ]
    assert [card for card in DECK if FIGURE[card] is None] == ["neutral-1", "neutral-2"]
    assert "joker-7" in DECK and "queen-1" in DECK and "pawn-9" in DECK


def test_figure_ranks_and_numbers_are_colours():  # D-DECK
    assert [RANK[f"{figure}-1"] for figure in FIGURES] == [5, 4, 3, 2, 1, 0]
    assert NUMBER["queen-7"] == 7 and COLOURS[7] == "cyan"
    assert [COLOURS[n] for n in range(1, 10)] == [
        "grey",
        "red",
        "magenta",
        "purple",
        "blue",
        "yellow",
        "cyan",
        "orange",
        "green",
    ]


def test_sort_cards_by_figure_rank_then_number_neutrals_last():
    assert sort_cards(["neutral-2", "pawn-1", "joker-9", "joker-2", "neutral-1", "rook-5"]) == [
        "joker-2",
        "joker-9",
        "rook-5",
        "pawn-1",
        "neutral-1",
        "neutral-2",
    ]


@pytest.mark.parametrize(
    ("players", "teams"),
    [(2, [[0], [1]]), (3, [[0], [1], [2]]), (4, [[0, 2], [1, 3]])],
)
def test_teams_partners_opposite_at_four_else_alone(players, teams):  # D-PLAYERS
    state = engine.new_game({"players": players}, 3)
    assert state["teams"] == teams
    assert state["scores"] == [0] * len(teams)
    assert state["target"] == 50


@pytest.mark.parametrize("players", [1, 5, 0, "4", True, None])
def test_only_two_to_four_players(players):  # D-PLAYERS
    with pytest.raises(engine.IllegalAction) as error:
        engine.new_game({"players": players}, 1)
    assert error.value.code == "bad_config"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_thirteen_each_rest_hidden(players):  # D-DEAL
    state = engine.new_game({"players": players}, 11)
    assert [len(hand) for hand in state["hands"]] == [13] * players
    assert len(state["hidden"]) == 56 - 13 * players
    every = [card for hand in state["hands"] for card in hand] + state["hidden"]
    assert sorted(every) == sorted(DECK)


def test_seat_after_dealer_bids_first_and_first_dealer_varies_with_seed():  # D-DEAL
    dealers = set()
    for seed in range(40):
        state = engine.new_game({"players": 4}, seed)
        dealers.add(state["dealer"])
        assert state["turn"] == (state["dealer"] + 1) % 4
        assert state["phase"] == "auction" and state["hand_no"] == 1
    assert dealers == {0, 1, 2, 3}


def test_dealer_moves_one_seat_each_hand_and_cards_are_dealt_again():  # D-DEAL
    state = engine.new_game({"players": 3}, 5)
    state["phase"] = "hand_over"
    first_hands = state["hands"]
    following = engine.apply(state, 2, {"type": "next_hand"})
    assert following["dealer"] == (state["dealer"] + 1) % 3
    assert following["turn"] == (following["dealer"] + 1) % 3
    assert following["hand_no"] == 2 and following["phase"] == "auction"
    assert following["hands"] != first_hands
    assert [len(hand) for hand in following["hands"]] == [13, 13, 13]


def test_same_seed_same_deal_other_seed_other_deal():  # D-DEAL
    assert engine.new_game({"players": 4}, 7) == engine.new_game({"players": 4}, 7)
    assert (
        engine.new_game({"players": 4}, 7)["hands"] != engine.new_game({"players": 4}, 8)["hands"]
    )
