from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language, get_language_info

from games.registry import GAMES


def site(request):
    """The games (for the rules links) and the language switcher's entries, in each
    language's own name."""
    current = get_language()
    languages = [
        {
            "code": code,
            "name": get_language_info(code)["name_local"],
            "current": code == current,
            # The same page in that language: set_language only sets the cookie.
            "next": translate_url(request.get_full_path(), code),
        }
        for code, _name in settings.LANGUAGES
    ]
    return {
        "site_games": GAMES.values(),
        "site_languages": languages,
        "site_language_names": [lang["name"] for lang in languages],
    }
