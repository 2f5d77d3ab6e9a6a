"""Templates a person can read (issue 16): no line of a screen's template is longer than
160 characters. The rules pages (rules/, rulings/) are the books' paragraphs, kept whole."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LONGEST = 160


def test_no_line_of_a_screen_template_is_longer_than_160_characters():
    # the site's templates and each game app's (games/<game>/templates)
    found = [*TEMPLATES.rglob("*.html"), *TEMPLATES.parent.glob("games/*/templates/**/*.html")]
    screens = [p for p in found if not {"rules", "rulings"} & set(p.parts)]
    assert len(screens) > 40  # the folder was found
    too_long = [
        f"{path.relative_to(TEMPLATES.parent)}:{number} ({len(line)})"
        for path in sorted(screens)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > LONGEST
    ]
    assert too_long == []
