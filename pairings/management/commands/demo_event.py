"""``manage.py demo_event [--if-missing]``: a 40-player demo event part way through.

Creates (once) the users ``organiser``, ``scorekeeper`` and ``judge``, all with password
``matchslip-demo``, with those roles at "Matchslip Demo Cup": 6 Swiss rounds and a top 8
(P-RT-1 for 33–64 players), rounds 1–3 complete, round 4 started with some results still
missing.
"""

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from pairings.services import round_pair
from tournaments import services
from tournaments.models import Event, Outcome
from tournaments.services import Result

DEMO_SLUG = "demo-cup"
DEMO_USER, DEMO_PASSWORD = "organiser", "matchslip-demo"
DEMO_STAFF = ("scorekeeper", "judge")
FIRST = [
    "Ash",
    "Misty",
    "Brock",
    "May",
    "Dawn",
    "Iris",
    "Serena",
    "Lillie",
    "Gloria",
    "Nemona",
    "Cynthia",
    "Steven",
    "Lance",
    "Karen",
    "Bruno",
    "Agatha",
    "Erika",
    "Sabrina",
    "Blaine",
    "Janine",
]
LAST = ["Oak", "Elm", "Birch", "Rowan", "Juniper"]


def _play(event, rnd, rng, by, leave_missing=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    matches = list(rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"))
    for m in matches[: len(matches) - leave_missing]:
        seats = [s.registration for s in m.seats.all()]
        roll = rng.random()
        if roll < 0.08:
            services.slip_enter(match=m, result=Result.draw(), by=by)
        else:
            services.slip_enter(match=m, result=Result.win(seats[roll < 0.54]), by=by)


def _account(username: str):
    """The demo account ``username`` (created with the demo password if missing)."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    return user or User.objects.create_user(username, password=DEMO_PASSWORD)


class Command(BaseCommand):
    help = "Create the demo event (40 players, round 4 of 6 running)."

    def add_arguments(self, parser):
        parser.add_argument("--if-missing", action="store_true")

    def handle(self, *args, if_missing: bool, **options):
        if if_missing and Event.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write(f"Demo event exists: /e/{DEMO_SLUG}/")
            return
        user = _account(DEMO_USER)
        rng = random.Random(2026)
        event = services.event_create(
            name="Matchslip Demo Cup",
            slug=None if Event.objects.filter(slug=DEMO_SLUG).exists() else DEMO_SLUG,
            by=user,
            swiss_rounds=6,
            top_cut_size=8,
            location="Town Hall",
            prizes="Top 8 receive booster packs; 1st place a trophy.",
        )
        names = [f"{f} {s}" for s in LAST for f in FIRST][:40]
        rng.shuffle(names)
        for i, name in enumerate(names, start=1):
            services.registration_add(
                event=event,
                name=name,
                player_id=f"{2000000 + i}",
                birth_year=1980 + i % 20,
                by=user,
            )
        for role in DEMO_STAFF:
            _account(role)
            services.staff_invite(event=event, who=role, role=role, by=user)
        for number in range(1, 5):
            (rnd,) = round_pair(event=event, group="open", by=user, seed=number)
            _play(event, rnd, rng, user, leave_missing=5 if number == 4 else 0)
        self.stdout.write(
            f"Demo event: /e/{event.slug}/ (staff logins: organiser, scorekeeper, judge; "
            f"password {DEMO_PASSWORD})"
        )
