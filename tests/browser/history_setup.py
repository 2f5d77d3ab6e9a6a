"""Run in a process of its own against a browser test's SQLite file (DATABASE_URL):
finished games of each game for Ana and her friends, one group with them, and Ana's
player cookie. Prints JSON: the table codes, the group's code and the cookie."""

import json
import random
import uuid


def play(table, seed):
    from games import services
    from games.registry import get_game

    game = get_game(table.game)
    engine = game.engine(table.mode)
    bot = next(iter(game.web.bot_levels.values()))[0]
    rng = random.Random(seed)
    while not engine.is_over(table.state):
        seat = engine.to_act(table.state)[0]
        action = bot(engine.view(table.state, seat), engine.legal_actions(table.state), rng)
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
    return table


def main():
    import django

    django.setup()
    from django.core import signing

    from games import services
    from games.models import Seat, hash_token, new_token
    from players import identity
    from players import services as players
    from players.models import Player
    from tests.tables import config

    names = ["Ana", "Boris", "Chloé", "Dmitri"]
    token = new_token()
    people = [Player.objects.create(name=names[0], token_hash=hash_token(token))]
    people += [Player.objects.create(name=name) for name in names[1:]]
    codes = {}
    for game, players_count, seed in (("triggs", 2, 3), ("triumfdrez", 4, 5)):
        table, host, _seat = services.create_table(
            game, "digital", config(game, "digital", players_count, target=30)
            if game == "triumfdrez" else config(game, "digital", players_count),
            names[0], player=people[0],
        )  # fmt: skip
        for seat in range(1, players_count):
            services.claim_seat(table, seat, names[seat], people[seat])
        services.start_table(table, host, "start-" + uuid.uuid4().hex)
        table.refresh_from_db()
        codes[game] = play(table, seed).code
    group = players.create_group(people[0], "Jueves")
    for person in people[1:]:
        players.join_group(group, players.invite_token(group), person)
    for code in codes.values():
        group.tables.add(Seat.objects.get(table__code=code, index=0).table)
    cookie = signing.get_cookie_signer(salt=identity.COOKIE_NAME + identity.COOKIE_SALT)
    print(json.dumps({"codes": codes, "group": group.code, "cookie": cookie.sign(token)}))
