"""Serving the prebuilt public pages (``tournaments.public_pages``) and the two small
per-player answers: "Find my table" and a player's own table for their phone to poll.

A prebuilt hit costs one or two cache reads and no query: the decorator answers before
the view looks the event up. The answers carry an ETag (``If-None-Match`` gets a 304),
``Cache-Control: public, max-age=5`` so a reverse proxy or CDN may hold them a few
seconds, and ``Vary`` on what selects the body (gzip or not, whole page or HTMX partial,
and the language: ``Accept-Language`` and ``Cookie``, whose ``django_language`` the
switcher sets). Every language of ``settings.LANGUAGES`` is prebuilt: a request is
answered with the copy in the language ``LocaleMiddleware`` chose for it, with that
copy's own ETag. Only anonymous requests are served prebuilt (a signed-in organiser's
page shows their name); anything not prebuilt — another query string, a language not
built, a cache miss, Redis down — goes to the view, which renders from PostgreSQL as
before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html, format_html_join
from django.utils.http import http_date
from django.utils.regex_helper import _lazy_re_compile
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from .. import public_pages
from ..forms import SearchForm
from ..models import Registration
from ..search import name_matches, query_words
from ..selectors import (
    NameEntry,
    current_public_rounds,
    pairings_search_for_public,
    table_for_player,
)
from .common import HtmxRequest, public_event_or_404, wants_fragment

MAX_AGE = 5  # seconds a shared cache may serve a public page without asking again
SEARCH_LIMIT = 20
ACCEPTS_GZIP = _lazy_re_compile(r"\bgzip\b")
# Accept-Language and Cookie: the page is in the visitor's language.
VARY = ("Accept-Encoding", "HX-Request", "HX-History-Restore-Request", "Accept-Language", "Cookie")
View = Callable[..., HttpResponse]


def _anonymous(request: HttpRequest) -> bool:
    """No session cookie: the page would show no user (checked without a query)."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES


def _language() -> str:
    """The request's language, as ``LocaleMiddleware`` chose it (the language cookie, else
    Accept-Language, else ``settings.LANGUAGE_CODE``): which prebuilt copy answers it."""
    return translation.get_language() or settings.LANGUAGE_CODE


