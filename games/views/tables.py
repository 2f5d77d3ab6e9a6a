"""Creating, joining and playing at a table over plain HTTP.

Every action works as a plain form POST followed by a redirect (a refusal: the table
page with its message). The WebSocket (games.consumers) is the fast path for the same
actions.
"""

import functools
import io
import re

import segno
from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import fields, hints, labels, phones, presence, ratelimit, services
from games.actions import BadInput, perform
from games.context import partners_of, table_summary
from games.forms import CreateTableForm, JoinForm, SwitchForm
from games.live import snapshot
from games.models import CODE_ALPHABET, CODE_LENGTH, Table
from games.phones import MAX_SEATS_PER_PHONE
from games.registry import GAMES, get_game
from games.render import centre_screen, fill_in, flash_html, live_html, meta_html, screen
from players import identity
from players import services as players
from players.models import Group

CODE_RE = re.compile(rf"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


class _SlowDown(Exception):
    """Over a rate limit: answered 429 with the lobby and the slow_down sentence."""


def _over(request, kind: str) -> bool:
    # REMOTE_ADDR: daphne --proxy-headers sets it from X-Forwarded-For
    return ratelimit.over(request.META.get("REMOTE_ADDR"), kind)


def _count(request, kind: str) -> bool:
    return ratelimit.count(request.META.get("REMOTE_ADDR"), kind)


def _slow_down(request):
    error = labels.refusal(services.Refused("slow_down"))
    return _lobby(request, CreateTableForm(_lobby_game(request)), error, status=429)


def _limited(view):
    """A view that looks a table up by its code: over the client's limit of unknown codes
    it answers 429 (the lobby, saying why), whatever the code."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _SlowDown:
            return _slow_down(request)

    return wrapped


def _find(request, code: str) -> Table | None:
    """The table with this code, or None (counted against the client's limit of unknown
    codes); raises _SlowDown once the client is over that limit."""
    if _over(request, "unknown_code"):
        raise _SlowDown
    table = Table.objects.filter(code=code).first() if CODE_RE.match(code) else None
    if table is None and _count(request, "unknown_code"):
        raise _SlowDown
    return table


def _table(request, code: str) -> Table:
    table = _find(request, code)
    if table is None:
        raise Http404(code)
    return table


def _phone(request, table: Table) -> phones.Phone:
    wanted = request.GET.get("seat") or request.POST.get("seat")
    return phones.identify(table, request.COOKIES, wanted)


def _save_phone(request, response, book: phones.Book) -> None:
    """Write the phone's one cookie: `book` without the tables it no longer keeps (gone,
    closed or finished over a day ago), bounded; the earlier per-table cookies go."""
    book = phones.without(book, set(book) - phones.live_codes(book))
    response.set_cookie(
        phones.COOKIE_NAME,
        phones.cookie_value(book),
        max_age=phones.COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    for name in phones.legacy_names(request.COOKIES):
        response.delete_cookie(name, samesite="Lax")


def _add_seat_token(request, response, code: str, token: str, host: str | None = None):
    book = phones.with_seat(phones.read(request.COOKIES), code, token)
    if host:
        book = phones.with_host(book, code, host)
    _save_phone(request, response, book)


def _tidy_phone(request, response, table: Table) -> None:
    """On seeing `table`: forget it if it is gone, and move the earlier per-table cookies
    into the one cookie."""
    book = phones.read(request.COOKIES)
    if table.code in book and phones.is_gone(table):
        _save_phone(request, response, phones.without(book, [table.code]))
    elif phones.legacy_names(request.COOKIES):
        _save_phone(request, response, book)


QR_LOOK = {"scale": 4, "border": 2}  # 4 px a module, a quiet zone of 2


def _qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(title=url, **QR_LOOK)


@require_GET
@_limited
def join_qr(request, code):
    """The join link of a table as a QR code (an SVG image): the table page shows it from
    here, out of its own first load (its invite sits one tap away during play, and an
    image there is not fetched until it is shown)."""
    table = _table(request, code)
    url = request.build_absolute_uri(reverse("join", kwargs={"code": table.code}))
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", title=url, xmldecl=False, **QR_LOOK)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=86400"  # a table's code and join link never change
    return response


@require_GET
@_limited
def centre_qr(request, code):
    """The address of the table-centre screen as a QR code (an SVG image), for a tablet or
    a TV to open it; shown in the table tools."""
    table = _table(request, code)
    url = request.build_absolute_uri(reverse("table_centre", kwargs={"code": table.code}))
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", title=url, xmldecl=False, **QR_LOOK)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=86400"
    return response


@require_GET
@_limited
def table_centre(request, code):
    """The table-centre screen: a read-only page for a tablet or a TV in landscape, a
    spectator's view of the table in large type (games.render.centre_screen), kept live by
    the table's socket at ?view=centre."""
    table = _table(request, code)
    lang = get_language()
    now = centre_screen(snapshot(table), lang)
    context = {
        "table": table_summary(table),
        "live": fill_in(live_html(now), table.code, None, table.version),
        "meta": meta_html(table.version),
        "beat": presence.BEAT,
        "ws_url": f"/ws/table/{table.code}/?lang={lang}&view=centre",
    }
    return render(request, "games/centre.html", context)


