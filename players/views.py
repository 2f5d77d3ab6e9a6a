"""A player's own pages: signing up, in and out, their games (players.history) and
statistics, their groups and leagues (players.league), and their data to take away or
delete."""

import functools

from django.contrib import admin, auth
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import labels, ratelimit
from games.errors import Refused
from games.models import Table
from players import data, history, identity, league, services, stats, throttle
from players.forms import ForgetForm, GroupForm, JoinGroupForm, SignUpForm, TagForm
from players.models import Group, Membership


def _posted(request):
    """The POST data, if it is a POST (a form without fields posts nothing)."""
    return request.POST if request.method == "POST" else None


MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

REFUSED = {
    # an unknown code, a wrong invite link and a non-member's request, answered alike
    "no_group": _(
        "This group link does not work: it is wrong or has been replaced, or the page is "
        "for the group's members only. Ask a member for the invite link."
    ),
    "too_many_attempts": _("Too many attempts from your address. Try again later."),
    "too_many_sign_ins": _("Too many failed sign-ins from your address. Try again later."),
    "not_your_table": _("You can only add a table you sat at."),
    "busy": labels.REFUSALS["busy"],
}
REFUSED["bad_invite"] = REFUSED["not_member"] = REFUSED["no_group"]


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request):
    """An account that keeps this phone's games (no e-mail address asked). Every attempt
    counts against the client's "sign_up" limit, a refused one too: that bounds how many
    taken usernames an address can find."""
    if request.user.is_authenticated:
        return redirect("my_games")
    form = SignUpForm(_posted(request))
    if form.is_bound and ratelimit.count(request.META.get("REMOTE_ADDR"), "sign_up"):
        # over the limit the form is not even read: nothing is said about the username
        form = SignUpForm(initial={"username": request.POST.get("username", "")})
        context = {"form": form, "refused": REFUSED["too_many_attempts"]}
        return render(request, "players/sign_up.html", context, status=429)
    if form.is_bound and form.is_valid():
        user = form.save()
        services.signed_up(user, identity.guest(request))
        auth.login(request, user, backend=MODEL_BACKEND)
        response = redirect("my_games")
        identity.forget(response)
        return response
    status = 400 if form.errors else 200
    return render(request, "players/sign_up.html", {"form": form}, status=status)


class SignIn(auth_views.LoginView):
    """Signing in moves the games this phone played as a guest into the account. A client
    over its failed sign-ins (players.throttle) is refused before any password is read."""

    template_name = "players/sign_in.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        if throttle.over(request):
            initial = {"username": request.POST.get("username", "")}
            form = self.get_form_class()(request, initial=initial)  # unbound: not checked
            context = self.get_context_data(form=form, refused=REFUSED["too_many_sign_ins"])
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        guest = identity.guest(self.request)
        response = super().form_valid(form)
        services.signed_in(form.get_user(), guest)
        identity.forget(response)
        return response

    def get_default_redirect_url(self):
        return self.get_redirect_url() or reverse("my_games")


sign_in = SignIn.as_view()


def _admin_login_refused(request):
    context = {**admin.site.each_context(request), "refused": REFUSED["too_many_sign_ins"]}
    return render(request, "players/admin_login_refused.html", context, status=429)


# the admin's login (companion.urls puts it before the admin's own URLs), refused alike
admin_login = throttle.guarded(_admin_login_refused)(admin.site.login)


@require_POST
def sign_out(request):
    auth.logout(request)
    return redirect("home")


@require_http_methods(["GET", "HEAD"])
def my_games(request):
    player = identity.current(request)
    context = {
        "player": player,
        "games": history.games(player) if player is not None else [],
        "groups": list(player.groups.all()) if player is not None else [],
        "stats": stats.summary(player) if player is not None else [],
    }
    return render(request, "players/my_games.html", context)


# -- groups ------------------------------------------------------------------------------


class _Unseen(Exception):
    """A group this request may not see: 404 (the same page whether the code is unknown,
    the invite link wrong or the phone's player not a member), or 429 once the client is
    over its limit of such lookups."""

    def __init__(self, status: int = 404):
        super().__init__(status)
        self.status = status


def _unseen(request, status: int = 404):
    code = "too_many_attempts" if status == 429 else "no_group"
    return render(request, "players/group.html", {"refused": REFUSED[code]}, status=status)


