"""The review after a game (games.review) on the result and replay pages: asked for by the
person holding a seat, shown with its progress while it is computed, then its costliest
moments, each a link to the replay at that move.

A seat's review is shown only to a phone that holds the seat now (games.review.
visible_seats): its alternatives tell the seat's hand.
"""

from django import forms
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from games import phones
from games import review as reviews
from games.labels import seat_name
from games.models import Review
from games.registry import get_game
from games.views.tables import _limited, _table

PAGES = ("result", "replay")
ABOUT = _(
    "The computer player’s strongest level looks again at each of your choices, from what "
    "you could see then, and lists the moves that cost most."
)


class AskForm(forms.Form):
    """Ask for the review of a seat the phone holds (`seats`), from one of PAGES."""

    seat = forms.TypedChoiceField(coerce=int)
    page = forms.ChoiceField(choices=[(page, page) for page in PAGES], required=False)

    def __init__(self, *args, seats: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(seat, seat) for seat in seats]


def blocks(request, table, seats, only: int | None = None) -> list[dict]:
    """The review of each seat this phone may see (or of seat `only`), for the templates:
    the seat, its name, its review (None until asked for), its moments in words when
    done, and whether the page should ask again for its progress."""
    hashes = phones.token_hashes(request.COOKIES, table.code)
    visible = reviews.visible_seats(table, seats, hashes)
    game = get_game(table.game)
    out = []
    for seat in seats:
        if seat.index not in visible or (only is not None and seat.index != only):
            continue
        review = reviews.current(table, seat.index)
        done = review is not None and review.status == Review.Status.DONE
        name = seat_name(seat, game)
        out.append(
            {
                "seat": seat.index,
                "name": name,
                "about": ABOUT,
                "review": review,
                "lines": reviews.lines(table, review, name) if done else [],
                "polling": review is not None
                and review.status in (Review.Status.WAITING, Review.Status.RUNNING),
            }
        )
    return out


@require_POST
@_limited
def review_ask(request, code):
    """Ask for the review of a seat of a finished game; back to the page it was asked on."""
    table = _table(request, code)
    seats = list(table.seats.all())
    hashes = phones.token_hashes(request.COOKIES, table.code)
    form = AskForm(request.POST, seats=reviews.visible_seats(table, seats, hashes))
    if not form.is_valid():
        raise Http404(code)
    seat = form.cleaned_data["seat"]
    reviews.ask(table, seat)
    if form.cleaned_data["page"] == "replay":
        return redirect(f"{reverse('replay', kwargs={'code': table.code})}?seat={seat}")
    return redirect(f"{reverse('result', kwargs={'code': table.code})}#review-{seat}")


@require_GET
@_limited
def review_part(request, code, seat: int):
    """One seat's review alone (what the page asks for while it is computed)."""
    table = _table(request, code)
    found = blocks(request, table, list(table.seats.all()), only=seat)
    if not found:
        raise Http404(code)
    page = request.GET.get("page") if request.GET.get("page") in PAGES else "result"
    context = {"table_code": table.code, "block": found[0], "page": page}
    return render(request, "games/_review.html", context)
