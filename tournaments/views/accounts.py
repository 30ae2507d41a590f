"""Staff accounts and an event's listing: accepting an invite
link (making an account or signing in), publishing, unlisting and deleting an event, and
withdrawing an unused invite. Password reset is Django's own views (config/urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..account_forms import EventDeleteForm, InviteSignupForm
from ..errors import MatchslipError
from ..models import Event, EventListing, EventStaff, StaffInvite, StaffRole
from ..permissions import event_staff_required

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _private(response: HttpResponse) -> HttpResponse:
    """The invite page holds its token in the address: keep it out of caches and of the
    Referer sent to other sites."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response


def _joined(request: HttpRequest, staff: EventStaff) -> HttpResponse:
    messages.success(
        request,
        gettext("You are now %(role)s of %(event)s.")
        % {"role": staff.get_role_display().lower(), "event": staff.event.name},
    )
    page = "staff:disputes" if staff.role == StaffRole.JUDGE else "staff:dashboard"
    return redirect(page, staff.event.slug)


@require_http_methods(["GET", "HEAD", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link. Signed in: a button accepts it. Otherwise a form
    makes the account (username, password twice, Django's password validators) and
    accepts at once, or the visitor signs in first and comes back here. An unknown, used
    or expired link answers 404 or 410 with what to do."""
    invite = services.staff_invite_find(token)
    if problem := services.staff_invite_problem(invite):
        status = 404 if invite is None else 410
        return _private(
            render(request, "registration/invite.html", {"problem": problem}, status=status)
        )
    assert invite is not None
    form = None
    if request.user.is_authenticated:
        if request.method == "POST":
            try:
                staff = services.staff_invite_accept(token=token, user=request.user)
            except MatchslipError as e:
                messages.error(request, str(e))
                return redirect("home")
            return _joined(request, staff)
    else:
        form = InviteSignupForm(
            request.POST if request.method == "POST" else None,
            email=invite.email,
            initial={"username": invite.email},
        )
        if request.method == "POST" and form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
                    staff = services.staff_invite_accept(token=token, user=user)
            except MatchslipError as e:
                form.add_error(None, str(e))
            else:
                login(request, user, backend=LOGIN_BACKEND)
                return _joined(request, staff)
    login_url = f"{reverse('login')}?next={request.path}"
    context = {"invite": invite, "form": form, "login_url": login_url}
    return _private(render(request, "registration/invite.html", context))


@require_POST
@event_staff_required("manage")
def team_invite_withdraw(request: HttpRequest, event: Event, invite_id: int) -> HttpResponse:
    """Delete an unused invite: its link stops working."""
    invite = get_object_or_404(StaffInvite, pk=invite_id, event=event)
    try:
        services.staff_invite_withdraw(invite=invite, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, gettext("Invite withdrawn: its link no longer works."))
    return redirect("staff:team", event.slug)


@require_POST
@event_staff_required("manage")
def event_listing(request: HttpRequest, event: Event) -> HttpResponse:
    """Publish a draft, unlist a listed event or list it again (``listing`` posted:
    ``listed`` or ``unlisted``). Back to the page it came from
    (``next``: the dashboard or the staff page)."""
    listing = request.POST.get("listing", "")
    try:
        ev = services.event_listing_set(event=event, listing=listing, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
    else:
        done: dict[str, str] = {
            EventListing.LISTED: gettext("%(name)s is published: on the home page for everyone."),
            EventListing.UNLISTED: gettext(
                "%(name)s is unlisted: off the home page; its links keep working."
            ),
        }
        messages.success(request, done[ev.listing] % {"name": ev.name})
    back = "staff:dashboard" if request.POST.get("next") == "dashboard" else "staff:team"
    return redirect(back, event.slug)


@require_POST
@event_staff_required("manage")
def event_delete(request: HttpRequest, event: Event) -> HttpResponse:
    """Delete a draft or an event without results once its name is typed; a wrong name or an event with results is refused on the staff page, and nothing
    is deleted."""
    form = EventDeleteForm(request.POST)
    if form.is_valid():
        try:
            name = services.event_delete(
                event=event, confirm=form.cleaned_data["confirm"], by=request.user
            )
        except MatchslipError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, gettext("%(name)s was deleted.") % {"name": name})
            return redirect("home")
    else:
        messages.error(request, gettext("Type the event's name to delete it."))
    return redirect(reverse("staff:team", args=[event.slug]) + "#delete")
