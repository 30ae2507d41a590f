"""Login throttling (django-axes, configured in settings): the lockout page and the
client address.

Axes counts failed logins per username and per address and refuses a locked one in its
authentication backend; its middleware then replaces the response with
:func:`lockout_response`: the login page again, status 429, saying what is locked, why and
for how long.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The login page with the lockout message instead of the form's error (HTTP 429).

    The cool-off restarts with every refused attempt, so "try again in N minutes" counts
    from now."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "form": AuthenticationForm(request, initial={"username": request.POST.get("username", "")}),
        "next": request.POST.get("next", ""),
        "lockout": {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
    }
    return render(request, "registration/login.html", context, status=429)


def client_ip(request: HttpRequest) -> str | None:
    """The address whose failures are counted: the right-most entry of the
    ``CLIENT_IP_HEADER`` header (the one the trusted proxy appended) when that setting
    names one, else the connection's address."""
    if settings.CLIENT_IP_HEADER:
        key = "HTTP_" + settings.CLIENT_IP_HEADER.upper().replace("-", "_")
        forwarded = request.META.get(key, "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR")
