"""Message extraction with Babel, so no system gettext is ever needed.

Django templates are turned into Python-like source by Django's own
`templatize` (what `makemessages` feeds to xgettext) and read with Babel's
Python extractor. `babel.cfg` maps files to methods; `python -m games.i18n`
(`make messages`) extracts every message and updates each catalogue.
"""

import io
import sys
from pathlib import Path

from babel.messages.extract import extract_python

# Babel's default keywords plus Django's lazy variants.
KEYWORDS = (
    "gettext_lazy",
    "gettext_noop",
    "ngettext_lazy:1,2",
    "pgettext:1c,2",
    "pgettext_lazy:1c,2",
    "npgettext:1c,2,3",
    "npgettext_lazy:1c,2,3",
)
POT = "locale/django.pot"
LANGUAGES = ("es", "el", "ru", "fr")


def extract_django(fileobj, keywords, comment_tags, options):
    from django.utils.translation.template import templatize

    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    # templatize keeps the template's indentation, which Python's tokenizer may refuse
    # (an unindent to no outer level); its gettext calls are each on one line
    code = "\n".join(line.lstrip() for line in templatize(source).splitlines())
    yield from extract_python(io.BytesIO(code.encode("utf-8")), keywords, comment_tags, options)


def main() -> None:
    from babel.messages.frontend import CommandLineInterface

    keyword_args = [f"--keyword={k}" for k in KEYWORDS]
    cli = CommandLineInterface()
    cli.run(
        ["pybabel", "extract", "-F", "babel.cfg", *keyword_args, "--sort-by-file", "-o", POT, "."]
    )
    for lang in LANGUAGES:
        command = "update" if Path(f"locale/{lang}/LC_MESSAGES/django.po").exists() else "init"
        extra = ["--no-fuzzy-matching", "--ignore-obsolete"] if command == "update" else []
        cli.run(["pybabel", command, "-i", POT, "-d", "locale", "-D", "django", "-l", lang, *extra])


if __name__ == "__main__":
    sys.path.insert(0, ".")
    main()
