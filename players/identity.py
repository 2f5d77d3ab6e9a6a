"""Who the person using this phone is: the Player of their account when signed in, else
the guest Player whose token the phone's signed cookie holds (None until it first sits
down). Reads only: players.services writes.
"""

from django.core import signing

from games.models import hash_token
from players.models import Player

COOKIE_NAME = "player"
COOKIE_SALT = "players.identity"
COOKIE_AGE = 60 * 60 * 24 * 400  # seconds: about the longest a browser keeps a cookie


def guest_token(request) -> str | None:
    try:
        return request.get_signed_cookie(COOKIE_NAME, salt=COOKIE_SALT)
    except (KeyError, signing.BadSignature):
        return None


def guest(request) -> Player | None:
    """The guest player this phone's cookie names (not one that became an account's)."""
    token = guest_token(request)
    if not token:
        return None
    return Player.objects.filter(token_hash=hash_token(token), user__isnull=True).first()


def current(request) -> Player | None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Player.objects.filter(user=user).first()
    return guest(request)


def named(request) -> dict:
    """The initial data of a form that asks this phone's player for their name."""
    player = current(request)
    return {"name": player.name} if player is not None and player.name else {}


def remember(request, response, token: str | None) -> None:
    """Keep a new guest's token in the phone's cookie."""
    if token:
        response.set_signed_cookie(
            COOKIE_NAME,
            token,
            salt=COOKIE_SALT,
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )


def forget(response) -> None:
    response.delete_cookie(COOKIE_NAME, samesite="Lax")
