"""No hand ever reaches the wrong person (issue 34): a stateful property test.

Hypothesis drives digital tables of both games through random sequences of what people
do — create, join, leave, free a seat, hand a seat over, seat a computer player, ask it
to play for you, a takeover, start, move, play on to the end, rematch, close, sign up,
sign in and out — by three people on four phones (the first person has two). The test
keeps its own model of who holds each seat now, from what each step should do; after
every step, every response each person can fetch (each table's page from each seat it
may show, what the table's socket would send its phone, the replay from every seat, the
result page, My games, the data download) must carry no card of a seat that person does
not hold now:

- TriumfDrez card ids are unique: none of a hand the person may not see (nor an undealt
  card) may be named anywhere in a response.
- A Triggs card is a number, so a hand is found by its markup (`hand-card`): a response
  shows the hand of a seat the person holds, or none. And `probe`, a step of its own,
  checks the same phone's pages and socket render markup-free: the cards hidden from
  every seat it holds are dealt again (in a transaction rolled back) and each response
  must come out the same, byte for byte.

A hint (games.hints: what the computer would play, asked by a phone for the seat to act)
shows only on the screens of the person holding its seat now, at the version it was for.

The model also predicts what each step may do (a claim succeeds only on a free seat, a
seat left in play goes to a computer player…): a path that gives a phone a seat the
model says it cannot have fails the test too.
"""

import copy
import random
import re
import uuid

import pytest
from django.db import transaction
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from games import live, phones, render, services, thinking
from games.models import Seat, Table
from games.registry import get_game

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ("triggs", "triumfdrez")
PHONES = 4
PERSON = (0, 1, 2, 0)  # the first person has two phones
NAMES = ("Ana", "Boris", "Chloé", "Ana")
PASSWORD = "correct horse battery staple"
# the hint players' budgets here: small, a hint is asked many times
HINT_BUDGET = {
    "triggs": {"work": 300, "horizon": 6},
    "triumfdrez": {"play_work": 3000, "play_deals": (2, 4), "bid_deals": 4, "bid_combos": 2},
}
TRIGGS_HAND = re.compile(r'class="hand-card(?: hinted)?"[^>]*data-card="(\d+)"')
# what a hint shows (games.hints): only on the screens of its seat's holder
HINT_SHOWN = re.compile(r'id="hint-line"|class="[^"]*\bhinted\b')
CARD_ID = re.compile(r'data-card(?:-id)?="([a-z]+-\d)"')
VARYING = [
    (re.compile(r"\b[0-9a-f]{32}\b"), "ID"),  # a fresh action id per render
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r' data-now="\d+"'), ""),  # the server's time, for the turn clock
]


def normalised(payload: str) -> str:
    for pattern, replacement in VARYING:
        payload = pattern.sub(replacement, payload)
    return payload


class Model:
    """A table as the test expects it: who holds each seat now."""

    def __init__(self, code: str, game: str, players: int, host: int, takeover: bool):
        self.code, self.game, self.players, self.host = code, game, players, host
        self.takeover = takeover
        self.holders: dict[int, int | None] = {i: None for i in range(players)}
        self.holders[0] = host
        self.bots: set[int] = set()

    def row(self) -> Table:
        return Table.objects.get(code=self.code)

    def free(self, seat: int) -> bool:
        return self.holders[seat] is None and seat not in self.bots

    def held_by(self, phone: int) -> list[int]:
        return [seat for seat, holder in self.holders.items() if holder == phone]


def hidden_slots(game: str, state: dict, seats: set[int]) -> list[tuple[list, int, int]]:
    """The places of `state` holding cards that none of `seats` sees."""
    if game == "triggs":
        slots = [(hand, 0, len(hand)) for i, hand in enumerate(state["hands"]) if i not in seats]
        piles = state["piles"]
        slots.append((piles["stock"], 0, len(piles["stock"])))
        for cards in (piles["left"], piles["right"], state["discard"]):
            slots.append((cards, 0, max(0, len(cards) - 1)))  # all but the top card
        return slots
    shown = get_game(game).engine("digital").view(state, None)["open_hands"]
    slots = [
        (hand, 0, len(hand))
        for i, hand in enumerate(state["hands"])
        if i not in seats and shown[i] is None
    ]
    slots.append((state["hidden"], 0, len(state["hidden"])))
    return slots


