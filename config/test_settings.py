"""Test settings: real PostgreSQL and Redis (defaults: the local servers, trust auth)."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/matchslip")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
# DEBUG stays off as in production, so the settings need a key; this one signs test data only.
os.environ.setdefault("SECRET_KEY", "test-settings-key-" + "x" * 40)

from .settings import *  # noqa: E402,F403
from .settings import REDIS_URL  # noqa: E402

# Tasks run in-process during tests so a test sees their effect at commit time; the broker
# is never contacted. The cache stays on the real Redis server.
CELERY_TASK_ALWAYS_EAGER = True
# A test reads the outlook right after the standings it follows (tournaments.follow_ups
# has its own tests with the thread on).
DEFER_FOLLOW_UPS = False
CELERY_BROKER_URL = "memory://"
CACHES = {
    "default": {
        "BACKEND": "tournaments.outages.TolerantRedisCache",  # as in production
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-{os.getpid()}",
        "TIMEOUT": 600,  # test keys expire on their own
    }
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
