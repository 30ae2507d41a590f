"""Settings, read from environment variables only (documented in ``.env.example``).

No ``DATABASE_URL`` → a SQLite file in the project folder. No ``REDIS_URL`` → Celery tasks
run eagerly in-process and the cache is files in ``var/cache`` (shared by every process).
With both set → PostgreSQL, a Redis broker and cache, and real Celery workers.

``DEBUG`` is off unless set; with it off ``SECRET_KEY`` must be set (``make run`` sets
``DEBUG=true`` for the development server). The HTTPS settings (secure cookies, HSTS, SSL
redirect, proxy header) are opt-in so the app also runs over plain HTTP on 127.0.0.1.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        # Never sign sessions and CSRF tokens with a key published in the repository.
        raise ImproperlyConfigured(
            "Set SECRET_KEY: with DEBUG off Matchslip needs a secret key of 50 or more "
            "random characters, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`. "
            "For local development set DEBUG=true instead (`make run` does)."
        )
    SECRET_KEY = "django-insecure-development-key-only-used-with-debug-on"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Venue mode (``manage.py venue``, which sets it): the address phones on the local network
# open, e.g. http://192.168.1.20:8000. QR codes and printed links name it, whatever
# address the staff's own browser used (tournaments.venue.absolute_url). Unset: the
# request's own address.
VENUE_URL = env.str("VENUE_URL", default="").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_htmx",
    "template_partials",
    "tournaments",
    "pairings",
    "standings",
    "interchange",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's GZipMiddleware, leaving live streams (text/event-stream) unbuffered.
    "config.middleware.GZipExceptStreams",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language: the language cookie (set by /i18n/setlang/), else the
    # browser's Accept-Language, else LANGUAGE_CODE.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A body over UPLOAD_MAX_BYTES is refused (413) before anything reads it, the CSRF
    # check included (it reads the form in process_view, after every middleware call).
    "config.middleware.UploadLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a refused login into the lockout page (config.login_throttle).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {{ text|translated }} in every template: registry texts in the visitor's language.
            "builtins": ["tournaments.templatetags.registry_i18n"],
        },
    }
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and a Celery worker (REDIS_URL with no DATABASE_URL) share the file:
    # WAL lets readers run beside the one writer, IMMEDIATE takes the write lock when a
    # transaction begins (a deferred one that upgrades fails at once with "database is
    # locked"), and a writer waits up to 20 s for the lock instead of failing.
    # synchronous=FULL: a commit is on disk before the request answers, so a killed server
    # or a laptop losing power keeps every slip it showed as saved (venue mode; NORMAL
    # could lose the last commits on a power cut).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # An unreachable Redis is a cache miss (logged once), within a second with these
    # timeouts: public pages then render from the database, never a 500 or a hung page.
    CACHES = {
        "default": {
            "BACKEND": "tournaments.outages.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Files, not each process's memory: the server, a management command (`pair
    # --publish`) and any second process share the prebuilt pages and their invalidation
    # . The live pages' versions are in the database whatever the cache.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env.path("CACHE_DIR", default=BASE_DIR / "var" / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Without a worker (eager tasks), the follow-ups of new standings (the cut-line outlook,
# the receipts counted ahead) run on one thread of the process instead of inside the
# request that completed the round (tournaments.follow_ups). Ignored with a worker.
DEFER_FOLLOW_UPS = env.bool("DEFER_FOLLOW_UPS", default=True)
CELERY_TASK_ACKS_LATE = True
# A task whose worker process dies goes back to the queue; the BackgroundRun row, not the
# message, decides whether it still runs (tournaments.services.runs.run_claim).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery beat (started beside the worker by `make run` and docker-compose): re-send
# background runs never handed to the broker or whose worker died, or fail them.
CELERY_BEAT_SCHEDULE = {
    "runs-sweep": {
        "task": "tournaments.tasks.runs_sweep",
        "schedule": 20.0,  # seconds
        "options": {"expires": 20},  # a sweep nobody ran in time is skipped, not piled up
    },
    "import-jobs-sweep": {
        "task": "interchange.tasks.import_jobs_sweep",
        "schedule": 20.0,  # seconds
        "options": {"expires": 20},
    },
}

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out username or address before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes): LOGIN_FAILURE_LIMIT failed logins for one username from
# one address lock that pair, and as many from one address (any usernames) lock that
# address, for LOGIN_COOLOFF_MINUTES. A username alone is never locked:
# someone guessing a staff member's username from elsewhere cannot keep them out. A
# refused attempt during the lock is counted too and restarts the cool-off. A successful
# login clears the user's failures. Attempts are rows in the admin (Axes → Access
# attempts, Access failures, Access logs); deleting an attempt unlocks.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_VERBOSE = False  # no banner on every manage.py command; failures are still logged
AXES_LOCKOUT_CALLABLE = "config.login_throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.login_throttle.client_ip"
# Behind a reverse proxy every request comes from the proxy's address: name the header the
# proxy sets (e.g. X-Forwarded-For) so the address lockout applies to the real client.
CLIENT_IP_HEADER = env.str("CLIENT_IP_HEADER", default="")

# The one upload limit: the largest file an upload page or an import
# command takes (``interchange.formats.checks.MAX_FILE_BYTES``) and the largest request
# body, refused from its Content-Length before it is read (``config.middleware.
# UploadLimitMiddleware``, 413). deploy/nginx.conf's ``client_max_body_size`` must say the
# same (tests/deployment/test_upload_limit.py compares them).
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=20 * 1024 * 1024)

# E-mail (staff invites, password reset). EMAIL_URL, e.g.
# smtp+tls://user:password@smtp.example.org:587 (STARTTLS), smtp+ssl://…:465 (TLS) or
# smtp://localhost:25 (django-environ's email URL; %40 for an @ in the user name); unset:
# the console (mail printed to the log) with DEBUG on, else SMTP to localhost:25.
# DEFAULT_FROM_EMAIL: the sender.
if "EMAIL_URL" in env.ENVIRON:
    vars().update(env.email_url("EMAIL_URL"))
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="matchslip@localhost")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# HTTPS, all opt-in (docs/operations.md, Configuration): `manage.py check --deploy` passes
# with them set as its production example does.
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# The header a TLS-terminating proxy sets to "https", e.g. X-Forwarded-Proto. Set it only
# when the proxy always sets or strips that header, or clients could claim HTTPS.
_proxy_ssl_header = env.str("SECURE_PROXY_SSL_HEADER", default="")
if _proxy_ssl_header:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_ssl_header.upper().replace("-", "_"), "https")

# Content-Security-Policy (django-csp): scripts and styles only from this site's static
# files; no inline script, no eval (htmx runs with allowEval off, templates/base.html); the
# one inline <style> (print pages' paper size) carries the request's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LANGUAGE_CODE = "en"
# English and Spanish: the catalogue is locale/es/LC_MESSAGES/django.po, compiled
# to django.mo by `manage.py compile_catalogue` (pure Python, run by `make install`).
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # seconds: a visitor's choice is kept for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "config.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# How often (seconds) an open page polls for changes when server push does not get
# through (tournaments.live; push itself needs no setting).
PUBLIC_REFRESH_SECONDS = env.int("PUBLIC_REFRESH_SECONDS", default=20)
