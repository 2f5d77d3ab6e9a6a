"""A phone's page as the live updates build it: each WebSocket message holds the version
shown (#table-meta), maybe a message (#table-flash), and either the whole live table
(#table-live) or the regions of it that changed (#r-<name>), each swapped in by id as
static/js/table.js does. Tests read the page a phone would show (`Page.html`), and the messages as
sent (what a phone receives, to check that nothing hidden is in them)."""

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


# Start tags that end the open elements HTML lets them end (a small sheet leaves out its
# cells' and rows' end tags: games/triggs/_other.html)
IMPLIED = {"td": {"td", "th"}, "th": {"td", "th"}, "tr": {"td", "th", "tr"}}


class _TopLevel(HTMLParser):
    """The top-level elements of an HTML fragment: (id, start, end) offsets."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open, self.found, self.current = [], [], None
        self.feed(html)
        self.close()

    def at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if not self.open:
                start = self.at()
                self.found.append(
                    (dict(attrs).get("id"), start, start + len(self.get_starttag_text()))
                )
            return
        while self.open and self.open[-1] in IMPLIED.get(tag, ()):
            self.open.pop()
        if not self.open:
            self.current = (dict(attrs).get("id"), self.at())
        self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID or tag not in self.open:
            return
        while self.open.pop() != tag:  # the elements it ends without their end tags
            pass
        if not self.open and self.current is not None:
            ident, start = self.current
            end = self.at() + len(f"</{tag}>")
            self.found.append((ident, start, end))
            self.current = None


def top_level(html: str) -> list[tuple[str | None, str]]:
    """(id, outer HTML) of each top-level element of `html`."""
    return [(ident, html[start:end]) for ident, start, end in _TopLevel(html).found]


def replace_element(html: str, ident: str, outer: str) -> str:
    """`html` with its element of id `ident` replaced by `outer`, as the page's script does."""
    at = html.rindex("<", 0, html.index(f'id="{ident}"'))
    _ident, start, end = _TopLevel(html[at:]).found[0]
    return html[:at] + outer + html[at + end :]


def inner(outer: str) -> str:
    return outer[outer.index(">") + 1 : outer.rindex("<")]


class Page:
    """The live part of one phone's table page, as its messages left it."""

    def __init__(self):
        self.meta = ""
        self.flash = ""
        self.said = ""  # the phrase said last at the table (games.phrases)
        self.regions: dict[str, str] = {}  # id → outer HTML, in the page's order
        self.updates: list[list[str]] = []  # the region ids each message swapped

    def apply(self, message: str) -> None:
        swapped = []
        for ident, outer in top_level(message):
            if ident == "table-meta":
                self.meta = outer
            elif ident == "table-flash":
                self.flash = outer
            elif ident == "table-said":
                self.said = outer
            elif ident == "table-live":  # its panes, and their regions
                panes = [inner(pane) for _ident, pane in top_level(inner(outer))]
                self.regions = dict(pair for pane in panes for pair in top_level(pane))
                swapped.append("table-live")
            elif ident in self.regions:
                self.regions[ident] = outer
                swapped.append(ident)
            else:  # a part of a region: the element of that id inside it
                region = next(
                    (r for r, html in self.regions.items() if f'id="{ident}"' in html), None
                )
                if region is None:
                    raise AssertionError(f"an element the page does not have: {ident}")
                self.regions[region] = replace_element(self.regions[region], ident, outer)
                swapped.append(ident)
        self.updates.append(swapped)

    @property
    def html(self) -> str:
        return self.meta + self.flash + self.said + "".join(self.regions.values())
