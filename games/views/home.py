from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.registry import GAMES
from players import history, identity


@require_safe
def home(request):
    """The games, and first the remembered player's games where it is their turn."""
    player = identity.current(request)
    your_turn = [e for e in history.games(player) if e["your_turn"]] if player else []
    return render(request, "games/home.html", {"games": GAMES.values(), "your_turn": your_turn})
