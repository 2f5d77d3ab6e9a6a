"""Playing a trick: following (D-FOLLOW), neutral cards (D-NEUTRAL) and who wins (D-RANK)."""

from .cards import FIGURE, NUMBER, RANK
from .errors import IllegalAction


def led_figure(trick: list[dict]) -> str | None:
    """The figure to follow: that of the first figure card of the trick (D-NEUTRAL ruling)."""
    for play in trick:
        figure = FIGURE[play["card"]]
        if figure is not None:
            return figure
    return None


def winner(trick: list[dict], trump: str | None, supertrump: int | None) -> int:
    """The seat winning a complete trick (D-RANK, D-NEUTRAL).

    Each card gets a strength, the highest wins: the trump figure of the super-trump
    colour 310; another card of the super-trump colour 300 + figure rank (Joker 5 …
    Pawn 0); a trump-figure card 200 + number; a card of the led figure 100 + number;
    any other card, and every neutral card, -1 (never wins). A trick of only neutral
    cards goes to its leader.
    """
    led = led_figure(trick)
    best_seat = trick[0]["seat"]
    best = -1
    for play in trick:
        card = play["card"]
        figure = FIGURE[card]
        if figure is None:
            continue
        number = NUMBER[card]
        if number == supertrump:
            value = 310 if figure == trump else 300 + RANK[card]
        elif figure == trump:
            value = 200 + number
        elif figure == led:
            value = 100 + number
        else:
            continue
        if value > best:
            best = value
            best_seat = play["seat"]
    return best_seat


def playable(hand: list[str], trick: list[dict]) -> list[str]:
    """The cards of `hand` that may go on `trick` (D-FOLLOW, D-NEUTRAL).

    May return `hand` itself: callers must not modify the result.
    """
    if not trick:
        return hand
    led = FIGURE[trick[0]["card"]] or led_figure(trick)  # most tricks are led by a figure
    if led is None:
        return hand
    return [card for card in hand if FIGURE[card] == led] or hand


def check_play(hand: list[str], trick: list[dict], card: str) -> None:
    """Raise IllegalAction unless `card` (a card id) may be played from `hand` on `trick`."""
    if card not in hand:
        raise IllegalAction("card_not_in_hand")
    if not trick:
        return
    led = led_figure(trick)
    figure = FIGURE[card]
    if led is None or figure == led:
        return
    for held in hand:
        if FIGURE[held] == led:
            raise IllegalAction("must_follow" if figure is not None else "neutral_not_allowed")
