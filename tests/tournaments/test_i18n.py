"""Spanish and English: every public and staff page renders in the
visitor's language — the language cookie set by /i18n/setlang/, else the browser's
Accept-Language — with no English left in the Spanish page and no Spanish in the English
one; the compiled catalogue matches its source; public pages are prebuilt per language.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import polib
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from config import catalogue
from tests import factories
from tests.page_tour import page_urls, played_events
from tournaments import services
from tournaments.models import Match, Outcome, Player, RoundStatus, StaffRole
from tournaments.services import Result
from tournaments.templatetags import registry_i18n as f

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n")]

PO = catalogue.LOCALE_DIR / "es" / "LC_MESSAGES" / "django.po"
# Words of the English interface that never occur in its Spanish text (checked whole-word,
# case-sensitive, in text outside player and event names).
# fmt: off
ENGLISH = {
    "Round", "Rounds", "round", "rounds", "Table", "table", "tables", "Players", "players",
    "Player", "player", "Standings", "standings", "Pairings", "pairings", "Event", "Events",
    "event", "Staff", "Record", "Result", "result", "results", "missing", "Match", "match",
    "matches", "wins", "won", "Winner", "winner", "Draw", "Tie", "Bye", "Drop", "dropped",
    "Dropped", "Disqualified", "disqualified", "Active", "Late", "Seat", "seat", "Division",
    "Divisions", "Swiss", "Corrections", "Penalties", "Disputes", "Audit", "Reason",
    "reason", "Print", "Back", "Find", "Search", "Dashboard", "Language", "Change", "Log",
    "Login", "login", "Updated", "Refresh", "None", "Yes", "the", "The", "and", "with",
    "your", "Your", "you", "You", "of", "for", "from", "when", "after", "before", "is",
    "are", "has", "have", "this", "This", "not", "Games", "games", "points", "Points",
    "pts", "Time", "time", "Reported", "reported", "says", "said", "Accept", "Show", "Add",
    "add", "Save", "Import", "New", "Prize", "Prizes", "Structure", "Announced", "Started",
    "Published", "Paired", "Complete", "complete", "started", "published", "paired",
    "Paper", "Letter", "Check-in", "Close", "Open", "Name", "name",
}
# fmt: on
# Interface words that are the same in both languages.
# fmt: off
SAME = {
    "OWP", "OOWP", "OMW", "OMW %", "GW", "GW %", "OGW", "OGW %", "MWP", "OMWP", "OAMP",
    "Matchslip", "TOM", "CSV", "QR", "#", "Top", "Pod", "Play! Pokémon", "Magic",
}
# fmt: on
# fmt: off
SPANISH = {
    "Ronda", "ronda", "Mesa", "mesa", "Jugadores", "jugadores", "Clasificación",
    "Emparejamientos", "emparejamientos", "Idioma", "Resultado", "Corte", "Cambiar",
}
# fmt: on


class _Text(HTMLParser):
    """Visible text nodes and the attributes a reader hears (title, aria-label,
    placeholder, alt), outside <script> and <style>."""

    ATTRS = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for key, value in attrs:
            if key in self.ATTRS and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(data)


def texts(body: str) -> list[str]:
    parser = _Text()
    parser.feed(body)
    return [re.sub(r"\s+", " ", t).strip() for t in parser.texts]


def _data_words() -> set[str]:
    """Words of the events' own data (player, event and user names) to leave out."""
    words = set()
    for name in Player.objects.values_list("name", flat=True):
        words.update(name.split())
    words.update({"Magic", "Cup", "Pod", "Matchslip", "Demo", "organiser"})
    return words


# Stored data shown as it is: audit actions ("round.started") and the audit trail's old
# and new values ("status: started; seed: 3"), and addresses.
AUDIT_ACTION = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")
AUDIT_VALUES = re.compile(r"^[a-z_]+: \S.*$")
ADDRESS = re.compile(r"https?://\S+")
AUDIT_LINE = re.compile(r"[a-z_]+\.[a-z_]+: [a-z_]+: ")  # "organiser · registration.add: name: …"
# Proper names that keep their English words in Spanish.
PROPER = ("Magic: The Gathering", "Wizards Event Reporter")