def _table_url(table: Table, seat=None, acting=None) -> str:
    url = reverse("table", kwargs={"code": table.code})
    url = f"{url}?seat={seat}" if seat is not None else url
    if acting is not None and seat is not None:
        url += f"&for={acting}"
    return url


def _acting(data) -> int | None:
    """The seat a phone asks to enter moves for (its "for" field), None if none or bad."""
    try:
        return fields.optional_integer(data, "for", 0, fields.MAX_SEAT)
    except BadInput:
        return None


def _lobby_game(request):
    """The game whose create form the lobby shows: the one asked for, else the first."""
    slug = request.POST.get("game") or request.GET.get("game")
    return GAMES.get(slug) or next(iter(GAMES.values()))


def _lobby(request, form, join_error=None, status=200, group=None):
    context = {
        "games": GAMES.values(),
        "game": form.game,
        "form": form,
        "join_error": join_error,
        "group": group,
        # the game tabs keep the group whose league the table is for
        "group_query": f"&group={group.code}" if group is not None else "",
    }
    return render(request, "games/lobby.html", context, status=status)


def _lobby_group(request):
    """The group whose league the new table is for (its code in the "group" field), if the
    phone's player is one of its members; else None."""
    code = request.POST.get("group") or request.GET.get("group")
    player = identity.current(request) if code else None
    if player is None:
        return None
    return Group.objects.filter(code=str(code)[:20], members=player).first()


@require_http_methods(["GET", "HEAD", "POST"])
def lobby(request):
    """Create a table (the form of one game at a time), or join one by its code. Opened
    from a group's page, the table is counted in its league, and hints are off unless
    the host allows them."""
    game = _lobby_game(request)
    group = _lobby_group(request)
    league = group is not None
    if request.method != "POST":
        form = CreateTableForm(game, initial=identity.named(request), league=league)
        return _lobby(request, form, group=group)
    form = CreateTableForm(game, request.POST, league=league)
    if request.POST.get("game") != game.slug:
        form.add_error(None, labels.REFUSALS["bad_request"])
    elif form.is_valid() and ratelimit.count_phone(request, "create_table"):
        form.add_error(None, labels.REFUSALS["slow_down"])
        return _lobby(request, form, status=429)
    elif form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():  # a new guest only if the table is made
                player, player_token = players.for_seat(request, data["name"])
                table, host_token, seat_token = services.create_table(
                    game.slug,
                    data["mode"],
                    form.config(),
                    data["name"],
                    form.online(get_language()),
                    player,
                )
                if group is not None:
                    players.tag_table(group, player, table)
        except services.Refused as refusal:
            form.add_error(None, labels.refusal(refusal, game)["message"])
        else:
            response = redirect(_table_url(table, 0))
            identity.remember(request, response, player_token)
            _add_seat_token(request, response, table.code, seat_token, host=host_token)
            return response
    return _lobby(request, form, status=400, group=group)


@require_GET
@_limited
def join_by_code(request):
    code = "".join(request.GET.get("code", "").upper().split())[:20]
    if _find(request, code) is not None:
        return redirect("join", code=code)
    error = labels.refusal(services.Refused("no_such_table"))
    return _lobby(request, CreateTableForm(_lobby_game(request)), error, status=404)


@require_http_methods(["GET", "HEAD", "POST"])
@_limited
def join(request, code):
    table = _table(request, code)
    seats = list(table.seats.all())
    partners = partners_of(get_game(table.game).web.sides(table.mode, len(seats)))
    if request.method == "POST":
        form = JoinForm(seats, request.POST, partners=partners)
    else:
        form = JoinForm(seats, initial=identity.named(request), partners=partners)
    if form.is_bound and form.is_valid():
        index, name = form.cleaned_data["seat"], form.cleaned_data["name"]
        try:
            with transaction.atomic():  # a new guest only if they sit down
                player, player_token = players.for_seat(request, name, table)
                holder = phones.token_hashes(request.COOKIES, table.code)
                token = services.claim_seat(table, index, name, player, holder)
        except services.Refused as refusal:
            form.add_error(None, labels.refusal(refusal, get_game(table.game))["message"])
            seats = list(table.seats.all())
            form = _rebound(seats, form, partners)
        else:
            response = redirect(_table_url(table, index))
            _add_seat_token(request, response, table.code, token)
            identity.remember(request, response, player_token)
            return response
    phone = _phone(request, table)
    context = {
        "table": table,
        "game": get_game(table.game),
        "seats": seats,
        "form": form,
        "full": not any(not seat.taken for seat in seats),
        "phone_seats": phone.seats,
        "phone_full": len(phone.seats) >= MAX_SEATS_PER_PHONE,
    }
    return render(request, "games/join.html", context, status=400 if form.errors else 200)


