"""What the table layer answers when it will not do what a phone asked: Refused, with a
code that games.labels turns into a translated sentence (and the rule it enforces), or
BadInput for fields it cannot read at all ("not understood", nothing changed)."""


class Refused(Exception):
    """A request the table refuses; `code` is translated by games.labels."""

    def __init__(self, code: str, rule: str | None = None):
        super().__init__(code)
        self.code = code
        self.rule = rule


class BadInput(ValueError):
    """Fields that cannot be read as any request."""
