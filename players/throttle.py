"""Password spraying, one password tried on many accounts from one address, is bounded
per client address whatever the username: games.ratelimit's "login_failed". Every failed
sign-in Django's authenticate reports (its user_login_failed signal: a wrong password,
an unknown username, an account django-axes has locked) counts, on the players' sign-in
page and the admin's login alike; once over, both answer 429 before any password is
checked, the right one included, until the window ends (a success resets nothing).
django-axes, beside it, locks one account from one address after a few failures.
"""

import functools

from games import ratelimit


def _address(request) -> str | None:
    return request.META.get("REMOTE_ADDR")


def failed(sender, credentials=None, request=None, **kwargs) -> None:
    """Counts a failed sign-in against its client address (user_login_failed's receiver,
    connected by players.apps)."""
    if request is not None:
        ratelimit.count(_address(request), "login_failed")


def over(request) -> bool:
    """True if the client has used up its failed sign-ins for now."""
    return ratelimit.over(_address(request), "login_failed")


def guarded(refused):
    """A login view that answers `refused(request)` to a POST from a client over its
    limit, before the view reads it."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST" and over(request):
                return refused(request)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
