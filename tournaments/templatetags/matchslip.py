"""Template filters of Matchslip's pages."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rulesets import RULESETS, Ruleset
from rulesets.tables import Recommendation, RoundTable

from .. import live
from ..forms import QUICK_SCORES, QUICK_SCORES_BO1
from ..live.stream import event_name
from ..models import EventStatus
from ..selectors.names import registration_name
from ..services.runs import no_answer as lease_no_answer

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` or None: ``{{ reports|get_item:m.id }}``."""
    return (mapping or {}).get(key)


@register.filter
def shown_name(registration: Any) -> str:
    """A registration's name as people see it, told apart from a same-name player of its
    event ("Noah Williams #0017", ``selectors.names.registration_name``).
    Free when the queryset was read with ``with_shown_names``, else one query."""
    return registration_name(registration)


@register.filter
def ruleset(ruleset_id: str) -> Ruleset | None:
    """The ``Ruleset`` of an id, for what a page offers: ``{{ event.ruleset|ruleset }}``."""
    return RULESETS.get(ruleset_id)


def quick_score_label(score: str, first: str, second: str, draw_word: str) -> str:
    """A quick score's button text: the winner with their games first ("Ann 2-1",
    "Ben 2-0"), or a drawn match in the ruleset's word ("Draw 1-1-1", "Intentional draw
    0-0-3"; a best-of-1's "Draw 0-0-1"). ``score`` is in seat order: first's wins,
    second's wins, drawn games."""
    a, b, drawn = (int(x) for x in score.split("-"))
    if a != b:
        return f"{first if a > b else second} {max(a, b)}-{min(a, b)}"
    if not a and not b and drawn > 1:  # 0-0-3: an intentional draw
        return _("Intentional %(draw)s %(score)s") % {"draw": _(draw_word).lower(), "score": score}
    return f"{_(draw_word)} {score}"


@register.simple_tag
def quick_scores(
    first: str, second: str, draw_word: str = "", ties: bool = True, best_of: int = 3
) -> list[tuple[str, str]]:
    """The quick game-score buttons of a best-of-3 slip as ``(value, label)``, each label
    naming the winner; the drawn scores only when ``ties`` and the ruleset has a word
    for a drawn match: ``{% quick_scores m.p1.name m.p2.name event.rules.draw_word ties
    event.best_of as scores %}``. ``best_of`` 1 (a best-of-1 Magic event): 1-0, 0-1 and
    the drawn game 0-0-1."""
    draws = bool(ties and draw_word)
    return [
        (score, quick_score_label(score, first, second, draw_word))
        for score in (QUICK_SCORES_BO1 if best_of == 1 else QUICK_SCORES)
        if draws or score.split("-")[0] != score.split("-")[1]
    ]


def _table_name(table: RoundTable) -> str:
    """A round table's name without its source: "Magic" for "Magic (MTR Appendix E)",
    "Magic, Booster Draft playoff" for "Magic (MTR Appendix E), Booster Draft playoff"."""
    return re.sub(r" \([^)]*\)", "", _(table.label))


@register.simple_tag
def recommendation_text(rec: Recommendation | None, table: RoundTable | None = None) -> str:
    """A round-table recommendation in plain words, for staff: "Single elimination: 3
    rounds, no Swiss (Magic table for 5–8 players)", "5 Swiss rounds, top 8", "9 Swiss
    rounds, top 8; 5 Day 2 rounds". The rule ID (P-RT-5) is for a tooltip:
    ``<span title="{{ rec.rule }}">{% recommendation_text rec table %}</span>``."""
    if rec is None:
        return ""
    if not rec.rounds:
        n = rec.elimination_rounds
        text = ngettext(
            "Single elimination: %(n)d round, no Swiss",
            "Single elimination: %(n)d rounds, no Swiss",
            n,
        ) % {"n": n}
    else:
        text = ngettext("%(n)d Swiss round", "%(n)d Swiss rounds", rec.rounds) % {"n": rec.rounds}
        text += ", " + (_("top %(size)s") % {"size": rec.cut} if rec.cut else _("no top cut"))
    if rec.day2_rounds:
        text += "; " + _("%(n)d Day 2 rounds") % {"n": rec.day2_rounds}
    if table is not None and rec.row:
        text += " " + _("(%(table)s table for %(row)s players)") % {
            "table": _table_name(table),
            "row": rec.row,
        }
    return text


@register.filter
def minutes(seconds: int | None) -> int:
    """Seconds as whole minutes, rounded down (the planner's lengths): 3540 → 59."""
    return int(seconds or 0) // 60