def _group_lookup(view):
    """A view that looks a group up by its code: whatever it cannot show is answered by
    _unseen, which names no group."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _Unseen as refusal:
            return _unseen(request, refusal.status)

    return wrapped


def _group(request, code: str, *, player=None, token: str | None = None) -> Group:
    """The group with this code if this request may see it: with its invite link's
    `token` (the join page), else as a member (`player`). Raises _Unseen otherwise, each
    time counted against the client's limit of failed lookups (games.ratelimit's
    "group_lookup"); once over it, whatever the code."""
    address = request.META.get("REMOTE_ADDR")
    if ratelimit.over(address, "group_lookup"):
        raise _Unseen(429)
    group = Group.objects.filter(code=code).first()
    if group is None:
        seen = False
    elif token is not None:
        seen = services.invite_works(group, token)
    else:
        seen = player is not None and Membership.objects.filter(group=group, player=player).exists()
    if not seen:
        raise _Unseen(429 if ratelimit.count(address, "group_lookup") else 404)
    return group


def _invite_url(request, group, token):
    return request.build_absolute_uri(
        reverse("join_group", kwargs={"code": group.code, "token": token})
    )


@require_http_methods(["GET", "HEAD", "POST"])
def new_group(request):
    player = identity.current(request)
    form = GroupForm(_posted(request), named=player is not None)
    if form.is_bound and form.is_valid():
        with transaction.atomic():
            if player is None:
                player, token = services.for_seat(request, form.cleaned_data["player_name"])
            else:
                token = None
            group = services.create_group(player, form.cleaned_data["name"])
        response = redirect(reverse("group", kwargs={"code": group.code}))
        identity.remember(request, response, token)
        return response
    status = 400 if form.errors else 200
    return render(request, "players/new_group.html", {"form": form}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@_group_lookup
def join_group(request, code, token):
    group = _group(request, code, token=token)
    player = identity.current(request)
    form = JoinGroupForm(_posted(request), named=player is not None)
    context = {"group": group, "form": form}
    if form.is_bound and form.is_valid():
        try:
            with transaction.atomic():
                new = None
                if player is None:
                    player, new = services.for_seat(request, form.cleaned_data["player_name"])
                services.join_group(group, token, player)
        except Refused:  # the link was replaced meanwhile
            return _unseen(request)
        response = redirect(reverse("group", kwargs={"code": group.code}))
        identity.remember(request, response, new)
        return response
    return render(request, "players/join_group.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@_group_lookup
def group_page(request, code):
    player = identity.current(request)
    group = _group(request, code, player=player)
    tagged = set(group.tables.values_list("code", flat=True))
    mine = [entry for entry in history.games(player) if entry["code"] not in tagged]
    form = TagForm(mine, _posted(request))
    status = 200
    if form.is_bound and form.is_valid():
        table = Table.objects.get(code=form.cleaned_data["table"])
        try:
            services.tag_table(group, player, table)
        except Refused as refusal:
            form.add_error(None, REFUSED[refusal.code])
        else:
            return redirect(reverse("group", kwargs={"code": group.code}))
    if form.errors:
        status = 400
    context = {
        "group": group,
        "members": [str(member) for member in group.members.order_by("name")],
        "form": form if mine else None,
        "invite_url": _invite_url(request, group, services.invite_token(group)),
        "league": league.standings(group),
        "last_games": league.last_games(group),
        "head_to_head": league.head_to_head(group),
    }
    return render(request, "players/group.html", context, status=status)


@require_POST
@_group_lookup
def new_invite(request, code):
    """A member replaces the group's invite link (a leaked one stops working at once)."""
    player = identity.current(request)
    group = _group(request, code, player=player)
    try:
        services.new_invite(group, player)
    except Refused:  # no longer a member
        return _unseen(request)
    return redirect(reverse("group", kwargs={"code": group.code}) + "#invite")


# -- their data is theirs ----------------------------------------------------------------


@require_GET
def my_data(request):
    player = identity.current(request)
    if player is None:
        raise Http404("no player")
    response = JsonResponse(data.everything(player), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = 'attachment; filename="my-games.json"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def forget_me(request):
    player = identity.current(request)
    if player is None:
        return redirect("my_games")
    form = ForgetForm(request.user, _posted(request))
    if form.is_bound and form.is_valid():
        services.forget(player)
        auth.logout(request)
        response = redirect("home")
        identity.forget(response)
        return response
    status = 400 if form.errors else 200
    return render(request, "players/forget.html", {"form": form, "player": player}, status=status)
