"""The one shape of an engine's refusal (games.engine_errors): both games' engines and
companion trackers raise a subclass with `.code`, `.rule` and `.message`, built from
(code, detail), and one `except engine_errors.IllegalAction` catches them all."""

import pytest

from games import engine_errors
from games.triggs import companion as triggs_companion
from games.triggs import engine as triggs
from games.triggs import errors as triggs_errors
from games.triumfdrez import companion as drez_companion
from games.triumfdrez import engine as drez
from games.triumfdrez import errors as drez_errors

# One refused action per engine (each raises that game's IllegalAction).
REFUSED = {
    "triggs": lambda: triggs.apply(triggs.new_game({"players": 2}, 1), 7, {"type": "draw"}),
    "triggs companion": lambda: triggs_companion.apply(
        triggs_companion.new_game({"players": 2}, 1), 0, {"type": "extra", "value": 1}
    ),
    "triumfdrez": lambda: drez.apply(drez.new_game({"players": 2}, 1), 0, {"type": "dance"}),
    "triumfdrez companion": lambda: drez_companion.apply(
        drez_companion.new_game({"players": 2}, 1), 9, {"type": "pass"}
    ),
}


@pytest.mark.parametrize("engine", REFUSED)
def test_one_except_clause_catches_every_engines_refusal(engine):
    try:
        REFUSED[engine]()
    except engine_errors.IllegalAction as error:
        assert error.code in error.CODES and error.rule == error.CODES[error.code][0]
        assert error.message.startswith(error.CODES[error.code][1])
    else:
        raise AssertionError(f"{engine} accepted a refused action")


def test_every_engine_module_exports_its_games_illegal_action():
    assert triggs.IllegalAction is triggs_companion.IllegalAction is triggs_errors.IllegalAction
    assert drez.IllegalAction is drez_companion.IllegalAction is drez_errors.IllegalAction
    for cls in (triggs.IllegalAction, drez.IllegalAction):
        assert issubclass(cls, engine_errors.IllegalAction)
    assert triggs.IllegalAction.CODES is triggs_errors.CODES
    assert drez.IllegalAction.CODES is drez_errors.CODES


@pytest.mark.parametrize("cls", [triggs.IllegalAction, drez.IllegalAction])
def test_code_and_detail_give_rule_and_plain_message(cls):
    plain = cls("not_your_turn")
    assert plain.code == "not_your_turn"
    assert plain.rule == cls.CODES["not_your_turn"][0]
    assert plain.message == cls.CODES["not_your_turn"][1]
    detailed = cls("not_your_turn", "seat 2")
    assert detailed.message == f"{cls.CODES['not_your_turn'][1]} (seat 2)"
    assert "not_your_turn" in str(detailed) and detailed.rule in str(detailed)


def test_an_unknown_code_is_a_programming_error():
    with pytest.raises(KeyError):
        drez.IllegalAction("no_such_code")
