"""Playwright (sync API) against pytest-django's live_server, in Debian's Chromium.

The sync API runs an event loop in the test thread, so Django's async-safety check must
be relaxed for the test's own database calls. The browser is never downloaded.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect, sync_playwright

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
# Generous waits: the suite may share the machine with other test runs.
expect.set_options(timeout=20_000)  # a passing check waits no longer for it

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A laptop-sized page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    """A phone: 390×844, mobile, touch."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=3,
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(autouse=True)
def _live_streams_end(django_db_setup):
    """Open pages hold live streams (tournaments.live) on the live server's threads, and
    the process's hub reads the test database while they are open: end them all after
    each test, while its database is still there (the next page starts the hub again)."""
    yield
    from tournaments.live.hub import hub

    hub().stop()
