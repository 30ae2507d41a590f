# at most one queued or running background run per event, kind and pod.
#
# Databases made before this rule may hold several active runs of one group (a
# double-clicked "Pair next round", or a worker that died mid-run). The latest of each
# group stays as it is; the older ones are marked failed with the reason, so the partial
# unique index can be built.

from django.db import migrations, models
from django.db.models import Count, Q
from django.utils import timezone

ACTIVE = ["queued", "running"]
SUPERSEDED = (
    "Left behind by a later run of the same pairing group: only one run per group may be "
    "queued or running (migration 0009)."
)


def fail_older_duplicates(apps, schema_editor):
    """Mark every active run but the latest of its (event, kind, pod) group as failed."""
    BackgroundRun = apps.get_model("tournaments", "BackgroundRun")
    active = BackgroundRun.objects.filter(status__in=ACTIVE)
    groups = (
        active.values("event_id", "kind", "pod").annotate(n=Count("id")).filter(n__gt=1)
    )
    for group in groups:
        runs = active.filter(event_id=group["event_id"], kind=group["kind"], pod=group["pod"])
        latest = runs.order_by("-created_at", "-id").values_list("id", flat=True)[0]
        runs.exclude(id=latest).update(
            status="failed", error=SUPERSEDED, finished_at=timezone.now()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_selfreport_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="backgroundrun",
            name="requested_again",
            field=models.BooleanField(
                default=False,
                help_text="Asked for again while running (new data to read): another run is "
                "queued when this one ends.",
            ),
        ),
        migrations.RunPython(fail_older_duplicates, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="backgroundrun",
            constraint=models.UniqueConstraint(
                condition=Q(status__in=ACTIVE),
                fields=("event", "kind", "pod"),
                name="run_one_active",
            ),
        ),
    ]
