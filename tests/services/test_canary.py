"""Hidden-information canary (issue 9): in random seeded games of every digital mode,
nothing a seat can receive — a live update, a page, a refusal, an export — depends on
what that seat may not see.

The check is a non-interference test, so it needs no knowledge of the markup: for a
seat, the cards hidden from it (the other hands, the stock, what lies under the top of
each pile, the undealt cards) are dealt again at random and the seed is changed, in the
database, inside a transaction that is rolled back; every payload the seat receives
must come out byte for byte the same (once the per-render action id and CSRF token are
set aside). A last test plays a digital table through the real servers and
scans every payload each phone receives against that seat's view.
"""

import asyncio
import copy
import json
import random
import re
import uuid
from collections import Counter

import pytest
from django.db import transaction
from django.test import Client
from django.utils import translation

from games import live, phones, render, services
from games.models import Action, Seat, Table, hash_token
from games.registry import get_game
from tests.services.conftest import Browser, Phone, close_all
from tests.tables import config

pytestmark = pytest.mark.services

DIGITAL_GAMES = ("triggs", "triumfdrez")
LANGS = ("es", "el", "ru", "fr")
PLAYERS = 4
OVER = ("over", "match_over")
# 128-bit seeds, like the ones services deal with: long enough that finding one in a
# payload is never a coincidence
SEEDS = (
    271828182845904523536028747135266249775,
    141421356237309504880168872420969807856,
    173205080756887729352744634150587236694,
)


def config_of(game: str) -> dict:
    return {"players": PLAYERS, "target": 50} if game == "triumfdrez" else {"players": PLAYERS}


def actor(state: dict) -> int | None:
    return state.get("turn")


# -- what a seat may not see, dealt again ------------------------------------------------


def _redeal(slots: list[tuple[list, int, int]], rng) -> None:
    """Shuffle the cards in the given (list, start, stop) slices among themselves."""
    pool = [card for cards, start, stop in slots for card in cards[start:stop]]
    rng.shuffle(pool)
    for cards, start, stop in slots:
        cards[start:stop], pool = pool[: stop - start], pool[stop - start :]


def hidden_slots(game: str, state: dict, seat: int | None) -> list[tuple[list, int, int]]:
    """The places of `state` holding cards `seat` does not see (None: a spectator)."""
    if game == "triggs":
        slots = [(hand, 0, len(hand)) for i, hand in enumerate(state["hands"]) if i != seat]
        piles = state["piles"]
        slots.append((piles["stock"], 0, len(piles["stock"])))
        for cards in (piles["left"], piles["right"], state["discard"]):
            slots.append((cards, 0, max(0, len(cards) - 1)))  # all but the top card
        return slots
    from games.triumfdrez import engine

    shown = engine.view(state, seat)["open_hands"]
    slots = [
        (hand, 0, len(hand))
        for i, hand in enumerate(state["hands"])
        if i != seat and shown[i] is None
    ]
    slots.append((state["hidden"], 0, len(state["hidden"])))
    return slots


def redealt(game: str, state: dict, seat: int | None, rng) -> dict:
    """`state` with what `seat` may not see dealt again, and another seed."""
    other = copy.deepcopy(state)
    _redeal(hidden_slots(game, other, seat), rng)
    other["seed"] = rng.randrange(2**48)
    return other


def hidden_cards(game: str, state: dict, seat: int | None) -> set:
    return {card for cards, a, b in hidden_slots(game, state, seat) for card in cards[a:b]}


def random_game(game: str, seed: int, steps: int):
    """(state, …) along a random game of the digital engine, through its contract."""
    engine = get_game(game).engine("digital")
    rng = random.Random(seed)
    state = engine.new_game(config_of(game), seed)
    for _ in range(steps):
        yield state
        actions = engine.legal_actions(state)
        if not actions or state["phase"] in OVER:
            return
        state = engine.apply(state, actor(state), rng.choice(actions))


# -- the engines' views ------------------------------------------------------------------


