"""The rulesets' marker for translatable text; the rulesets never import Django.

Two tools, both pure Python:

* :func:`gettext_noop` marks a fixed text (a label, a heading) for the catalogue; pages
  translate it where they show it (``{{ column.explanation|translated }}``).
* :class:`Text` is a sentence with values, e.g. a ``ValueError``'s message: an English
  ``msgid`` (marked for the catalogue) and its ``params``. It *is* the English string
  (``str(text)``, ``str(error)`` give it, so commands and logs are unchanged) and keeps
  the msgid and params, so the page showing it translates the msgid and fills in the
  params in the reader's language (``tournaments.stored_text.shown``). A param that is a
  ``Text`` itself (a ruleset's label) is translated too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the translation catalogue without translating it: Django's
    makemessages picks up this name. Pages translate the text where they show it
    (``{{ column.explanation|translated }}``, ``{% translate column.heading %}``)."""
    return text


Params = Mapping[str, Any] | tuple[Any, ...] | None


class Text(str):
    """A message as its ``msgid`` and ``params`` (a mapping for ``%(name)s`` placeholders,
    a tuple for ``%s``, or None: the msgid as it is), whose string value is the msgid
    rendered by :meth:`render` — English here.

    ``str(text)`` and ``str(ValueError(text))`` return the ``Text`` itself, so it survives
    being wrapped in another error (``InvalidInput(str(e))``); any other string operation
    (joining, f-strings, slicing) gives a plain ``str``. ``text % params`` gives a new
    ``Text`` of the same msgid with those params. A param that is an exception is kept as
    ``str(exception)`` (a ``Text`` when its message is one).
    """

    msgid: str
    params: Params

    def __new__(cls, msgid: str, params: Params = None) -> Text:
        params = _params(params)
        self = super().__new__(cls, cls.render(msgid, params))
        self.msgid, self.params = msgid, params
        return self

    @staticmethod
    def render(msgid: str, params: Params) -> str:
        """The string value: the English msgid with its params filled in."""
        return msgid if params is None else msgid % params

    def __str__(self) -> str:
        return self

    def __mod__(self, params: Any) -> Self:  # a Message stays a Message
        return type(self)(self.msgid, params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.msgid, self.params))


def _params(params: Any) -> Params:
    """``params`` as a dict or a tuple (a single value becomes a 1-tuple); exceptions
    replaced by their message."""

    def value(v: Any) -> Any:
        return str(v) if isinstance(v, BaseException) else v

    if params is None:
        return None
    if isinstance(params, Mapping):
        return {k: value(v) for k, v in params.items()}
    if isinstance(params, tuple):
        return tuple(value(v) for v in params)
    return (value(params),)


def text(msgid: str, **params: Any) -> Text:
    """``Text(msgid, params)``: ``raise ValueError(text(gettext_noop("A top %(cut)s needs
    …"), cut=8))``. Without params the msgid is kept as it is (no ``%`` applied)."""
    return Text(msgid, params or None)
