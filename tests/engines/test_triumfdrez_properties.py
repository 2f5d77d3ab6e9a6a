"""Random matches through the public contract (hypothesis): the invariants of every rule."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.triumfdrez import bots, engine, tricks
from games.triumfdrez.cards import DECK

from .test_triumfdrez_support import redeal_unseen

MAX_HANDS = 200  # a match that has not ended by then is a bug
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def _all_cards(state):
    cards = [card for hand in state["hands"] for card in hand] + state["hidden"]
    cards += [p["card"] for p in state["trick"]]
    cards += [p["card"] for done in state["played_tricks"] for p in done["cards"]]
    return sorted(cards)


def _expected_points(before, after):
    """D-SCORE, written out independently of the engine."""
    contract = before["contract"]
    teams = before["teams"]
    declaring = next(i for i, team in enumerate(teams) if contract["seat"] in team)
    won = sum(after["tricks_won"][seat] for seat in teams[declaring])
    bid = contract["tricks"]
    if won >= bid:
        return [bid + 2 * (won - bid) if i == declaring else 0 for i in range(len(teams))]
    return [0 if i == declaring else bid + 2 * (bid - won) for i in range(len(teams))]


def _open_seats(state):
    contract = state["contract"]
    if state["phase"] == "auction" or not contract or not contract["open"]:
        return ()
    return next(team for team in state["teams"] if contract["seat"] in team)


def _check_view(state, seat, rng):
    seen = engine.view(state, seat)
    assert json.loads(json.dumps(seen)) == seen
    visible = set(seen.get("hand", ()))
    for shown in seen["open_hands"]:
        visible.update(shown or ())
    text = json.dumps(seen)
    unseen = list(state["hidden"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            unseen += [card for card in hand if card not in visible]
    for card in unseen:
        assert f'"{card}"' not in text
    assert "seed" not in seen and "hands" not in seen and "hidden" not in seen
    if rng.random() < 0.1:
        assert engine.view(redeal_unseen(state, seat, _open_seats(state)), seat) == seen


def _check_legal_play(state, legal):
    """In play, a card is accepted exactly when legal_actions lists it."""
    seat = state["turn"]
    listed = {action["card"] for action in legal}
    for card in state["hands"][seat]:
        try:
            engine.apply(state, seat, {"type": "play", "card": card})
        except engine.IllegalAction as error:
            assert card not in listed
            assert error.code in ("must_follow", "neutral_not_allowed")
        else:
            assert card in listed


def _shape(bid):
    return bid["open"] * 4 + (bid["trump"] is None) * 2 + (bid["supertrump"] is None)


def _check_screen_keys(state, legal, rng):
    """What the view works out for a screen agrees with legal_actions and apply: the
    playable cards and each other card's refusal (the seat to act and another seat), the
    lowest bids that beat the current one, why the last trick was won and what the last
    hand was worth."""
    phase = state["phase"]
    for seat in {state["turn"], rng.randrange(state["players"])}:
        seen = engine.view(state, seat)
        if phase != "play":
            assert seen["playable"] == [] and seen["unplayable"] == {}
            continue
        assert set(seen["playable"]) | set(seen["unplayable"]) == set(state["hands"][seat])
        for card in seen["hand"]:
            try:
                engine.apply(state, seat, {"type": "play", "card": card})
            except engine.IllegalAction as error:
                assert seen["unplayable"][card] == error.code
            else:
                assert card in seen["playable"]
        if seat == state["turn"]:
            assert seen["playable"] == [action["card"] for action in legal]
    seen = engine.view(state, None)
    if phase == "auction":
        fewest = [14] * 8
        for bid in legal:  # lowest first: the first bid of each shape is its fewest tricks
            if bid["type"] == "bid" and fewest[_shape(bid)] == 14:
                fewest[_shape(bid)] = bid["tricks"]
        assert seen["lowest_beating"] == fewest
        top = [entry for entry in state["auction"] if not entry.get("pass")]
        assert seen["current_bid"] == (top[-1] if top else None)
    else:
        assert seen["lowest_beating"] is None and seen["current_bid"] is None
    last = seen["last_trick"]
    if last:
        assert last["winner"] == tricks.winner(
            last["cards"], state["contract"]["trump"], state["contract"]["supertrump"]
        )
        assert last["reason"] in ("best", "supertrump", "trump", "led", "leader")
        assert (last["reason"] == "leader") == all(
            play["card"].startswith("neutral") for play in last["cards"]
        )
    result = seen["last_result"]
    if result:
        assert result["value"] == max(result["points"])


def run_match(players, seed, mix, target=50):
    """Play one match with bots chosen by `mix`, checking every step; return the end state."""
    state = engine.new_game({"players": players, "target": target}, seed)
    rng = random.Random(seed)
    seat_bots = [bots.heuristic if mix >> seat & 1 else bots.random_legal for seat in range(4)]
    hands = plays = 0
    while state["phase"] != "match_over":
        assert json.loads(json.dumps(state)) == state
        assert _all_cards(state) == sorted(DECK)
        seat = state["turn"]
        legal = engine.legal_actions(state)
        assert legal
        if state["phase"] == "play":
            _check_legal_play(state, legal)
        _check_screen_keys(state, legal, rng)
        _check_view(state, rng.choice([None, *range(players)]), rng)
        action = seat_bots[seat](engine.view(state, seat), legal, rng)
        assert action in legal
        after = engine.apply(state, seat, action)
        plays += action["type"] == "play"
        if state["phase"] == "play" and after["phase"] != "play":
            hands += 1
            assert plays == 13 * players
            assert len(after["played_tricks"]) == 13 and sum(after["tricks_won"]) == 13
            points = _expected_points(state, after)
            assert after["last_result"]["points"] == points
            assert after["scores"] == [a + b for a, b in zip(state["scores"], points, strict=True)]
            assert len(after["history"]) == hands
            plays = 0
        else:
            assert after["scores"] == state["scores"]
        state = after
        assert hands < MAX_HANDS
    assert _all_cards(state) == sorted(DECK)
    assert engine.legal_actions(state) == []
    winner = state["winner"]
    assert state["scores"][winner] >= target
    assert all(
        score < state["scores"][winner] for i, score in enumerate(state["scores"]) if i != winner
    )
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**64), mix=st.integers(0, 15))
def test_random_matches_keep_every_invariant(players, seed, mix):
    run_match(players, seed, mix)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_short_matches_end(players):  # D-MATCH
    winners = set()
    for seed in range(40):
        state = engine.new_game({"players": players, "target": 15}, seed)
        rng = random.Random(seed)
        for _ in range(MAX_HANDS * 60):
            if state["phase"] == "match_over":
                break
            seat = state["turn"]
            action = bots.random_legal(engine.view(state, seat), engine.legal_actions(state), rng)
            state = engine.apply(state, seat, action)
        assert state["phase"] == "match_over"
        winners.add(state["winner"])
    assert winners == set(range(len(state["teams"])))
