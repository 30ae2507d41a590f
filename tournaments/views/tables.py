"""Table numbers across the pairing groups and "Start all", from the
staff dashboard: each group's first table (``services.tables``), and one button that
publishes and starts every paired-not-started round under one clock. Organisers and
scorekeepers (``operate``); each view calls one service, shows a ``MatchslipError`` as a
message and goes back to the dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ..errors import MatchslipError
from ..forms import FirstTableForm
from ..groups import group_label
from ..models import Event, PairingGroup
from ..permissions import event_operator_required
from ..services.tables import group_first_table_set, rounds_start_all


@require_POST
@event_operator_required
def first_table(request: HttpRequest, event: Event, group_key: str) -> HttpResponse:
    """Set a group's first table (empty: set when its next round is paired)."""
    group = get_object_or_404(PairingGroup, event=event, key=group_key)
    back = reverse("staff:dashboard", args=[event.slug]) + f"#group-{group.key}"
    form = FirstTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("The first table is a number from 1 to 9999."))
        return redirect(back)
    value = form.cleaned_data["first_table"]
    try:
        group = group_first_table_set(group=group, first_table=value, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect(back)
    label = group_label(group)
    if value is None:
        text = gettext("%(group)s: the first table is set when its next round is paired.")
    else:
        text = gettext("%(group)s: the next rounds start at table %(table)s.")
    messages.success(request, text % {"group": label, "table": value})
    return redirect(back)


@require_POST
@event_operator_required
def start_all(request: HttpRequest, event: Event) -> HttpResponse:
    """Publish and start every paired-not-started round under one clock."""
    try:
        rounds = rounds_start_all(event=event, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        names = ", ".join(
            gettext("%(group)s round %(number)s")
            % {"group": group_label(r.group), "number": r.number}
            for r in rounds
        )
        messages.success(request, gettext("Started together: %(rounds)s.") % {"rounds": names})
    return redirect("staff:dashboard", event.slug)
