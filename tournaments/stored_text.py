"""Stored text: messages written now and read later, in the reader's language
(docs/architecture.md, "Languages").

A refusal raised in a request is translated when it is raised (``gettext``). A text
written where no language is active — a Celery worker's note or error on a
``BackgroundRun`` or ``ImportJob`` row, a beat sweep's note — is read later by staff in
their own language, so it is **stored language-neutrally and translated when shown**:

* Modules whose texts end up on such rows mark them with :func:`gettext_storable`
  instead of Django's ``gettext`` (the project's ``makemessages`` extracts that name
  too). It returns a :class:`Message`: the text translated into the active language, as
  Django's would, that also remembers its msgid and params
  (``gettext_storable("%(where)s: missing") % {"where": w}`` keeps both). A ``Message`` survives being wrapped in another error
  (``InvalidInput(str(e))``, see ``rulesets.i18n.Text``), so nothing else changes for
  requests, commands and logs.
* The worker stores ``stored(error)``: a ``Message`` (or a pure module's
  ``rulesets.i18n.Text``) becomes a JSON string ``{"msgid": …, "params": {…}}`` in the
  existing text column (no migration); params that are messages themselves are nested the
  same way ("Nothing to pair: <the step's sentence>"). Any other text is stored as it is.
  :func:`deferred` builds such a JSON string directly from a msgid marked with
  ``gettext_noop``.
* Pages show ``shown(text)`` (template filter ``|shown``): a JSON message is translated
  and filled in now, nested params too; a ``Text`` likewise; any other stored text is
  looked up in the catalogue as a whole (fixed English texts stored by older code or as
  constants, e.g. ``UNEXPECTED``) and else shown as stored (old rows, a player's name).

Chosen over a structured column (a migration per table) and over translating English
back by patterns (fragile) — except for an import job's short ``stage`` (120 characters,
too short for JSON), whose few fixed forms :func:`import_stage` matches.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext_noop

from rulesets.i18n import Params, Text

__all__ = ["Message", "deferred", "gettext_storable", "import_stage", "shown", "stored"]

MARK = '{"msgid": '  # how a stored message begins (json.dumps with "msgid" first)


class Message(Text):
    """A ``rulesets.i18n.Text`` whose string value is in the active language: Django's
    translation of ``msgid`` filled in with ``params``, nested ``Text`` params translated
    too. With no language active (a worker) that is the English msgid."""

    @staticmethod
    def render(msgid: str, params: Params) -> str:
        return _render(msgid, params)


def gettext_storable(message: str) -> Message:
    """Django's ``gettext`` that remembers the msgid: ``gettext_storable("…%(n)s…") %
    {"n": 3}`` is the translated text (a ``str``), and ``stored()`` of it the
    language-neutral form. Unlike Django's, a translation whose placeholders do not fit
    the params falls back to the English msgid, and ``Text`` params are translated too.
    Marked strings are extracted by ``manage.py makemessages`` (the keyword is added by
    ``tournaments.management.commands.makemessages``)."""
    return Message(message)


def _render(msgid: str, params: Params) -> str:
    """``msgid`` translated into the active language and filled in with ``params``, each
    ``Text`` param translated the same way; the English msgid when the translation's
    placeholders do not fit the params (a catalogue mistake must not hide the message)."""
    translated = translation.gettext(msgid)
    if params is None:
        return translated
    if isinstance(params, Mapping):
        values: Any = {k: shown(v) if isinstance(v, Text) else v for k, v in params.items()}
    else:
        values = tuple(shown(v) if isinstance(v, Text) else v for v in params)
    try:
        return translated % values
    except (KeyError, ValueError, TypeError):
        return msgid % values


def _plain(value: Any) -> Any:
    """A param as JSON can hold it: a message nested as a dict, numbers and text kept,
    anything else as its text."""
    if isinstance(value, Text):
        return _as_dict(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)


def _as_dict(text: Text) -> dict[str, Any]:
    params: Any = text.params
    if isinstance(params, Mapping):
        params = {k: _plain(v) for k, v in params.items()}
    elif params is not None:
        params = [_plain(v) for v in params]
    return {"msgid": text.msgid, "params": params}


def stored(value: object) -> str:
    """The text to store for ``value`` (a message, an exception or a string) so a page
    can show it later in its reader's language (:func:`shown`): a ``Text``/``Message``
    (also an exception's) as JSON, any other text as it is."""
    if isinstance(value, BaseException):
        value = str(value)  # a Text when the error's message is one
    if isinstance(value, Text):
        return json.dumps(_as_dict(value), ensure_ascii=False)
    return str(value)


def deferred(msgid: str, **params: Any) -> str:
    """The stored form of ``msgid`` (marked with ``gettext_noop``) filled in with
    ``params`` (numbers, text, or other messages), e.g.
    ``deferred(gettext_noop("Nothing to pair: %(why)s"), why=step.message)``."""
    return stored(Text(msgid, params or None))


def _from_dict(data: Any) -> Text | None:
    """The Text a stored dict stands for, nested params included; None when it is not
    one."""
    if not isinstance(data, dict) or not isinstance(data.get("msgid"), str):
        return None
    params = data.get("params")

    def value(v: Any) -> Any:
        return _from_dict(v) or v if isinstance(v, dict) else v

    if isinstance(params, dict):
        params = {str(k): value(v) for k, v in params.items()}
    elif isinstance(params, list):
        params = tuple(value(v) for v in params)
    elif params is not None:
        return None
    try:
        return Text(data["msgid"], params)
    except (KeyError, ValueError, TypeError):  # params that do not fit: not one of ours
        return None


def shown(value: object) -> str:
    """``value`` in the active language: a ``Text`` (a ``Message``, a pure module's
    ``Text``, or an exception carrying one) or a stored message (:func:`stored`) is
    translated and filled in; any other text is looked up in the catalogue as a whole,
    else shown as it is. Empty stays empty."""
    if isinstance(value, BaseException):
        value = str(value)
    if not value:
        return ""
    if isinstance(value, Text):
        return _render(value.msgid, value.params)
    text = str(value)
    if text.startswith(MARK):
        try:
            message = _from_dict(json.loads(text))
        except ValueError:
            message = None
        if message is not None:
            return _render(message.msgid, message.params)
    return translation.gettext(text)


# An import job's stage (``ImportJob.stage``): the importer's progress reports
# (``services.imports.event_import``) and the job's own fixed stages.
STAGES = (
    (
        re.compile(r"^Checking (?P<players>[\d,]+) players and (?P<matches>[\d,]+) matches$"),
        gettext_noop("Checking %(players)s players and %(matches)s matches"),
    ),
    (
        re.compile(r"^Writing (?P<players>[\d,]+) players$"),
        gettext_noop("Writing %(players)s players"),
    ),
    (
        re.compile(r"^Writing (?P<matches>[\d,]+) matches$"),
        gettext_noop("Writing %(matches)s matches"),
    ),
)


# The importer's one fixed stage, stored as its English msgid (marked for the catalogue).
SAVING = gettext_noop("Saving")


def import_stage(stage: str) -> str:
    """An import job's ``stage`` in the active language: "Writing 1,200 players" →
    "Escribiendo 1.200 jugadores"; a fixed stage ("Reading the file") from the catalogue,
    anything else as stored."""
    for pattern, msgid in STAGES:
        m = pattern.match(stage or "")
        if m:
            counts = {
                k: formats.number_format(int(v.replace(",", "")), force_grouping=True)
                for k, v in m.groupdict().items()
            }
            return translation.gettext(msgid) % counts
    return shown(stage)
