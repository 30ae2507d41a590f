"""Who runs the event: the staff list, inviting and removing staff and the event's
settings (organisers only), and a player's private link for the scorekeeping desk."""

from __future__ import annotations

from smtplib import SMTPException
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rulesets import get_ruleset
from rulesets.tables import Recommendation, recommend

from .. import services
from ..account_forms import EventDeleteForm
from ..errors import MatchslipError
from ..forms import EventOptionsForm, EventSettingsForm, StaffInviteForm
from ..models import Event, EventStaff, Registration, StaffInvite
from ..permissions import event_staff_required
from ..procedures import plans_ages_at_checkin
from ..qr import qr_svg
from ..selectors import divisions_for_event
from ..services.invites import INVITE_DAYS
from ..stored_text import shown
from ..venue import absolute_url
from .common import int_param


def _options_form(event: Event, data: Any = None) -> EventOptionsForm | None:
    """The ruleset's options with the event's values (defaults when unset)."""
    ruleset = get_ruleset(event.ruleset)
    if not ruleset.options:
        return None
    initial = {**ruleset.option_defaults(), **event.options}
    # Booleans stay booleans: the string "False" would render a ticked box whose
    # value could never be switched on.
    shown = {k: v if isinstance(v, bool) else str(v) for k, v in initial.items()}
    return EventOptionsForm(data, ruleset=ruleset, initial=shown)


def structure_recommendation(request: HttpRequest, event: Event) -> dict[str, Any]:
    """P-RT-5 (and the other round tables): what the event's table recommends for
    ``?players=N`` (default: the registered players) and, for MTG, players with 1/2/3
    awarded bye rounds (``?byes1=…&byes2=…&byes3=…``), each counting as 2/4/8 players.

    With players in several divisions and no ``?players``, the answer
    is per division (``divisions``: ``selectors.divisions_for_event``, what closing
    check-in sets, P-AGE-2 … P-AGE-5), not the table read with everyone together;
    ``checkin_sets``: closing check-in will still apply it (no round paired yet)."""
    table = get_ruleset(event.ruleset).table(
        event.structure, event.options, two_day=event.day2_rounds > 0
    )
    asked = int_param(request, "players")
    divisions = [d for d in divisions_for_event(event) if d.active and d.recommendation]
    several = len(divisions) > 1 and not asked
    players = asked or (0 if several else event.registrations.count())
    byes = {k: int_param(request, f"byes{k}") or 0 for k in (1, 2, 3)}
    context: dict[str, Any] = {"table": table, "players": players or "", "byes": byes}
    context["takes_byes"] = table.counting == "awarded-byes"
    if several:
        context["divisions"] = divisions
        context["checkin_sets"] = plans_ages_at_checkin(event) and not event.rounds.exists()
        return context
    try:
        found: Recommendation = recommend(
            table, players, awarded_byes=byes if context["takes_byes"] else None
        )
    except ValueError as e:
        context["problem"] = shown(e)  # a rulesets.i18n.Text: in the visitor's language
    else:
        context["recommendation"] = found
    return context


def _settings_form(event: Event, data: Any = None) -> EventSettingsForm:
    """The settings form with the event's values; the Play! Pokémon IDs only for a
    ruleset with TOM files."""
    tom_files = event.rules.features.tom_files
    initial = {
        "self_report": event.self_report,
        "sanction_id": event.sanction_id,
        "organizer_pop_id": event.organizer_pop_id,
    }
    return EventSettingsForm(data, tom_files=tom_files, initial=initial)


def _team_page(
    request: HttpRequest,
    event: Event,
    invite: StaffInviteForm | None = None,
    options: EventOptionsForm | None = None,
    settings: EventSettingsForm | None = None,
    invite_url: str = "",
    mail_problem: str = "",
):
    context = {
        "event": event,
        "staff": EventStaff.objects.filter(event=event)
        .select_related("user")
        .order_by("role", "user__username"),
        "invite_form": invite or StaffInviteForm(),
        "settings_form": settings or _settings_form(event),
        "options_form": options or _options_form(event),
        "ruleset": get_ruleset(event.ruleset),
        "structure": structure_recommendation(request, event),
        # pending invites, a new invite's link, delete.
        "invites": StaffInvite.objects.filter(
            event=event, used_at__isnull=True, expires_at__gt=timezone.now()
        ).order_by("-created_at"),
        "invite_url": invite_url,
        "invite_days": INVITE_DAYS,
        "mail_problem": mail_problem,
        "deletable": services.event_deletable(event),
        "delete_form": EventDeleteForm(),
    }
    return render(request, "tournaments/staff/team.html", context)


