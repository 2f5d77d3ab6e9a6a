"""Scoring a hand (D-SCORE) and the end of the match (D-MATCH).

Pure functions shared with the companion (score-sheet) mode, and the match target's
constants (defined here once; engine.py exports them).
"""

from .cards import HAND_SIZE

# D-SCORE: a side takes from 0 to TRICKS_MAX tricks in a hand, one per card dealt to
# each seat (D-DEAL).
TRICKS_MAX = HAND_SIZE

# D-MATCH: the target when the table sets none, and the targets a table offers. The
# engine itself accepts any whole-number target of at least 1.
DEFAULT_TARGET = 50
TARGET_MIN = 10
TARGET_MAX = 500


def teams_for(players: int) -> list[list[int]]:
    """D-PLAYERS: partners sit opposite at 4 players; otherwise everyone plays alone."""
    return [[0, 2], [1, 3]] if players == 4 else [[seat] for seat in range(players)]


def team_of(teams: list[list[int]], seat: int) -> int:
    for index, members in enumerate(teams):
        if seat in members:
            return index
    raise ValueError(f"seat {seat} is in no team")


def hand_value(contract: int, won: int) -> int:
    """What a hand is worth (D-SCORE): the contract plus 2 per trick the declaring side
    won above it or fell short of it."""
    return contract + 2 * abs(won - contract)


def contract_made(contract: int, won: int) -> bool:
    """D-SCORE: the declaring side made its contract (it won at least the tricks bid)."""
    return won >= contract


def hand_points(team_count: int, declaring_team: int, contract: int, won: int) -> list[int]:
    """Points per team for one hand, each `hand_value`: made, the declaring team scores;
    failed, every other team scores."""
    value = hand_value(contract, won)
    if contract_made(contract, won):
        points = [0] * team_count
        points[declaring_team] = value
        return points
    return [0 if team == declaring_team else value for team in range(team_count)]


def match_winner(scores: list[int], target: int) -> int | None:
    """D-MATCH: the team with the highest total once any team reaches the target.

    None while nobody has reached it, or when the top totals are tied (another hand).
    """
    top = max(scores)
    if top < target or scores.count(top) > 1:
        return None
    return scores.index(top)
