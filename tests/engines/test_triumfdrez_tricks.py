"""D-PLAY, D-FOLLOW, D-RANK, D-NEUTRAL."""

import pytest

from games.triumfdrez import engine, tricks

from .test_triumfdrez_support import frozen, play, play_position


def _seed_trick_position():
    """The rulebook's example: trump bishop, super-trump cyan (7), four players."""
    return play_position(
        [
            ["knight-9", "rook-1"],
            ["bishop-3", "rook-2"],  # no knights
            ["knight-2", "bishop-5"],  # has a knight
            ["pawn-7", "queen-4"],  # no knights
        ],
        declarer=0,
        trump="bishop",
        supertrump=7,
    )


def test_seed_example_trick_cyan_pawn_beats_trump_bishop():  # D-RANK, D-FOLLOW
    state = _seed_trick_position()
    state = engine.apply(state, 0, play("knight-9"))
    state = engine.apply(state, 1, play("bishop-3"))
    assert tricks.winner(state["trick"], "bishop", 7) == 1  # the trump wins for now
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 2, play("bishop-5"))
    assert error.value.code == "must_follow"
    assert engine.legal_actions(state) == [play("knight-2")]
    state = engine.apply(state, 2, play("knight-2"))
    assert tricks.winner(state["trick"], "bishop", 7) == 1
    state = engine.apply(state, 3, play("pawn-7"))
    assert state["last_trick"]["winner"] == 3
    assert state["tricks_won"] == [0, 0, 0, 1]
    assert state["trick"] == [] and state["turn"] == state["leader"] == 3  # D-PLAY
    assert [p["card"] for p in state["last_trick"]["cards"]] == [
        "knight-9",
        "bishop-3",
        "knight-2",
        "pawn-7",
    ]


def test_seed_example_trick_without_the_super_trump_the_bishop_wins():  # D-RANK
    state = _seed_trick_position()
    for seat, card in [(0, "knight-9"), (1, "bishop-3"), (2, "knight-2"), (3, "queen-4")]:
        state = engine.apply(state, seat, play(card))
    assert state["last_trick"]["winner"] == 1


def _trick(*cards):
    return [{"seat": seat, "card": card} for seat, card in enumerate(cards)]


@pytest.mark.parametrize(
    ("cards", "trump", "supertrump", "winner"),
    [
        # 1. the trump figure of the super-trump colour is the strongest card
        (("pawn-3", "joker-3", "knight-3", "queen-9"), "pawn", 3, 0),
        # 1. then the super-trump colour by figure rank, even a led card
        (("queen-3", "joker-3", "knight-3", "rook-9"), "rook", 3, 1),
        (("knight-3", "pawn-3", "rook-9", "rook-8"), "rook", 3, 0),
        # 2. else the highest-numbered trump-figure card
        (("knight-9", "rook-2", "rook-6", "joker-8"), "rook", 3, 2),
        # 3. else the highest-numbered card of the led figure; other figures never win
        (("knight-4", "joker-9", "knight-6", "queen-9"), "rook", 3, 2),
        (("knight-4", "joker-9", "knight-1", "queen-9"), "rook", 3, 0),
        # no trump: super-trump, then the led figure
        (("knight-4", "knight-8", "pawn-1", "joker-9"), None, 1, 2),
        (("knight-4", "knight-8", "pawn-2", "joker-9"), None, 1, 1),
        # no super-trump: the trump figure, then the led figure
        (("bishop-2", "bishop-9", "pawn-1", "joker-9"), "pawn", None, 2),
        # neither
        (("bishop-2", "bishop-9", "pawn-1", "joker-9"), None, None, 1),
    ],
)
def test_trick_winner(cards, trump, supertrump, winner):  # D-RANK
    assert tricks.winner(_trick(*cards), trump, supertrump) == winner


def test_rank_applies_through_the_engine_no_trump_contract():  # D-RANK, D-PLAY
    state = play_position(
        [["rook-3", "pawn-1"], ["joker-9"], ["rook-5", "pawn-3"]],
        declarer=1,
        supertrump=4,
        trick=[(1, "pawn-2")],
    )
    state = engine.apply(state, 2, play("pawn-3"))
    state = engine.apply(state, 0, play("pawn-1"))
    assert state["last_trick"] == {
        "leader": 1,
        "cards": [
            {"seat": 1, "card": "pawn-2"},
            {"seat": 2, "card": "pawn-3"},
            {"seat": 0, "card": "pawn-1"},
        ],
        "winner": 2,
    }
    assert state["turn"] == state["leader"] == 2
    assert state["played_tricks"] == [state["last_trick"]]


