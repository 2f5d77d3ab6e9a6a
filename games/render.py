"""A phone's screen of a table: regions (games.regions.Region) rendered from the context of
its active seat (games.context, built from `engine.view`, never the state itself). A region
whose inputs did not change is taken from the phone's last screen or the process's cache;
a phone is sent only the regions, or parts, whose HTML changed (`changed`). What differs
per render (the forms' seat, version, action id, CSRF token, address) is filled in last
(`fill_in`), so it never makes a region look changed. Refusals live outside the live table
(`flash_html`), so later updates do not wipe them.
"""

import contextlib
import functools
import operator
import re
import time
import uuid
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games import labels, phones, phrases, regions
from games.context import SHARED, table_context
from games.labels import seat_name
from games.live import Snapshot
from games.models import Table
from games.regions import ACT_URL, FIELDS, POST_FIELDS, Region
from games.registry import get_game

LIVE = "games/_live.html"
PANES = ("play", "players", "log", "table")
# The shared regions around a game's, and what each reads.
SEATS = ("phone_seats", "seats", "table.lobby", "table.code", "in_play", "seated", "absent")
HEAD = (
    Region("actfor", f"{LIVE}#actfor", "play", ("act_for", "acting", "active", "table.code")),
    Region("seats", f"{LIVE}#seats", "play", (*SEATS, "stood_in", "mine.stand_in", "clock", "active")),
    Region("presence", f"{LIVE}#presence", "players", ("presence_known", "table.closed", "seats")),
    Region("sides", f"{LIVE}#sides", "players", ("sides",)),
    Region("phrases", f"{LIVE}#phrases", "players", ("seated", "table.closed", "phrases")),
)  # fmt: skip
STAGE = {
    "lobby": (
        Region("lobby", f"{LIVE}#lobby", "play", ("seats", "host", "hidden_hands", "table.code", "bot_levels")),
    ),
    "closed": (Region("closed", f"{LIVE}#closed", "play", ()),),
}  # fmt: skip
TOOLS = ("seated", "host", "table.code", "table.closed", "table.phrases", "in_play", "seats")
TOOLS += ("act_for_rule",)
TAIL = (
    Region("log", f"{LIVE}#log", "log", ("log",)),
    Region("tools", f"{LIVE}#tools", "table", (*TOOLS, "mine.stand_in")),
)
RESULT = Region("result", f"{LIVE}#result", "play", ("chart", "table.code", "hints_used"))
# A seat's own hint (games.hints): the button to ask, or what the computer would play
HINT = Region("hint", f"{LIVE}#hint", "play", ("hint", "can_hint", "hint_waiting", "table.code"))
# The table-centre screen (centre_screen): the shared head, then the game's centre regions
# (GameWeb.centre); the seats while the table waits, the notice once it is closed.
CENTRE = "games/_centre.html"
CENTRE_HEAD = (
    Region("centre_head", f"{CENTRE}#head", "centre", ("table.game_name", "table.code", "log")),
)
CENTRE_STAGE = {
    "lobby": (Region("centre_seats", f"{CENTRE}#seats", "centre", ("seats", "sides")),),
    "closed": (Region("closed", f"{LIVE}#closed", "centre", ()),),
}

# A part of a region: an element with an id between these markers (a row of a sheet,
# another player); when a region's parts are all that changed, only they are sent.
PART, END = "<!--part-->", "<!--/part-->"
NAME = operator.itemgetter(0)  # a region's name in Screen.regions
PART_ID = re.compile(r'\A\s*<[a-z][a-z0-9]*[^>]*?\bid="([^"]+)"')


def split_parts(html: str) -> tuple[str, dict[str, str]]:
    """(the region without its parts, each part by id)."""
    parts = {}
    first, *pieces = html.split(PART)
    frame = [first]
    for piece in pieces:
        part, end, rest = piece.partition(END)
        if not end:  # no end marker: not a part
            frame += (PART, piece)
            continue
        ident = PART_ID.match(part).group(1)
        parts[ident] = part
        frame += (f"<!--part:{ident}-->", rest)
    return "".join(frame), parts


