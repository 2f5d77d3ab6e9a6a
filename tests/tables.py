"""Shared test support: a table's engine config as the lobby's form would build it, a
table dealt from a chosen seed, and a seeded game played move by move."""

from games.registry import get_game

# Tests replay games from seeds: companion Triggs starts at seat 0 in them, as it did
# before the lobby drew the first player (TriumfDrez's seed draws its first dealer).
FIRST = {"triggs": "0"}


def config(game: str, mode: str, players: int, **options) -> dict:
    """The config of a new table: the game's lobby options at their defaults, unless
    given (games.adapter.GameWeb.options / config), but for who starts (FIRST)."""
    web = get_game(game).web
    cleaned = {name: field.initial for name, field in web.options().items()} | options
    if game in FIRST and "first" not in options:
        cleaned["first"] = FIRST[game]
    return web.config(mode, players, cleaned)


def play_random(table, rng) -> bool:
    """One legal move picked by `rng` for the seat to act, applied as services applies a
    phone's (the table's row read again); False, with nothing played, once the game is
    over."""
    import uuid

    from games import services

    engine = get_game(table.game).engine(table.mode)
    if engine.is_over(table.state):
        return False
    seat = engine.to_act(table.state)[0]
    action = rng.choice(engine.legal_actions(table.state))
    services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
    table.refresh_from_db()
    return True


def start_with_seed(table, host_token: str, seed: int):
    """Deal the table's game from a chosen seed (services deals from a random one)."""
    import uuid

    from games import services

    original = services.secrets.randbits
    services.secrets.randbits = lambda bits: seed
    try:
        services.start_table(table, host_token, "start-" + uuid.uuid4().hex)
    finally:
        services.secrets.randbits = original
    table.refresh_from_db()
    return table


def wait_for(predicate, seconds: float = 10, what: str = "") -> None:
    """Until `predicate()`; the queue's worker writes meanwhile, and the tests' SQLite (in
    memory, shared between threads) refuses a read of a table being written at once."""
    import time

    from django.db import OperationalError

    end = time.monotonic() + seconds
    while True:
        try:
            if predicate():
                return
        except OperationalError:
            pass
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)
