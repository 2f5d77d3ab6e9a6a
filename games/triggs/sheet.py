"""The score sheet (T-SHEET) and the arithmetic of sets (T-C, T-C-CAP).

A sheet is a list of 12 ints: how many boxes of rows 1..12 are crossed.
"""

VALUES = range(1, 13)
# index = card value; index 0 is unused so that ROW_SIZES[v] reads naturally
ROW_SIZES = (0, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)
TOTAL_BOXES = sum(ROW_SIZES)  # 42


def open_boxes(sheet: list[int], value: int) -> int:
    """Boxes of row `value` not crossed yet."""
    return ROW_SIZES[value] - sheet[value - 1]


def open_rows(sheet: list[int]) -> list[int]:
    """The values of the rows with a box left to cross, ascending."""
    return [value for value in VALUES if sheet[value - 1] < ROW_SIZES[value]]


def cross_ways(
    counts: list[int], present: list[int], sheet: list[int]
) -> dict[int, list[list[int]]]:
    """For every row that can be crossed, the most sets the hand can lay there (T-C),
    capped by the row's open boxes (T-C-CAP): every single first, then pairs.
    `counts[v]` is how many cards of value v the hand holds; `present` the values
    held, ascending.

    A maximum because singles use only cards of the value and each pair type
    (a, v - a) uses its own two values: taking all of each kind can't be beaten.
    The lists may repeat one inner list object: callers copy what they hand out.
    """
    ways: dict[int, list[list[int]]] = {}
    for v in present:
        room = ROW_SIZES[v] - sheet[v - 1]
        if room > 0:
            n = counts[v]
            ways[v] = [[v]] * (n if n < room else room)
    for i, a in enumerate(present):
        held = counts[a]
        for b in present[i:]:
            v = a + b
            if v > 12:
                break
            room = ROW_SIZES[v] - sheet[v - 1]
            if room <= 0:
                continue
            if a == b:
                n = held // 2
                if not n:
                    continue
            else:
                n = min(held, counts[b])
            sets = ways.get(v)
            if sets is None:
                ways[v] = [[a, b]] * (n if n < room else room)
            else:
                room -= len(sets)
                if room > 0:
                    sets += [[a, b]] * (n if n < room else room)
    return ways