@pytest.mark.parametrize("game", DIGITAL_GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_engine_view_depends_only_on_what_its_seat_may_see(game, seed):
    engine = get_game(game).engine("digital")
    rng = random.Random(seed)
    for state in random_game(game, seed, steps=600):
        for seat in [*range(PLAYERS), None]:
            seen = engine.view(state, seat)
            text = json.dumps(seen)
            assert str(state["seed"]) not in text
            assert engine.view(redealt(game, state, seat, rng), seat) == seen, (seat, state)
            if game == "triumfdrez":  # card ids are unique: none hidden may be named
                named = set(re.findall(r'"([a-z]+-\d)"', text))
                assert not named & hidden_cards(game, state, seat), seat


# -- every payload of a seat, through the render layer and the views -----------------------


def _digital_table(game: str, seed: int, monkeypatch):
    """A started digital table of four people (directly through the models when
    services.create_table does not offer that game in digital mode yet)."""
    try:
        table, host, token = services.create_table(
            game, "digital", config(game, "digital", PLAYERS), "Ana"
        )
        tokens = [token] + [
            services.claim_seat(table, i, name)
            for i, name in enumerate(("Boris", "Chloé", "Dmitri"), start=1)
        ]
    except services.Refused as refusal:
        assert refusal.code == "digital_unavailable"
        host = "host-" + uuid.uuid4().hex
        table = Table.objects.create(
            code=uuid.uuid4().hex[:6].upper(),
            game=game,
            mode="digital",
            config=config_of(game),
            host_token_hash=hash_token(host),
        )
        tokens = [uuid.uuid4().hex for _ in range(PLAYERS)]
        Seat.objects.bulk_create(
            Seat(table=table, index=i, name=f"P{i}", token_hash=hash_token(t))
            for i, t in enumerate(tokens)
        )
    with monkeypatch.context() as patch:
        patch.setattr(services.secrets, "randbits", lambda bits: seed)
        services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table, tokens


def _probe(game: str, state: dict, seat: int, engine) -> dict:
    """An action `seat` may not make now: another seat's move, or a card it lacks."""
    legal = engine.legal_actions(state)
    if seat != actor(state) and legal:
        return legal[0]
    if game == "triggs":
        hand = state["hands"][seat]
        missing = next((v for v in range(1, 13) if v not in hand), 1)
        return {"type": "discard", "value": missing, "count": 1}
    return {"type": "play", "card": next(iter(state["hidden"]), "joker-1")}


def _form(action: dict) -> dict:
    """An engine action as form fields (digital Triggs; other games' fields are refused
    as not understood, which is a payload too)."""
    kind = action["type"]
    if kind == "draw":
        return {"kind": "draw", "first": action["from"][0], "second": "".join(action["from"][1:])}
    if kind == "discard":
        return {"kind": "discard", "card": [str(action["value"])] * action["count"]}
    if kind == "cross":
        sets = "|".join("+".join(map(str, s)) for s in action["sets"])
        return {"kind": "cross", "value": str(action["value"]), "sets": sets}
    return {"kind": kind, **{k: str(v) for k, v in action.items() if k != "type"}}


VARYING = [
    (re.compile(r"\b[0-9a-f]{32}\b"), "ACTION-ID"),  # a fresh action id per render
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r'("X-CSRFToken": ")[^"]+'), r"\1CSRF"),
    (re.compile(r' data-now="\d+"'), ""),  # the server's time, for the turn clock
]


def normalised(payload: str) -> str:
    for pattern, replacement in VARYING:
        payload = pattern.sub(replacement, payload)
    return payload


def live_render(table, phone, seat, lang, error=None) -> str:
    """The whole live update a phone gets (on connecting, or after a resync)."""
    now = render.screen(live.snapshot(table), phone, seat, False, lang)
    with translation.override(lang):
        html = render.meta_html(now.version) + render.flash_html(error, table.game)
        return render.fill_in(html + render.live_html(now), table.code, seat, now.version, "csrf")


