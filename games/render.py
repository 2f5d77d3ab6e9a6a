"""What a phone sees of a table: its screen, made of regions that update alone.

The page and the WebSocket draw the same regions from the same context. The engine
state itself never reaches a template: the game's adapter builds its panel from
`engine.view(state, seat)` for the phone's active seat (None for a spectator), and names
the regions of its panel template (GameWeb.regions). Reads nothing: it draws a
games.live.Snapshot.

A region is drawn without what differs per render (the forms' hidden seat, version,
action id and CSRF token, and their address: placeholders stamped in last), so that a
phone is sent a region only when what it shows changed: the consumer keeps a digest of
each region it sent (`changed`). The page's script fills in a form's version and action
id when it is sent (static/js/table.js), from the version the phone shows (`meta_html`).
Messages (refusals) live in a region of their own, outside the live table, sent only
when there is one (`flash_html`): later updates do not wipe them.
"""

import functools
import re
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field

from django.template import Context, engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games import (
    charts,
    labels,
    online,
    phones,
    phrases,
    presence,
    template_inputs,
    template_loader,
)
from games.labels import seat_name
from games.live import Snapshot
from games.models import Table
from games.registry import get_game

# What differs per render or per table inside a form: its hidden fields (CSRF token, seat,
# version, action id) and its address. Templates write {{ fields }} in a move's form (sent
# over the WebSocket: `ws-send`), {{ post_fields }} in a form posted as a page (the host's,
# the table tools), and {{ act_url }} for a move's address; they are stamped in last
# (`stamp`), so that a region's digest and the fragments holding forms
# ({% fragment %}) do not change with them. Over the WebSocket a
# move's form carries only its seat (the page's script adds the version and an action
# id, and a socket needs no CSRF token). Escaped text never has "<".
FIELDS = mark_safe("<!--fields-->")
POST_FIELDS = mark_safe("<!--post-fields-->")
ACT_URL = mark_safe("<!--act-url-->")
STAMPED = ("fields", "post_fields", "act_url")  # their names in table_context

LIVE = "games/_live.html"
PANES = ("play", "players", "log", "table")  # where regions sit (GameWeb.regions)
# The shared regions around a game's: (name, template, pane)
HEAD = (
    ("seats", f"{LIVE}#seats", "play"),
    ("presence", f"{LIVE}#presence", "players"),
    ("phrases", f"{LIVE}#phrases", "players"),
)
STAGE = {
    "lobby": (("lobby", f"{LIVE}#lobby", "play"),),
    "closed": (("closed", f"{LIVE}#closed", "play"),),
}
TAIL = (("log", f"{LIVE}#log", "log"), ("tools", f"{LIVE}#tools", "table"))
RESULT = ("result", f"{LIVE}#result", "play")


# A part of a region: an element with an id, between these markers in its template (a
# row of a sheet, another player); when a region's parts are all that changed, only they
# are sent.
PART, END = "<!--part-->", "<!--/part-->"
PART_ID = re.compile(r'\A\s*<[a-z][a-z0-9]*[^>]*?\bid="([^"]+)"')


def split_parts(html: str) -> tuple[str, dict[str, str]]:
    """(the region without its parts, each part by id). Cut with str methods: a regular
    expression matching up to the end marker took 27 µs for three other players' sheets
    (2.6 KB), this 5 µs."""
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
    """One phone's screen of a table at one version: each region's HTML, unstamped, and
    a digest of the values each region was drawn from (games.template_inputs.fingerprint;
    None where unknown)."""

    version: int
    kind: str  # "<game>-<mode>", for the page's style
    stage: str  # "lobby", "play" or "closed"
    regions: list[tuple[str, str, str]]  # (name, unstamped HTML, pane), in order
    lang: str = ""
    # the seat the phone plays (None: a spectator), for the page's style (`live_html`):
    # the regions are the same for every seat where they can be
    me: int | None = None
    inputs: dict = field(default_factory=dict)  # region → a digest of what it was drawn from
    _digests: dict = field(default_factory=dict, repr=False)
    _parts: dict = field(default_factory=dict, repr=False)

    @property
    def layout(self) -> tuple:
        """What a phone is sent whole when it changes: the stage, the regions, the seat."""
        return (self.stage, self.me, *(name for name, _html, _pane in self.regions))

    def parts(self, name: str) -> dict[str, str]:
        """The parts of region `name`, by id."""
        self.digest(name)
        return self._parts[name]

    def digest(self, name: str) -> tuple[int, tuple[tuple[str, int], ...]]:
        """A digest of region `name`'s frame (all but its parts) and of each part, in
        order: (id, digest) pairs, as tuples only (a tuple holding a dict stays tracked
        by the garbage collector; these are kept per phone from one change to the next)."""
        if name not in self._digests:
            html = next(html for n, html, _pane in self.regions if n == name)
            frame, parts = split_parts(html) if PART in html else (html, {})
            self._parts[name] = parts
            self._digests[name] = hash(frame), tuple((i, hash(h)) for i, h in parts.items())
        return self._digests[name]

    def take(self, name: str, digest: tuple, parts: dict) -> None:
        """Region `name`'s digest and parts, worked out for another phone's screen."""
        self._digests[name], self._parts[name] = digest, parts

    def keep(self, name: str, earlier: "Screen") -> None:
        """Region `name` is the same as on `earlier`: take its digest, not work it out."""
        if name in earlier._digests:
            self._digests[name], self._parts[name] = earlier._digests[name], earlier._parts[name]


