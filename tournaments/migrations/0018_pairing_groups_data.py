# (data): carry existing events over to pairing groups, match kinds and
# cut seeds. The legacy names are read here, and only here: "junior+senior" (divisions
# sharing a Swiss group), "masters#flight-2" (a flight), "masters-top-cut" (a cut); a
# match's kind and a bracket's seeds from its explanation ("3rd/4th place playoff: …",
# "late entry", "seed 1 vs seed 8", "top cut: seeds 1, 8, 9, 16"), the round's phase and
# the outcome (``tournaments.seeds`` reads the seeds). Tested by tests/tournaments/test_migration_pairing_groups.py.

from django.db import migrations

from tournaments.seeds import FirstRoundSeat, first_round_seeds

CUT_SUFFIX = "-top-cut"
FLIGHT_SEP = "#flight-"
THIRD_PLACE = "3rd/4th place playoff"
BRACKET_PHASES = ("top-cut", "single-elimination")


def _groups(apps, event):
    """Create the event's pairing groups from its divisions' and rounds' legacy names;
    returns ``{legacy name: group}``."""
    Division = apps.get_model("tournaments", "Division")
    PairingGroup = apps.get_model("tournaments", "PairingGroup")
    Round = apps.get_model("tournaments", "Round")
    divisions = list(Division.objects.filter(event=event).order_by("code"))
    made = {}

    def group(name):
        if name in made:
            return made[name]
        parent, flight, members = None, None, []
        phase = "single-elimination" if event.structure == "single-elimination" else "swiss"
        if name.endswith(CUT_SUFFIX):
            code = name[: -len(CUT_SUFFIX)]
            members = [d for d in divisions if d.code == code]
            parent = group(members[0].pod) if members else None
            phase = "top-cut"
        elif FLIGHT_SEP in name and name.rpartition(FLIGHT_SEP)[2].isdigit():
            base, _, number = name.rpartition(FLIGHT_SEP)
            parent, flight = group(base), int(number)
            members = [d for d in divisions if d.pod == base]
        else:
            members = [d for d in divisions if d.pod == name]
        made[name] = PairingGroup.objects.create(
            event=event, key=name, phase=phase, flight=flight, parent=parent
        )
        made[name].divisions.set(members)
        return made[name]

    for d in divisions:
        group(d.pod)
        for n in range(1, d.flights + 1):  # flights set, round 1 not paired yet (P-FL-1)
            group(f"{d.pod}{FLIGHT_SEP}{n}")
    for name in Round.objects.filter(event=event).values_list("pod", flat=True).distinct():
        group(name)
    return made


def _kind(match, phase):
    if match.outcome == "bye":
        return "bye"
    if match.outcome == "loss":
        return "late-entry-loss"
    if match.why.startswith(THIRD_PLACE):
        return "third-place"
    return "bracket" if phase in BRACKET_PHASES else "swiss"


def _seeds(apps, group):
    """Store the seeds of a bracket group as the pairing code read them back from its
    first round (``tournaments.seeds``, a pure function of its rows)."""
    Round = apps.get_model("tournaments", "Round")
    MatchSeat = apps.get_model("tournaments", "MatchSeat")
    CutSeed = apps.get_model("tournaments", "CutSeed")
    first = Round.objects.filter(group=group).order_by("number").first()
    if first is None:
        return
    seats = MatchSeat.objects.filter(round=first).order_by("match__table", "match__pk", "seat")
    rows = seats.values_list("registration_id", "match__table", "seat", "match__why")
    seed_of = first_round_seeds([FirstRoundSeat(*row) for row in rows])
    CutSeed.objects.bulk_create(
        CutSeed(group=group, registration_id=reg, seed=seed) for reg, seed in seed_of.items()
    )


def forward(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    for event in Event.objects.all():
        groups = _groups(apps, event)
        for rnd in Round.objects.filter(event=event):
            rnd.group = groups[rnd.pod]
            rnd.save(update_fields=["group"])
            for m in Match.objects.filter(round=rnd):
                kind = _kind(m, rnd.phase)
                if kind != m.kind:
                    m.kind = kind
                    m.save(update_fields=["kind"])
        for group in groups.values():
            if group.phase in BRACKET_PHASES:
                _seeds(apps, group)


def backward(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    Division = apps.get_model("tournaments", "Division")
    for rnd in Round.objects.select_related("group"):
        rnd.pod = rnd.group.key
        rnd.save(update_fields=["pod"])
    for division in Division.objects.all():
        root = division.groups.filter(parent__isnull=True).first()
        division.pod = root.key if root else division.code
        division.save(update_fields=["pod"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_pairing_groups"),
    ]

    operations = [migrations.RunPython(forward, backward)]