def redealt(game: str, state: dict, seats: set[int], rng) -> dict:
    """`state` with what none of `seats` may see dealt again, and another seed."""
    other = copy.deepcopy(state)
    slots = hidden_slots(game, other, seats)
    pool = [card for cards, start, stop in slots for card in cards[start:stop]]
    rng.shuffle(pool)
    for cards, start, stop in slots:
        cards[start:stop], pool = pool[: stop - start], pool[stop - start :]
    other["seed"] = rng.randrange(2**48)
    return other


class HiddenHands(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.clients = [Client() for _ in range(PHONES)]
        self.tables: list[Model] = []
        self.account = "ana" + uuid.uuid4().hex[:8]
        self.has_account = False
        self.signed_in = [False] * PHONES
        self.rng = random.Random(34)

    # -- helpers ---------------------------------------------------------------------

    def hashes(self, phone: int, code: str) -> set[str]:
        cookies = {name: morsel.value for name, morsel in self.clients[phone].cookies.items()}
        return phones.token_hashes(cookies, code)

    def post(self, phone: int, path: str, data: dict):
        return self.clients[phone].post(path, data)

    def person_seats(self, phone: int, table: Model) -> set[int]:
        """The seats the person with this phone holds now, on any of their phones."""
        mine = [p for p in range(PHONES) if PERSON[p] == PERSON[phone]]
        return {seat for p in mine for seat in table.held_by(p)}

    def in_play(self, table: Model) -> bool:
        return table.row().status == Table.Status.PLAYING

    # -- what people do --------------------------------------------------------------
    # One rule draws what happens next, with these weights (Hypothesis's own choice of
    # rules switches some off for whole examples, and a leave in play or a handover
    # needs several steps before it); each deed draws its own details.

    DEEDS = {
        "join": 3,
        "leave": 3,
        "free": 2,
        "hand_over": 3,
        "computer_player": 2,
        "play_for_me": 1,
        "takeover": 1,
        "start": 1,
        "fill_and_start": 3,
        "move": 3,
        "play_to_the_end": 1,
        "rematch": 1,
        "close": 1,
        "sign_in": 1,
        "sign_out": 1,
        "create": 1,
        "probe": 2,
        "hint": 2,
    }

    @initialize(data=st.data())
    def first_table(self, data):
        self.create(data)

    @rule(data=st.data())
    def something_happens(self, data):
        names = [name for name, weight in self.DEEDS.items() for _ in range(weight)]
        getattr(self, data.draw(st.sampled_from(names), label="deed"))(data)

    def table(self, data) -> Model:
        return self.tables[data.draw(st.integers(0, len(self.tables) - 1), label="table")]

    def create(self, data):
        """A digital table, whose seats a computer player takes over when a phone is gone
        on its turn (`takeover`), or that waits for the phone."""
        if len(self.tables) == 2:
            return
        phone = data.draw(st.integers(0, PHONES - 1), label="host")
        game = data.draw(st.sampled_from(GAMES), label="game")
        players = data.draw(st.integers(2, 3), label="players")
        takeover = data.draw(st.booleans(), label="takeover")
        fields = {"game": game, "mode": "digital", "players": str(players), "name": NAMES[phone]}
        fields["takeover"] = "30" if takeover else ""
        if data.draw(st.booleans(), label="hints"):  # the lobby's box, ticked
            fields["hints"] = "on"
        if game == "triumfdrez":
            fields["target"] = "10"
        response = self.post(phone, "/es/play/", fields)
        assert response.status_code == 302, response.content[-400:]
        code = re.search(r"/t/([A-Z0-9]{6})/", response["Location"]).group(1)
        self.tables.append(Model(code, game, players, phone, takeover))

    def join(self, data, table=None, seat=None, phone=None):
        table = table or self.table(data)
        if seat is None:
            free = [i for i in range(table.players) if table.free(i)]
            seat = data.draw(st.sampled_from(free or list(range(table.players))), label="seat")
        if phone is None:
            phone = data.draw(st.integers(0, PHONES - 1), label="phone")
        status = table.row().status
        name = f"{NAMES[phone]}{seat}"
        response = self.post(phone, f"/es/join/{table.code}/", {"seat": str(seat), "name": name})
        claimed = response.status_code == 302
        may = table.free(seat) and status in (Table.Status.LOBBY, Table.Status.FINISHED)
        assert claimed == may, (status, table.holders, table.bots, response.status_code)
        if claimed:
            table.holders[seat] = phone

    def held_seat(self, data, table: Model, but=None) -> tuple[int, int] | None:
        """(phone, seat) of a seat some phone (other than `but`) holds, if any."""
        held = [(p, s) for s, p in table.holders.items() if p is not None and p != but]
        return data.draw(st.sampled_from(held), label="holder") if held else None

    def leave(self, data):
        table = self.table(data)
        found = self.held_seat(data, table)
        if found is None:
            return
        phone, seat = found
        in_play = self.in_play(table)
        response = self.post(phone, f"/es/t/{table.code}/leave/", {"seat": str(seat), "on": "1"})
        assert response.status_code == 302, response.status_code
        table.holders[seat] = None
        if in_play:
            table.bots.add(seat)

    def free(self, data):
        table = self.table(data)
        seat = data.draw(st.integers(0, table.players - 1), label="seat")
        path = f"/es/t/{table.code}/free/"
        in_play = self.in_play(table)
        response = self.post(table.host, path, {"index": str(seat), "seat": "0"})
        if response.status_code == 302:
            table.holders[seat] = None
            if in_play:
                table.bots.add(seat)
            else:
                table.bots.discard(seat)

    def hand_over(self, data):
        table = self.table(data)
        to = data.draw(st.integers(0, PHONES - 1), label="to")
        found = self.held_seat(data, table, but=to)
        if found is None:
            return
        phone, seat = found
        page = self.post(phone, f"/es/t/{table.code}/handover/", {"seat": str(seat)})
        if table.row().status == Table.Status.CLOSED:
            assert page.status_code == 409
            return
        link = re.search(r"testserver(/es/h/[A-Z0-9]{6}/[^\"'<\s]+/)", page.content.decode())
        response = self.clients[to].post(link.group(1))
        assert response.status_code == 302
        table.holders[seat] = to
        assert self.clients[phone].post(link.group(1)).status_code == 410  # it works once

    def computer_player(self, data, table=None, seat=None):
        table = table or self.table(data)
        if seat is None:
            free = [i for i in range(table.players) if table.free(i)]
            seat = data.draw(st.sampled_from(free or list(range(table.players))), label="seat")
        path = f"/es/t/{table.code}/bot/"
        response = self.post(table.host, path, {"index": str(seat), "seat": "0", "level": ""})
        if response.status_code == 302:
            assert table.free(seat) or seat in table.bots
            table.bots.add(seat)

    def play_for_me(self, data):
        table = self.table(data)
        found = self.held_seat(data, table)
        if found is not None:
            phone, seat = found
            path = f"/es/t/{table.code}/stand-in/"
            self.post(phone, path, {"seat": str(seat), "on": "1"})  # the seat stays theirs

    def takeover(self, data):
        row = self.table(data).row()
        if row.status == Table.Status.PLAYING:
            to_act = get_game(row.game).engine(row.mode).to_act(row.state)
            if len(to_act) == 1:
                services.take_over(row.pk, to_act[0], row.version)  # the seat stays theirs

    def start(self, data, table=None):
        table = table or self.table(data)
        path = f"/es/t/{table.code}/start/"
        self.post(table.host, path, {"seat": "0", "action_id": uuid.uuid4().hex})

    def fill_and_start(self, data):
        """Every free seat taken, by a phone or a computer player, and the game dealt."""
        table = self.table(data)
        for seat in range(table.players):
            if table.free(seat):
                phone = data.draw(st.sampled_from([None, *range(PHONES)]), label="sits")
                if phone is None:
                    self.computer_player(data, table, seat)
                else:
                    self.join(data, table, seat, phone)
        self.start(data, table)

    def move(self, data):
        """The people to act play random legal moves, as their phones would."""
        table = self.table(data)
        for _ in range(data.draw(st.integers(1, 6), label="moves")):
            row = table.row()
            engine = get_game(row.game).engine(row.mode)
            if row.status != Table.Status.PLAYING or engine.is_over(row.state):
                return
            seat = engine.to_act(row.state)[0]
            phone = table.holders.get(seat)
            if phone is None:
                return
            if data.draw(st.booleans(), label="asks for a hint first"):
                self.ask_hint(table, row, seat, phone)
            action = self.rng.choice(engine.legal_actions(row.state))
            services.apply_action(
                row, seat, action, row.version, uuid.uuid4().hex, self.hashes(phone, table.code)
            )

    def hint(self, data):
        """The phone holding the seat to act asks what the computer would play (a form
        post: games.hints), or another phone asks for that seat (refused)."""
        table = self.table(data)
        row = table.row()
        engine = get_game(row.game).engine(row.mode)
        if row.status != Table.Status.PLAYING or engine.is_over(row.state):
            return
        seat = engine.to_act(row.state)[0]
        phone = table.holders.get(seat)
        if phone is None or data.draw(st.booleans(), label="another phone asks"):
            phone = data.draw(st.integers(0, PHONES - 1), label="asking phone")
        self.ask_hint(table, row, seat, phone)

    def ask_hint(self, table: Model, row: Table, seat: int, phone: int) -> None:
        before = Seat.objects.get(table=row, index=seat).hint_at(row.version)
        response = self.post(
            phone, f"/es/t/{table.code}/hint/", {"seat": str(seat), "version": str(row.version)}
        )
        assert response.status_code in (302, 409), response.status_code
        after = Seat.objects.get(table=row, index=seat).hint_at(row.version)
        if after is not None and before is None:  # for the seat's own phone, if allowed
            assert row.hints and table.holders.get(seat) == phone, (phone, seat, table.holders)

    def play_to_the_end(self, data):
        table = self.table(data)
        for _ in range(600):
            row = table.row()
            engine = get_game(row.game).engine(row.mode)
            if row.status != Table.Status.PLAYING or engine.is_over(row.state):
                return
            seat = engine.to_act(row.state)[0]
            action = self.rng.choice(engine.legal_actions(row.state))
            services.apply_action(row, seat, action, row.version, uuid.uuid4().hex)

    def rematch(self, data):
        table = self.table(data)
        path = f"/es/t/{table.code}/rematch/"
        self.post(table.host, path, {"seat": "0", "action_id": uuid.uuid4().hex})

    def close(self, data):
        """The second table is closed (the first stays open, to play on)."""
        if len(self.tables) == 2:
            table = self.tables[1]
            self.post(table.host, f"/es/t/{table.code}/close/", {"seat": "0"})

    def sign_in(self, data):
        """The first person makes an account on one phone, then signs in on either."""
        phone = data.draw(st.sampled_from([0, 3]), label="phone")
        if not self.has_account:
            fields = {"username": self.account, "password1": PASSWORD, "password2": PASSWORD}
            response = self.post(phone, "/es/account/sign-up/", fields)
            assert response.status_code == 302
            self.has_account = True
        else:
            fields = {"username": self.account, "password": PASSWORD}
            self.post(phone, "/es/account/sign-in/", fields)
        self.signed_in[phone] = True

    def sign_out(self, data):
        phone = data.draw(st.sampled_from([0, 3]), label="phone")
        self.post(phone, "/es/account/sign-out/", {})
        self.signed_in[phone] = False

    # -- what each person may fetch ----------------------------------------------------

    def responses(self, phone: int, table: Model) -> list[tuple[str, str]]:
        client = self.clients[phone]
        code = table.code
        out = [("table page", client.get(f"/es/t/{code}/").content.decode())]
        for seat in range(table.players):
            page = client.get(f"/es/t/{code}/?seat={seat}").content.decode()
            out.append((f"table page, seat {seat}", page))
        snap = live.snapshot(table.row().pk)
        for wanted in (None, *range(table.players)):
            with translation.override("es"):
                now = render.phone_screen(snap, self.hashes(phone, code), wanted, False, "es")
                out.append((f"socket render {wanted}", render.live_html(now, None)))
        for seat in ("", "all", *map(str, range(table.players))):
            replay = client.get(f"/es/t/{code}/replay/?seat={seat}").content.decode()
            out.append((f"replay seat={seat}", replay))
        out.append(("result page", client.get(f"/es/r/{code}/").content.decode()))
        return out

    def forbidden(self, table: Model, seats: set[int]) -> tuple[dict, set[str]] | None:
        """(the state, the TriumfDrez cards none of `seats` may see), or None if the
        game is not in play (over: every hand may be seen; not dealt: none)."""
        row = table.row()
        if row.status != Table.Status.PLAYING or row.state is None:
            return None
        engine = get_game(row.game).engine(row.mode)
        if engine.is_over(row.state):
            return None
        cards = set()
        if table.game == "triumfdrez":
            cards = {c for slot, a, b in hidden_slots(table.game, row.state, seats) for c in slot}
        return row.state, cards

    @invariant()
    def nobody_sees_a_hand_they_do_not_hold(self):
        for phone in range(PHONES):
            for table in self.tables:
                seats = self.person_seats(phone, table)
                found = self.forbidden(table, seats)
                if found is None:
                    continue
                state, cards = found
                allowed = [sorted(state["hands"][s]) for s in seats] + [[]]
                version = table.row().version
                hinted = {
                    row.index
                    for row in Seat.objects.filter(table__code=table.code)
                    if row.hint_version == version
                }
                for what, html in self.responses(phone, table):
                    if HINT_SHOWN.search(html):  # a hint of a seat the person holds now
                        assert seats & hinted, (phone, table.code, what, hinted, table.holders)
                    if table.game == "triumfdrez":
                        named = set(CARD_ID.findall(html)) & cards
                        assert not named, (phone, table.code, what, named, table.holders)
                    else:
                        shown = sorted(int(v) for v in TRIGGS_HAND.findall(html))
                        assert shown in allowed, (phone, table.code, what, shown, table.holders)
            client = self.clients[phone]
            for path in ("/es/me/", "/es/me/data.json"):
                body = client.get(path).content.decode()
                for table in self.tables:
                    found = self.forbidden(table, self.person_seats(phone, table))
                    if found and table.game == "triumfdrez":
                        assert not set(CARD_ID.findall(body)) & found[1], (phone, path)
                    assert 'class="hand-card"' not in body, (phone, path)

    @invariant()
    def each_seat_is_held_as_the_model_says(self):
        for table in self.tables:
            for seat in Seat.objects.filter(table__code=table.code):
                holder = table.holders[seat.index]
                bot = seat.index in table.bots
                assert (seat.kind == Seat.Kind.BOT) == bot, (table.code, seat.index, table.bots)
                if holder is None:
                    assert not seat.token_hash, (table.code, seat.index, "held by nobody")
                    continue
                assert seat.token_hash in self.hashes(holder, table.code), (table.code, seat)
                others = [p for p in range(PHONES) if p != holder]
                assert all(seat.token_hash not in self.hashes(p, table.code) for p in others)

    def probe(self, data):
        """Markup-free: what none of the phone's seats may see, dealt again, changes none
        of its pages or socket renders."""
        table = self.table(data)
        phone = data.draw(st.integers(0, PHONES - 1), label="phone")
        seats = set(table.held_by(phone))
        found = self.forbidden(table, seats)
        if found is None:
            return
        state, _cards = found
        pages = [
            (what, html) for what, html in self.responses(phone, table) if "replay" not in what
        ]
        other = redealt(table.game, state, seats, self.rng)
        try:
            with transaction.atomic():
                Table.objects.filter(code=table.code).update(state=other)
                again = [
                    (what, html)
                    for what, html in self.responses(phone, table)
                    if "replay" not in what
                ]
                raise _RolledBack
        except _RolledBack:
            pass
        for (what, before), (_what, after) in zip(pages, again, strict=True):
            assert normalised(before) == normalised(after), (phone, table.code, what)


class _RolledBack(Exception):
    pass


def test_no_path_shows_a_person_a_hand_they_do_not_hold(settings, monkeypatch):
    settings.BOT_DELAY = 0  # computer players move at once, in the writer's thread

    async def think_here(fn, *args, **kwargs):  # hints thought over in this process
        return fn(*args, **kwargs)

    monkeypatch.setattr(thinking, "arun", think_here)
    for game, budget in HINT_BUDGET.items():
        monkeypatch.setattr(type(get_game(game).web), "hint_budget", budget)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sign_up": (10**9, 3600)}
    HiddenHands.TestCase.settings = hypothesis_settings(
        max_examples=20,
        stateful_step_count=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    HiddenHands.TestCase().runTest()