@register.simple_tag(takes_context=True)
def live_source(
    context: template.Context,
    event: Any,
    reg: Any = None,
    staff: bool = False,
    extra: str = "",
    page: str = "",
) -> str:
    """The attributes that make a page follow its event live (``live``): put on
    ``<main>`` (base.html's ``live`` block). The stream of the public pages (``extra``:
    the optional public topics it follows too, ``clock`` and ``results``, as the
    projector does), of ``reg``'s own page, or (``staff``) of the staff pages, with the
    versions the page shows now in its query string and how often to poll when push does
    not get through. Empty for a public page of a finished event (nothing changes any
    more). ``page`` (a staff page's own address): the whole content of ``<main>``
    refreshes itself on every staff notice, fetched as a plain page (``data-live-page``),
    morphed into place (idiomorph) and not inherited by the forms inside it; not on the
    answer to a posted form (a paste's preview), which a GET of its address would not
    give back (a 405 found on the organiser's day). ``data-live-texts``: what
    ``live.js`` says, in the visitor's language, when it holds a refresh while someone
    types (``_live_texts``). 1 query."""
    if staff:
        url = reverse("staff:live", args=[event.slug])
        topics = [live.STAFF, live.CLOCK]
    elif event.status == EventStatus.FINISHED:
        return ""
    elif reg is not None:
        url = reverse("public:player_live", args=[event.slug, reg.report_token])
        topics = [live.PUBLIC, live.player_topic(reg.pk)]
    else:
        url = reverse("public:live", args=[event.slug])
        topics = [live.PUBLIC, *(t for t in extra.split() if t in live.OPTIONAL_PUBLIC)]
    query = {event_name(t): v for t, v in live.current(event.pk, topics).items()}
    # A prebuilt page shows the version its announcement will give (public_pages._render).
    if live.PUBLIC in query:
        query[live.PUBLIC] += getattr(context.get("request"), "live_ahead", 0)
    query["poll"] = settings.PUBLIC_REFRESH_SECONDS
    request = context.get("request")
    if page and request is not None and request.method not in ("GET", "HEAD"):
        page = ""  # the answer to a form (a preview, errors): never refetched by GET
    if not page:
        return format_html(
            ' hx-ext="sse" sse-connect="{}?{}" sse-close="finished" data-live data-live-texts="{}"',
            url,
            urlencode(query),
            _live_texts(),
        )
    # idiomorph's morph keeps every element that did not change: a button under the
    # scorekeeper's finger stays the same button, an open <details> stays open.
    return format_html(
        ' hx-ext="sse, morph" sse-connect="{}?{}" data-live hx-get="{}" hx-trigger="sse:staff"'
        ' hx-select="main > *" hx-swap="morph:innerHTML" hx-disinherit="*" data-live-page'
        ' data-live-texts="{}"',
        url,
        urlencode(query),
        page,
        _live_texts(),
    )


def _live_texts() -> str:
    """The texts ``static/js/live.js`` shows, as JSON: ``held`` and ``show`` (a refresh
    waits while someone types in what it would replace: the note and its button that
    applies it now), ``lost`` and ``dismiss`` (a refresh took away a form that held what
    someone typed: the warning, followed by what they typed, and its button)."""
    return json.dumps(
        {
            "held": _("New updates: they appear when you finish typing."),
            "show": _("Show now"),
            "lost": _("This update removed the form you were filling in. What you typed:"),
            "dismiss": _("Dismiss"),
        },
        ensure_ascii=False,
    )


@register.filter
def no_answer(row: Any) -> Any:
    """Why no worker has answered a background run or import job (``services.runs.
    NoAnswer``: reason, seconds, lost), judged now in this request, or None:
    ``{% with silence=run|no_answer %}``."""
    return lease_no_answer(row) if row is not None else None


# Parameters that only steer a refresh (static/js/live.js adds ``live`` to a refresh on
# a notice, so no cache answers it with an older page): never part of a link to the page.
REFRESH_PARAMETERS = ("live",)


@register.filter
def page_url(request: Any) -> str:
    """The address of the page ``request`` shows, for a link to it (the public pages'
    "Refresh"): its path and query without the refresh-only ``live``
    parameter, e.g. ``/e/x/pairings/?by=name&live=public-17`` → ``/e/x/pairings/?by=name``.
    A request without a query answers its path. Never raises."""
    query = request.GET.copy()
    for name in REFRESH_PARAMETERS:
        query.pop(name, None)
    encoded = query.urlencode()
    return f"{request.path}?{encoded}" if encoded else request.path
