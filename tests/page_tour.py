"""Every public and staff page of played events, for the translation and accessibility
tests: the URL patterns are walked, so a page added later is visited too.

``played_events(by=organiser)`` builds four events through the services — Pokémon (11
players, round 1 complete with a bye and a tie, round 2 running), Magic best-of-3 (round 1 complete, round 2 started),
best-of-3 wins-against (round 1 started) and Magic multiplayer pods (round 1 complete,
round 2 published) — and ``page_urls`` fills each
pattern's arguments from them and keeps the addresses that answer a GET with HTML.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import play, pod_event
from tournaments import services
from tournaments.models import Event, EventStaff, Outcome
from tournaments.services import Result

NAMESPACES = ("public", "staff")
# Pages that are not for reading: downloads, polled fragments, the bare HTMX answers.
SKIP = {"staff:audit_csv", "staff:tdf_download", "staff:standings_csv", "staff:pairings_csv"}


def played_events(*, by) -> list[Event]:
    """The four events the tour visits, ``by`` their organiser (the Pokémon event has a
    judge too)."""
    pokemon = factories.event_with_players(11, by=by, name="Pokemon Cup", swiss_rounds=4)
    judge = factories.staff(pokemon, "judge", username="judy")
    (first,) = round_pair(event=pokemon, group="open", by=by, seed=1)
    services.round_publish(round=first, by=by)
    services.round_start(round=first, by=by)
    for i, m in enumerate(first.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats")):
        seats = [s.registration for s in m.seats.order_by("seat")]
        if i == 1:
            services.slip_enter(match=m, result=Result.draw(), by=judge)
        else:
            services.slip_enter(match=m, result=Result.win(seats[i % 2]), by=by)
    (second,) = round_pair(event=pokemon, group="open", by=by, seed=2)
    services.round_publish(round=second, by=by)
    services.round_start(round=second, by=by)
    m = second.matches.filter(outcome=Outcome.PENDING).order_by("table")[0]
    services.slip_enter(match=m, result=Result.win(m.seats.order_by("pk")[0].registration), by=by)

    magic = factories.event_with_players(10, by=by, name="Magic Cup", ruleset="mtg", swiss_rounds=3)
    (first,) = round_pair(event=magic, group="open", by=by, seed=3)
    services.round_publish(round=first, by=by)
    services.round_start(round=first, by=by)
    for m in first.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        seats = [s.registration for s in m.seats.order_by("seat")]
        services.slip_enter(match=m, result=Result.win(seats[0], (2, 1, 0)), by=by)
    (second,) = round_pair(event=magic, group="open", by=by, seed=4)
    services.round_publish(round=second, by=by)
    services.round_start(round=second, by=by)

    wins_against = factories.event_with_players(
        4, by=by, name="Bo3 Cup", ruleset="bo3-wins-against", swiss_rounds=2
    )
    (bo3,) = round_pair(event=wins_against, group="open", by=by, seed=7)
    services.round_publish(round=bo3, by=by)
    services.round_start(round=bo3, by=by)

    pods = pod_event(8, by=by, name="Pod Cup")
    (rnd,) = round_pair(event=pods, group="open", by=by, seed=5)
    play(rnd, by)
    (rnd2,) = round_pair(event=pods, group="open", by=by, seed=6)
    services.round_publish(round=rnd2, by=by)
    return [pokemon, magic, wins_against, pods]


def _patterns(resolver: URLResolver, namespace: str = ""):
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            ns = p.namespace or namespace
            yield from _patterns(p, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield (f"{namespace}:{p.name}" if namespace else p.name), p


def _arguments(event: Event) -> dict[str, object]:
    rnd = event.rounds.order_by("-number", "-pk").first()
    match = rnd.matches.exclude(table=None).order_by("table").first() if rnd else None
    reg = event.registrations.order_by("pk").first()
    staff = EventStaff.objects.filter(event=event).exclude(role="organiser").first()
    return {
        "slug": event.slug,
        "round_id": rnd.pk if rnd else 0,
        "match_id": match.pk if match else 0,
        "registration_id": reg.pk if reg else 0,
        "token": reg.report_token if reg else "x",
        "staff_id": staff.pk if staff else 0,
    }


def page_urls(client, events: list[Event]) -> list[tuple[str, str]]:
    """(URL name, address) of every page that answers ``client`` (an organiser of each
    event) with a 200 HTML page: each event's pages, then the event-less pages once."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for name, pattern in _patterns(get_resolver()):
        if name in SKIP or not (name == "home" or name.split(":")[0] in NAMESPACES):
            continue
        wanted = set(pattern.pattern.regex.groupindex)
        for event in events:
            args = _arguments(event)
            if not wanted <= set(args):
                break
            path = "/" + str(pattern.pattern).replace("^", "")
            for key in wanted:
                path = path.replace(f"<slug:{key}>", str(args[key]))
                path = path.replace(f"<int:{key}>", str(args[key]))
                path = path.replace(f"<str:{key}>", str(args[key]))
            if path in seen:
                continue
            seen.add(path)
            response = client.get(path)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                found.append((name, path))
            if not wanted:
                break
    return found
