from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from games.registry import get_game


@require_safe
def rules(request, game):
    game = get_game(game)
    return render(
        request,
        "games/rules_page.html",
        {"game": game, "body_template": game.rules_template(get_language())},
    )


@require_safe
def clarifications(request, game):
    game = get_game(game)
    if not game.ruling_ids:  # a game whose book leaves nothing to rule on
        raise Http404(game.slug)
    return render(
        request,
        "games/clarifications_page.html",
        {"game": game, "body_template": game.rulings_template(get_language())},
    )
