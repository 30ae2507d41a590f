"""Undo on the staff round page: discard a round's pairings before it starts,
swap two players between tables before it starts, undo the entry that completed a round
until the next round is paired (organisers and scorekeepers). Each view parses the form,
calls one service (``services.undo``) and shows a ``MatchslipError`` as a message
(docs/style.md §7); forms post and redirect (post/redirect/get).

Overriding a result every player reported needs a reason: see ``staff.match_result``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..errors import MatchslipError
from ..models import Event, Match, Registration, Round
from ..permissions import event_operator_required
from ..selectors import match_for_staff


class SwapForm(forms.Form):
    """Two players of the round (registration ids) and an optional reason."""

    first = forms.IntegerField(label=_("Player"))
    second = forms.IntegerField(label=_("Swap with"))
    reason = forms.CharField(max_length=500, required=False, label=_("Reason"))


class MoveForm(forms.Form):
    """A table of the round (match id), the table number it moves to, and a reason."""

    match = forms.IntegerField(label=_("Table"))
    table = forms.IntegerField(min_value=1, label=_("Move to table"))
    reason = forms.CharField(max_length=500, required=False, label=_("Reason"))


class UndoLastForm(forms.Form):
    """The table and version the page offered to undo, an optional reason, and the
    ticked confirmation (checked by the view: without it the question is shown)."""

    match = forms.IntegerField()
    version = forms.IntegerField(min_value=0)
    reason = forms.CharField(max_length=500, required=False, label=_("Reason"))
    confirm = forms.BooleanField(required=False, label=_("Yes, undo this entry"))


@require_POST
@event_operator_required
def round_discard(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Discard the pairings of a round that has not started; the
    dashboard then offers to pair it again. Refused, with the reason, once started."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    reason = request.POST.get("reason", "")
    try:
        services.round_pairings_discard(round=rnd, by=request.user, reason=reason)
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect("staff:round", event.slug, rnd.pk)
    messages.success(
        request,
        gettext("The pairings of round %(number)s were discarded: pair the round again.")
        % {"number": rnd.number},
    )
    return redirect("staff:dashboard", event.slug)


@require_POST
@event_operator_required
def round_swap(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Swap two players of a round that has not started between their tables (
    item 2). A refused swap (same player, same table, another pairing group, a started
    round) changes nothing and says why."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose the two players to swap."))
        return redirect("staff:round", event.slug, rnd.pk)
    regs = Registration.objects.select_related("player")
    first = get_object_or_404(regs, pk=form.cleaned_data["first"], event=event)
    second = get_object_or_404(regs, pk=form.cleaned_data["second"], event=event)
    try:
        services.round_seats_swap(
            round=rnd,
            first=first,
            second=second,
            by=request.user,
            reason=form.cleaned_data["reason"],
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Swapped %(first)s and %(second)s.")
            % {"first": first.player.name, "second": second.player.name},
        )
    return redirect("staff:round", event.slug, rnd.pk)


@require_POST
@event_operator_required
def round_move(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Re-seat a table of a round that has not started (``services.round_table_move``):
    its players move to another table number, trading with the table there. A refused
    move (a started round, a table another group plays at, a bye) changes nothing and
    says why."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a table and the table number it moves to."))
        return redirect("staff:round", event.slug, rnd.pk)
    match = get_object_or_404(Match, pk=form.cleaned_data["match"], round=rnd)
    was, to = match.table, form.cleaned_data["table"]
    try:
        services.round_table_move(
            round=rnd, match=match, table=to, by=request.user, reason=form.cleaned_data["reason"]
        )
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("Table %(was)s now plays at table %(to)s.") % {"was": was, "to": to},
        )
    return redirect("staff:round", event.slug, rnd.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@event_operator_required
def round_undo_last(request: HttpRequest, event: Event, round_id: int) -> HttpResponse:
    """Undo the entry that completed the round, once confirmed: its table is not
    reported again and the round is in progress; refused once the next round is
    paired, or when another entry came meanwhile. The round page's "Undo last entry"
    opens the question (GET with the table and version: its players and result, a
    reason, the tick box "Yes, undo this entry"); a post without the tick changes
    nothing and shows the question again, saying why."""
    rnd = get_object_or_404(Round, pk=round_id, event=event)
    form = UndoLastForm(request.POST if request.method == "POST" else request.GET)
    url = reverse("staff:round", args=[event.slug, rnd.pk])
    if not form.is_valid():
        messages.error(request, gettext("Nothing was undone: reload the round and try again."))
        return redirect(url)
    match = get_object_or_404(Match, pk=form.cleaned_data["match"], round=rnd)
    if request.method != "POST" or not form.cleaned_data["confirm"]:
        return _undo_question(request, event, rnd, match, form)
    try:
        m = services.round_last_entry_undo(
            round=rnd,
            by=request.user,
            match=match,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
        )
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect(url)
    messages.success(
        request,
        gettext(
            "Table %(table)s is not reported any more: round %(number)s is in progress again. "
            "Enter its slip."
        )
        % {"table": m.table, "number": rnd.number},
    )
    return redirect(f"{url}#match-{m.pk}")


def _undo_question(
    request: HttpRequest, event: Event, rnd: Round, match: Match, form: UndoLastForm
) -> HttpResponse:
    """The page asking "Undo the last entry?" for ``match`` (its players and recorded
    result, the version the round page showed); a posted form without the tick says
    that nothing changed. A last entry that can no longer be undone (the next round
    paired meanwhile) goes back to the round with the reason."""
    refusal = services.last_entry_undo_refusal(rnd)
    if refusal:
        messages.error(request, refusal)
        return redirect("staff:round", event.slug, rnd.pk)
    view, _ = match_for_staff(match.pk)
    refused = ""
    if request.method == "POST":
        refused = gettext("Nothing was undone: tick “Yes, undo this entry” to confirm.")
    context = {
        "event": event,
        "round": rnd,
        "m": view,
        "version": form.cleaned_data["version"],
        "reason": form.cleaned_data["reason"],
        "form": form,
        "refused": refused,
    }
    return render(request, "tournaments/staff/undo_last_confirm.html", context)