def _rebound(seats, form, partners):
    """The join form again with the seats as they are now, keeping its data and errors."""
    fresh = JoinForm(seats, form.data, partners=partners)
    fresh.is_valid()
    for error in form.non_field_errors():
        fresh.add_error(None, error)
    return fresh


@require_GET
@_limited
def table_page(request, code):
    table = _table(request, code)
    response = _render_table(request, table)
    _tidy_phone(request, response, table)
    return response


def _render_table(request, table: Table, error=None, status=200):
    phone = _phone(request, table)
    active, host = phone.active, phone.host
    snap = snapshot(table)
    lang, csrf = get_language(), get_token(request)
    # the seat the phone asks to enter moves for: its socket, which knows who is at the
    # table, says whether it may (a seated phone: only for an absent seat)
    wanted = _acting(request.GET) if active is not None else None
    now = screen(snap, phone.seats, active, host, lang, acting=wanted)
    live = fill_in(live_html(now), table.code, active, table.version, csrf, acting=now.acting)
    flash = flash_html(error, table.game)
    meta = meta_html(table.version)
    join_url = request.build_absolute_uri(reverse("join", kwargs={"code": table.code}))
    context = {
        "table": table_summary(table),
        "host": host,
        "live": live,
        "flash": flash,
        "meta": meta,
        "join_url": join_url,
        "created": table.created,
        "beat": presence.BEAT,
        "ws_url": f"/ws/table/{table.code}/?lang={get_language()}"
        + (f"&seat={active}" if active is not None else "")
        + (f"&for={wanted}" if wanted is not None else ""),
    }
    return render(request, "games/table.html", context, status=status)


@require_POST
@_limited
def table_act(request, code):
    table = _table(request, code)
    # the seat is checked against the phone's cookie in the move's own transaction, as
    # over the WebSocket (a host may free it a moment before)
    holder = phones.token_hashes(request.COOKIES, code)
    try:
        seat = fields.integer(request.POST, "seat", 0, fields.MAX_SEAT)
        version = fields.integer(request.POST, "version", 0, fields.MAX_VERSION)
        action_id = fields.action_id(request.POST.get("action_id"))
        perform(
            table, seat, request.POST, version, action_id, holder, lambda: _absence(request, table)
        )
    except BadInput:
        return _render_table(request, table, services.Refused("bad_request"), status=400)
    except services.Refused as refusal:
        table.refresh_from_db()
        return _render_table(request, table, refusal, status=409)
    return redirect(_table_url(table, seat, _acting(request.POST)))


@require_POST
async def table_hint(request, code):
    """A seat asks what the computer would play (games.hints), without JavaScript: the
    answer is awaited (the thinking is done in the pool, not in this process), then back
    to the table, which shows it; a refusal shows the table with its reason."""
    try:
        table = await sync_to_async(_find)(request, code)
    except _SlowDown:
        return await sync_to_async(_slow_down)(request)
    if table is None:
        raise Http404(code)
    form = hints.HintForm(request.POST)
    if not form.is_valid():
        refused = services.Refused("bad_request")
        return await sync_to_async(_render_table)(request, table, refused, status=400)
    seat = form.cleaned_data["seat"]
    holder = phones.token_hashes(request.COOKIES, code)
    try:
        await hints.ask(table, seat, form.cleaned_data["version"], holder)
    except services.Refused as refusal:
        await table.arefresh_from_db()
        return await sync_to_async(_render_table)(request, table, refusal, status=409)
    return redirect(_table_url(table, seat))


def _absence(request, table: Table):
    """(host?, the absent seats, those gone for a while) for a move entered for another
    seat over a plain POST (games.services.may_act_for)."""
    host = _phone(request, table).host
    absent, long_gone = async_to_sync(presence.absence)(
        table.code, list(table.seats.all()), None, services.GONE_FOR_ANSWER
    )
    return host, absent, long_gone


@_limited
def _host_action(request, code, perform):
    """A host's action: `perform(table, host_token)`, then back to the table; a refusal
    shows the table with its reason (a malformed seat index is a bad_seat)."""
    table = _table(request, code)
    try:
        perform(table, phones.host_token(request.COOKIES, code))
    except BadInput:
        return _render_table(request, table, services.Refused("bad_request"), status=400)
    except ValueError:
        return _render_table(request, table, services.Refused("bad_seat"), status=400)
    except services.Refused as refusal:
        table.refresh_from_db()
        return _render_table(request, table, refusal, status=409)
    return redirect(_table_url(table, request.POST.get("seat")))


