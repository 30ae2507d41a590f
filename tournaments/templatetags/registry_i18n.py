"""``{{ text|translated }}`` and ``{{ m.why|why }}``: a text of the pure registry (a ruleset's label or draw word,
a column's explanation, marked with ``rulesets.base.gettext_noop``) in the visitor's
language; ``{{ run.error|shown }}`` and ``{{ job.stage|import_stage }}``: a message stored
by a background worker (``tournaments.stored_text``); ``{{ name|bdi }}``: a person's name
isolated for bidirectional text. A template builtin (config/settings.py), so every
template has it."""

import re
from decimal import Decimal

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop

from tournaments import stored_text

register = template.Library()


@register.filter
def translated(text: object) -> str:
    """``text`` translated by the catalogue, or as it is when the catalogue lacks it;
    empty stays empty (a ruleset without drawn matches has no draw word)."""
    return gettext(str(text)) if text else ""


@register.filter
def bdi(name: object) -> SafeString:
    """``<bdi>name</bdi>``, the name escaped: a right-to-left name
    (Arabic, Hebrew) keeps its own direction and does not reorder the record, table
    number or "vs" written next to it, and any bidirectional control an old name still
    holds ends with the element. Empty stays empty. ``{{ m.p1.name|bdi }}``; inside
    ``blocktranslate``: ``with name=line.name|bdi``."""
    if name is None or name == "":
        return SafeString("")
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def shown(text: object) -> str:
    """A stored message in the visitor's language (``tournaments.stored_text.shown``): a
    background run's note or error, an import job's error, a pure module's refusal."""
    return stored_text.shown(text)


@register.filter
def import_stage(stage: str) -> str:
    """An import job's stage in the visitor's language (``stored_text.import_stage``)."""
    return stored_text.import_stage(stage)


# The pairing engines' explanations (``Match.why``, stored in English as docs/interfaces.md's
# ``pair --json`` gives them): each "; "-separated part is shown in the visitor's language.
WHY_WORDS = {
    "same record": gettext_noop("same record"),
    "rematch: no alternative": gettext_noop("rematch: no alternative"),
    "rematch avoided": gettext_noop("rematch avoided"),
    "repeat opponents: no alternative": gettext_noop("repeat opponents: no alternative"),
    "smaller pod again: no alternative": gettext_noop("smaller pod again: no alternative"),
    "bye: lowest bracket, random": gettext_noop("bye: lowest bracket, random"),
    "bye: lowest bracket without a bye, random": gettext_noop(
        "bye: lowest bracket without a bye, random"
    ),
    "manual change": gettext_noop("manual change"),  # a staff swap (services.undo)
}
WHY_PATTERNS = (
    (
        re.compile(r"^paired down from (?P<points>\d+) points$"),
        gettext_noop("paired down from %(points)s points"),
    ),
    (re.compile(r"^paired down from 1 point$"), gettext_noop("paired down from 1 point")),
    (re.compile(r"^paired (?P<way>up|down): (?P<names>.+)$"), None),
    (re.compile(r"^seed (?P<a>\d+) vs seed (?P<b>\d+)$"), gettext_noop("seed %(a)s vs seed %(b)s")),
    (re.compile(r"^bye: seed (?P<seed>\d+)$"), gettext_noop("bye: seed %(seed)s")),
)
WHY_PREFIXES = {
    "division over record": gettext_noop("division over record"),
    "other division": gettext_noop("other division"),
}


def _why_part(part: str) -> str:
    if part in WHY_WORDS:
        return gettext(WHY_WORDS[part])
    for prefix, word in WHY_PREFIXES.items():
        if part.startswith(prefix + ": "):
            return f"{gettext(word)}: {_why_part(part.removeprefix(prefix + ': '))}"
    for pattern, text in WHY_PATTERNS:
        m = pattern.match(part)
        if m is None:
            continue
        if text is None:  # paired up / paired down: names
            way = gettext("paired up") if m["way"] == "up" else gettext("paired down")
            return f"{way}: {m['names']}"
        return gettext(text) % m.groupdict()
    return part


@register.filter
def why(text: str) -> str:
    """A pairing's ``why`` in the visitor's language: "paired down from 6 points; rematch
    avoided" → "emparejado hacia abajo desde 6 puntos; revancha evitada". A part the
    catalogue does not know (a newer engine text) is shown as stored."""
    return "; ".join(_why_part(p) for p in str(text or "").split("; ")) if text else ""


# What an audit row is about (tournaments.selectors.audit, in English as the audit CSV
# writes it): a table, or the kind of object.
SUBJECT_WORDS = {
    "bye": gettext_noop("bye"),
    "event": gettext_noop("event"),
    "round": gettext_noop("round"),
    "match": gettext_noop("match"),
    "registration": gettext_noop("registration"),
    "standings": gettext_noop("standings"),
    "staff": gettext_noop("staff"),
}
SUBJECT_TABLE = re.compile(r"^table (?P<table>\d+)$")


@register.filter
def audit_subject(text: str) -> str:
    """An audit row's subject in the visitor's language ("table 4" → "mesa 4"); a
    player's name is shown as it is."""
    m = SUBJECT_TABLE.match(str(text))
    if m:
        return gettext("table %(table)s") % {"table": m["table"]}
    return gettext(SUBJECT_WORDS[text]) if text in SUBJECT_WORDS else text


DECIMAL_TEXT = re.compile(r"^(?P<number>-?\d+\.(?P<places>\d+))(?P<rest> ?%?)$")


@register.filter
def localized_number(text: object) -> str:
    """A tiebreaker as the ruleset wrote it ("62.50", "33.33 %") in the visitor's number
    format ("62,50" in Spanish), same decimal places; anything else as it is. Only for
    pages: CSV and JSON keep the machine format (docs/interfaces.md)."""
    m = DECIMAL_TEXT.match(str(text))
    if m is None:
        return str(text)
    number = formats.number_format(Decimal(m["number"]), decimal_pos=len(m["places"]))
    return number + m["rest"]
