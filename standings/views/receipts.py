"""Tiebreaker receipt pages, phone-first: how one player's tiebreaker
columns were counted, opponent by opponent, and how they moved since the previous round.

Two addresses, one page: ``public:receipt`` (``/e/<event>/standings/player/<id>/``, the
link on each name of the public standings) and ``public:player_receipt``
(``/e/<event>/p/<token>/receipt/``, from the player's private page, sent private like
that page). The figures come from ``standings.receipts`` (the standings engine's own
counting); this module only words them in the visitor's language. The page follows its
event live as the public standings do (the ``public`` notices refresh its ``live`` part).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext
from django.views.decorators.http import require_safe

from rulesets import Column, Ruleset
from rulesets.base import as_decimal, as_percent
from tournaments.models import Event, Registration
from tournaments.selectors.names import registration_name, twin_exists
from tournaments.templatetags.registry_i18n import localized_number
from tournaments.views.common import HtmxRequest, public_event_or_404, public_page

from ..engine.receipts import (
    Adjustment,
    Applied,
    ColumnReceipt,
    Combine,
    LineKind,
    Result,
    RoundLine,
    Term,
    TermChange,
)
from ..receipts import PlayerReceipt, StageReceipt, player_receipt_cached

TEMPLATE = "standings/public/receipt.html"

#: What a player's own figure is called, by the first averaged column that counts it.
OWN_LABELS = {
    "owp": gettext_noop("Their own win %, as their opponents' OWP counts it"),
    "omw": gettext_noop("Their own match-win %, as their opponents' OMW counts it"),
    "omwp": gettext_noop("Their own match-win %, as their opponents' OMWP counts it"),
}


def _registrations() -> QuerySet[Registration]:
    """Registrations with what the page shows: the player, the division, the event and
    whether another player of the event shares the name (``selectors.names``)."""
    return Registration.objects.select_related("player", "division", "event").annotate(
        name_twin=twin_exists()
    )


@require_safe
def receipt(request: HtmxRequest, slug: str, registration_id: int) -> HttpResponse:
    """The public receipt of one player of the standings (404 for a draft event seen by a
    non-staff visitor, or a player of another event)."""
    event = public_event_or_404(request, slug)
    reg = get_object_or_404(_registrations(), event=event, pk=registration_id)
    return _render(request, event, reg, private=False)


@require_safe
def player_receipt(request: HtmxRequest, slug: str, token: str) -> HttpResponse:
    """The player's own receipt, from their private link (404 for an unknown token); sent
    ``private, no-store`` and ``same-origin`` as the private page is
    (``tournaments.views.player``)."""
    reg = get_object_or_404(_registrations(), event__slug=slug, report_token=token)
    response = _render(request, reg.event, reg, private=True)
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response


def _render(request: HtmxRequest, event: Event, reg: Registration, private: bool) -> HttpResponse:
    """The page, or its ``live`` partial for the refresh a public notice causes (the page
    follows the event as the standings page does, ``public_page``): the receipt kept for
    the latest standings (``player_receipt_cached``)."""
    found = player_receipt_cached(event, reg)
    context = {
        "event": event,
        "reg": reg,
        "name": registration_name(reg),
        "private": private,
        "receipt": found,
        "stages": [_stage(event, found, s) for s in reversed(found.stages)] if found else [],
        "agrees": found.agrees if found else True,
    }
    return public_page(request, TEMPLATE, context)


# --- the words and numbers of the page ---------------------------------------------


@dataclass(frozen=True)
class Shown:
    """One figure as the page writes it: ``text`` (localized), ``notes`` (the rules
    applied, in words), ``change`` (since the previous round: "", "new" or a text)."""

    text: str
    notes: tuple[str, ...] = ()
    change: str = ""


@dataclass(frozen=True)
class ShownColumn:
    """A column of the ruleset on the receipt: heading, the standings' value, the
    arithmetic that gives it, its change and the rules applied to it as a whole."""

    column: Column
    value: str
    arithmetic: str
    change: str
    notes: tuple[str, ...]


@dataclass(frozen=True)
class ShownLine:
    """One round line: round (as the event numbers it), who, the result, the opponent's
    counted record, and one figure per column (None: the line adds nothing to it)."""

    round: int
    kind: str
    name: str
    link: str
    result: str
    record: str
    games: str
    cells: tuple[tuple[Column, Shown | None], ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class ShownStage:
    """One standings call's receipt: title, note, own figure, columns and lines."""

    key: str
    title: str
    note: str
    own: Shown | None
    own_label: str
    columns: tuple[ShownColumn, ...]
    lines: tuple[ShownLine, ...]
    counted: bool


