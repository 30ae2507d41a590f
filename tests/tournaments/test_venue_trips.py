"""Taking an event to a venue laptop and bringing it back (``interchange.services.venue``;
docs/operations.md, "Venue mode"): ``export_event SLUG PATH --archive --to-venue`` online,
``import_event PATH`` on the laptop (the same event: same slug and private links), the
laptop's ``export_event --archive`` and ``import_event PATH --from-venue`` online, which
replaces the online copy with every change made at the venue — or, when anything changed
online meanwhile, refuses listing what changed and changes nothing.

The laptop is real: the project's settings on a SQLite file, in processes of their own
(``tests/deployment/venue_laptop.py``); the online copy is this test's PostgreSQL.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from interchange.services.archive import ARCHIVE_FORMAT
from interchange.services.venue import RETURN_ACTION, TAKE_ACTION
from standings.services import standings_compute
from tests import factories
from tests.deployment.venue_laptop import migrated, shell
from tests.deployment.venue_laptop import migrated_template as migrated_template  # fixture
from tests.processes import manage
from tests.tournaments.test_event_archive import tables
from tournaments import services
from tournaments.models import AuditEvent, Event, Outcome, Registration, Round, VenueTrip

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def online_event() -> Event:
    """Eight players: round 1 complete, round 2 started with table 1 recorded and a
    player's self-report at table 2; a judge."""
    org = factories.user("org")
    ev = factories.event_with_players(8, by=org, swiss_rounds=3)
    factories.staff(ev, "judge", "judy")
    regs = list(ev.registrations.order_by("pk"))
    r1 = factories.round_in_order(ev, by=org, number=1)
    for m in r1.matches.order_by("table"):
        first = m.seats.order_by("seat")[0].registration
        services.slip_enter(match=m, by=org, result=services.Result.win(first))
    r2 = factories.round_in_order(
        ev, by=org, number=2, regs=[regs[i] for i in (0, 2, 1, 3, 4, 6, 5, 7)]
    )
    m1, m2 = r2.matches.order_by("table")[:2]
    services.slip_enter(match=m1, by=org, result=services.Result.win(regs[0]))
    services.report_submit(match=m2, registration=regs[1], result=services.Result.win(regs[1]))
    return Event.objects.get(pk=ev.pk)


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def take(event: Event, path: Path) -> Path:
    run("export_event", event.slug, str(path), "--archive", "--to-venue")
    return path


#: At the venue: every slip of the running round (seat 2 wins), then a player drops.
AT_THE_VENUE = """
import json
from django.contrib.auth import get_user_model
from tournaments import services
from tournaments.models import Event, Outcome
ev = Event.objects.get(slug="%(slug)s")
org = get_user_model().objects.get(username="org")
rnd = ev.rounds.order_by("-number").first()
for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
    seats = [s.registration for s in m.seats.order_by("seat")]
    # confirmed: the slip stands over a player's own report of the table (asked first)
    services.slip_enter(match=m, result=services.Result.win(seats[-1]), by=org, confirmed=True)
reg = ev.registrations.order_by("pk").last()
services.registration_drop(registration=reg, by=org, reason="went home")
print(json.dumps({"round": rnd.number, "dropped": reg.external_id}))
"""


def at_the_venue(template: Path, folder: Path, taken: Path) -> Path:
    """The laptop imports the taken archive, plays the rest of the running round, drops
    a player and writes its archive; the path of that archive."""
    env = migrated(template, folder)
    slug = manage(env, "import_event", str(taken), "--create-users").split()[-1]
    shell(env, AT_THE_VENUE % {"slug": slug})
    back = folder / "back.json"
    manage(env, "export_event", slug, str(back), "--archive")
    return back


def round_two(slug: str) -> list[tuple[int | None, str, str | None]]:
    """Round 2's tables: (table, outcome, the winner's external id)."""
    rnd = Round.objects.get(event__slug=slug, number=2)
    return [
        (m.table, m.outcome, m.winner.external_id if m.winner else None)
        for m in rnd.matches.select_related("winner").order_by("table")
    ]