def _index(request) -> int:
    return int(request.POST.get("index", ""))


@require_POST
def table_start(request, code):
    return _host_action(
        request,
        code,
        lambda t, host: services.start_table(
            t, host, fields.action_id(request.POST.get("action_id"))
        ),
    )


@require_POST
def table_free_seat(request, code):
    return _host_action(request, code, lambda t, host: services.free_seat(t, host, _index(request)))


@require_POST
def table_bot(request, code):
    """The host seats a computer player (digital tables, before the start)."""
    level = request.POST.get("level", "")
    return _host_action(
        request, code, lambda t, host: services.seat_bot(t, host, _index(request), level)
    )


@require_POST
def table_rematch(request, code):
    """The host deals a new game at the same table once the game is over."""
    return _host_action(
        request,
        code,
        lambda t, host: services.rematch(t, host, fields.action_id(request.POST.get("action_id"))),
    )


@require_POST
def table_close(request, code):
    return _host_action(request, code, services.close_table)


@require_POST
def table_phrases(request, code):
    """The host lets the players say the table phrases, or not."""
    form = SwitchForm(request.POST)
    if not form.is_valid():
        return _render_table(request, _table(request, code), services.Refused("bad_request"), 400)
    on = form.cleaned_data["on"] == "1"
    return _host_action(request, code, lambda t, host: services.set_phrases(t, host, on))


@require_POST
def table_act_for(request, code):
    """The host lets any seated player enter moves for an absent seat, or only the host."""
    form = SwitchForm(request.POST)
    if not form.is_valid():
        return _render_table(request, _table(request, code), services.Refused("bad_request"), 400)
    rule = Table.ActFor.ANY if form.cleaned_data["on"] == "1" else Table.ActFor.HOST
    return _host_action(request, code, lambda t, host: services.set_act_for(t, host, rule))


@require_POST
@_limited
def table_stand_in(request, code):
    """A player asks a computer player to play for them ("1"), or takes their seat back."""
    return _seat_action(request, code, services.stand_in)


@require_POST
@_limited
def table_leave(request, code):
    """A player leaves the table (games.services.leave_seat says what becomes of the seat)."""
    return _seat_action(
        request, code, lambda table, seat, holder, on: services.leave_seat(table, seat, holder)
    )


def _seat_action(request, code, perform):
    """A seat's own action: `perform(table, seat, holder, on)`, checked against the phone's
    cookie in its transaction; then back to the table, or the table with the refusal."""
    table = _table(request, code)
    form = SwitchForm(request.POST)
    try:
        seat = fields.integer(request.POST, "seat", 0, fields.MAX_SEAT)
        if not form.is_valid():
            raise BadInput("on")
        perform(
            table, seat, phones.token_hashes(request.COOKIES, code), form.cleaned_data["on"] == "1"
        )
    except BadInput:
        return _render_table(request, table, services.Refused("bad_request"), status=400)
    except services.Refused as refusal:
        table.refresh_from_db()
        return _render_table(request, table, refusal, status=409)
    return redirect(_table_url(table, seat, _acting(request.POST)))


@require_POST
@_limited
def table_handover(request, code):
    """Show a one-time link and QR that move this phone's seat to another phone."""
    table = _table(request, code)
    phone_seats = _phone(request, table).seats
    try:
        index = int(request.POST.get("seat", ""))
    except ValueError:
        index = None
    if index not in phone_seats:
        return _render_table(request, table, services.Refused("seat_not_yours"), status=403)
    seat = table.seats.get(index=index)
    try:
        token = services.create_handover(table, seat)
    except services.Refused as refusal:
        return _render_table(request, table, refusal, status=409)
    url = request.build_absolute_uri(reverse("handover", kwargs={"code": code, "token": token}))
    return render(
        request,
        "games/handover.html",
        {"table": table, "seat": seat, "url": url, "qr": _qr_svg(url)},
    )


@require_http_methods(["GET", "HEAD", "POST"])
@_limited
def handover(request, code, token):
    """The receiving phone confirms (a GET never moves a seat: link previews)."""
    table = _table(request, code)
    if request.method == "POST":
        try:
            seat, seat_token = services.claim_handover(table, token)
        except services.Refused as refusal:
            return render(
                request,
                "games/handover_claim.html",
                {"table": table, "error": labels.refusal(refusal, get_game(table.game))},
                status=410,
            )
        response = redirect(_table_url(table, seat.index))
        _add_seat_token(request, response, table.code, seat_token)
        return response
    return render(request, "games/handover_claim.html", {"table": table, "error": None})
