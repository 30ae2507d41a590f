"""Which browser acts on a private link.

A private link is the only credential of a player, so whoever holds two links (the old
printed slips carried both players' QR codes) could report for both sides of a match
or drop the opponent. To notice one browser acting for two players of a table, the
private page gives every browser a long-lived cookie holding a random id, signed with
the site's secret so it cannot be edited into someone else's. Each self-report stores
that id (``SelfReport.browser``); ``services.report_submit`` and
``services.registration_self_drop`` compare it.

The cookie is set when the private page is opened: a real browser always opens the page
before it can post its forms (they need the CSRF cookie from it too). A post without the
cookie is stored with an empty id, which matches nothing.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse

COOKIE = "matchslip_browser"
SALT = "matchslip.browser"
MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep (about 13 months)


def browser_id(request: HttpRequest) -> str:
    """The id of the browser that sent ``request``: its signed cookie's value, or "" when
    the cookie is missing or was tampered with."""
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT, max_age=MAX_AGE)
    return value if isinstance(value, str) and 0 < len(value) <= 64 else ""


def remember_browser(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Give the browser its id cookie when it has none (or a broken one); keep it for
    ``MAX_AGE`` seconds from each visit. HttpOnly, ``SameSite=Lax``, Secure on HTTPS."""
    value = browser_id(request) or secrets.token_urlsafe(18)
    response.set_signed_cookie(
        COOKIE,
        value,
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response