def payloads(table_id: int, seat: int | None, tokens, probe, pages: bool) -> dict:
    """Everything `seat`'s phone can receive now, by surface."""
    table = Table.objects.get(pk=table_id)
    lang = LANGS[seat % len(LANGS)] if seat is not None else "es"
    phone = [seat] if seat is not None else []
    out = {"live": live_render(table, phone, seat, lang)}
    if seat is not None:
        try:
            services.apply_action(table, seat, probe, table.version, "probe-" + uuid.uuid4().hex)
        except services.Refused as refusal:
            table = Table.objects.get(pk=table_id)
            out["refusal"] = live_render(table, phone, seat, lang, refusal)
        else:
            raise AssertionError(f"the probe {probe} was applied for seat {seat}")
    if pages:
        client = Client()
        if seat is not None:
            client.cookies[phones.COOKIE_NAME] = phones.cookie_value(
                {table.code: phones.Entry([tokens[seat]])}
            )
        query = f"?seat={seat}" if seat is not None else ""
        page = f"/{lang}/t/{table.code}/{query}"
        out["page"] = client.get(page).content.decode()
        out["join"] = client.get(f"/{lang}/join/{table.code}/").content.decode()
        export = client.get(f"/{lang}/admin/games/table/{table.pk}/export/", follow=True)
        out["export"] = export.content.decode()
        if seat is not None:
            form = {"seat": str(seat), "version": str(table.version), "action_id": "p" * 16}
            form.update(_form(probe))
            out["act"] = client.post(f"/{lang}/t/{table.code}/act/", form).content.decode()
    return out


def check_seat(game, table, seat, tokens, rng, engine, pages: bool) -> None:
    probe = _probe(game, table.state, seat, engine) if seat is not None else None
    real = payloads(table.pk, seat, tokens, probe, pages)
    with transaction.atomic():
        state = redealt(game, table.state, seat, rng)
        Table.objects.filter(pk=table.pk).update(state=state)
        # Once the game is over its result chart (games.charts) replays the log: the
        # public record of every move, which only the real seed reproduces (a log dealt
        # again in one place is no game at all). Its seed stays then; the state's own
        # seed and cards are still dealt again, and check_chart_is_public shows the chart is the same for every seat and a spectator.
        if table.state["phase"] not in OVER:
            start = Action.objects.get(table=table, version=1)
            start.action = {"type": "start", "seed": state["seed"]}
            start.save(update_fields=["action"])
        fake = payloads(table.pk, seat, tokens, probe, pages)
        transaction.set_rollback(True)
    for surface, payload in real.items():
        assert str(table.state["seed"]) not in payload, (surface, seat)
        assert normalised(payload) == normalised(fake[surface]), (
            f"seat {seat}'s {surface} changes with cards it may not see "
            f"(version {table.version}, phase {table.state['phase']})"
        )


@pytest.mark.django_db
@pytest.mark.parametrize("game", DIGITAL_GAMES)
@pytest.mark.parametrize("seed", SEEDS[:1])
def test_every_payload_of_a_seat_depends_only_on_its_view(game, seed, monkeypatch):
    engine = get_game(game).engine("digital")
    table, tokens = _digital_table(game, seed, monkeypatch)
    rng = random.Random(seed)
    checks = 0
    for step in range(400):
        if rng.random() < 0.04 or step == 0:
            for seat in [*range(PLAYERS), None]:  # pages (slower) at the first check only
                check_seat(game, table, seat, tokens, rng, engine, pages=not checks)
            checks += 1
        actions = engine.legal_actions(table.state)
        if not actions or table.state["phase"] in OVER:
            break
        seat = actor(table.state)
        services.apply_action(table, seat, rng.choice(actions), table.version, f"move-{step:04d}")
        table.refresh_from_db()
    for seat in [*range(PLAYERS), None]:
        check_seat(game, table, seat, tokens, rng, engine, pages=True)
    assert checks >= 3
    if table.state["phase"] in OVER:
        check_chart_is_public(table)


CHART = re.compile(r'<svg [^>]*class="chart".*?</svg>', re.S)


def check_chart_is_public(table) -> None:
    """A finished game's chart, the one payload drawn from the log (its seed kept by
    check_seat), is the same for every seat and a spectator: it shows public moves only."""
    with translation.override("es"):
        charts = {
            seat: CHART.findall(live_render(table, [seat] if seat is not None else [], seat, "es"))
            for seat in [*range(PLAYERS), None]
        }
    assert len(charts[None]) == 1
    assert all(chart == charts[None] for chart in charts.values())


# -- through the real servers --------------------------------------------------------------


HAND_CARD = re.compile(r'data-card="(\d+)"')
PILE_TOP = re.compile(r'data-pile-top="(\d+)"')