def _etag_matches(request: HttpRequest, *etags: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    offered = {t.strip().removeprefix("W/") for t in header.split(",")}
    return "*" in offered or any(e in offered for e in etags)


def _public_headers(response: HttpResponse, etag: str, max_age: int = MAX_AGE) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={max_age}"
    patch_vary_headers(response, VARY)
    return response


def _from_cache(request: HtmxRequest, slug: str, page: str) -> HttpResponse | None:
    """The prebuilt answer to ``request`` for ``page`` in its language, or None when not
    stored (or not built in that language)."""
    current = public_pages.pointer(slug)
    if current is None:
        return None
    language = _language()
    variant = "live" if wants_fragment(request) else "page"
    gz = bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    encoding = "gzip" if gz else "plain"
    etags = [current.etag(language, page, variant, e) or "" for e in public_pages.ENCODINGS]
    etag = current.etag(language, page, variant, encoding)
    if etag is None:
        return None
    if _etag_matches(request, *etags):
        response: HttpResponse = HttpResponseNotModified()
    else:
        content = public_pages.body(slug, current, language, page, variant, encoding)
        if content is None:
            return None
        response = HttpResponse(content, content_type="text/html; charset=utf-8")
        if gz:
            response["Content-Encoding"] = "gzip"
    response["Last-Modified"] = http_date(current.built_at.timestamp())
    return _public_headers(response, etag)


def prebuilt(page_for: Callable[[HttpRequest], str | None]) -> Callable[[View], View]:
    """Serve the view's page from the prebuilt bytes when ``page_for(request)`` names
    one (``public_pages.PAGES``) and they are stored; otherwise call the view, and
    after a miss have the pages built for the next requests."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HtmxRequest, slug: str, **kwargs: Any) -> HttpResponse:
            page = page_for(request)
            if page is None or getattr(request, "prebuilding", False) or not _anonymous(request):
                return view(request, slug, **kwargs)
            response = _from_cache(request, slug, page)
            if response is not None:
                return response
            response = view(request, slug, **kwargs)
            if response.status_code == 200 and public_pages.pointer(slug) is None:
                public_pages.public_pages_fill(slug)
            return response

        return wrapper

    return decorator


LIVE_PARAM = "live"  # a live refresh's cache breaker (static/js/live.js): not a page choice


def _page_params(request: HttpRequest) -> dict[str, str]:
    """The query string's parameters that choose a page: all but ``live`` (a refresh on
    a notice names the version it wants, so no browser or proxy cache answers it with
    the page from before the change)."""
    params = request.GET.dict()
    params.pop(LIVE_PARAM, None)
    return params


def pairings_page(request: HttpRequest) -> str | None:
    """The prebuilt pairings page a query string asks for: none, or ``by=name``."""
    params = _page_params(request)
    if not params:
        return "pairings-table"
    return "pairings-name" if params == {"by": "name"} else None


def standings_page(request: HttpRequest) -> str | None:
    return None if _page_params(request) else "standings"


def search_entries(slug: str, query: str) -> list[NameEntry] | None:
    """Players whose name holds every word of ``query`` (``tournaments.search``: any
    order, case and accents ignored), from the stored name list in the request's
    language; None when the list is not stored (the caller searches PostgreSQL). No query."""
    current = public_pages.pointer(slug)
    entries = None if current is None else public_pages.names(slug, current, _language())
    if entries is None:
        return None
    words = query_words(query)
    return [e for e in entries if name_matches(e.name, words)][:SEARCH_LIMIT]


@require_safe
def pairings_find(request: HttpRequest, slug: str) -> HttpResponse:
    """Answer "Find my table" with a small HTML snippet (the matching lines only), from the
    stored name list: no query on a hit; PostgreSQL otherwise."""
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    results = search_entries(slug, query) if query else []
    several = False
    if results is None:
        event = public_event_or_404(request, slug)
        rounds = current_public_rounds(event)
        results = pairings_search_for_public(event, rounds, query)
        several = len(rounds) > 1
    else:
        several = len({e.round_label for e in results}) > 1
    context = {"event": {"slug": slug}, "query": query, "results": results, "several": several}
    content = render_to_string("tournaments/public/pairings.html#search_results", context)
    return _small(request, content.encode(), private=False)


def _small(request: HttpRequest, content: bytes, *, private: bool) -> HttpResponse:
    """A small answer with an ETag of its bytes: 304 when the client has them."""
    etag = f'"{hashlib.blake2b(content, digest_size=12).hexdigest()}"'
    if _etag_matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(content, content_type="text/html; charset=utf-8")
    if private:
        response["ETag"] = etag
        response["Cache-Control"] = f"private, max-age={MAX_AGE}"
        response["Referrer-Policy"] = "same-origin"  # the token's page: as views.player
        response["X-Robots-Tag"] = "noindex"
        patch_vary_headers(response, ("Accept-Language", "Cookie"))  # in the visitor's language
        return response
    return _public_headers(response, etag)


def my_table_html(entries: list[NameEntry], url: str) -> str:
    """A player's own table, a few hundred bytes, at the top of their private page. When
    the event's public pages change, the player's stream brings this HTML itself (``seat``,
    ``live.seats``: read for every open player page at once from the prebuilt seats), or
    asks the page to fetch it (``seatfetch``, here: no query on a hit), so every phone
    shows a new round at once. A featured match says so, with a link to the page's
    choice whether to be featured (``#feature-choice``)."""
    lines = format_html_join(
        "",
        '<li><span class="where">{}</span>{}<small class="round-label">{}</small>{}</li>',
        (
            (
                format_html(_("Table <strong>{}</strong>"), e.table) if e.table else e.note,
                format_html(
                    ' <span class="opponent">{}</span>',
                    _("vs %(opponent)s") % {"opponent": e.opponent},
                )
                if e.opponent
                else "",
                f" {e.round_label}",
                _my_feature(e.feature_table),
            )
            for e in entries
        ),
    )
    inner = (
        format_html('<ul class="my-table">{}</ul>', lines)
        if entries
        else format_html('<p class="empty">{}</p>', _("You are not seated in the current round."))
    )
    return format_html(
        '<section id="my-table" class="card my-table-card" aria-live="polite" hx-get="{}" '
        'hx-trigger="sse:seatfetch" sse-swap="seat" hx-swap="outerHTML">{}</section>',
        url,
        inner,
    )


def _my_feature(feature_table: str) -> str:
    """ "Your match is featured: Stream." and the way to the opt-out, or "" (not featured)."""
    if not feature_table:
        return ""
    return format_html(
        ' <span class="my-feature" data-feature-table="{}"><strong>{}</strong>'
        ' <a href="#feature-choice">{}</a></span>',
        feature_table,
        _("Your match is featured: %(name)s.") % {"name": feature_table},
        _("Ask not to be featured"),
    )


@require_safe
def player_table(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's own table in the current round (``/e/<event>/p/<token>/table/``), which
    their page fetches when a round is posted: a few hundred bytes with an ETag, no query
    on a hit. An unknown token is a 404."""
    entries = seat_entries(slug, token)
    return _small(request, my_table_html(entries, request.path).encode(), private=True)


def seat_entries(slug: str, token: str, reg: Registration | None = None) -> list[NameEntry]:
    """Where the player with ``token`` sits now: the prebuilt seat in the request's
    language (no query), else read from PostgreSQL (``reg`` when the caller has it; an
    unknown token is a 404)."""
    current = public_pages.pointer(slug)
    entries = None if current is None else public_pages.seat(slug, current, _language(), token)
    if entries is not None:
        return entries
    if reg is None:
        reg = get_object_or_404(
            Registration.objects.select_related("event", "player"),
            event__slug=slug,
            report_token=token,
        )
    return table_for_player(reg)