def phone_screen(
    snap: Snapshot, hashes, wanted, host, lang: str, notes=None, previous=None
) -> Screen:
    """The screen of the phone whose cookie holds the seat tokens hashed `hashes`, showing
    seat `wanted` if it holds it (else its first): the seats it holds are those of the
    snapshot, now (games.phones), never those it held when its socket opened."""
    seats = phones.seats_held(snap.seats, hashes)
    active = wanted if wanted in seats else phones.pick_active(seats, None)
    return screen(snap, seats, active, host, lang, notes, previous)


def screen(
    snap: Snapshot, phone_seats, active, host, lang: str, notes=None, previous=None
) -> Screen:
    """Draw the phone's screen (in `lang`); `notes`, who is at the table (games.presence),
    when the phone's socket knows it. A region whose inputs are equal to those it had on
    `previous` (the phone's last screen) is taken from there, and one whose inputs are
    those it was drawn from lately in the same language, for any phone at any table, is
    taken from that drawing (`drawn`): neither is drawn again. The phones of a change share
    its drawings so, and whose turn it is comes round again (a status line, a bid's form).
    `active` must be one of `phone_seats`: a phone is shown the view of a seat it holds."""
    if active is not None and active not in phone_seats:
        raise ValueError(f"seat {active} is not one of the phone's {phone_seats}")
    table = snap.table
    stage = {Table.Status.LOBBY: "lobby", Table.Status.CLOSED: "closed"}.get(table.status, "play")
    middle = STAGE.get(stage) or _game_regions(table.game, table.mode)
    if snap.progress and stage == "play":  # the game is over: how it went, as a chart
        middle = (*middle, RESULT)
    if previous is not None and previous.lang != lang:
        previous = None
    earlier = {name: html for name, html, _pane in previous.regions} if previous else {}
    now = Screen(table.version, f"{table.game}-{table.mode}", stage, [], lang, me=active)
    # the digests of the table-wide context's paths, worked out by the first phone of the
    # change in this language (`table_wide`)
    wide_digests = snap.shared.setdefault(("digests", lang), {})
    with template_loader.in_language(lang):
        context = table_context(snap, phone_seats, active, host, notes, lang)
        regions, paths, wide_paths = _plan((*HEAD, *middle, *TAIL), tuple(context))
        memo = dict(wide_digests)
        template_inputs.fill(paths, context, memo)  # each path once, for every region
        for name, template, pane, found in regions:
            drawn_from = None if found is None else template_inputs.combined(found, memo)
            if drawn_from is None:
                now.regions.append((name, draw(template, context, lang), pane))
            elif name in earlier and previous.inputs.get(name) == drawn_from:
                now.regions.append((name, earlier[name], pane))
                now.keep(name, previous)
            else:
                key = (template, lang, drawn_from)
                same = drawn.get(key)
                if same is None:
                    now.regions.append((name, draw(template, context, lang), pane))
                    drawn.put(key, (now.regions[-1][1], now.digest(name), now.parts(name)))
                else:
                    now.regions.append((name, same[0], pane))
                    now.take(name, same[1], same[2])
            now.inputs[name] = drawn_from
    for path in wide_paths:
        if path not in wide_digests:
            wide_digests[path] = memo[path]
    return now