def states_by_version(cluster, code: str) -> dict:
    row = cluster.table(code)
    engine = get_game(row["game"]).engine(row["mode"])
    states, state = {}, None
    for entry in cluster.actions(code):
        if entry["action"]["type"] == "start":
            state = engine.new_game(row["config"], entry["action"]["seed"])
        else:
            state = engine.apply(state, entry["seat"], entry["action"])
        states[entry["version"]] = state
    return states


def check_message(html: str, state: dict, seat: int | None, engine) -> None:
    """A message as sent: no card outside the seat's view, no seed."""
    seen = engine.view(state, seat)
    assert str(state["seed"]) not in html
    assert not Counter(int(card) for card in HAND_CARD.findall(html)) - Counter(
        seen.get("hand", [])
    )
    tops = {seen["piles"]["left"]["top"], seen["piles"]["right"]["top"], seen["discard"]["top"]}
    assert {int(top) for top in PILE_TOP.findall(html)} <= tops


def check_live_payload(html: str, state: dict, seat: int | None, engine) -> None:
    seen = engine.view(state, seat)
    assert str(state["seed"]) not in html
    cards = sorted(int(card) for card in HAND_CARD.findall(html))
    assert cards == seen.get("hand", [])
    tops = {seen["piles"]["left"]["top"], seen["piles"]["right"]["top"], seen["discard"]["top"]}
    assert {int(top) for top in PILE_TOP.findall(html)} <= tops


async def test_a_digital_table_on_real_servers_shows_each_phone_its_own_view(cluster):
    """Digital Triggs through both processes: every live update, refusal, page and the
    export link each phone can reach is checked against its seat's view at that version."""
    game = "triggs"
    engine = get_game(game).engine("digital")
    a, b = cluster.servers
    table = cluster.new_table(game=game, mode="digital", turn_marker=False, server=a)
    phones = [Phone(f"seat{i}", table.code, (table.tokens[i],)) for i in range(PLAYERS)]
    watcher = Phone("watcher", table.code)
    for phone, server in zip([*phones, watcher], [a, a, b, b, b], strict=True):
        await phone.connect(server)
    rng = random.Random(31)
    pages = []  # (seat, html)
    try:
        for step in range(36):
            row = cluster.table(table.code)
            state, version = row["state"], row["version"]
            if state["phase"] in OVER:
                break
            seat = actor(state)
            if step % 9 == 0:  # a move out of turn: refused, with a render
                other = (seat + 1) % PLAYERS
                move = _form(engine.legal_actions(state)[0])
                answer = await phones[other].move(other, version, uuid.uuid4().hex, move)
                assert answer != "ack"
            action = rng.choice(engine.legal_actions(state))
            answer = await phones[seat].move(seat, version, uuid.uuid4().hex, _form(action))
            assert answer == "ack", answer
            await asyncio.gather(*(p.wait_version(version + 1) for p in [*phones, watcher]))
            if step % 12 == 0:
                for i, browser in enumerate(table.browsers):
                    base = (a, b)[i % 2].base
                    path = f"/{LANGS[i]}/t/{table.code}/?seat={i}"
                    pages.append((i, browser.get(path, base=base)[2]))
                    form = {"seat": str(i), "version": "0", "action_id": "q" * 16, "kind": "draw"}
                    pages.append((i, browser.post(f"/es/t/{table.code}/act/", form, base=base)[2]))
                stranger = Browser(b.base)
                pages.append((None, stranger.get(f"/el/t/{table.code}/")[2]))
        for browser in table.browsers:
            _status, url, body = browser.get(f"/es/admin/games/table/{row['id']}/export/")
            assert "/admin/login/" in url  # the export is for staff only
            pages.append((None, body))
        states = states_by_version(cluster, table.code)
        final_seed = str(cluster.actions(table.code)[0]["action"]["seed"])
        for seat, phone in [*enumerate(phones), (None, watcher)]:
            assert phone.renders
            for received in phone.renders:
                check_message(received.html, states[received.version], seat, engine)
                check_live_payload(received.page, states[received.version], seat, engine)
        for seat, html in pages:
            assert final_seed not in html
            version = (
                int(re.search(r'data-version="(\d+)"', html).group(1))
                if "table-live" in html
                else None
            )
            if version is not None:
                check_live_payload(html, states[version], seat, engine)
    finally:
        await close_all([*phones, watcher])
