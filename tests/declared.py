"""Checks that a region declares every context path its template reads (GameWeb.regions'
`reads`): rendered from only the declared paths, it must come out the same as from the
whole context. Used by each game's tests with the positions they build."""

from django.template.loader import render_to_string

# what every region may read without naming it: the forms' placeholders
ALWAYS = ("fields", "post_fields", "act_url")
MISSING = object()


def lookup(context, path: str):
    """The value at a dotted path ("panel.hand") of a context, MISSING if absent."""
    value = context
    for key in path.split("."):
        if isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return MISSING
    return value


def only(context: dict, reads) -> dict:
    """A context holding only the paths `reads` (and ALWAYS) of `context`."""
    out: dict = {}
    for path in (*ALWAYS, *reads):
        value = lookup(context, path)
        if value is MISSING:
            continue
        *parents, last = path.split(".")
        where = out
        for key in parents:
            where = where.setdefault(key, {})
        where[last] = value
    return out


def undeclared(template: str, context: dict, reads) -> str | None:
    """None when the region renders the same from its declared reads alone, else both
    renderings, for the failure message."""
    whole = render_to_string(template, context)
    declared = render_to_string(template, only(context, reads))
    if whole == declared:
        return None
    return f"--- whole context:\n{whole}\n--- declared reads only:\n{declared}"