@dataclass
class Screen:
    """One phone's screen at one version: each region's HTML (not filled in) and inputs."""

    version: int
    kind: str  # "<game>-<mode>", for the page's style
    stage: str  # "lobby", "play" or "closed"
    regions: list[tuple[str, str, str]]  # (name, HTML, pane), in order
    lang: str = ""
    me: int | None = None  # the seat the phone plays (None: a spectator)
    acting: int | None = None  # the seat it enters moves for (games.context.act_for_choices)
    panes: tuple[str, ...] = PANES  # the panes its regions sit in, in order
    inputs: dict = field(default_factory=dict)
    _digests: dict = field(default_factory=dict, repr=False)
    _parts: dict = field(default_factory=dict, repr=False)

    @property
    def layout(self) -> tuple:
        """What a phone is sent whole when it changes: the stage, the regions, the seat."""
        return (self.stage, self.me, self.acting, *map(NAME, self.regions))

    def parts(self, name: str) -> dict[str, str]:
        self.digest(name)
        return self._parts[name]

    def digest(self, name: str) -> tuple[int, tuple[tuple[str, int], ...]]:
        """Region `name`'s frame (all but its parts) digested, and each part's, in order."""
        if name not in self._digests:
            html = next(html for n, html, _pane in self.regions if n == name)
            frame, parts = split_parts(html) if PART in html else (html, {})
            self._parts[name] = parts
            self._digests[name] = hash(frame), tuple((i, hash(h)) for i, h in parts.items())
        return self._digests[name]

    def add(self, name: str, html: str, pane: str, digest=None, parts=None) -> None:
        self.regions.append((name, html, pane))
        if digest is not None:
            self._digests[name], self._parts[name] = digest, parts


def phone_screen(
    snap: Snapshot, hashes, wanted, host, lang: str, notes=None, previous=None, acting=None
) -> Screen:
    """The screen of the phone holding the seat tokens hashed `hashes` now (games.phones, not
    when its socket opened), showing seat `wanted` if it holds it, else its first."""
    seats = phones.seats_held(snap.seats, hashes)
    active = wanted if wanted in seats else phones.pick_active(seats, None)
    return screen(snap, seats, active, host, lang, notes, previous, acting)


def screen(
    snap: Snapshot, phone_seats, active, host, lang: str, notes=None, previous=None, acting=None
) -> Screen:
    """The phone's screen in `lang` of seat `active`, one it holds (`acting`: the seat it enters
    moves for, games.context); `notes`: who is here (games.presence); `previous`: its last."""
    if active is not None and active not in phone_seats:
        raise ValueError(f"seat {active} is not one of the phone's {phone_seats}")
    table, stage = snap.table, _stage(snap.table)
    middle = STAGE.get(stage) or (*game_regions(table.game, table.mode), HINT)
    if snap.progress and stage == "play":  # the game is over: how it went, as a chart
        middle = (*middle, RESULT)
    shown = Screen(table.version, f"{table.game}-{table.mode}", stage, [], lang, me=active)
    with in_language(lang):
        context = table_context(snap, phone_seats, active, host, notes, lang, acting)
        shown.acting = context["acting"]["index"] if context["acting"] else None
        _fill(shown, (*HEAD, *middle, *TAIL), context, snap, lang, previous)
    return shown


def centre_screen(snap: Snapshot, lang: str, previous=None) -> Screen:
    """The table-centre screen (a tablet or a TV: games.views.tables.centre), a spectator's
    view in `lang`: the last event in large type, then the game's centre regions."""
    table, stage = snap.table, _stage(snap.table)
    middle = CENTRE_STAGE.get(stage) or centre_regions(table.game, table.mode)
    kind = f"{table.game}-{table.mode} centre"
    shown = Screen(table.version, kind, stage, [], lang, panes=("centre",))
    with in_language(lang):
        context = table_context(snap, [], None, False, None, lang)
        _fill(shown, (*CENTRE_HEAD, *middle), context, snap, lang, previous)
    return shown


def in_language(lang: str):
    """translation.override(lang), none if it is active (a switch costs a small region's render)."""
    same = translation.get_language() == lang
    return contextlib.nullcontext() if same else translation.override(lang)


def _stage(table: Table) -> str:
    return {Table.Status.LOBBY: "lobby", Table.Status.CLOSED: "closed"}.get(table.status, "play")


def _fill(shown: Screen, wanted, context: dict, snap: Snapshot, lang: str, previous) -> None:
    """Add each region of `wanted` to `shown`: from `previous` or the process's cache if its
    inputs are the same, else rendered; the shared paths' digests are kept for the next phone."""
    if previous is not None and previous.lang != lang:
        previous = None
    earlier = {name: html for name, html, _pane in previous.regions} if previous else {}
    shared = snap.shared.setdefault(("digests", lang), {})
    memo = dict(shared)
    for region in wanted:
        name = region.name
        key = regions.inputs(region, context, memo)
        if key is not None and name in earlier and previous.inputs.get(name) == key:
            digest = previous._digests.get(name), previous._parts.get(name)
            shown.add(name, earlier[name], region.pane, *digest)
        elif key is not None and (same := regions.cached((lang, key))) is not None:
            shown.add(name, *same[:1], region.pane, *same[1:])
        else:
            shown.add(name, regions.render(region.template, context), region.pane)
            if key is not None:
                regions.cache(
                    (lang, key), (shown.regions[-1][1], shown.digest(name), shown.parts(name))
                )
        shown.inputs[name] = key
    new = memo.keys() - shared.keys()
    if new:
        shared.update((path, memo[path]) for path in new & _shared_paths(wanted))