def _stage(event: Event, found: PlayerReceipt, stage: StageReceipt) -> ShownStage:
    rules = found.ruleset
    r = stage.receipt
    first, last = stage.offset + 1, stage.offset + r.rounds
    before = stage.before.rounds + stage.offset if stage.before else None
    if stage.day2:
        key, title = "day2", _("Day 2: rounds %(first)s–%(last)s") % {"first": first, "last": last}
        note = _("Day 2 tiebreakers count the Day 2 rounds only (P-D2-2, R-3).")
    elif len(found.stages) > 1:
        key, title = "day1", _("Day 1: rounds 1–%(last)s") % {"last": last}
        note = _("Not carried into Day 2 (P-D2-2): shown for reference.")
    else:
        key, title, note = "swiss", _("After round %(number)s") % {"number": last}, ""
    changes = {c.key: c for c in stage.columns}
    term_changes = {(t.round, t.opponent, t.key): t for t in stage.terms}
    columns = tuple(
        _column(col, r.column(col.key), changes[col.key].before, before, mine=True)
        for col in rules.columns
    )
    lines = tuple(
        _line(event, found, rules, line, stage.offset, term_changes, before is not None)
        for line in r.lines
    )
    own_key = next((c.key for c in rules.columns if c.key in OWN_LABELS), "")
    own = _shown(r.own, _column_of(rules, own_key), mine=True) if r.own and own_key else None
    return ShownStage(
        key, title, note, own, _(OWN_LABELS[own_key]) if own else "", columns, lines, stage.counted
    )


def _column_of(rules: Ruleset, key: str) -> Column:
    return next(c for c in rules.columns if c.key == key)


def _column(
    col: Column, c: ColumnReceipt, before: Fraction | None, round_before: int | None, mine: bool
) -> ShownColumn:
    value = localized_number(col.show(c.value))
    own = c.terms[0].applied if c.combine is Combine.OWN and c.terms else ()
    notes = tuple(_applied(a, col, mine) for a in (*c.applied, *own))
    if round_before is None:
        change = ""
    elif before is None:
        change = _("new since round %(number)s") % {"number": round_before}
    elif before == c.value:
        change = _("unchanged since round %(number)s") % {"number": round_before}
    else:
        change = _("%(delta)s since round %(number)s") % {
            "delta": signed_change(col, c.value - before),
            "number": round_before,
        }
    return ShownColumn(col, value, _arithmetic(col, c), change, notes)


def _arithmetic(col: Column, c: ColumnReceipt) -> str:
    """How the terms make the value, in words: a mean, a sum or a division."""
    if not c.terms:
        return _("no opponent yet: %(value)s") % {"value": localized_number(col.show(c.empty))}
    if c.combine is Combine.MEAN:
        return ngettext(
            "%(sum)s ÷ %(count)s opponent = %(value)s",
            "%(sum)s ÷ %(count)s opponents = %(value)s",
            len(c.terms),
        ) % {
            "sum": localized_number(col.show(c.sum)),
            "count": len(c.terms),
            "value": localized_number(col.show(c.total())),
        }
    if c.combine is Combine.SUM and len(c.terms) == 1:
        return ""
    if c.combine is Combine.SUM:
        parts = " + ".join(localized_number(col.show(t.value)) for t in c.terms)
        return f"{parts} = {localized_number(col.show(c.total()))}"
    own = c.terms[0]
    if own.parts is None:
        return localized_number(col.show(own.value))
    return (
        f"{_number(own.parts[0])} ÷ {_number(own.parts[1])} = {localized_number(col.show(own.raw))}"
    )


def _line(
    event: Event,
    found: PlayerReceipt,
    rules: Ruleset,
    line: RoundLine,
    offset: int,
    term_changes: dict[tuple[int, str | None, str], TermChange],
    compared: bool,
) -> ShownLine:
    name, link = _who(event, found, line)
    cells = tuple(
        (
            col,
            _shown(
                line.terms.get(col.key),
                col,
                mine=False,
                change=_term_change(term_changes, line, col, compared),
            ),
        )
        for col in rules.columns
    )
    return ShownLine(
        round=line.round + offset,
        kind=str(line.kind),
        name=name,
        link=link,
        result=_result(rules, line),
        record=line.record,
        games="-".join(map(str, line.games[:2] if not line.games[2] else line.games))
        if line.games
        else "",
        cells=cells,
        notes=tuple(_applied(a, None, mine=False) for a in line.applied),
    )


def _who(event: Event, found: PlayerReceipt, line: RoundLine) -> tuple[str, str]:
    if line.kind is LineKind.BYE:
        return _("Bye"), ""
    if line.kind is LineKind.VIRTUAL:
        return _("Virtual opponent"), ""
    if line.kind is LineKind.LATE_LOSS or line.opponent is None:
        return _("Late entry: no opponent"), ""
    link = reverse("public:receipt", args=[event.slug, int(line.opponent)])
    return found.names.get(line.opponent, line.opponent), link


