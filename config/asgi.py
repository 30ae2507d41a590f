"""ASGI entry point: Django, with the public and players' live streams answered before it
(``tournaments.live.asgi``: no thread per open page)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from tournaments.live.asgi import live_router  # noqa: E402  (after Django is set up)

application = live_router(django_application)
