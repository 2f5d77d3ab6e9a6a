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


BEST, SUPERTRUMP, TRUMP, LED = 310, 300, 200, 100


def strength(card: str, led: str | None, trump: str | None, supertrump: int | None) -> int:
    """A card's strength in a trick led with figure `led` (D-RANK, D-NEUTRAL): the trump
    figure of the super-trump colour 310; another card of the super-trump colour 300 +
    figure rank (Joker 5 … Pawn 0); a trump-figure card 200 + number; a card of the led
    figure 100 + number; any other card, and every neutral card, -1 (never wins)."""
    figure = FIGURE[card]
    if figure is None:
        return -1
    number = NUMBER[card]
    if number == supertrump:
        return BEST if figure == trump else SUPERTRUMP + RANK[card]
    if figure == trump:
        return TRUMP + number
    if figure == led:
        return LED + number
    return -1


def winning_play(trick: list[dict], trump: str | None, supertrump: int | None) -> tuple[int, int]:
    """The seat taking `trick` so far (complete or not) and its card's `strength`: the
    strongest card; while only neutral cards were played, the leader, at -1 (D-RANK,
    D-NEUTRAL)."""
    led = led_figure(trick)
    best_seat = trick[0]["seat"]
    best = -1
    for play in trick:
        value = strength(play["card"], led, trump, supertrump)
        if value > best:
            best = value
            best_seat = play["seat"]
    return best_seat, best


def winner(trick: list[dict], trump: str | None, supertrump: int | None) -> int:
    """The seat winning a complete trick (`winning_play`)."""
    return winning_play(trick, trump, supertrump)[0]


def win_reason(
    trick: list[dict], winner_seat: int, trump: str | None, supertrump: int | None
) -> str:
    """Why `winner_seat` took the trick (D-RANK): "best" (the trump figure in the
    super-trump colour), "supertrump", "trump", "led", or "leader" (only neutral cards)."""
    card = next(play["card"] for play in trick if play["seat"] == winner_seat)
    value = strength(card, led_figure(trick), trump, supertrump)
    if value == BEST:
        return "best"
    if value >= SUPERTRUMP:
        return "supertrump"
    if value >= TRUMP:
        return "trump"
    return "led" if value >= LED else "leader"


def refusals(hand: list[str], trick: list[dict]) -> tuple[list[str], dict[str, str]]:
    """The cards of `hand` that may go on `trick`, in hand order, and each other card →
    the code check_play refuses it with: "must_follow" (a figure card while the hand
    holds the led figure, D-FOLLOW) or "neutral_not_allowed" (D-NEUTRAL)."""
    led = led_figure(trick) if trick else None
    if led is None or all(FIGURE[card] != led for card in hand):
        return list(hand), {}
    playable, refused = [], {}
    for card in hand:
        figure = FIGURE[card]
        if figure == led:
            playable.append(card)
        else:
            refused[card] = "must_follow" if figure is not None else "neutral_not_allowed"
    return playable, refused


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
