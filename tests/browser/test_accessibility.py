"""Accessibility: axe-core (bundled by axe-playwright-python, never
fetched at test time) finds no violation on any public or staff page, in English and in
Spanish, on a 390 × 844 phone and a 1366 × 900 laptop; and no page logs a console error
(htmx filters the Content-Security-Policy forbids logged two on every
public page).

The pages are those of ``tests.page_tour`` (the URL patterns walked over four played
events), each URL name visited once: the staff pages signed in as the organiser, the
public pages signed out, as players see them.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client

from tests.page_tour import page_urls, played_events

# Its own xdist group: it runs beside the other browser tests, on the other worker.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("accessibility")]

WIDTHS = {"phone": (390, 844), "laptop": (1366, 900)}
LANGUAGES = ("en", "es")
AXE = Axe()


def one_per_name(urls: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The first address of each URL name (the events' pages differ in data, not layout),
    plus every event's standings and round page (each ruleset's columns and slips)."""
    seen: set[str] = set()
    kept = []
    for name, url in urls:
        if name not in seen or name in ("public:standings", "staff:round", "public:player"):
            seen.add(name)
            kept.append((name, url))
    return kept


def violations(page) -> list[str]:
    """Each axe violation as "id (impact): selector, selector…" (its nodes). axe-core is
    in the page already (the context's init script)."""
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    found = []
    for v in results["violations"]:
        nodes = ", ".join(" ".join(n["target"]) for n in v["nodes"][:6])
        found.append(f"{v['id']} ({v['impact']}): {nodes}")
    return found


@pytest.mark.django_db(transaction=True)
def test_axe_finds_no_violation_on_any_page_in_either_language_at_both_widths(
    live_server, browser, organiser
):
    events = played_events(by=organiser)
    client = Client()
    client.force_login(organiser)
    urls = one_per_name(page_urls(client, events))
    public = [(n, u) for n, u in urls if n == "home" or n.startswith("public:")]
    staff = [(n, u) for n, u in urls if (n, u) not in public]
    assert len(staff) > 20 and len(public) > 8
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    problems: dict[str, list[str]] = {}
    console: list[str] = []
    for width_name, (width, height) in WIDTHS.items():
        for language in LANGUAGES:
            language_cookie = {
                "name": settings.LANGUAGE_COOKIE_NAME,
                "value": language,
                "url": live_server.url,
            }
            for signed_in, pages in ((True, staff), (False, public)):
                context = browser.new_context(viewport={"width": width, "height": height})
                context.add_init_script(script=AXE.axe_script)  # no CDN, no page change
                cookies = [language_cookie]
                if signed_in:
                    cookies.append(
                        {
                            "name": settings.SESSION_COOKIE_NAME,
                            "value": session,
                            "url": live_server.url,
                        }
                    )
                context.add_cookies(cookies)
                page = context.new_page()
                page.on(
                    "console",
                    lambda m, p=page: (
                        console.append(f"{p.url}: {m.text}")
                        if m.type == "error" and not m.text.startswith("Failed to load resource")
                        else None
                    ),
                )
                page.on("pageerror", lambda e, p=page: console.append(f"{p.url}: {e}"))
                for name, url in pages:
                    page.goto(live_server.url + url)
                    lang = page.locator("html").get_attribute("lang")
                    if lang is None:  # an HTMX fragment: checked inside its page
                        continue
                    assert lang == language, url
                    found = violations(page)
                    if found:
                        who = "staff" if signed_in else "anonymous"
                        problems[f"{url} ({name}, {width_name}, {language}, {who})"] = found
                context.close()
    report = "\n".join(f"{page}\n    " + "\n    ".join(v) for page, v in problems.items())
    assert not problems, "axe-core violations:\n" + report
    assert not console, "console errors:\n" + "\n".join(console)
