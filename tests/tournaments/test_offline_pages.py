"""Every page works with no internet at all (venue mode, docs/operations.md): no page
loads or links anything from another origin — no external script, style sheet, font or
image — and neither do the style sheets and scripts the pages load.

The tour (``tests/page_tour.py``) visits every public and staff page of four played
events as their organiser, plus the pages of someone signed out; each page's HTML is
parsed and every URL-bearing attribute checked, then each static file it loads.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.page_tour import page_urls, played_events

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n")]

#: Attributes whose value is a URL (``srcset``: several, with sizes).
URL_ATTRIBUTES = {
    "src",
    "href",
    "srcset",
    "action",
    "formaction",
    "poster",
    "data",
    "manifest",
    "xlink:href",
    "hx-get",
    "hx-post",
    "sse-connect",
}
#: Where a URL may lead without the internet: this site, or nowhere on the network.
HERE = {"", "testserver"}
SAFE_SCHEMES = {"", "http", "https", "data", "mailto", "tel", "blob"}
#: XML namespace names in SVG and scripts: identifiers, never fetched.
NAMESPACES = re.compile(r"https?://www\.w3\.org/[\w/.#-]*")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")


class Urls(HTMLParser):
    """The URLs a page's attributes and inline styles name."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []  # (tag, attribute, URL)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in URL_ATTRIBUTES:
                urls = (
                    [part.split()[0] for part in value.split(",")] if name == "srcset" else [value]
                )
                self.found += [(tag, name, url.strip()) for url in urls if url.strip()]
            elif name == "style":
                self.found += [(tag, name, a or b) for a, b in CSS_URL.findall(value)]


def elsewhere(url: str) -> bool:
    """Whether ``url`` leads to another origin (or a scheme that needs the network)."""
    parts = urlsplit(url)
    if parts.scheme not in SAFE_SCHEMES:
        return True
    if parts.scheme in ("data", "mailto", "tel", "blob"):
        return False
    return parts.netloc not in HERE


def static_text(url: str) -> str | None:
    """The text of a static file the page loads (``/static/…``), else None."""
    path = urlsplit(url).path
    if not path.startswith("/static/"):
        return None
    found = finders.find(path.removeprefix("/static/"))
    return Path(found).read_text(encoding="utf-8", errors="replace") if found else None


@pytest.fixture
def pages(organiser):
    """(client, [(URL name, address)]): every page of the tour, and the signed-out ones."""
    events = played_events(by=organiser)
    staff = Client()
    staff.force_login(organiser)
    anonymous = Client()
    signed_out = [
        (name, reverse(name)) for name in ("login", "password_reset", "password_reset_done", "home")
    ]
    return [(staff, page_urls(staff, events)), (anonymous, signed_out)]


def test_no_page_loads_or_links_anything_from_another_origin(pages):
    visited, outside, loaded = set(), [], {}
    for client, urls in pages:
        for name, path in urls:
            response = client.get(path)
            assert response.status_code == 200, path
            parser = Urls()
            parser.feed(response.content.decode())
            visited.add(name)
            for tag, attribute, url in parser.found:
                if elsewhere(url):
                    outside.append(f"{path}: <{tag} {attribute}={url!r}>")
                elif tag in ("link", "script", "img") and (text := static_text(url)):
                    loaded[urlsplit(url).path] = text
    # the tour reached every area (a broken walk would pass vacuously)
    assert {"home", "login", "public:pairings", "public:player", "public:timer"} <= visited
    assert {"staff:dashboard", "staff:round", "staff:venue_sign", "staff:print_slips"} <= visited
    assert outside == []

    assert any(path.endswith(".css") for path in loaded) and any(
        path.endswith(".js") for path in loaded
    )
    for path, text in loaded.items():
        if path.endswith(".css"):
            urls = [a or b for a, b in CSS_URL.findall(text)]
            assert [u for u in urls if elsewhere(u)] == [], path  # fonts, images, imports
        else:
            assert re.findall(r"(?:https?:)?//[\w.-]+\.\w+/", NAMESPACES.sub("", text)) == [], path
