"""Every write to players: a guest made when a phone first sits down, its name kept up to
date, an account's player, a guest's games moved into an account, groups, their invite
links and their tables, and a player who asks to be forgotten.
"""

import secrets

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils.crypto import constant_time_compare

from games.errors import Refused
from games.models import Seat, hash_token, new_code, new_token
from games.services import clean_name
from notify import services as notify_services
from players import identity
from players.models import Group, Membership, Player


def for_seat(request, name: str, table=None) -> tuple[Player | None, str | None]:
    """The player who is sitting down under `name` (at `table`, if it exists already):
    this phone's (its name updated), or a new guest. Returns it and, for a new guest, the
    token its phone's cookie must keep. A phone whose player already sits at `table` is
    shared by several people: the next seat is someone else's, and no one's player."""
    name = clean_name(name)
    player = identity.current(request)
    if player is not None:
        if table is not None and Seat.objects.filter(table=table, player=player).exists():
            return None, None
        if player.name != name:
            player.name = name
            player.save(update_fields=["name", "seen"])
        return player, None
    token = new_token()
    return Player.objects.create(token_hash=hash_token(token), name=name), token


def of_account(user) -> Player:
    player = Player.objects.filter(user=user).first()
    if player is None:
        player = Player.objects.create(user=user, name=user.get_username()[:24])
    return player


@transaction.atomic
def signed_up(user, guest: Player | None) -> Player:
    """A new account keeps this phone's guest games: the guest becomes the account's."""
    if guest is None or guest.user_id is not None:
        return of_account(user)
    guest.user, guest.token_hash = user, ""
    guest.save(update_fields=["user", "token_hash", "seen"])
    return guest


@transaction.atomic
def signed_in(user, guest: Player | None) -> Player:
    """Signing in on a phone that played as a guest moves the guest's games into the
    account; the guest is no more."""
    player = of_account(user)
    if guest is not None and guest.pk != player.pk and guest.user_id is None:
        Seat.objects.filter(player=guest).update(player=player)
        notify_services.merge(guest, player)
        guest.delete()
    return player


INVITE_SALT = "players.group-invite"


def invite_token(group: Group) -> str:
    """The token of the group's invite link: its code and invite nonce signed, so the
    token itself is stored nowhere and every member can show the link; a new nonce
    (new_invite) makes a new link and the old one stops working. A group made before
    nonces has none: its first link (the code alone signed) works until it is replaced."""
    value = f"{group.code}:{group.invite_nonce}" if group.invite_nonce else group.code
    return signing.Signer(salt=INVITE_SALT).signature(value)


def _invite_nonce() -> str:
    return secrets.token_urlsafe(12)


def create_group(player: Player, name: str) -> Group:
    """A new group with `player` its first member."""
    for _attempt in range(10):
        try:
            with transaction.atomic():
                group = Group.objects.create(
                    name=name, code=new_code(), invite_nonce=_invite_nonce()
                )
                break
        except IntegrityError:  # the rare clash of random codes
            continue
    else:
        raise Refused("busy")
    Membership.objects.create(group=group, player=player)
    return group


def invite_works(group: Group, token) -> bool:
    """Whether `token` is the group's invite link's (compared in constant time)."""
    return isinstance(token, str) and constant_time_compare(token, invite_token(group))


def join_group(group: Group, token: str, player: Player) -> None:
    """`player` joins with the group's invite link (its token); refused if it is not."""
    if not invite_works(group, token):
        raise Refused("bad_invite")
    Membership.objects.get_or_create(group=group, player=player)


def new_invite(group: Group, player: Player) -> None:
    """A member replaces the group's invite link: the old one stops working at once."""
    if not Membership.objects.filter(group=group, player=player).exists():
        raise Refused("not_member")
    group.invite_nonce = _invite_nonce()
    group.save(update_fields=["invite_nonce"])


def tag_table(group: Group, player: Player, table) -> None:
    """A member counts one of their tables in the group's league."""
    if not Membership.objects.filter(group=group, player=player).exists():
        raise Refused("not_member")
    if not Seat.objects.filter(table=table, player=player).exists():
        raise Refused("not_your_table")
    group.tables.add(table)


@transaction.atomic
def forget(player: Player) -> None:
    """Delete a player and their account: their seats stay, anonymous ("#2"), so that
    every game stays whole for the others. A group left without members goes too, and so
    does what was kept of the account's sign-ins (forget_sign_ins)."""
    for seat in Seat.objects.filter(player=player):
        seat.player, seat.name = None, f"#{seat.index + 1}"
        seat.save(update_fields=["player", "name"])
    groups = list(Membership.objects.filter(player=player).values_list("group_id", flat=True))
    user = player.user
    player.delete()  # and its memberships
    Group.objects.filter(pk__in=groups, membership__isnull=True).delete()
    if user is not None:
        forget_sign_ins(user)
        user.delete()


def forget_sign_ins(user) -> None:
    """What is kept of an account's sign-ins: django-axes' failed attempts, failure log
    and access log under its username (with the addresses and browsers they came from;
    any case, as usernames are unique regardless of it), and its sessions on every
    phone."""
    username = user.get_username()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username__iexact=username).delete()
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
        mine = [
            session.pk
            for session in Session.objects.iterator()  # (expired ones too, until cleared)
            if session.get_decoded().get(SESSION_KEY) == str(user.pk)
        ]
        Session.objects.filter(pk__in=mine).delete()
