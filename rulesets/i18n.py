"""The rulesets' marker for translatable text (issue 13); the rulesets never import Django."""


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the translation catalogue without translating it: Django's
    makemessages picks up this name. Pages translate the text where they show it
    (``{{ column.explanation|translated }}``, ``{% translate column.heading %}``)."""
    return text
