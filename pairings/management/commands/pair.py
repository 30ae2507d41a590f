"""``manage.py pair SLUG [--seed N] [--publish] --json``: pair the next round, as staff do."""

import json

from django.core.management.base import BaseCommand, CommandError

from pairings.procedures import event_group_keys, next_step
from pairings.services import round_pair
from tournaments.errors import MatchslipError
from tournaments.models import Event
from tournaments.services import round_publish


def round_json(rounds) -> dict:
    """The new round(s) as ``{"round", "phase", "matches": [{"table", "players", "why"}]}``;
    with several pairing groups paired at once each match also names its ``group`` (key)."""
    matches = []
    for rnd in rounds:
        for m in rnd.matches.order_by("table", "pk").prefetch_related("seats__registration"):
            row = {
                "table": m.table or 0,
                "players": [s.registration.external_id for s in m.seats.all()],
                "why": m.why,
            }
            if len(rounds) > 1:
                row["group"] = rnd.group.key
            matches.append(row)
    return {"round": rounds[0].number, "phase": rounds[0].phase, "matches": matches}


class Command(BaseCommand):
    help = "Pair the next round of an event (refused, with the reason, while results are missing)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--group", default=None, help="pair only this pairing group (key)")
        parser.add_argument("--publish", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, seed, group, publish: bool, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        targets = [group] if group else event_group_keys(event)
        steps = {p: next_step(event, p) for p in targets}
        ready = [p for p, s in steps.items() if s.can_pair] or targets[:1]
        try:
            rounds = [
                r for p in ready for r in round_pair(event=event, group=p, by=None, seed=seed)
            ]
            if publish:
                rounds = [round_publish(round=r, by=None) for r in rounds]
        except MatchslipError as e:
            raise CommandError(str(e)) from e
        out = round_json(rounds)
        self.stdout.write(
            json.dumps(out)
            if options["json"]
            else "\n".join(
                f"{m['table']:>3} {' vs '.join(m['players'])}  ({m['why']})" for m in out["matches"]
            )
        )
