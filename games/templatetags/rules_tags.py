"""Drawings used by the rules pages and the game screens: Triggs sheets, cards
and piles (T-SHEET, T-SETUP-2). TriumfDrez's are in games.triumfdrez.templatetags.

Nothing here relies on colour alone: every card shows its number and figure
symbol, and every box of a sheet its number and a cross mark.
"""

from django import template

from games.triggs.engine import ROW_SIZES

register = template.Library()


def _row_counts(spec: str) -> dict[int, int]:
    """'11:4,9:1' → {11: 4, 9: 1}."""
    counts = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        row, _sep, n = item.partition(":")
        counts[int(row)] = int(n)
    return counts


def sheet_row(value: int, done: int, boxes: list[dict]) -> dict:
    """One row of a Triggs sheet: its value, size, crossed count and `boxes`."""
    size = ROW_SIZES[value]
    return {
        "value": value,
        "size": size,
        "crossed": done,
        "full": done == size,
        "boxes": boxes,
        "spacer": max(ROW_SIZES) - size,
    }


def sheet_rows(crossed, new=None):
    """Rows for _sheet.html, their boxes crossed or not, and newly crossed or not."""
    new = new or {}
    rows = []
    for value, (size, done) in enumerate(zip(ROW_SIZES[1:], crossed, strict=True), start=1):
        fresh = min(new.get(value, 0), done)
        boxes = [{"crossed": i < done, "new": done - fresh <= i < done} for i in range(size)]
        rows.append(sheet_row(value, done, boxes))
    return rows


@register.inclusion_tag("games/triggs/_sheet.html")
def score_sheet(crossed="0,0,0,0,0,0,0,0,0,0,0,0", new="", label=""):
    """A Triggs sheet; `crossed` lists the crossed boxes of rows 1..12."""
    counts = [int(n) for n in crossed.split(",")] if isinstance(crossed, str) else list(crossed)
    rows = sheet_rows(counts, _row_counts(new))
    return {
        "rows": rows,
        "label": label,
        "total": sum(r["crossed"] for r in rows),
    }


@register.inclusion_tag("games/triggs/_card.html")
def triggs_card(value):
    return {"value": int(value)}


@register.inclusion_tag("games/triggs/_piles.html")
def triggs_piles(left=None, left_count=None, stock_count=None, right=None, right_count=None):
    return {
        "left": left,
        "left_count": left_count,
        "stock_count": stock_count,
        "right": right,
        "right_count": right_count,
    }
