"""The games the site offers: slug → name, player counts, rule ids, its engines by mode
and its web adapter (games.adapter). The only shared module that names a game.

Rule ids follow the printed rulebooks (seeds/); every one has an anchor on its game's
rules page, and every ruling one on the clarifications page.
"""

import importlib
from dataclasses import dataclass, field

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
    # mode ("companion", "digital") → the module of its rules engine
    engines: dict[str, str] = field(default_factory=dict)
    web_module: str = ""  # the module whose `adapter` is the game's GameWeb
    # The modes whose hands are hidden: each seat sees only its own cards, so computer
    # players may sit, a freed seat goes to one, and tables may play online (open tables,
    # Play now, turn clocks). The other modes keep the score of real cards.
    hidden_modes: tuple[str, ...] = ("digital",)
    # Who made the game or its deck (gettext_lazy), said in every page's footer.
    credit: str = ""

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.engines)

    def hidden_hands(self, mode: str) -> bool:
        """Whether a table of `mode` deals hands nobody else may see (see hidden_modes)."""
        return mode in self.hidden_modes and mode in self.engines

    @property
    def online_mode(self) -> str | None:
        """The mode open tables and Play now use: the first with hidden hands, or None
        when the game has none (it is not offered online)."""
        return next((mode for mode in self.modes if self.hidden_hands(mode)), None)

    def engine(self, mode: str):
        """The rules engine of a mode: the full game (digital) or the companion one."""
        return importlib.import_module(self.engines[mode])

    @property
    def web(self):
        """The game's web adapter (games.adapter.GameWeb)."""
        return importlib.import_module(self.web_module).adapter

    def rule_url(self, rule: str) -> str:
        from django.urls import reverse

        return f"{reverse('rules', kwargs={'game': self.slug})}#{rule}"

    def rule_name(self, rule: str) -> str:
        """The rule's name in the active language (its id if the game names none)."""
        return str(self.web.rule_names.get(rule, rule))

    def rules_template(self, lang: str) -> str:
        return f"games/{self.slug}/rules/{lang}.html"

    def rulings_template(self, lang: str) -> str:
        return f"games/{self.slug}/rulings/{lang}.html"


GAMES: dict[str, Game] = {
    "triggs": Game(
        slug="triggs",
        name="Triggs",
        tagline=_(
            "A race to cross all 42 boxes of your score sheet with single cards or two "
            "cards that add up to a row's value, with chain reactions of extra crosses."
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
        engines={"companion": "games.triggs.companion", "digital": "games.triggs.engine"},
        web_module="games.triggs.web",
        credit=_("Triggs is a game by Karin Hetling."),
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
        ruling_ids=("D-DEAL", "D-AUCTION", "D-PLAY", "D-NEUTRAL", "D-MATCH"),
        engines={
            "companion": "games.triumfdrez.companion",
            "digital": "games.triumfdrez.engine",
        },
        web_module="games.triumfdrez.web",
        credit=_("TriumfDrez is played with the PokerDrez deck."),
    ),
}


def register(game: Game) -> None:
    """Offer a game (the two above are offered from the start; tests add their own)."""
    GAMES[game.slug] = game


def unregister(slug: str) -> None:
    GAMES.pop(slug, None)


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise Http404(slug) from None
