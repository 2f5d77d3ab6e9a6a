"""The games the site offers: slug → name, player counts, rule ids, templates.

Rule ids are those of ../shared/spec/rules.md; every one has an anchor on its
game's rules page, and every ruling one on the clarifications page.
"""

import importlib
from dataclasses import dataclass

from django.http import Http404
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Game:
    slug: str
    name: str  # a proper name: the same in every language
    tagline: str
    min_players: int
    max_players: int
    rule_ids: tuple[str, ...]
    ruling_ids: tuple[str, ...]

    def engine(self, mode: str):
        """The rules engine of a mode: the full game (digital) or the companion one."""
        module = "engine" if mode == "digital" else "companion"
        return importlib.import_module(f"games.{self.slug}.{module}")

    def rules_template(self, lang: str) -> str:
        return f"games/{self.slug}/rules/{lang}.html"

    def rulings_template(self, lang: str) -> str:
        return f"games/{self.slug}/rulings/{lang}.html"


GAMES: dict[str, Game] = {
    "triggs": Game(
        slug="triggs",
        name="Triggs",
        tagline=_(
            "A race to cross all 42 boxes of your score sheet with single cards "
            "or pairs, with chain reactions of extra crosses."
        ),
        min_players=2,
        max_players=4,
        rule_ids=(
            "T-DECK",
            "T-SHEET",
            "T-SETUP-1",
            "T-SETUP-2",
            "T-SETUP-3",
            "T-A",
            "T-A-LIMIT",
            "T-B",
            "T-C",
            "T-C-CAP",
            "T-C-BONUS",
            "T-EMPTY-HAND",
            "T-REFILL",
            "T-OBSOLETE-12",
            "T-OBSOLETE-11",
            "T-WIN",
        ),
        ruling_ids=("T-SETUP-2", "T-C-BONUS", "T-EMPTY-HAND", "T-REFILL"),
    ),
    "triumfdrez": Game(
        slug="triumfdrez",
        name="TriumfDrez",
        tagline=_(
            "A trick-taking game with a 56-card chess deck: bid for the trump figure, "
            "the super-trump colour and the number of tricks."
        ),
        min_players=2,
        max_players=4,
        rule_ids=(
            "D-DECK",
            "D-PLAYERS",
            "D-DEAL",
            "D-AUCTION",
            "D-PLAY",
            "D-FOLLOW",
            "D-RANK",
            "D-NEUTRAL",
            "D-OPEN",
            "D-SCORE",
            "D-MATCH",
        ),
        ruling_ids=("D-DEAL", "D-AUCTION", "D-NEUTRAL", "D-MATCH"),
    ),
}


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise Http404(slug) from None
