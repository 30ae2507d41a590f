"""``manage.py export_csv SLUG standings|pairings PATH`` (INTERFACES.md): the current
standings (place, id, name, record, points and every tiebreaker column the event's ruleset
declares, headed as on the pages) or the current round's pairings, as CSV in UTF-8 with a
byte-order mark (spreadsheets then read names with accents right)."""

import csv
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from standings.services import standings_data
from tournaments.models import Event, Round


def standings_rows(event: Event) -> list[list[str]]:
    """Header plus one row per player and division, in standings order; tiebreakers as
    the exact 0–1 numbers of the Standings JSON (counts for count columns)."""
    columns = event.rules.columns
    rows = [
        ["division", "place", "player id", "name", "record", "match points"]
        + [c.heading for c in columns]
    ]
    for code, lines in standings_data(event).get("divisions", {}).items():
        for line in lines:
            tb = line.get("tiebreakers", {})
            rows.append(
                [
                    code,
                    "" if line["place"] is None else str(line["place"]),
                    line["player"],
                    line["name"],
                    line["record"],
                    str(line["match_points"]),
                    *("" if tb.get(c.key) is None else str(tb[c.key]) for c in columns),
                ]
            )
    return rows


def pairings_rows(event: Event) -> list[list[str]]:
    """Header plus one row per match of the latest round of every pairing group: round,
    group, table (0 for a bye) and each seat's player id and name."""
    latest: dict[str, Round] = {}
    for rnd in Round.objects.filter(event=event).order_by("number"):
        latest[rnd.pod] = rnd
    out: list[list[str]] = []
    seats_max = 2
    for rnd in latest.values():
        for m in rnd.matches.order_by("table", "pk").prefetch_related(
            "seats__registration__player"
        ):
            seats = sorted(m.seats.all(), key=lambda s: s.seat)
            seats_max = max(seats_max, len(seats))
            row = [str(rnd.number), rnd.pod, str(m.table or 0)]
            for s in seats:
                row += [s.registration.external_id, s.registration.player.name]
            out.append(row)
    header = ["round", "group", "table"]
    for n in range(1, seats_max + 1):
        header += [f"player {n} id", f"player {n}"]
    return [header] + out


class Command(BaseCommand):
    help = "Write the current standings or pairings of an event as CSV (UTF-8 with BOM)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("what", choices=["standings", "pairings"])
        parser.add_argument("path", type=Path)

    def handle(self, *args, slug: str, what: str, path: Path, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with slug {slug!r}.")
        rows = standings_rows(event) if what == "standings" else pairings_rows(event)
        try:
            with path.open("w", encoding="utf-8-sig", newline="") as f:
                csv.writer(f).writerows(rows)
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from e
