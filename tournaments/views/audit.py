"""The audit page of an event (every staff role): who changed what, when, from which
value to which and why, filterable by round, player and person, and as CSV."""

from __future__ import annotations

import csv

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..formats.spreadsheet import safe_cell
from ..forms import AuditFilterForm
from ..models import Event
from ..permissions import event_staff_required
from ..selectors.audit import AuditFilter, audit_for_staff, audit_people

PAGE_ROWS = 500  # the page shows the newest rows; the CSV has them all


def _filter(request: HttpRequest, event: Event) -> tuple[AuditFilterForm, AuditFilter]:
    rounds = sorted(set(event.rounds.values_list("number", flat=True)))
    players = [
        (r.pk, r.player.name)
        for r in event.registrations.select_related("player").order_by("player__name")
    ]
    form = AuditFilterForm(request.GET, rounds=rounds, players=players, people=audit_people(event))
    if not form.is_valid():
        return form, AuditFilter()
    data = form.cleaned_data
    return form, AuditFilter(data["round"], data["player"], data["person"] or "")


@require_safe
@event_staff_required("audit")
def audit(request: HttpRequest, event: Event) -> HttpResponse:
    """The newest audit rows matching the filters (a GET form, so a filtered view is a
    link), with a link to the same rows as CSV."""
    form, f = _filter(request, event)
    lines = audit_for_staff(event, f, limit=PAGE_ROWS)
    context = {
        "event": event,
        "form": form,
        "lines": lines,
        "truncated": len(lines) == PAGE_ROWS,
        "query": request.GET.urlencode(),
    }
    return render(request, "tournaments/staff/audit.html", context)


@require_safe
@event_staff_required("audit")
def audit_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """Every audit row matching the filters as CSV (UTF-8, one header line); a cell a
    spreadsheet would run as a formula is written as text (``formats.spreadsheet``)."""
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
