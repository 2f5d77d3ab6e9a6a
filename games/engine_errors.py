"""The one shape of an engine's refusal, shared by every rules engine (pure Python).

Each engine subclasses IllegalAction with its own CODES: code → (rule id, plain
English text for logs). The web layer turns codes into translated sentences.
"""


class IllegalAction(Exception):
    """An illegal or malformed action (or config): `.code`, `.rule`, `.message`."""

    CODES: dict[str, tuple[str, str]] = {}

    def __init__(self, code: str, detail: str = "") -> None:
        rule, text = self.CODES[code]
        self.code = code
        self.rule = rule
        self.message = f"{text} ({detail})" if detail else text
        super().__init__(f"{code} [{rule}]: {self.message}")