def test_follow_led_figure_when_possible_otherwise_anything():  # D-FOLLOW
    state = play_position(
        [["pawn-1"], ["rook-9", "joker-2", "neutral-1"], ["queen-5", "pawn-7"]],
        declarer=0,
        trump="pawn",
        supertrump=5,
        trick=[(0, "rook-3")],
    )
    assert engine.legal_actions(state) == [play("rook-9")]
    for card in ("joker-2", "neutral-1"):
        with pytest.raises(engine.IllegalAction):
            engine.apply(state, 1, play(card))
    state = engine.apply(state, 1, play("rook-9"))
    assert sorted(a["card"] for a in engine.legal_actions(state)) == ["pawn-7", "queen-5"]
    state = engine.apply(state, 2, play("queen-5"))  # the super-trump colour, no obligation
    assert state["last_trick"]["winner"] == 2


def test_no_obligation_to_win_or_to_trump():  # D-FOLLOW
    state = play_position(
        [["pawn-1"], ["pawn-9", "joker-2"], ["queen-5", "pawn-7"]],
        declarer=0,
        trump="pawn",
        supertrump=5,
        trick=[(0, "rook-3")],
    )
    state = engine.apply(state, 1, play("joker-2"))
    state = engine.apply(state, 2, play("pawn-7"))
    assert state["last_trick"]["winner"] == 2


def test_leader_may_play_any_card():  # D-FOLLOW
    state = play_position([["rook-3", "pawn-1", "neutral-2"], ["pawn-9", "joker-2", "pawn-2"]])
    assert {a["card"] for a in engine.legal_actions(state)} == {"rook-3", "pawn-1", "neutral-2"}
    for card in ("rook-3", "pawn-1", "neutral-2"):
        assert engine.apply(state, 0, play(card))["trick"] == [{"seat": 0, "card": card}]


def test_play_in_turn_and_from_hand():  # D-PLAY
    state = play_position([["rook-3"], ["pawn-9"]], declarer=1)
    assert state["turn"] == 1
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 0, play("rook-3"))
    assert error.value.code == "not_your_turn"
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 1, play("rook-3"))
    assert error.value.code == "card_not_in_hand"


def test_neutral_only_without_the_led_figure():  # D-NEUTRAL
    state = play_position(
        [[], ["rook-9", "neutral-1"], ["pawn-1", "neutral-2"]],
        trick=[(0, "rook-3")],
    )
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 1, play("neutral-1"))
    assert error.value.code == "neutral_not_allowed"
    state = engine.apply(state, 1, play("rook-9"))
    state = engine.apply(state, 2, play("neutral-2"))  # no rook: allowed
    assert state["last_trick"]["winner"] == 1


def test_neutral_led_first_figure_card_sets_the_led_figure():  # D-NEUTRAL
    state = play_position(
        [["pawn-1"], ["knight-2", "rook-1"], ["rook-9", "knight-7"]],
        trick=[(0, "neutral-1")],
    )
    assert len(engine.legal_actions(state)) == 2  # nothing to follow yet
    state = engine.apply(state, 1, play("knight-2"))
    assert engine.legal_actions(state) == [play("knight-7")]
    state = engine.apply(state, 2, play("knight-7"))
    assert state["last_trick"]["winner"] == 2  # the neutral leader never wins


def test_neutral_never_wins_even_as_the_only_figure_less_card():  # D-NEUTRAL
    state = play_position(
        [["rook-1"], ["neutral-2", "joker-4"]],
        trick=[(0, "pawn-1")],
    )
    state = engine.apply(state, 1, play("neutral-2"))
    assert state["last_trick"]["winner"] == 0


def test_trick_of_only_neutral_cards_is_won_by_its_leader():  # D-NEUTRAL
    state = play_position([["neutral-1", "pawn-1"], ["neutral-2", "joker-4"]], declarer=1)
    state = engine.apply(state, 1, play("neutral-2"))
    assert engine.legal_actions(state) == [play("neutral-1"), play("pawn-1")]
    state = engine.apply(state, 0, play("neutral-1"))
    assert state["last_trick"]["winner"] == 1 and state["turn"] == 1


def test_thirteen_tricks_then_the_hand_is_over():  # D-PLAY
    state = engine.new_game({"players": 4}, 21)
    seat = state["turn"]
    state = engine.apply(state, seat, engine.legal_actions(state)[0])
    while state["phase"] == "auction":
        state = engine.apply(state, state["turn"], {"type": "pass"})
    assert state["turn"] == seat
    played = 0
    while state["phase"] == "play":
        state = engine.apply(state, state["turn"], engine.legal_actions(state)[-1])
        played += 1
    assert played == 52
    assert len(state["played_tricks"]) == 13 and sum(state["tricks_won"]) == 13
    assert state["phase"] == "hand_over"
    leaders = [t["leader"] for t in state["played_tricks"]]
    winners = [t["winner"] for t in state["played_tricks"]]
    assert leaders == [seat, *winners[:-1]]  # the winner leads the next trick


def test_play_does_not_change_the_input_state():  # engine contract
    state = _seed_trick_position()
    before = frozen(state)
    after = engine.apply(state, 0, play("knight-9"))
    assert state == before
    assert after["hands"][0] == ["rook-1"]