@pytest.mark.multiprocess
def test_an_event_taken_to_the_venue_comes_back_with_every_change_made_there(
    migrated_template, tmp_path, client
):
    ev = online_event()
    slug, name = ev.slug, ev.name
    links = dict(ev.registrations.values_list("external_id", "report_token"))
    taken = take(ev, tmp_path / "taken.json")
    assert read(taken)["format"] == ARCHIVE_FORMAT
    trip = VenueTrip.objects.get(event=ev)
    assert AuditEvent.objects.filter(
        event=ev, action=TAKE_ACTION, new={"trip": trip.token}
    ).exists()

    back = at_the_venue(migrated_template, tmp_path / "laptop", taken)
    doc = read(back)
    assert doc["slug"] == slug  # the laptop held the same event, not a copy under a new slug

    assert run("import_event", str(back), "--from-venue").split()[-1] == slug
    again = Event.objects.get(slug=slug)
    assert again.name == name
    regs = {r.pk: r.external_id for r in again.registrations.all()}
    seat2 = {
        m.table: regs[m.seats.get(seat=2).registration_id]
        for m in Round.objects.get(event=again, number=2).matches.all()
    }
    # table 1 as recorded online before the trip; tables 2-4 as entered at the venue
    assert [(t, o) for t, o, _ in round_two(slug)] == [(t, Outcome.WIN) for t in (1, 2, 3, 4)]
    assert [w for t, _, w in round_two(slug) if t != 1] == [seat2[2], seat2[3], seat2[4]]
    dropped = again.registrations.exclude(dropped_after_round=None).get()
    assert dropped.dropped_after_round == 2
    assert dict(again.registrations.values_list("external_id", "report_token")) == links
    returned = AuditEvent.objects.get(event=again, action=RETURN_ACTION)
    # three slips, the one overriding a player's report, the round completed, the drop
    assert returned.new["venue_changes"] == len(doc["audit"]) - len(read(taken)["audit"]) == 6
    assert returned.new["replaced_online"] == 0
    assert VenueTrip.objects.get(event=again).returns == 1
    page = client.get(reverse("public:player", args=[slug, links[dropped.external_id]]))
    assert page.status_code == 200

    # the file taken to the venue, older than what came back, is refused: nothing lost
    before = tables(again)
    with pytest.raises(CommandError, match="changed here since it was taken") as refused:
        run("import_event", str(taken), "--from-venue")
    listed = [line for line in str(refused.value).splitlines() if line.startswith("- ")]
    assert len(listed) == 6 and all(line.startswith("- audit: ") for line in listed)
    assert listed[-1].endswith(f"registration.drop · player {dropped.player.name}")
    assert tables(Event.objects.get(slug=slug)) == before


@pytest.mark.multiprocess
def test_a_change_made_online_meanwhile_is_refused_with_the_list_and_nothing_changes(
    migrated_template, tmp_path
):
    ev = online_event()
    taken = take(ev, tmp_path / "taken.json")
    back = at_the_venue(migrated_template, tmp_path / "laptop", taken)
    # meanwhile online: a scorekeeper enters table 2, which the venue entered otherwise
    m2 = Round.objects.get(event=ev, number=2).matches.get(table=2)
    first = m2.seats.order_by("seat")[0].registration
    services.slip_enter(match=m2, by=None, result=services.Result.win(first))
    before = tables(ev)

    with pytest.raises(CommandError) as refused:
        run("import_event", str(back), "--from-venue")
    message = str(refused.value)
    assert "changed here since it was taken to the venue" in message
    assert "nothing was changed" in message
    changed = [line for line in message.splitlines() if line.startswith("- ")]
    at = AuditEvent.objects.filter(event=ev).latest("id").at.strftime("%Y-%m-%d %H:%M:%S")
    assert (
        changed
        == [
            "- round 2, table 2: changed",  # the match row
            f"- audit: {at} · a command or the system · result.enter · round 2, table 2",  # its audit row
        ]
    )
    assert tables(Event.objects.get(pk=ev.pk)) == before  # nothing changed
    assert VenueTrip.objects.get(event=ev).returns == 0

    # brought back anyway, explicitly: the online copy is written to a file first
    saved = tmp_path / "online.json"
    run("import_event", str(back), "--from-venue", "--discard-online-changes", str(saved))
    kept = read(saved)
    assert kept["format"] == ARCHIVE_FORMAT and kept["slug"] == ev.slug
    kept_m2 = next(m for m in kept["matches"] if m["id"] == m2.pk)
    assert kept_m2["winner_id"] == first.pk  # the online slip, kept in the file
    again = Event.objects.get(slug=ev.slug)
    winner = dict((t, w) for t, _, w in round_two(ev.slug))[2]
    assert winner != first.external_id  # the venue's slip
    returned = AuditEvent.objects.get(event=again, action=RETURN_ACTION)
    assert returned.new["replaced_online"] == 2


