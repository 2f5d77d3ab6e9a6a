"""What looking up a template's words once per language saves (games.template_loader):
the regions bench/updates.py draws for its phones (es, el, ru, fr, or all in one language
with --lang) are drawn again from the same contexts, with the loader's worded
{% translate %} and {% blocktranslate %} nodes and with Django's own, in turns, in one
process. Prints figures only.

    .venv/bin/python bench/words.py [--moves 40] [--lang es]

The drawing here is of regions a process has just drawn (its caches warm): compare the
two columns with each other; bench/updates.py gives the time of a whole update.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.core.management import call_command  # noqa: E402
from django.templatetags.i18n import BlockTranslateNode, TranslateNode  # noqa: E402
from django.utils import translation  # noqa: E402

from bench import updates  # noqa: E402  (sets up Django)
from games import render, services  # noqa: E402
from games import template_loader as loader  # noqa: E402

ROUNDS = 12
WORDED = (loader.WordedTranslateNode.render, loader.WordedBlockTranslateNode.render)
DJANGO = (TranslateNode.render, BlockTranslateNode.render)


def use(renders) -> None:
    loader.WordedTranslateNode.render, loader.WordedBlockTranslateNode.render = renders


def regions_drawn(game: str, mode: str, moves: int) -> list:
    """(language, template, context) of every region drawn for a phone's update."""
    drawn, draw = [], render.draw

    def keep(name, context):
        drawn.append((translation.get_language(), name, dict(context)))
        return draw(name, context)

    render.draw = keep
    try:
        updates.run(game, mode, moves, random.Random(7))
    finally:
        render.draw = draw
    return drawn


def draw_all(drawn) -> float:
    start = time.process_time()
    for lang, name, context in drawn:
        with translation.override(lang):
            render.draw(name, context)
    return time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--lang", choices=updates.LANGS)
    args = parser.parse_args()
    if args.lang:
        updates.LANGS[:] = [args.lang] * 4
    call_command("migrate", verbosity=0)
    services.secrets = updates.Dealt()
    print(f"{args.moves} seeded moves, phones in {', '.join(updates.LANGS)}; {ROUNDS} rounds")
    print(f"{'game, mode':<22}{'regions':>8}{'worded ms':>11}{'Django ms':>11}{'ratio':>7}")
    for game, mode in updates.SETUPS:
        drawn = regions_drawn(game, mode, args.moves)
        times = {WORDED: [], DJANGO: []}
        for round_ in range(ROUNDS):
            for renders in (WORDED, DJANGO) if round_ % 2 else (DJANGO, WORDED):
                use(renders)
                times[renders].append(draw_all(drawn))
        use(WORDED)
        worded, django_own = (statistics.median(times[r]) for r in (WORDED, DJANGO))
        print(
            f"{game + ', ' + mode:<22}{len(drawn):>8}{worded * 1000:>11.1f}"
            f"{django_own * 1000:>11.1f}{worded / django_own:>7.2f}"
        )


if __name__ == "__main__":
    main()
