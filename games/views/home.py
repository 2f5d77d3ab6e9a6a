from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.registry import GAMES


@require_safe
def home(request):
    return render(request, "games/home.html", {"games": GAMES.values()})
