"""Django admin: read anything, change records only the way the staff pages do.

The audit trail docs/decisions.md promises holds only if nothing edits around
it, so:

* **Read-only** — AuditEvent and PenaltyNote (never edited or deleted, P-POST-3), and the
  records the services own: Match, MatchSeat, Round, Registration, SelfReport,
  BackgroundRun, JudgeCall. No add, change or delete form saves them.
* **Changed through actions that call the services** — rounds (publish, start) and
  registrations (drop), each audited under the admin user's name; results are entered
  and corrected on the staff pages (slips, corrections with a reason).
* **Editable, validated, audited** — Event (``Event.clean``: the ruleset's cut sizes),
  Division (``Division.clean``), Player, EventStaff, and the divisions and staff inline on
  an event's page. Every add, change and delete writes the event's audit row under the
  admin user's name (``admin.add`` / ``admin.change`` / ``admin.delete``, the changed
  fields' old and new values); a player's, in each event the player is
  registered in. A running event's (status past registration) ruleset and structure are
  read-only: the rounds already played were paired and scored by them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import admin, messages
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models as db
from django.db.models import QuerySet
from django.forms import BaseModelFormSet, ModelForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import models, services
from .actors import Actor
from .errors import MatchslipError
from .stored_text import shown


class ReadOnlyAdmin(admin.ModelAdmin):
    """Every field shown, nothing saved: no add, change or delete permission (the change
    page renders as a read-only view)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def service_action(
    description: str, call: Callable[[Any, Any], Any]
) -> Callable[[admin.ModelAdmin, HttpRequest, QuerySet], None]:
    """An admin action that runs ``call(obj, user)`` (a service) on each selected object,
    one transaction each, and reports how many succeeded and every refusal by message.
    Actions run even though the model is read-only: ``allowed_permissions`` asks for view
    only, because the service itself checks what may change and audits it."""

    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
        done = 0
        for obj in queryset:
            try:
                call(obj, request.user)
            except MatchslipError as e:
                modeladmin.message_user(request, f"{obj}: {e}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, f"{description}: {done} done.", messages.SUCCESS)

    action.__name__ = "_".join(description.lower().split()[:3])  # the action's key
    action.short_description = description  # type: ignore[attr-defined]
    action.allowed_permissions = ("view",)  # type: ignore[attr-defined]
    return action


def admin_values(obj: db.Model) -> dict[str, Any]:
    """``obj``'s stored fields as JSON values for an audit row: ``{field name: value}``,
    a foreign key as its object's text, dates as ISO text; the primary key and fields
    Django stamps itself (``auto_now``) left out."""
    values: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key or getattr(field, "auto_now", False):
            continue
        if field.is_relation:
            related = getattr(obj, field.name, None)
            values[field.name] = None if related is None else str(related)
        else:
            values[field.name] = field.value_from_object(obj)
    return json.loads(json.dumps(values, cls=DjangoJSONEncoder))


def admin_events(obj: db.Model) -> Iterable[models.Event]:
    """The events whose audit trail records a change to ``obj``: the event itself, the
    event ``obj`` belongs to, or every event a player is registered in."""
    if isinstance(obj, models.Event):
        return [obj]
    if isinstance(obj, models.Player):
        return models.Event.objects.filter(registrations__player=obj).distinct()
    event = getattr(obj, "event", None)
    return [event] if isinstance(event, models.Event) else []


def admin_audit(
    obj: db.Model, *, by: Actor, old: dict[str, Any] | None, new: dict[str, Any] | None
) -> None:
    """Write the audit row of an admin add (``old`` None), change or delete (``new``
    None) of ``obj`` (``admin_values`` before and after) in each of its events
    (:func:`admin_events`), under the admin user ``by``; a change records only the fields
    that changed, and a save that changed nothing writes no row."""
    if old is not None and new is not None:
        changed = sorted(k for k in new if old.get(k) != new[k])
        if not changed:
            return
        old, new = {k: old.get(k) for k in changed}, {k: new[k] for k in changed}
    action = "admin.add" if old is None else "admin.delete" if new is None else "admin.change"
    for event in admin_events(obj):
        services.audit_log(event=event, by=by, action=action, obj=obj, old=old, new=new)


class AuditedAdmin(admin.ModelAdmin):
    """An editable model whose every add, change and delete in the admin, its inlines'
    included, writes its events' audit rows (:func:`admin_audit`), in the admin's own
    transaction."""

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        stored = type(obj)._default_manager.filter(pk=obj.pk).first() if change else None
        old = admin_values(stored) if stored is not None else None
        super().save_model(request, obj, form, change)
        admin_audit(obj, by=request.user, old=old, new=admin_values(obj))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        admin_audit(obj, by=request.user, old=admin_values(obj), new=None)
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for obj in queryset:
            admin_audit(obj, by=request.user, old=admin_values(obj), new=None)
        super().delete_queryset(request, queryset)

    def save_formset(
        self, request: HttpRequest, form: ModelForm, formset: BaseModelFormSet, change: bool
    ) -> None:
        ids = [f.instance.pk for f in formset.forms if f.instance.pk is not None]
        stored = {o.pk: admin_values(o) for o in formset.model._default_manager.filter(pk__in=ids)}
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects:
            admin_audit(obj, by=request.user, old=None, new=admin_values(obj))
        for obj, _fields in formset.changed_objects:
            admin_audit(obj, by=request.user, old=stored.get(obj.pk), new=admin_values(obj))
        for obj in formset.deleted_objects:
            admin_audit(obj, by=request.user, old=stored.get(obj.pk), new=None)


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0


class StaffInline(admin.TabularInline):
    model = models.EventStaff
    extra = 0
    autocomplete_fields = ["user"]


# Fixed once an event runs (its status past registration): its rounds were paired and
# scored by them.
FIXED_WHEN_RUNNING = ["ruleset", "structure"]


@admin.register(models.Event)
class EventAdmin(AuditedAdmin):
    list_display = ["name", "slug", "ruleset", "structure", "status", "date"]
    list_filter = ["ruleset", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["status"]
    inlines = [DivisionInline, StaffInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """``status`` always; ``ruleset`` and ``structure`` too once the event runs."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != models.EventStatus.REGISTRATION:
            fields += FIXED_WHEN_RUNNING
        return fields


@admin.register(models.Division)
class DivisionAdmin(AuditedAdmin):
    list_display = ["event", "code", "swiss_rounds", "top_cut_size", "flights"]
    list_filter = ["code"]


@admin.register(models.Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ["name", "player_id", "birth_year"]
    search_fields = ["name", "player_id"]


@admin.register(models.Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ["player", "event", "division", "late", "dropped_after_round", "disqualified"]
    list_filter = ["late", "disqualified"]
    search_fields = ["player__name", "external_id"]
    actions = [
        service_action(
            "Drop selected players (audited)",
            lambda reg, user: services.registration_drop(
                registration=reg, by=user, reason="dropped in the admin"
            ),
        )
    ]


class SeatInline(ReadOnlyInline):
    model = models.MatchSeat


class CutSeedInline(ReadOnlyInline):
    model = models.CutSeed


@admin.register(models.PairingGroup)
class PairingGroupAdmin(ReadOnlyAdmin):
    """Groups are made by the services when an event is created, checked in, flighted or
    cut, never here."""

    list_display = ["event", "key", "phase", "flight", "parent"]
    list_filter = ["phase"]
    inlines = [CutSeedInline]


@admin.register(models.Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["event", "group", "number", "phase", "status", "seed"]
    list_filter = ["phase", "status"]
    actions = [
        service_action(
            "Publish selected rounds (audited)",
            lambda rnd, user: services.round_publish(round=rnd, by=user),
        ),
        service_action(
            "Start selected rounds (audited)",
            lambda rnd, user: services.round_start(round=rnd, by=user),
        ),
    ]


@admin.register(models.Match)
class MatchAdmin(ReadOnlyAdmin):
    """Results are entered and corrected on the staff pages (slips; corrections with a
    reason, inside the window P-POST-4 allows), never here."""

    list_display = ["round", "table", "kind", "outcome", "winner", "version"]
    list_filter = ["kind", "outcome"]
    inlines = [SeatInline]


@admin.register(models.MatchSeat)
class MatchSeatAdmin(ReadOnlyAdmin):
    list_display = ["match", "seat", "registration"]


@admin.register(models.EventStaff)
class EventStaffAdmin(AuditedAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]


@admin.register(models.AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = [
        "at",
        "event",
        "actor",
        "actor_registration",
        "action",
        "object_type",
        "object_id",
        "round_number",
    ]
    list_filter = ["action"]
    search_fields = ["reason", "object_id"]


@admin.register(models.BackgroundRun)
class BackgroundRunAdmin(ReadOnlyAdmin):
    """Runs with their error and note in the reader's language (stored language-neutrally,
    ``tournaments.stored_text``)."""

    list_display = ["created_at", "event", "kind", "group", "status", "error_text", "note_text"]
    list_filter = ["kind", "status"]
    readonly_fields = ["error_text", "note_text"]

    @admin.display(description=_("Error"))
    def error_text(self, run: models.BackgroundRun) -> str:
        return shown(run.error)

    @admin.display(description=_("Note"))
    def note_text(self, run: models.BackgroundRun) -> str:
        return shown(run.note)


@admin.register(models.SelfReport)
class SelfReportAdmin(ReadOnlyAdmin):
    list_display = ["match", "registration", "outcome", "winner", "changes", "reported_at"]
    list_filter = ["outcome"]


@admin.register(models.PenaltyNote)
class PenaltyNoteAdmin(ReadOnlyAdmin):
    list_display = ["at", "event", "registration", "round_number", "kind", "infraction", "by"]
    list_filter = ["kind"]


@admin.register(models.JudgeCall)
class JudgeCallAdmin(ReadOnlyAdmin):
    """Judge calls: the floor board's services own them, so read-only here."""

    list_display = ["created_at", "event", "round_number", "table", "reason", "status"]
    list_filter = ["status", "reason"]
