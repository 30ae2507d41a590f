"""``manage.py standings SLUG --json``: the current standings, via the pages' own code."""

import json
import re

from django.core.management.base import BaseCommand, CommandError

from standings.adapters import DECIMALS
from standings.services import standings_data
from tournaments.models import Event

_NUM = re.compile(r'"__num__(-?[0-9.]+)"')


def dumps_with_six_decimals(data: dict) -> str:
    """JSON text where every tiebreaker is written with at least ``DECIMALS`` (6) decimals
    (docs/interfaces.md)."""

    def fix(obj):
        if isinstance(obj, dict):
            return {k: fix(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [fix(v) for v in obj]
        if isinstance(obj, float):
            short = len(repr(obj).split(".")[-1]) < DECIMALS
            return f"__num__{obj:.{DECIMALS}f}" if short else f"__num__{obj!r}"
        return obj

    return _NUM.sub(r"\1", json.dumps(fix(data), indent=2, ensure_ascii=False))


class Command(BaseCommand):
    help = "Print the current standings of an event."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="print the standings JSON")

    def handle(self, *args, slug: str, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        data = standings_data(event)
        public = {k: data[k] for k in ("event", "ruleset", "divisions")}
        for rows in public["divisions"].values():
            for row in rows:
                row.pop("exact", None)
        if options["json"]:
            self.stdout.write(dumps_with_six_decimals(public))
            return
        columns = event.rules.columns
        self.stdout.write(
            f"{'#':>4} {'Player':<30} {'Record':>8} {'Pts':>3} "
            + " ".join(f"{c.heading:>12}" for c in columns)
        )
        for code, rows in public["divisions"].items():
            self.stdout.write(f"== {code}")
            for r in rows:
                values = " ".join(f"{c.show(r['tiebreakers'].get(c.key)):>12}" for c in columns)
                self.stdout.write(
                    f"{r['place'] or '-':>4} {r['name']:<30} {r['record']:>8} "
                    f"{r['match_points']:>3} {values}"
                )