@functools.lru_cache(maxsize=256)
def _shared_paths(wanted: tuple[Region, ...]) -> frozenset[str]:
    """The paths of the shared context that the regions of `wanted` read."""
    return frozenset(
        path for region in wanted for path in region.reads or () if path.partition(".")[0] in SHARED
    )


@functools.lru_cache(maxsize=64)
def game_regions(game: str, mode: str) -> tuple[Region, ...]:
    """The regions of `game`'s screen in `mode` (GameWeb.screen and GameWeb.reads)."""
    web = get_game(game).web
    reads = web.reads(mode)
    return tuple(Region(n, t, p, reads.get(n)) for n, t, p in web.screen(mode))


@functools.lru_cache(maxsize=64)
def centre_regions(game: str, mode: str) -> tuple[Region, ...]:
    """The game's regions of the centre screen in `mode` (GameWeb.centre_regions)."""
    return tuple(Region(*region) for region in get_game(game).web.centre_regions(mode))


def changed(shown: Screen | None, now: Screen) -> list[tuple[str, str | None]] | None:
    """What of `now` to send a phone that was sent `shown`: None for all (a new layout), else
    (region, None) for each region whose frame changed, (region, part id) for a part."""
    if shown is None or shown.layout != now.layout:
        return None
    out = []
    for name, _html, _pane in now.regions:  # the same names in the same order
        new, old = now.digest(name), shown.digest(name)
        if new == old:
            continue
        (frame, parts), (old_frame, old_parts) = new, old
        if frame != old_frame or [i for i, _ in parts] != [i for i, _ in old_parts]:
            out.append((name, None))
        else:
            pairs = zip(parts, old_parts, strict=True)
            out += [(name, i) for (i, new), (_i, old) in pairs if new != old]
    return out


def region_html(name: str, html: str) -> str:
    return f'<div id="r-{name}" class="region r-{name}">{html}</div>'


def live_html(now: Screen, changes: list | None = None) -> str:
    """The whole live table (`changes` None), or just the regions and parts changed."""
    if changes is None:
        inner = "".join(
            f'<div class="pane pane-{pane}">'
            + "".join(region_html(n, h) for n, h, p in now.regions if p == pane)
            + "</div>"
            for pane in now.panes
        )
        me = "" if now.me is None else f' data-me="{int(now.me)}"'
        return f'<div id="table-live" class="{now.kind}" data-stage="{now.stage}"{me}>{inner}</div>'
    html = {name: html for name, html, _pane in now.regions}
    return "".join(
        region_html(name, html[name]) if part is None else now.parts(name)[part]
        for name, part in changes
    )


def meta_html(version: int) -> str:
    """The version the phone shows (a gap asks for a resync), and the server's time (ms)
    for the turn clock."""
    now = int(time.time() * 1000)
    return f'<div id="table-meta" hidden data-version="{version}" data-now="{now}"></div>'


def flash_html(error, game: str | None) -> str:
    """The message region: a refusal's reason and its rule, kept until dismissed."""
    message = labels.refusal(error, get_game(game)) if error else None
    return render_to_string("games/_flash.html", {"error": message})


def said_html(snap: Snapshot, seat: int, phrase: str) -> str:
    """A phrase said by `seat` (games.phrases); "" for one the table's game does not have."""
    game = get_game(snap.table.game)
    text = phrases.offered(game).get(phrase)
    who = next((s for s in snap.seats if s.index == seat), None)
    if text is None or who is None:
        return ""
    return render_to_string("games/_said.html", {"name": seat_name(who, game), "text": text})


def fill_in(
    html: str, table_code: str, active, version: int, csrf_token=None, socket=False, acting=None
):
    """Fill a render's hidden fields and address into its forms. Over a WebSocket (`socket`)
    forms get only the seat (the page's script adds version and action id), and plain
    POSTs the phone's own CSRF token; one action id per render, so a form sent twice is
    applied once."""
    seat = f'<input type="hidden" name="seat" value="{"" if active is None else int(active)}">'
    if acting is not None:  # the seat the phone enters moves for
        seat += f'<input type="hidden" name="for" value="{int(acting)}">'
    if not socket or POST_FIELDS in html:
        token = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf_token)}">'
            if csrf_token
            else ""
        )
        full = (
            f'{token}{seat}<input type="hidden" name="version" value="{int(version)}">'
            f'<input type="hidden" name="action_id" value="{uuid.uuid4().hex}">'
        )
        html = html.replace(FIELDS, seat if socket else full).replace(POST_FIELDS, full)
    else:
        html = html.replace(FIELDS, seat)
    html = html.replace(ACT_URL, _act_url(table_code, translation.get_language()))
    return html.replace(PART, "").replace(END, "")


@functools.lru_cache(maxsize=1024)
def _act_url(table_code: str, lang: str) -> str:
    return reverse("table_act", kwargs={"code": table_code})
