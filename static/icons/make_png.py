"""Draws the site's icons: icon.svg (the favicon, scalable) and maskable.svg are written
by hand below; this writes them and renders the PNGs a home screen asks for with the
Debian Chromium the browser tests use (nothing is downloaded).

    .venv/bin/python static/icons/make_png.py
"""

import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
INK, PAPER, ACCENT, CROSS = "#1b1b1f", "#ffffff", "#0b5cad", "#b3261e"


def star(cx, cy, outer, inner, points=5):
    corners = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi / points * i - math.pi / 2
        corners.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(corners)


def cards(scale: float) -> str:
    """Two playing cards: a star (TriumfDrez) and a cross (Triggs), never colour alone."""
    return (
        f'<g transform="translate(256 256) scale({scale}) translate(-256 -256)">'
        f'<g transform="rotate(-12 256 256)"><rect x="84" y="118" width="196" height="280" rx="26" '
        f'fill="{PAPER}" stroke="{INK}" stroke-width="12"/>'
        f'<polygon points="{star(162, 258, 62, 25)}" fill="{INK}"/></g>'
        f'<g transform="rotate(10 256 256)"><rect x="232" y="128" width="196" height="280" rx="26" '
        f'fill="{PAPER}" stroke="{INK}" stroke-width="12"/>'
        f'<path d="M280 214 L380 322 M380 214 L280 322" stroke="{CROSS}" stroke-width="34" '
        f'stroke-linecap="round"/></g></g>'
    )


ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
    f'<rect width="512" height="512" rx="112" fill="{ACCENT}"/>{cards(1.0)}</svg>\n'
)
# maskable: a full-bleed background, the drawing inside the central safe circle (80 %)
MASKABLE = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
    f'<rect width="512" height="512" fill="{ACCENT}"/>{cards(0.72)}</svg>\n'
)
PNGS = [("icon.svg", "icon-192.png", 192), ("icon.svg", "icon-512.png", 512),
        ("icon.svg", "apple-touch-icon.png", 180), ("maskable.svg", "icon-maskable-512.png", 512)]  # fmt: skip


def main() -> None:
    from playwright.sync_api import sync_playwright

    (HERE / "icon.svg").write_text(ICON)
    (HERE / "maskable.svg").write_text(MASKABLE)
    args = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--disable-sync"]  # fmt: skip
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=args
        )
        for svg, png, size in PNGS:
            page = browser.new_page(viewport={"width": size, "height": size})
            markup = (HERE / svg).read_text()
            page.set_content(
                f'<body style="margin:0;background:transparent">'
                f'<div style="width:{size}px;height:{size}px">{markup}</div></body>'
            )
            page.locator("svg").evaluate(
                f"s => {{ s.style.width = '{size}px'; s.style.height = '{size}px'; }}"
            )
            page.screenshot(
                path=str(HERE / png),
                omit_background=True,
                clip={"x": 0, "y": 0, "width": size, "height": size},
            )
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
