"""The admin speaks the reader's language too: model names are marked for
translation, and run errors stored language-neutrally are shown translated."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_noop

from tests import factories
from tournaments.models import BackgroundRun
from tournaments.stored_text import deferred


def test_the_admin_names_the_models_in_spanish(client, organiser):
    admin = factories.user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("admin:index")).content.decode()
    for name in ("Grupos de emparejamiento", "Inscripciones", "Tareas en segundo plano"):
        assert name in page
    client.cookies["django_language"] = "en"
    page = client.get(reverse("admin:index")).content.decode()
    assert "Pairing groups" in page and "Background runs" in page


def test_the_admin_shows_a_stored_run_error_in_the_readers_language(client, event8):
    admin = factories.user("root", is_staff=True, is_superuser=True)
    note = deferred(gettext_noop("Nothing to pair: %(refusal)s"), refusal="-")
    BackgroundRun.objects.create(event=event8, kind="pairing", group="open", note=note)
    client.force_login(admin)
    url = reverse("admin:tournaments_backgroundrun_changelist")
    assert "Nothing to pair: -" in client.get(url).content.decode()
    client.cookies["django_language"] = "es"
    page = client.get(url).content.decode()
    assert "Nada que emparejar: -" in page and "msgid" not in page