@functools.lru_cache(maxsize=64)
def _game_regions(game: str, mode: str) -> tuple:
    """The regions of `game`'s screen in `mode` (GameWeb.screen), once per process."""
    return tuple(get_game(game).web.screen(mode))


@functools.lru_cache(maxsize=256)
def _plan(regions: tuple, names: tuple[str, ...]) -> tuple[tuple, tuple, tuple]:
    """For a screen's `regions` (name, template, pane) and its context's `names`: each
    region with the paths it reads (`_inputs`; None: unknown, drawn every time), every
    path any of them reads, and those of the table-wide context (`WIDE`)."""
    planned = tuple(
        (name, template, pane, _inputs(template, names)) for name, template, pane in regions
    )
    paths = tuple(sorted({path for *_rest, found in planned if found for path in found}))
    return planned, paths, tuple(path for path in paths if path[0] in WIDE)


def _inputs(template_name: str, names: tuple[str, ...]) -> tuple | None:
    """The paths the template reads that start at one of the context's `names` (the
    others are its own variables, e.g. a loop's), but for the placeholders stamped in
    last: they are the same for every render."""
    found = template_inputs.paths(template_name)
    if found is None:
        return None
    return tuple(path for path in found if path[0] in names and path[0] not in STAMPED)


def draw(template_name: str, context: dict, lang: str | None = None) -> str:
    """A region's template drawn with `context`: small counts only, so numbers are not
    run through the locale's formatting (a third of the cost of a render). (Its
    indentation was left out when it was loaded: games.template_loader.) The adapters
    draw the parts they keep with it too (a card, a row of a sheet, a pile, a seat's place
    in the trick): render_to_string formats every number for the locale. `lang`, the
    active language when the caller knows it: the template's words read it from the
    Context (games.template_loader.language; no template of ours switches language)."""
    template = template_loader.compiled(engines["django"], template_name)
    drawing = Context(context, autoescape=True, use_l10n=False)
    drawing.language = lang or translation.get_language()
    html = template.render(drawing)
    # as a plain str: a SafeString has a __dict__, so the garbage collector tracks it and
    # every tuple holding it, and each phone keeps its regions from one change to the
    # next (its full collections are what holds up a loaded process: README)
    return str.__str__(html)


def changed(shown: Screen | None, now: Screen) -> list[tuple[str, str | None]] | None:
    """What of `now` to send to a phone that was sent `shown`: None for everything (the
    first render, or the screen's layout changed), else (region, None) for each region
    whose frame changed and (region, part id) for each changed part of the others."""
    if shown is None or shown.layout != now.layout:
        return None
    out = []
    new_digests, old_digests = now._digests, shown._digests
    for name, _html, _pane in now.regions:  # the same names in the same order
        new = new_digests.get(name) or now.digest(name)
        old = old_digests.get(name) or shown.digest(name)
        if new == old:
            continue  # most regions: unchanged (often the very same digest)
        (frame, parts), (old_frame, old_parts) = new, old
        if frame != old_frame or [i for i, _ in parts] != [i for i, _ in old_parts]:
            out.append((name, None))
        else:
            pairs = zip(parts, old_parts, strict=True)  # the same ids in the same order
            out += [(name, i) for (i, new), (_i, old) in pairs if new != old]
    return out


def region_html(name: str, html: str) -> str:
    return f'<div id="r-{name}" class="region r-{name}">{html}</div>'


def live_html(now: Screen, changes: list | None = None) -> str:
    """The whole live table (`changes` None), or just the regions and parts changed,
    unstamped."""
    if changes is None:
        inner = "".join(
            f'<div class="pane pane-{pane}">'
            + "".join(region_html(n, h) for n, h, p in now.regions if p == pane)
            + "</div>"
            for pane in PANES
        )
        me = "" if now.me is None else f' data-me="{int(now.me)}"'
        return f'<div id="table-live" class="{now.kind}" data-stage="{now.stage}"{me}>{inner}</div>'
    regions = {name: html for name, html, _pane in now.regions}
    return "".join(
        region_html(name, regions[name]) if part is None else now.parts(name)[part]
        for name, part in changes
    )


def meta_html(version: int) -> str:
    """The version the phone shows (its forms send it; a gap asks for a resync), and the
    server's time (ms), which the turn clock counts down by."""
    now = int(time.time() * 1000)
    return f'<div id="table-meta" hidden data-version="{version}" data-now="{now}"></div>'


