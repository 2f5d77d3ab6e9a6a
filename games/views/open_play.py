"""The open tables (games.open_tables): the list, updated live, and "Play now"."""

from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods, require_POST

from games import labels, open_tables, ratelimit, services
from games.forms import PlayNowForm
from games.views.tables import _add_seat_token, _table_url
from players import identity
from players import services as players


def _page(request, form, status=200):
    context = {
        "games": open_tables.games(),
        "form": form,
        "listing": open_tables.list_html(get_language()),
        "ws_url": f"/ws/open/?lang={get_language()}",
    }
    return render(request, "games/open_tables.html", context, status=status)


@require_http_methods(["GET", "HEAD"])
def open_list(request):
    return _page(request, PlayNowForm(open_tables.games(), initial=identity.named(request)))


@require_POST
def play_now(request):
    """Sit at the oldest open table of the game with a free seat, or open one."""
    form = PlayNowForm(open_tables.games(), request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    if ratelimit.count_phone(request, "create_table"):
        form.add_error(None, labels.REFUSALS["slow_down"])
        return _page(request, form, status=429)
    data = form.cleaned_data
    try:
        with transaction.atomic():  # a new guest only if they sit down
            player, player_token = players.for_seat(request, data["name"])
            table, seat, token, host = open_tables.play_now(
                data["game"], data["name"], get_language(), player
            )
    except services.Refused as refusal:
        form.add_error(None, labels.refusal(refusal)["message"])
        return _page(request, form, status=409)
    response = redirect(_table_url(table, seat))
    identity.remember(request, response, player_token)
    _add_seat_token(request, response, table.code, token, host=host[0] if host else None)
    return response
