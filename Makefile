# Matchslip: `make run` serves the app with a demo event; `make test` runs the whole suite;
# `make lint` runs the checks CI runs first; `make test-fast` the tests that need no services.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/matchslip
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: install run venue test test-fast lint bench chromium clean messages

# The Spanish catalogue is compiled in pure Python (polib, config/catalogue.py): no gettext.
install: $(STAMP)
	$(BIN)/python -m config.catalogue

# Re-installs only when pyproject.toml changed (idempotent and quick otherwise).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The development server runs with DEBUG on (and so needs no SECRET_KEY) unless DEBUG is set.
run: export DEBUG ?= true
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py demo_event --if-missing
	@if [ -n "$$REDIS_URL" ]; then \
	  echo "REDIS_URL is set: starting a Celery worker and Celery beat (the runs sweep)"; \
	  $(BIN)/celery -A config worker --loglevel=warning --concurrency=2 & WORKER=$$!; \
	  $(BIN)/celery -A config beat --loglevel=warning --schedule $(VENV)/celerybeat-schedule & BEAT=$$!; \
	  trap 'kill $$WORKER $$BEAT' EXIT INT TERM; \
	  $(BIN)/python manage.py runserver --noreload 127.0.0.1:$(PORT); \
	else \
	  $(BIN)/python manage.py runserver --noreload 127.0.0.1:$(PORT); \
	fi

# Venue mode: the event on this laptop for the phones of the local network (docs/operations.md,
# "Venue mode"): the LAN address detected (ADDRESS=… names it), its QR code printed, DEBUG
# off with a key kept in var/venue-secret-key, tasks in-process, the server restarted if it
# stops. SQLite by default, or DATABASE_URL.
venue: install
	@mkdir -p var && test -s var/venue-secret-key || \
	  (umask 077 && $(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > var/venue-secret-key)
	SECRET_KEY="$${SECRET_KEY:-$$(cat var/venue-secret-key)}" \
	  $(BIN)/python manage.py venue --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

# Debian's Chromium for the browser tests (never a downloaded browser).
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; }

test: install chromium
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	  $(BIN)/pytest -n 2 --dist loadgroup

# The gates CI runs before the tests (.ci/run), and the pre-commit hooks run the same:
# lint and format, types (the django-stubs plugin; strict on the engines and rulesets; the
# files are listed in pyproject.toml), and no model change without its migration. DEBUG=true
# lets the settings load without a SECRET_KEY.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	DEBUG=true $(BIN)/python manage.py makemigrations --check --dry-run

# The engines, rulesets and import layout: no database, Redis or browser; under a minute.
test-fast: install
	$(BIN)/pytest tests/engine tests/test_layout.py

# Re-extract every marked string into locale/es/LC_MESSAGES/django.po (needs gettext's
# xgettext, developers only), compile, and list the entries still to translate.
messages: install
	DEBUG=true $(BIN)/python manage.py makemessages --locale es --no-obsolete --add-location file \
	  --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'bench/*'
	$(BIN)/python -m config.catalogue
	$(BIN)/python -m config.catalogue --untranslated || true

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 var