def flash_html(error, game: str | None) -> str:
    """The message region: a refusal's reason and its rule, which stays until dismissed
    or replaced (or cleared by the page's script after a while)."""
    message = labels.refusal(error, get_game(game)) if error else None
    return render_to_string("games/_flash.html", {"error": message})


def said_html(snap: Snapshot, seat: int, phrase: str) -> str:
    """A phrase said by `seat`, in the active language (games.phrases); "" for a phrase
    the table's game does not have."""
    game = get_game(snap.table.game)
    text = phrases.offered(game).get(phrase)
    who = next((s for s in snap.seats if s.index == seat), None)
    if text is None or who is None:
        return ""
    return render_to_string("games/_said.html", {"name": seat_name(who, game), "text": text})


def stamp(html: str, table_code: str, active, version: int, csrf_token=None, socket=False):
    """Stamp a render's hidden fields and address into its forms (in the active language).
    Over a WebSocket (`socket`) there is no request: the phone's own CSRF cookie value
    keeps its plain POSTs valid. One action id per render: a form sent twice is applied
    once (the page's script gives each form its own when it sends it). Every value is a
    number, a hex id or the escaped token: written without format_html (each update of
    each phone is stamped)."""
    seat = f'<input type="hidden" name="seat" value="{"" if active is None else int(active)}">'
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


def table_context(
    snap: Snapshot, phone_seats: list[int], active: int | None, host: bool, notes=None, lang=None
) -> dict:
    """What the regions are drawn from, for one phone, in the active language (`lang`
    when the caller knows it)."""
    table, seats = snap.table, snap.seats
    lang = lang or translation.get_language()
    wide = table_wide(snap, lang)
    here = presence.of_seats(seats, notes)
    web = get_game(table.game).web
    names = wide["names"]
    panel = {}
    if table.state is not None:
        own = next((seat for seat in seats if seat.index == active), None)
        pending = own.pending_at(table.version) if own is not None else None
        panel = web.panel(table.mode, table.state, active, names, pending)
    seat_rows = [
        {
            "index": seat.index,
            "name": names[seat.index],
            "bot": seat.kind == seat.Kind.BOT,
            "taken": seat.taken,
            "mine": seat.index in phone_seats,
            "active": seat.index == active,
            "presence": state,
            "presence_symbol": presence.SYMBOLS.get(state),
            "presence_label": str(presence.LABELS[state]) if state in presence.LABELS else None,
            "stand_in": seat.stand_in,
        }
        for seat in seats
        for state in (here.get(seat.index),)
    ]
    mine = next((row for row in seat_rows if row["active"]), None)
    return {
        **wide,
        "seats": seat_rows,
        "absent": [s for s in seat_rows if s["presence"] in presence.ABSENT and not s["mine"]],
        "presence_known": notes is not None,
        "active": active,
        # whether the phone plays a seat: what most regions ask, rather than which seat
        # (a region that reads `active` is drawn for each seat)
        "seated": active is not None,
        "phone_seats": phone_seats,
        "host": host,
        "view": panel.get("view"),
        "panel": panel,
        "mine": mine,
        "stood_in": [row for row in seat_rows if row["stand_in"]],
        # what the table tools show ({% fragment %}: drawn once for all phones that share it)
        "tools": {
            "code": table.code,
            "closed": table.status == Table.Status.CLOSED,
            "seated": active is not None,
            "host": host,
            "seats": seat_rows,
            "phrases": table.phrases,
            "in_play": wide["in_play"],
            "stand_in": mine["stand_in"] if mine else "",
        },
        "fields": FIELDS,
        "post_fields": POST_FIELDS,
        "act_url": ACT_URL,
    }


# The names of the context that are the same for every phone of a table at one change
# (in one language): `table_wide`
WIDE = (
    "table", "names", "log", "digital", "in_play", "clock", "chart", "phrases", "bot_levels", "board"
)  # fmt: skip


