"""The audit page of an event (every staff role): who changed what, when, from which
value to which and why, filterable by round, player and person, and as CSV."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from ..forms import AuditFilterForm
from ..models import Event
from ..permissions import event_staff_required
from ..selectors.audit import AuditFilter, audit_for_staff, audit_page_for_staff, audit_people
from ..selectors.names import registration_name, with_shown_names
from ..spreadsheet import safe_cell


def _filter(request: HttpRequest, event: Event) -> tuple[AuditFilterForm, AuditFilter]:
    rounds = sorted(set(event.rounds.values_list("number", flat=True)))
    regs = with_shown_names(event.registrations.all(), event.pk).order_by("player__name", "pk")
    players = [(r.pk, registration_name(r)) for r in regs]  # same names told apart
    form = AuditFilterForm(request.GET, rounds=rounds, players=players, people=audit_people(event))
    if not form.is_valid():
        return form, AuditFilter()
    data = form.cleaned_data
    return form, AuditFilter(data["round"], data["player"], data["person"] or "")


def _page_number(request: HttpRequest) -> int | None:
    """The ``page`` asked for: 1 when not given, None when it is not a whole number."""
    value = request.GET.get("page", "").strip()
    if not value:
        return 1
    return int(value) if value.isdigit() else None


def _page_url(request: HttpRequest, number: int) -> str:
    """``?…`` for page ``number`` of the audit page, keeping the filters."""
    query = request.GET.copy()
    query["page"] = str(number)
    return f"?{query.urlencode()}"


@require_safe
@event_staff_required("audit")
def audit(request: HttpRequest, event: Event) -> HttpResponse:
    """One page of the audit rows matching the filters (a GET form, so a filtered view
    is a link), ``AUDIT_PAGE_ROWS`` a page, newest first, with links to the other pages
    keeping the filters and to every matching row as CSV. A ``page``
    that is not a number or does not exist shows the nearest page and says so."""
    form, f = _filter(request, event)
    asked = _page_number(request)
    page = audit_page_for_staff(event, f, asked or 1)
    if asked is None or asked != page.number:
        messages.info(
            request,
            gettext("There is no page %(asked)s: this is page %(number)s of %(pages)s.")
            % {"asked": request.GET.get("page", ""), "number": page.number, "pages": page.pages},
        )
    filters = request.GET.copy()
    filters.pop("page", None)
    n = page.number
    context = {
        "event": event,
        "form": form,
        "page": page,
        "lines": page.lines,
        "query": filters.urlencode(),
        "newest_url": _page_url(request, 1) if n > 1 else "",
        "newer_url": _page_url(request, n - 1) if n > 1 else "",
        "older_url": _page_url(request, n + 1) if n < page.pages else "",
        "oldest_url": _page_url(request, page.pages) if n < page.pages else "",
    }
    return render(request, "tournaments/staff/audit.html", context)


@require_safe
@event_staff_required("audit")
def audit_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """Every audit row matching the filters as CSV (UTF-8, one header line); a cell a
    spreadsheet would run as a formula is written as text (``tournaments.spreadsheet``)."""
    _, f = _filter(request, event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-audit.csv"'
    writer = csv.writer(response)
    writer.writerow(["at", "who", "action", "object", "round", "old", "new", "reason"])
    for ln in audit_for_staff(event, f):
        writer.writerow(
            map(
                safe_cell,
                [
                    ln.at.isoformat(),
                    ln.who,
                    ln.action,
                    ln.subject,
                    ln.round_number or "",
                    ln.old,
                    ln.new,
                    ln.reason,
                ],
            )
        )
    return response
