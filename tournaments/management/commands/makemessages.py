"""``manage.py makemessages`` that also extracts ``gettext_storable("…")``.

Django's command extracts ``gettext``, ``gettext_lazy``, ``gettext_noop`` and their
kin; the texts a background worker stores for staff to read later are marked with
``tournaments.stored_text.gettext_storable`` instead, so xgettext is told that name too
(Django's documented way to add a keyword: override ``xgettext_options``). Everything
else is Django's command (``make messages`` runs it).
"""

from __future__ import annotations

from django.core.management.commands import makemessages

#: The extra xgettext keyword: ``gettext_storable``'s first argument is the msgid.
STORED_TEXT_KEYWORD = "--keyword=gettext_storable"


class Command(makemessages.Command):
    """Django's ``makemessages`` with :data:`STORED_TEXT_KEYWORD` added."""

    xgettext_options = [*makemessages.Command.xgettext_options, STORED_TEXT_KEYWORD]