def english_leftovers(body: str, msgids: set[str], data: set[str]) -> list[str]:
    """The texts of a Spanish page that are still English: a whole text equal to a
    translated msgid, or an English interface word outside the events' data."""
    found = []
    for text in texts(body):
        text = ADDRESS.sub("", text).strip()
        if text in SAME or AUDIT_ACTION.match(text) or AUDIT_VALUES.match(text):
            continue
        if AUDIT_LINE.search(text):
            continue
        for name in PROPER:
            text = text.replace(name, "")
        if text in msgids:
            found.append(text)
            continue
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w not in data]
        english = sorted({w for w in words if w in ENGLISH})
        if english:
            found.append(f"{text}  [{', '.join(english)}]")
    return found


def spanish_leftovers(body: str) -> list[str]:
    return [t for t in texts(body) if set(re.findall(r"\w+", t)) & SPANISH]


@pytest.fixture
def tour(organiser):
    events = played_events(by=organiser)
    client = Client()
    client.force_login(organiser)
    urls = page_urls(client, events)
    return client, urls


def _translated_msgids() -> set[str]:
    return {e.msgid for e in polib.pofile(str(PO)) if e.msgstr and e.msgstr != e.msgid}


def test_every_page_is_spanish_with_accept_language_and_english_by_default(tour):
    client, urls = tour
    names = {name for name, _ in urls}
    # The tour reaches the pages of every area (a broken walk would pass vacuously).
    assert {
        "home",
        "public:event",
        "public:pairings",
        "public:standings",
        "public:player",
        "public:timer",
        "staff:dashboard",
        "staff:players",
        "staff:round",
        "staff:standings",
        "staff:corrections",
        "staff:audit",
        "staff:team",
        "staff:event_create",
        "staff:time_called",
    } <= names
    msgids, data = _translated_msgids(), _data_words()
    english_in_spanish, spanish_in_english = {}, {}
    for name, url in urls:
        es = client.get(url, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
        assert es.status_code == 200, url
        if "<html" in es.content.decode():  # a whole page, not an HTMX fragment
            assert '<html lang="es">' in es.content.decode(), url
        left = english_leftovers(es.content.decode(), msgids, data)
        if left:
            english_in_spanish[f"{name} {url}"] = left
        en = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
        left = spanish_leftovers(en.content.decode())
        if left:
            spanish_in_english[f"{name} {url}"] = left
    assert not english_in_spanish, "English in the Spanish pages:\n" + _report(english_in_spanish)
    assert not spanish_in_english, "Spanish in the English pages:\n" + _report(spanish_in_english)


def _report(found: dict[str, list[str]]) -> str:
    """One line per page, then its leftover strings (each once)."""
    lines = []
    for page, strings in found.items():
        lines.append(page)
        lines.extend(f"    {s}" for s in dict.fromkeys(strings))
    return "\n".join(lines)


def test_language_cookie_beats_the_browser_and_set_language_keeps_the_choice(client, organiser):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    page = f"/e/{event.slug}/"
    assert "Emparejamientos" in client.get(page, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    response = client.post(
        "/i18n/setlang/", {"language": "en", "next": page}, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 302 and response["Location"] == page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    body = client.get(page, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="en">' in body and ">Pairings</a>" in body
    client.post("/i18n/setlang/", {"language": "es", "next": page})
    body = client.get(page).content.decode()
    assert '<html lang="es">' in body and ">Emparejamientos</a>" in body
    # No CSRF token needed: the switcher is on prebuilt pages shared by every visitor.
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/i18n/setlang/", {"language": "es", "next": page})
    assert response.status_code == 302
    assert strict.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    # The switcher is a real form with a labelled select and a button (no JavaScript).
    assert (
        'action="/i18n/setlang/"' in body and '<label for="language-choice">Idioma</label>' in body
    )


def test_dates_are_written_per_language(client, organiser):
    import datetime

    event = factories.event(by=organiser, name="Copa", date=datetime.date(2026, 3, 7))
    es = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    en = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert event.name in es and "7 de marzo de 2026" in es
    assert "March 7, 2026" in en or "7 March 2026" in en


def test_catalogue_is_complete_and_the_compiled_mo_matches_it():
    po = polib.pofile(str(PO))
    assert len(po) > 300
    todo = [e.msgid for e in po if not e.obsolete and (e.fuzzy or not e.translated())]
    assert todo == []
    assert catalogue.compile_all(check=True) == [], "run `python -m config.catalogue`"


def test_public_pages_are_prebuilt_in_each_language(
    client, organiser, django_capture_on_commit_callbacks
):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    with django_capture_on_commit_callbacks(execute=True):
        factories.round_in_order(event, by=organiser)
    url = f"/e/{event.slug}/pairings/"
    # A Spanish visitor first: the miss renders, and has the pages prebuilt in every language.
    es = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert '<html lang="es">' in es.content.decode() and "Buscar mi mesa" in es.content.decode()
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert en.has_header("ETag"), "served from the prebuilt bytes"
    assert '<html lang="en">' in en.content.decode() and "Find my table" in en.content.decode()
    assert "Accept-Language" in en["Vary"]
    es = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert es.has_header("ETag"), "served from the prebuilt Spanish bytes"
    assert '<html lang="es">' in es.content.decode() and "Ronda 1" in es.content.decode()
    assert "Find my table" not in es.content.decode() and es["ETag"] != en["ETag"]
    assert "Accept-Language" in es["Vary"]


@pytest.mark.parametrize(
    ("lang", "number", "why_text", "subject"),
    [
        ("en", "62.50", "paired down from 6 points; rematch avoided", "table 4"),
        ("es", "62,50", "emparejado hacia abajo desde 6 puntos; revancha evitada", "mesa 4"),
    ],
)
def test_registry_and_engine_texts_are_shown_in_the_visitors_language(
    lang, number, why_text, subject
):
    with translation.override(lang):
        assert f.localized_number("62.50") == number
        assert (
            f.localized_number("33.33 %") == number.replace("62", "33").replace("50", "33") + " %"
        )
        assert f.localized_number("Bye") == "Bye"  # not a number: as it is
        assert f.why("paired down from 6 points; rematch avoided") == why_text
        assert f.why("a newer engine text") == "a newer engine text"
        assert f.why("paired down from 1 point") == (
            "paired down from 1 point" if lang == "en" else "emparejado hacia abajo desde 1 punto"
        )
        assert f.audit_subject("table 4") == subject
        assert f.translated("Tie") == ("Tie" if lang == "en" else "Empate")
        assert f.translated("") == ""


# --- service refusals (domain errors) in the visitor's language -----------------------

HX = {"HX-Request": "true"}


def _staff_client(ev, lang: str) -> Client:
    client = Client(headers={"Accept-Language": lang})
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER, username=f"sk-{lang}"))
    return client


def _bo3_round(organiser):
    """Round 1 (started) of a four-player Magic (best-of-3) event, tables in order."""
    ev = factories.event_with_players(4, by=organiser, ruleset="mtg")
    rnd = factories.round_in_order(ev, by=organiser)
    return ev, rnd, Match.objects.get(round=rnd, table=1)


@pytest.mark.parametrize(
    ("lang", "impossible", "stale"),
    [
        (
            "en",
            "Impossible game score 3-0-0: nobody wins more than 2 games in a best-of-3 match."
            " Nothing was recorded.",
            "This match was just recorded as Player 001 wins 2-0-0.",
        ),
        (
            "es",
            "Resultado en juegos imposible 3-0-0: nadie gana más de 2 juegos en una partida"
            " al mejor de 3. No se registró nada.",
            "Esta partida se acaba de registrar como Gana Player 001 2-0-0.",
        ),
    ],
)
def test_game_slip_refusals_are_in_the_visitors_language(organiser, lang, impossible, stale):
    ev, _, match = _bo3_round(organiser)
    client = _staff_client(ev, lang)
    url = reverse("staff:match_result", args=[ev.slug, match.pk])
    refused = client.post(url, {"version": 0, "wins_1": 3, "wins_2": 0}, headers=HX)
    assert refused.status_code == 422
    assert impossible in refused.content.decode()
    assert client.post(url, {"version": 0, "score": "2-0-0"}, headers=HX).status_code == 200
    conflict = client.post(url, {"version": 0, "score": "0-2-0"}, headers=HX)
    assert conflict.status_code == 409
    assert stale in conflict.content.decode()


@pytest.mark.parametrize(
    ("lang", "not_started"),
    [
        ("en", "Round 1 has not started; start it before entering slips."),
        ("es", "La ronda 1 no ha empezado; iníciala antes de introducir hojas de resultado."),
    ],
)
def test_a_slip_on_a_round_not_started_is_refused_in_the_visitors_language(
    organiser, lang, not_started
):
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    match = Match.objects.get(round=rnd, table=1)
    client = _staff_client(ev, lang)
    response = client.post(
        reverse("staff:match_result", args=[ev.slug, match.pk]),
        {"result": "p1", "version": 0},
        headers=HX,
    )
    assert response.status_code == 422
    assert not_started in response.content.decode()
    assert Match.objects.get(pk=match.pk).outcome == Outcome.PENDING


@pytest.mark.parametrize(
    ("lang", "dropped", "again"),
    [
        ("en", "Player 001 dropped after round 1.", "Player 001 already dropped after round 1."),
        (
            "es",
            "Player 001 se retiró después de la ronda 1.",
            "Player 001 ya se retiró después de la ronda 1.",
        ),
    ],
)
def test_a_second_drop_is_refused_in_the_visitors_language(organiser, lang, dropped, again):
    ev, _, _ = _bo3_round(organiser)
    reg = ev.registrations.order_by("pk").first()
    client = _staff_client(ev, lang)
    url = reverse("staff:player_drop", args=[ev.slug, reg.pk])
    first = client.post(url, {"reason": "", "confirm": "on"}, follow=True).content.decode()
    assert dropped in first and again not in first
    second = client.post(url, {"reason": "", "confirm": "on"}, follow=True).content.decode()
    assert again in second


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "Nothing was imported. not UTF-8 text (byte 1)"),
        ("es", "No se importó nada. no es texto UTF-8 (byte 1)"),
    ],
)
def test_a_malformed_upload_is_refused_in_the_visitors_language(organiser, lang, refusal):
    client = Client(headers={"Accept-Language": lang})
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_file_import"),
        {"file": SimpleUploadedFile("cup.json", b"{\xff}"), "format": "event-json"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [refusal]


def test_the_standings_tables_are_cached_per_language(
    client, organiser, django_capture_on_commit_callbacks
):
    """The standings tables fragment is cached per snapshot and per language: an English
    visit first must not give a Spanish visitor English tables (and the snapshot's label
    is worded per language, not stored in English)."""
    event = factories.event_with_players(4, by=organiser, name="Copa", swiss_rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = factories.round_in_order(event, by=organiser)
        for m in rnd.matches.prefetch_related("seats__registration"):
            winner = m.seats.all()[0].registration
            services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    url = f"/e/{event.slug}/standings/"
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "After round 1" in en and ">Player<" in en
    es = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Tras la ronda 1" in es and ">Jugador<" in es
    assert "After round 1" not in es and ">Player<" not in es
