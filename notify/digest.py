"""The daily e-mail digest (manage.py send_digests): to each player who asked for it, in
their language, the games where it is their turn and those that ended in the last day."""

from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Seat, Table
from games.registry import get_game
from notify.models import NotificationPrefs


def lines_of(player, since) -> tuple[list[str], list[str]]:
    """(the player's tables where it is their turn, those that ended since `since`), each
    a line: the game, the table's code and its link."""
    turn, ended = [], []
    seats = Seat.objects.filter(player=player, kind=Seat.Kind.HUMAN).select_related("table")
    for seat in seats.order_by("-table__updated"):
        table = seat.table
        line = f"{get_game(table.game).name} · {table.code} · {link(table)}"
        if table.status == Table.Status.PLAYING and table.state:
            if seat.index in get_game(table.game).engine(table.mode).to_act(table.state):
                turn.append(line)
        elif table.status == Table.Status.FINISHED and table.updated >= since:
            ended.append(line)
    return turn, ended


def link(table: Table) -> str:
    return settings.SITE_URL + reverse("table", kwargs={"code": table.code})


def compose(prefs: NotificationPrefs, now) -> tuple[str, str] | None:
    """(subject, body) of the player's digest, None when there is nothing to tell."""
    with translation.override(prefs.language):
        turn, ended = lines_of(prefs.player, now - timedelta(days=1))
        if not turn and not ended:
            return None
        parts = []
        if turn:
            heading = ngettext(
                "It is your turn in %(n)d game:", "It is your turn in %(n)d games:", len(turn)
            )
            parts.append(heading % {"n": len(turn)} + "\n" + "\n".join(turn))
        if ended:
            heading = ngettext(
                "%(n)d game ended in the last day:",
                "%(n)d games ended in the last day:",
                len(ended),
            )
            parts.append(heading % {"n": len(ended)} + "\n" + "\n".join(ended))
        settings_url = settings.SITE_URL + reverse("notify_settings")
        parts.append(_("To stop these e-mails: %(url)s") % {"url": settings_url})
        return _("Your games today"), "\n\n".join(parts)


def send_all(now=None) -> int:
    """Send every digest asked for; how many were sent."""
    now = now or timezone.now()
    sent = 0
    wanted = NotificationPrefs.objects.filter(digest=True).exclude(email="")
    for prefs in wanted.select_related("player"):
        mail = compose(prefs, now)
        if mail is not None:
            sent += send_mail(mail[0], mail[1], None, [prefs.email])
    return sent