def _result(rules: Ruleset, line: RoundLine) -> str:
    words = {
        Result.WIN: _("Win"),
        Result.LOSS: _("Loss"),
        Result.DRAW: _(rules.draw_word or "Draw"),
        Result.BYE: _("Bye"),
        Result.NONE: "",
    }
    return words[line.result]


def _term_change(
    changes: dict[tuple[int, str | None, str], TermChange],
    line: RoundLine,
    col: Column,
    compared: bool,
) -> str:
    """How a line's term moved since the previous round: new, "was …", or "" (same)."""
    found = changes.get((line.round, line.opponent, col.key)) if compared else None
    if found is None:
        return ""
    if found.before is None:
        return _("new this round")
    return _("was %(value)s") % {"value": localized_number(col.show(found.before))}


def _shown(term: Term | None, col: Column | None, *, mine: bool, change: str = "") -> Shown | None:
    if term is None or col is None:
        return None
    text = localized_number(col.show(term.value))
    if term.raw != term.value:
        text = f"{localized_number(col.show(term.raw))} → {text}"
    elif term.parts is not None and col.format is not None and term.parts[1]:
        text = f"{text} ({_number(term.parts[0])} ÷ {_number(term.parts[1])})"
    notes = tuple(_applied(a, col, mine) for a in term.applied)
    return Shown(text, notes, change)


def _applied(a: Applied, col: Column | None, mine: bool) -> str:
    """One rule applied, in words, with its rule IDs."""
    rules = ", ".join(a.rules)
    bound = _bound(a.bound, col)
    kind = a.adjustment
    if kind is Adjustment.FLOOR:
        return _("raised to the %(bound)s floor (%(rules)s)") % {"bound": bound, "rules": rules}
    if kind is Adjustment.CAP:
        return _("capped at %(bound)s: a player who dropped (%(rules)s)") % {
            "bound": bound,
            "rules": rules,
        }
    if kind is Adjustment.FROZEN and mine:
        return _("as of round %(number)s, when this player dropped (%(rules)s)") % {
            "number": a.round,
            "rules": rules,
        }
    if kind is Adjustment.FROZEN:
        return _("as of round %(number)s, when they dropped (%(rules)s)") % {
            "number": a.round,
            "rules": rules,
        }
    if kind is Adjustment.BYES_LEFT_OUT:
        return ngettext(
            "%(count)s bye left out of the record (%(rules)s)",
            "%(count)s byes left out of the record (%(rules)s)",
            a.count or 0,
        ) % {"count": a.count, "rules": rules}
    if kind is Adjustment.LEFT_OUT:
        return _("no opponent: left out of the averages (%(rules)s)") % {"rules": rules}
    if kind is Adjustment.VIRTUAL:
        return _("a smaller pod's virtual opponent, at %(bound)s (%(rules)s)") % {
            "bound": bound,
            "rules": rules,
        }
    if kind is Adjustment.DEFAULT:
        return _("counted as %(bound)s (%(rules)s)") % {"bound": bound, "rules": rules}
    if kind is Adjustment.PLAYOFF:
        return _("playoff matches counted (%(rules)s)") % {"rules": rules}
    return _("Day 2 rounds only (%(rules)s)") % {"rules": rules}


def _bound(value: Fraction | None, col: Column | None) -> str:
    """A floor, cap or default as the column writes it (a percentage without a column)."""
    if value is None:
        return ""
    return localized_number(col.show(value) if col is not None else as_percent(value))


def signed_change(col: Column, delta: Fraction) -> str:
    """``delta`` (the column's value now minus before, an exact Fraction: 0–1 for a
    percentage column) as the page writes a change, signed, in the column's own unit and
    the visitor's language: a percentage column's in percentage points with the two
    decimals of its values (P-TB-8), Fraction(1, 24) → ``"+4.17 pp"`` (``"+4,17 p. p."``
    in Spanish; never ``"+4.17%"``, which reads as a relative change); any other column
    as it writes its values: match points ``"−2.80"`` (OAMP), a count ``"+3"`` (wins
    against, game wins). A negative change takes the minus sign (U+2212)."""
    if col.format is as_percent:
        points = localized_number(as_decimal(abs(delta) * 100))
        text = pgettext("percentage points", "%(points)s pp") % {"points": points}
    else:
        text = localized_number(col.show(abs(delta)))
    return f"−{text}" if delta < 0 else f"+{text}"


def _number(value: Fraction) -> str:
    """A numerator or denominator: a whole number as it is, else two decimals at most."""
    if value.denominator == 1:
        return str(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    text = str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)).rstrip("0").rstrip(".")
    return localized_number(text) if "." in text else text
