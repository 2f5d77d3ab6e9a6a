"""Numbers agree with their nouns in every language (issue 18): «1 очко, 2 очка, 5 очков,
21 очко, 22 очка», «1 punto», «1 πόντος», «1 point». Every counted noun is a plural entry
of the catalogue, and the pages use those entries."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from games.models import Table

LOCALE = Path(__file__).resolve().parents[2] / "locale"
NUMBERS = (1, 2, 5, 21, 22)
# The noun's form for each number above, per language: what a reader expects to see.
WORDS = {
    ("Target: %(target)s point", "Target: %(target)s points", "target"): {
        "es": ("punto", "puntos", "puntos", "puntos", "puntos"),
        "el": ("πόντος", "πόντοι", "πόντοι", "πόντοι", "πόντοι"),
        "ru": ("очко", "очка", "очков", "очко", "очка"),
        "fr": ("point", "points", "points", "points", "points"),
    },
    (
        "%(who)s entered %(tricks)s trick for the declaring side.",
        "%(who)s entered %(tricks)s tricks for the declaring side.",
        "tricks",
    ): {
        "es": ("baza", "bazas", "bazas", "bazas", "bazas"),
        "el": ("λεβέ",) * 5,
        "ru": ("взятку", "взятки", "взяток", "взятку", "взятки"),
        "fr": ("pli", "plis", "plis", "plis", "plis"),
    },
    ("in the last %(days)s day", "in the last %(days)s days", "days"): {
        "es": ("día", "días", "días", "días", "días"),
        "el": ("ημέρα", "ημέρες", "ημέρες", "ημέρες", "ημέρες"),
        "ru": ("день", "дня", "дней", "день", "дня"),
        "fr": ("jour", "jours", "jours", "jours", "jours"),
    },
    (
        "%(a)s against %(b)s: %(wins)s – %(losses)s (%(draws)s draw)",
        "%(a)s against %(b)s: %(wins)s – %(losses)s (%(draws)s draws)",
        "draws",
    ): {
        "es": ("empate", "empates", "empates", "empates", "empates"),
        "el": ("ισοπαλία", "ισοπαλίες", "ισοπαλίες", "ισοπαλίες", "ισοπαλίες"),
        "ru": ("ничья", "ничьи", "ничьих", "ничья", "ничьи"),
        "fr": ("nul", "nuls", "nuls", "nuls", "nuls"),
    },
    ("%(n)s card in hand", "%(n)s cards in hand", "n"): {
        "es": ("carta", "cartas", "cartas", "cartas", "cartas"),
        "el": ("κάρτα", "κάρτες", "κάρτες", "κάρτες", "κάρτες"),
        "ru": ("карта", "карты", "карт", "карта", "карты"),
        "fr": ("carte", "cartes", "cartes", "cartes", "cartes"),
    },
}
# A number written just before one of these words counts it: its sentence needs plural
# forms (a name before "card", as in "%(figure)s card", is not a number).
NOUNS = (
    r"points?|tricks?|cards?|box(?:es)?|players?|actions?|files?|minutes?|seconds?|days?|tables?|"
    r"sessions?|hands?|crosses|rows?|seats?|games?|wins?|draws?|drawn"
)
COUNTED = rf"%\((?!figure|name|who|card)(\w+)\)s (?:{NOUNS})\b"


def catalogue(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "django.po", "rb") as fh:
        return read_po(fh)


def test_every_counted_noun_is_a_plural_entry():
    with open(LOCALE / "django.pot", "rb") as fh:
        template = read_po(fh)
    single = [m.id for m in template if m.id and not isinstance(m.id, tuple)]
    counted = [text for text in single if re.search(COUNTED, text)]
    assert counted == []


def test_a_plural_entry_counts_with_one_number():
    """A plural entry's forms follow one number: a second number that counts its own noun
    («los últimos 1 días», the admin's days beside its tables) has its own plural entry."""
    with open(LOCALE / "django.pot", "rb") as fh:
        template = read_po(fh)
    plural = [m.id for m in template if isinstance(m.id, tuple)]
    twice = [ids[1] for ids in plural if len(set(re.findall(COUNTED, ids[1]))) > 1]
    assert len(plural) > 20
    assert twice == []


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_every_plural_entry_has_all_its_forms_with_the_number(lang):
    cat = catalogue(lang)
    for message in cat:
        if not isinstance(message.id, tuple):
            continue
        forms = message.string
        assert len(forms) == cat.num_plurals, message.id
        names = set(re.findall(r"%\((\w+)\)s", message.id[1]))
        for form in forms:
            assert form and set(re.findall(r"%\((\w+)\)s", form)) == names, (message.id, form)


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
@pytest.mark.parametrize("entry", list(WORDS), ids=lambda entry: entry[2])
def test_the_noun_agrees_with_1_2_5_21_22(lang, entry):
    singular, plural, key = entry
    with translation.override(lang):
        for number, word in zip(NUMBERS, WORDS[entry][lang], strict=True):
            names = {"who": "Ana", "a": "Ana", "b": "Boris", "wins": 3, "losses": 2}
            text = ngettext(singular, plural, number) % {**names, key: number}
            assert re.search(rf"\b{number} (?:\w+ )?{word}\b", text), (number, text)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "target", "words"),
    [
        ("ru", 21, "Цель: 21 очко"),
        ("ru", 22, "Цель: 22 очка"),
        ("ru", 25, "Цель: 25 очков"),
        ("es", 21, "Objetivo: 21 puntos"),
        ("el", 21, "Στόχος: 21 πόντοι"),
        ("fr", 22, "Objectif\u00a0: 22 points"),
    ],
)
def test_the_tracker_says_its_target_with_the_right_form(lang, target, words):
    host = Client()
    fields = {"game": "triumfdrez", "mode": "companion", "players": "2", "name": "Ana"}
    response = host.post(f"/{lang}/play/", {**fields, "target": str(target)})
    code = response["Location"].split("/")[3]
    Client().post(f"/{lang}/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/{lang}/t/{code}/start/", {"action_id": "start-0001"})
    assert Table.objects.get(code=code).status == Table.Status.PLAYING
    html = host.get(f"/{lang}/t/{code}/").content.decode()
    assert words in re.sub(r"[ \t\n]+", " ", html)  # keeps the no-break spaces


def test_a_staff_reason_that_counts_picks_its_form():
    from games import labels

    with translation.override("ru"):
        said = [
            labels.reason(labels.REPLAY_REASONS, "no_saved_state", {"count": n}) for n in NUMBERS
        ]
    assert [re.search(r"\d+ (\w+)", text).group(1) for text in said] == [
        "действие",
        "действия",
        "действий",
        "действие",
        "действия",
    ]