def table_wide(snap: Snapshot, lang: str) -> dict:
    """What the regions are drawn from that is the same for every phone at the table, in
    `lang` (the active language): worked out by the first phone of a change, and shared
    with the others in its snapshot, with the digests of its paths (`screen`)."""
    wide = snap.shared.get(("context", lang))
    if wide is None:
        table = snap.table
        game = get_game(table.game)
        names = {seat.index: seat_name(seat, game) for seat in snap.seats}
        digital = table.mode == Table.Mode.DIGITAL
        wide = {
            "table": table_summary(table),
            "names": names,
            "log": game.web.log_lines(table.mode, snap.log_rows, names),
            "digital": digital,
            "in_play": digital and table.status == Table.Status.PLAYING,
            "clock": clock_context(table, names),
            "chart": charts.svg(snap.progress) if snap.progress else "",
            "phrases": _worded_phrases(table.game, lang) if table.phrases else None,
            "bot_levels": _worded_bot_levels(table.game, lang),
            "board": {} if table.state is None else game.web.board(table.mode, table.state, names),
        }
        wide = snap.shared.setdefault(("context", lang), wide)
    return wide


@functools.lru_cache(maxsize=64)
def _worded_bot_levels(game: str, lang: str) -> tuple[tuple[str, str], ...]:
    """The computer players' levels of `game` (GameWeb.bot_levels), worded in `lang`."""
    return tuple(
        (level, str(label)) for level, (_player, label) in get_game(game).web.bot_levels.items()
    )


@functools.lru_cache(maxsize=64)
def _worded_phrases(game: str, lang: str) -> tuple[tuple[str, str], ...]:
    """What a seat may say at a table of `game`, worded in `lang` once per process (a
    lazy translation is slow to compare: games.template_inputs)."""
    return tuple((key, str(text)) for key, text in phrases.offered(get_game(game)).items())


def clock_context(table: Table, names: dict) -> dict | None:
    """The turn clock as the screen shows it while it runs: whose it is, the seconds left
    in their bank when their turn began, and when it runs out (the page's script counts
    down to that, in the server's time: meta_html)."""
    running = online.clock_deadline(table.clock)
    if running is None or table.status != Table.Status.PLAYING:
        return None
    seat, at = running
    left = max(0, int(table.clock["banks"].get(str(seat), 0)))
    return {
        "seat": seat,
        "name": names.get(seat, ""),
        "left": f"{left // 60}:{left % 60:02d}",
        "deadline": int(at * 1000),
    }


def table_summary(table: Table) -> dict:
    """What the page and the live partial say about the table itself."""
    return {
        "code": table.code,
        "game": table.game,
        "game_name": get_game(table.game).name,
        "mode": table.mode,
        "status": table.status,
        "version": table.version,
        "players": table.players,
        "target": table.config.get("target"),
        "lobby": table.status == Table.Status.LOBBY,
        "phrases": table.phrases,
        "closed": table.status == Table.Status.CLOSED,
    }


class Kept:
    """The last `size` values put here, by key, for this process (a key's value is never
    None): used from the event loop and from the database thread."""

    def __init__(self, size: int):
        self.size = size
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.hits = 0

    def get(self, key):
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
                self.hits += 1
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._kept[key] = value
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)


# The regions drawn lately, by template, language and the digest of their inputs: (html,
# digest, parts), as each phone's Screen keeps them (`screen`). Keys and values are
# strings, numbers and tuples, but for the parts (a dict, shared with the screens).
drawn = Kept(4096)


class Fragments:
    """Templates drawn with only the variables given: the companion Triggs status line and
    corrections, a bid's fields, the phrases and the table tools are each the same for
    many phones and moves ({% fragment %} in games/templatetags/live_tags.py). Forms inside take their hidden
    fields as {{ fields }}, stamped in per phone by `stamp`.

    Kept per process, the last SIZE of them, by template, language and a digest of the
    variables (as a region's, games.template_inputs.fingerprint), not by the variables
    themselves: keys holding every other player's sheet as nested tuples were thousands of
    objects for the garbage collector to walk at each full collection (bench/load.py)."""

    SIZE = 4096

    def __init__(self):
        self.kept = Kept(self.SIZE)

    @property
    def hits(self) -> int:
        return self.kept.hits

    def clear(self) -> None:
        self.kept.clear()

    def get(self, name: str, lang: str, context: dict) -> str:
        digest = template_inputs.digest(context)
        # the name as a plain str: a template's literal is a SafeString, which the garbage
        # collector tracks, and every key holding one with it
        key = (str.__str__(name), lang, digest)
        html = None if digest is None else self.kept.get(key)
        if html is None:
            with template_loader.in_language(lang):
                html = draw(name, context)
            if digest is not None:
                self.kept.put(key, html)
        return html


fragments = Fragments()