def test_an_unchanged_copy_comes_back_and_can_come_back_again(tmp_path):
    ev = online_event()
    taken = take(ev, tmp_path / "taken.json")
    before = tables(ev)
    run("import_event", str(taken), "--from-venue")
    again = Event.objects.get(slug=ev.slug)
    after = tables(again)
    returns = [a for a in after["audit"] if a["action"] == RETURN_ACTION]
    assert len(returns) == 1  # the one row the return adds: event.venue_return
    assert [a for a in after["audit"] if a["action"] != RETURN_ACTION] == before["audit"]
    assert {k: v for k, v in after.items() if k != "audit"} == {
        k: v for k, v in before.items() if k != "audit"
    }
    run("import_event", str(taken), "--from-venue")  # the same copy again: still unchanged
    assert VenueTrip.objects.get(event__slug=ev.slug).returns == 2


def test_a_change_the_audit_trail_does_not_record_is_found_by_the_mark(tmp_path):
    ev = online_event()
    taken = take(ev, tmp_path / "taken.json")
    reg = ev.registrations.order_by("pk").first()
    Registration.objects.filter(pk=reg.pk).update(feature_opt_out=True)  # no audit row
    with pytest.raises(CommandError) as refused:
        run("import_event", str(taken), "--from-venue")
    assert f"- player {reg.player.name}: changed" in str(refused.value).splitlines()
    assert Event.objects.get(slug=ev.slug).pk == ev.pk  # not replaced


def test_only_the_copy_taken_last_can_come_back(tmp_path):
    ev = online_event()
    first = take(ev, tmp_path / "first.json")
    second = take(ev, tmp_path / "second.json")
    with pytest.raises(CommandError, match="only the copy taken last can come back"):
        run("import_event", str(first), "--from-venue")
    assert run("import_event", str(second), "--from-venue").split()[-1] == ev.slug


def test_an_event_never_taken_or_an_ordinary_archive_is_refused(tmp_path):
    ev = online_event()
    backup = tmp_path / "backup.json"
    run("export_event", ev.slug, str(backup), "--archive")
    with pytest.raises(CommandError, match="was never taken to a venue from here"):
        run("import_event", str(backup), "--from-venue")
    take(ev, tmp_path / "taken.json")
    with pytest.raises(CommandError, match="only the copy taken last can come back"):
        run("import_event", str(backup), "--from-venue")
    portable = tmp_path / "portable.json"
    run("export_event", ev.slug, str(portable))  # the event JSON: no archive
    with pytest.raises(CommandError, match="format: expected 'matchslip.archive.v1'"):
        run("import_event", str(portable), "--from-venue")
    with pytest.raises(CommandError, match="add --archive"):
        run("export_event", ev.slug, str(tmp_path / "x.json"), "--to-venue")
    assert not (tmp_path / "x.json").exists()
    assert Event.objects.get(slug=ev.slug).pk == ev.pk


def test_standings_computed_online_after_the_take_are_no_change(tmp_path):
    """A standings snapshot is computed from the rest: one stored online after the take
    (a run started before it) does not keep the venue's copy from coming back."""
    ev = online_event()
    taken = take(ev, tmp_path / "taken.json")
    standings_compute(event=ev)
    assert run("import_event", str(taken), "--from-venue").split()[-1] == ev.slug
