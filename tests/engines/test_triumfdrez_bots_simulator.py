"""The strong bot's fast integer simulator (games.triumfdrez.bots._playout) against the
engine: over many seeded hands, every card it plays must be legal in engine.apply
(D-FOLLOW, D-NEUTRAL) and it must give every trick to the seat the engine gives it to
(D-RANK), so that its tricks won per seat match the engine's."""

import random

import pytest

from games.triumfdrez import bots, engine, tricks
from games.triumfdrez.cards import DECK, FIGURE, FIGURES

HANDS = 240


class Logged(list):
    """A hand whose plays are written down in order (the simulator removes each card
    it plays from its hand, once)."""

    def __init__(self, cards, seat, log):
        super().__init__(cards)
        self.seat, self.log = seat, log

    def remove(self, card):
        self.log.append((self.seat, card))
        super().remove(card)


def _replay(state: dict, log: list, what) -> dict:
    """The simulator's plays through engine.apply. A card out of turn means the simulator
    gave the previous trick to another seat than the engine did; another refusal, that it
    played a card D-FOLLOW or D-NEUTRAL forbids."""
    for seat, card in log:
        try:
            state = engine.apply(state, seat, {"type": "play", "card": DECK[card]})
        except engine.IllegalAction as error:
            last = state["last_trick"]
            raise AssertionError(
                f"{what}: the simulator played {DECK[card]} from seat {seat}, the engine "
                f"refused it ({error.code}); the engine's last trick: {last}"
            ) from None
    assert state["phase"] in ("hand_over", "match_over"), what
    return state


def _contract(rng: random.Random, declarer: int) -> dict:
    return {
        "seat": declarer,
        "tricks": rng.randint(1, 13),
        "trump": rng.choice((*FIGURES, None)),
        "supertrump": rng.choice((*range(1, 10), None)),
        "open": rng.random() < 0.2,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_simulator_plays_and_scores_tricks_as_the_engine_does(players):
    for seed in range(HANDS // 3):
        rng = random.Random(f"{players}:{seed}")
        state = engine.new_game({"players": players}, seed)
        declarer = rng.randrange(players)
        contract = _contract(rng, declarer)
        # a position edited into play, as engines.md allows
        state.update(
            phase="play", contract=contract, turn=declarer, leader=declarer, trick=[], auction=[]
        )
        log: list = []
        index = {card: i for i, card in enumerate(DECK)}
        hands = [
            Logged(sorted(index[card] for card in hand), seat, log)
            for seat, hand in enumerate(state["hands"])
        ]
        table = bots._table(contract["trump"], contract["supertrump"])
        won = bots._playout(
            hands, table.masters.copy(), table, players, (), [], declarer, [0] * players
        )
        assert len(log) == 13 * players
        state = _replay(state, log, (players, seed, contract))
        assert [won[seat] for seat in range(players)] == [
            sum(t["winner"] == seat for t in state["played_tricks"]) for seat in range(players)
        ], (players, seed, contract)


def _mid_hand(rng: random.Random, players: int, seed: int):
    """A hand in play after a random number of random legal plays (the trick in progress
    may be partly played), with a random contract, open one time in three."""
    state = engine.new_game({"players": players}, seed)
    declarer = rng.randrange(players)
    contract = _contract(rng, declarer) | {"open": rng.random() < 0.33}
    state.update(
        phase="play", contract=contract, turn=declarer, leader=declarer, trick=[], auction=[]
    )
    for _ in range(rng.randrange(13 * players)):
        state = engine.apply(state, state["turn"], rng.choice(engine.legal_actions(state)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_from_any_point_of_a_hand_the_simulator_agrees_with_the_engine(players):
    """Started mid-hand with a given first card, as the strong bot calls it: the trick in
    progress, the masters still out, open hands (D-OPEN) and the tricks already won."""
    index = {card: i for i, card in enumerate(DECK)}
    for seed in range(HANDS // 3):
        rng = random.Random(f"mid:{players}:{seed}")
        state = _mid_hand(rng, players, seed)
        contract = state["contract"]
        table = bots._table(contract["trump"], contract["supertrump"])
        gone = {index[p["card"]] for t in state["played_tricks"] for p in t["cards"]}
        gone |= {index[p["card"]] for p in state["trick"]}
        masters = [c for c in table.masters if c not in gone]
        teams = state["teams"]
        open_seats = teams[engine.team_of(teams, contract["seat"])] if contract["open"] else ()
        first = rng.choice(engine.legal_actions(state))["card"]
        log: list = []
        hands = [
            Logged(sorted(index[card] for card in hand), seat, log)
            for seat, hand in enumerate(state["hands"])
        ]
        trick = [(p["seat"], index[p["card"]]) for p in state["trick"]]
        won = bots._playout(
            hands,
            masters,
            table,
            players,
            open_seats,
            trick,
            state["turn"],
            list(state["tricks_won"]),
            index[first],
        )
        assert log[0] == (state["turn"], index[first])
        state = _replay(state, log, (players, seed, contract))
        assert list(won) == state["tricks_won"], (players, seed, contract)


def test_the_simulators_strength_tables_are_the_engines_d_rank():
    for trump in (*FIGURES, None):
        for supertrump in (*range(1, 10), None):
            table = bots._table(trump, supertrump)
            for led_index, led in enumerate(FIGURES):
                assert table.strength[led_index] == [
                    tricks.strength(card, led, trump, supertrump) for card in DECK
                ]
            assert table.strength[bots._OWN] == [
                tricks.strength(card, FIGURE[card], trump, supertrump) for card in DECK
            ]
            strengths = [tricks.strength(card, None, trump, supertrump) for card in DECK]
            assert table.masters == sorted(
                (c for c, value in enumerate(strengths) if value >= tricks.TRUMP),
                key=lambda c: -strengths[c],
            )