@require_safe
@event_staff_required("manage")
def team(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's staff with their roles, the invite form and the settings."""
    return _team_page(request, event)


@require_POST
@event_staff_required("manage")
def team_invite(request: HttpRequest, event: Event) -> HttpResponse:
    """Give someone a role, found by username or e-mail. An e-mail with no account, or
    nothing, makes a one-time invite link instead: shown here to copy,
    and sent to the address when there is one."""
    form = StaffInviteForm(request.POST)
    if form.is_valid():
        who, role = form.cleaned_data["who"].strip(), form.cleaned_data["role"]
        if not who or (_is_email(who) and not _has_account(who)):
            return _invite_link(request, event, form, email=who, role=role)
        try:
            staff = services.staff_invite(event=event, by=request.user, **form.cleaned_data)
        except MatchslipError as e:
            form.add_error("who", str(e))
        else:
            messages.success(
                request,
                gettext("%(user)s is now %(role)s.")
                % {"user": staff.user.get_username(), "role": staff.get_role_display()},
            )
            return redirect("staff:team", event.slug)
    return _team_page(request, event, invite=form)


def _is_email(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def _has_account(email: str) -> bool:
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(Q(email__iexact=email) | Q(username__iexact=email)).exists()


def _invite_link(
    request: HttpRequest, event: Event, form: StaffInviteForm, *, email: str, role: str
) -> HttpResponse:
    """Make the invite, send it when there is an address, and show the staff page with
    the link to copy (it is shown once: only its hash is stored)."""
    try:
        invite, token = services.staff_invite_create(
            event=event, role=role, email=email, by=request.user
        )
    except MatchslipError as e:
        form.add_error("role", str(e))
        return _team_page(request, event, invite=form)
    url = absolute_url(request, reverse("staff:invite_accept", args=[token]))
    problem = ""
    if email:
        try:
            services.staff_invite_mail(invite=invite, url=url)
        except (OSError, SMTPException) as e:
            problem = gettext("The e-mail could not be sent (%(error)s): send them the link.") % {
                "error": e
            }
        else:
            messages.success(
                request,
                gettext("Invite sent to %(email)s. The link below works once, for %(days)s days.")
                % {"email": email, "days": INVITE_DAYS},
            )
    response = _team_page(request, event, invite_url=url, mail_problem=problem)
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@event_staff_required("manage")
def team_remove(request: HttpRequest, event: Event, staff_id: int) -> HttpResponse:
    """Take a role away (the event keeps at least one organiser)."""
    staff = get_object_or_404(EventStaff.objects.select_related("user"), pk=staff_id, event=event)
    try:
        services.staff_remove(staff=staff, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            gettext("%(user)s is no longer %(role)s.")
            % {"user": staff.user.get_username(), "role": staff.get_role_display()},
        )
    return redirect("staff:team", event.slug)


@require_POST
@event_staff_required("manage")
def event_settings(request: HttpRequest, event: Event) -> HttpResponse:
    """Save the self-reporting setting and, for Pokémon, the sanction ID and the
    organiser's POP ID (``services.event_settings_update``, audited); a refused value is
    shown beside its field."""
    form = _settings_form(event, request.POST)
    if form.is_valid():
        try:
            services.event_settings_update(event=event, by=request.user, **form.cleaned_data)
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, gettext("Settings saved."))
            return redirect("staff:team", event.slug)
    return _team_page(request, event, settings=form)


@require_POST
@event_staff_required("manage")
def event_options(request: HttpRequest, event: Event) -> HttpResponse:
    """Save the ruleset's options (``mtg``: MWP floor R-7, playoffs in tiebreakers R-8,
    melee.gg ranking), validated by the service; a refusal names the option and value."""
    form = _options_form(event, request.POST)
    if form is None:
        messages.error(request, gettext("This ruleset has no options."))
        return redirect("staff:team", event.slug)
    if form.is_valid():
        try:
            services.event_settings_update(event=event, by=request.user, options=form.cleaned_data)
        except MatchslipError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, gettext("Ruleset options saved."))
            return redirect("staff:team", event.slug)
    return _team_page(request, event, options=form)


@require_safe
@event_staff_required("operate")
def player_link(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """A player's private link and its QR code, for a player who lost their slip."""
    reg = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    url = absolute_url(request, reverse("public:player", args=[event.slug, reg.report_token]))
    context = {"event": event, "reg": reg, "url": url, "qr": qr_svg(url)}
    response = render(request, "tournaments/staff/player_link.html", context)
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@event_staff_required("operate")
def player_link_reset(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Give the player a new private link; the old one (and its QR code) stops working."""
    reg = get_object_or_404(Registration, pk=registration_id, event=event)
    services.registration_link_reset(registration=reg, by=request.user)
    messages.success(request, gettext("New private link made: the old one no longer works."))
    return redirect("staff:player_link", event.slug, reg.pk)
